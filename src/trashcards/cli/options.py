"""Options shared by several commands: choosing the rules."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

from ..errors import RulesError
from ..rules import Rules

__all__ = ["parse_rules", "parse_rules_assignments", "rules_options"]

F = TypeVar("F", bound=Callable[..., Any])


_ASSIGNMENT_START = re.compile(r"\s+(?=[A-Za-z_]\w*\s*=)")


def _rules_value(field: str, raw: str) -> Any:
    """A ``--rules`` value: JSON when it parses (``true``, ``5``, ``["K"]``), else text;
    for a list field (``wild_ranks``) text is a comma-separated list (``K,Q``)."""
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        lowered = raw.strip().lower()
        value = json.loads(lowered) if lowered in ("true", "false", "null") else raw.strip()
    if isinstance(getattr(Rules(), field, None), tuple) and isinstance(value, str):
        value = [part.strip() for part in value.split(",") if part.strip()]
    return value


def parse_rules_assignments(items: Iterable[str]) -> dict[str, Any]:
    """``field=value`` words (several per item allowed, space separated) as a dict."""
    fields: dict[str, Any] = {}
    for item in items:
        for word in _ASSIGNMENT_START.split(item.strip()):
            if not word:
                continue
            field, sep, raw = word.partition("=")
            field = field.strip()
            if not sep or not field:
                raise RulesError(field or "rules",
                                 f"write field=value (e.g. call_trash=true), got {word!r}")
            fields[field] = _rules_value(field, raw)
    return fields


def parse_rules(preset: str, items: Iterable[str]) -> Rules:
    """Rules from a preset name and ``field=value`` assignments (RULES.md §11).

    Raises :class:`RulesError` naming the field and the allowed values.
    """
    return Rules.preset_named(preset).with_fields(parse_rules_assignments(items))


def rules_options(func: F) -> F:
    """Add ``--preset`` and ``--rules`` to a command; it receives ``rules: Rules``."""

    def callback(ctx: click.Context, _param: click.Parameter, value: tuple[str, ...]) -> Rules:
        preset = ctx.params.pop("preset", "standard")
        try:
            return parse_rules(preset, value)
        except RulesError as exc:
            raise click.BadParameter(str(exc), ctx=ctx, param_hint="--preset/--rules") from None

    func = click.option(
        "--rules", "rules", multiple=True, callback=callback, metavar="FIELD=VALUE",
        help="Change a rule field, e.g. --rules call_trash=true --rules wild_ranks=K,Q "
             "(fields: decks, jokers_per_deck, wild_ranks, start_size, rounds_to_win, "
             "call_trash, last_chance).")(func)
    return click.option(
        "--preset", default="standard", show_default=True, is_eager=True,
        help="Rules preset or variant: standard, classic, kings-wild, all-faces-wild, "
             "jokers, call-trash, kids, first-to-N, last-chance.")(func)
