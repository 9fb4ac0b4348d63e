"""Options shared by several commands: choosing the rules."""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, cast

import click

from ..errors import RulesError
from ..rules import FIRST_TO, MAX_BOARD, PRESETS, Rules

__all__ = ["parse_rules", "parse_rules_assignments", "rules_given", "rules_options"]

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


_FIELDS = ", ".join(f.name for f in dataclasses.fields(Rules) if f.name != "preset")
_RULES_HELP = ("Change a rule field, e.g. --rules call_trash=true wild_ranks=K,Q "
               f"(fields: {_FIELDS}); more FIELD=VALUE words may follow one --rules.")
_PRESET_HELP = ("Rules preset or variant: "
                f"{', '.join(p for p in PRESETS if p != 'first-to-N')}, or first-to-N: the "
                f"first player down to a board of N slots wins, N = {FIRST_TO.start}…"
                f"{FIRST_TO.stop - 1} (N is a board size, not rounds: first-to-3 = "
                f"{MAX_BOARD - 3} rounds won).")


def rules_options(func: F) -> F:
    """Add ``--preset`` and ``--rules`` to a command; it receives ``rules: Rules``.

    ``--rules`` takes one or more ``FIELD=VALUE`` words (``--rules a=1 b=2`` is the same as
    ``--rules a=1 --rules b=2``): the words after it are the command's ``[FIELD=VALUE]...``
    arguments, so a command with these options has no other positional arguments. A bad
    preset or field is a usage error naming the field and the allowed values.
    """

    @functools.wraps(func)
    def command(*args: Any, preset: str, rules_items: tuple[str, ...],
                more_rules: tuple[str, ...], **kwargs: Any) -> Any:
        try:
            rules = parse_rules(preset, (*rules_items, *more_rules))
        except RulesError as exc:
            raise click.BadParameter(str(exc), param_hint="--preset/--rules") from None
        return func(*args, rules=rules, **kwargs)

    wrapped: Any = click.argument("more_rules", nargs=-1, metavar="[FIELD=VALUE]...")(command)
    wrapped = click.option("--rules", "rules_items", multiple=True, metavar="FIELD=VALUE",
                           help=_RULES_HELP)(wrapped)
    wrapped = click.option("--preset", default="standard", show_default=True,
                           help=_PRESET_HELP)(wrapped)
    return cast(F, wrapped)


def rules_given() -> bool:
    """Whether the running command got ``--preset`` or ``--rules`` on its command line."""
    ctx = click.get_current_context()
    return any(ctx.get_parameter_source(name) not in (None, click.core.ParameterSource.DEFAULT)
               for name in ("preset", "rules_items", "more_rules"))
