"""The levels' bots' habits, measured offline (``scripts/level_habits.py``, its command
kept in the table) and shipped as ``level_habits.json``: what a player's habits are
compared with when no band of rated players is shown, and beside it (docs/players.md,
"Habits"). The bots played standard two-player matches against themselves; their
ratings are the levels' measured Elo."""

from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import Any, Final

from .habits import Habit, compare, wilson

__all__ = ["FORMAT", "LEVELS", "TABLE", "level_habits", "nearest_level", "versus_level"]

#: The table's format.
FORMAT: Final = "trashcards-level-habits/1"
#: The levels measured, weakest first.
LEVELS: Final = ("beginner", "casual", "good")
#: The shipped table.
TABLE: Final = Path(__file__).with_name("level_habits.json")


@functools.cache
def level_habits() -> dict[str, Any]:
    """The shipped table (read once)."""
    data: dict[str, Any] = json.loads(TABLE.read_text(encoding="utf-8"))
    if data.get("format") != FORMAT:
        raise ValueError(f"{TABLE.name} is not a {FORMAT} table")
    return data


def nearest_level(rating: float) -> str:
    """The measured level whose Elo is nearest ``rating`` (the weaker on a tie)."""
    levels = level_habits()["levels"]
    return min(LEVELS, key=lambda name: (abs(float(levels[name]["elo"]) - rating),
                                          LEVELS.index(name)))


def versus_level(habit: Habit, level: str) -> dict[str, Any] | None:
    """``habit`` against the level's bot: its figures and the verdict (``more`` or
    ``less`` only when the 95 % intervals do not overlap), or ``None`` when the bot had
    no such chance."""
    measured = level_habits()["levels"][level]["habits"].get(habit.kind)
    if measured is None:
        return None
    return {**measured, "verdict": compare(wilson(habit.misses, habit.chances),
                                           (measured["low"], measured["high"]))}
