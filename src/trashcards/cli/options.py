"""Options shared by several commands: choosing the rules."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

from ..errors import RulesError
from ..rules import Rules

__all__ = ["parse_rules", "rules_options"]

F = TypeVar("F", bound=Callable[..., Any])


def _parse_value(field: str, text: str) -> Any:
    """``true`` → True, ``3`` → 3, ``["K"]`` → ["K"]; ``K,Q`` for ``wild_ranks``."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        if field == "wild_ranks":
            return [part for part in text.replace(" ", ",").split(",") if part]
        lowered = text.strip().lower()
        if lowered in ("yes", "on"):
            return True
        if lowered in ("no", "off"):
            return False
        return text


def parse_rules(preset: str, assignments: Iterable[str]) -> Rules:
    """Rules from a preset name and ``field=value`` assignments (RULES.md §11).

    Raises :class:`RulesError` naming the field and the allowed values.
    """
    rules = Rules.preset_named(preset)
    changes: dict[str, Any] = {}
    for item in assignments:
        for part in item.split():
            field, sep, value = part.partition("=")
            if not sep or not field:
                raise RulesError(part, "write rules as field=value, e.g. call_trash=true")
            changes[field.strip()] = _parse_value(field.strip(), value)
    return rules.with_fields(changes) if changes else rules


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
