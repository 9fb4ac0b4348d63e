"""The rules' spec as data: the presets, the fields with their defaults and ranges, the
house-rule flags, the player counts, the notation of the moves and the reasons a card is
discarded, read from the modules that define them (``rules``, ``actions``, ``discards``).

Other implementations read this instead of copying it: ``scripts/write_spec.py`` writes
it (with the web's message types and the coach's reason codes) into
``web/static/js/spec.js``, which the browser's rules engine and lobby import, and
``tests/core/test_spec.py`` fails while that file is out of date.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .actions import Verb
from .digits import MAX_DIGITS
from .discards import REASONS
from .rules import (
    FACE_RANKS,
    FIRST_TO,
    FLAGS,
    MAX_BOARD,
    MAX_DECKS,
    MAX_JOKERS_PER_DECK,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    Rules,
)

__all__ = ["CHANCE_VERBS", "rules_spec"]

#: The chance moves' words in a record (RECORDS.md): ``dealer 2``, ``deck …``,
#: ``reshuffle …``.
CHANCE_VERBS = ("dealer", "deck", "reshuffle")


def _json(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def rules_spec() -> dict[str, Any]:
    """The spec as JSON-ready data (sorted where the order means nothing)."""
    defaults = Rules()
    fields = {f.name: _json(getattr(defaults, f.name)) for f in dataclasses.fields(Rules)
              if f.name != "preset"}
    presets = {}
    for name in PRESETS:
        if name == "first-to-N":
            continue
        rules = Rules.preset_named(name)
        presets[name] = {key: _json(getattr(rules, key)) for key in fields
                         if _json(getattr(rules, key)) != fields[key]}
    return {
        "players": {"min": MIN_PLAYERS, "max": MAX_PLAYERS},
        "defaults": fields,
        "ranges": {
            "decks": {"min": 1, "max": MAX_DECKS, "none": "2 players: 1, 3 or 4: 2"},
            "jokers_per_deck": {"min": 0, "max": MAX_JOKERS_PER_DECK},
            "wild_ranks": {"of": list(FACE_RANKS)},
            "start_size": {"min": 1, "max": MAX_BOARD},
            "rounds_to_win": {"min": 1, "max": "start_size", "none": "start_size"},
        },
        "flags": dict(FLAGS),
        "presets": presets,
        "first_to": {"min": FIRST_TO.start, "max": FIRST_TO.stop - 1, "board": MAX_BOARD,
                     "digits": MAX_DIGITS},
        "notation": {"actions": [verb.value for verb in Verb], "slotted": [Verb.WILD.value],
                     "chance": list(CHANCE_VERBS)},
        "discard_reasons": list(REASONS),
    }
