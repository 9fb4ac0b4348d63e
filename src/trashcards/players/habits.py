"""Habits: the coach's judgements (:mod:`trashcards.ai.review`) of one player's
decisions added up over their games (docs/players.md, "Habits").

Each decision the coach judged is a *chance* of the habit its best move names: taking
the discard (when it was best), drawing from the stock, placing a wild, swapping,
calling "Trash!". It is *missed* when the coach confirmed a mistake there (a cost of at
least half a point of match-win chance, on fresh deals) and the move taken was of
another kind. A habit is shown as how often such chances were missed, with the Wilson
95 % interval of that share: "you drew from the stock when the discard was better in
12 % of such chances (3 of 25; 4–30 %)". Only confirmed mistakes count, so noise is not
a habit; a handful of chances gives a wide interval, and the page says so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..ai.review import Decision

__all__ = ["HABITS", "Habit", "add_up", "count", "verb", "wilson"]

#: The habits, by the verb of the best move: what a miss is.
HABITS: Final = ("discard", "stock", "wild", "swap", "call")


def verb(action: str) -> str:
    """The kind of a move's text: ``wild 3`` → ``wild``."""
    return action.split(" ")[0]


def count(decisions: Iterable[Decision], seat: int) -> dict[str, list[int]]:
    """Chances and misses of each habit among ``seat``'s judged decisions."""
    out = {habit: [0, 0] for habit in HABITS}
    for decision in decisions:
        if decision.seat != seat:
            continue
        best = verb(str(decision.best))
        habit = "call" if decision.kind == "missed_call" else best
        if habit not in out:
            continue
        out[habit][0] += 1
        if decision.mistake and (decision.kind == "missed_call"
                                 or verb(str(decision.taken)) != best
                                 or habit == "wild"):
            out[habit][1] += 1
    return out


def wilson(misses: int, chances: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``misses / chances``."""
    if chances == 0:
        return 0.0, 1.0
    share = misses / chances
    centre = (share + z * z / (2 * chances)) / (1 + z * z / chances)
    half = z * math.sqrt(share * (1 - share) / chances + z * z / (4 * chances * chances)) / (
        1 + z * z / chances)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Habit:
    """One habit over a player's games: chances, misses, the share and its interval."""

    kind: str
    chances: int
    misses: int
    games: int

    @property
    def rate(self) -> float:
        return self.misses / self.chances if self.chances else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.misses, self.chances)
        return {"kind": self.kind, "chances": self.chances, "misses": self.misses,
                "games": self.games, "rate": round(self.rate, 4), "low": round(low, 4),
                "high": round(high, 4)}


def add_up(games: Iterable[Mapping[str, Any]]) -> list[Habit]:
    """The habits over games' counts (:func:`count`'s form, one mapping per game),
    those with at least one chance, most missed first."""
    chances = dict.fromkeys(HABITS, 0)
    misses = dict.fromkeys(HABITS, 0)
    played = dict.fromkeys(HABITS, 0)
    for game in games:
        for habit in HABITS:
            got = game.get(habit)
            if not isinstance(got, list) or len(got) != 2 or not got[0]:
                continue
            chances[habit] += int(got[0])
            misses[habit] += int(got[1])
            played[habit] += 1
    found = [Habit(h, chances[h], misses[h], played[h]) for h in HABITS if chances[h]]
    return sorted(found, key=lambda h: (-h.rate, -h.chances, h.kind))
