"""Two-player head-to-head tables: every pair of bots plays in both seat orders.

Both seat orders use the same seed, so each bot meets the same deck orders from either
seat; a pair's matches therefore come in antithetic couples, which makes the Wilson
intervals (computed as if the matches were independent) slightly conservative.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from ..estimates import Estimate, proportion
from ..rules import Rules
from .experiment import Job, Results
from .report import fmt_pct

__all__ = ["DuelTable", "duel_jobs", "duel_table"]


def duel_jobs(bots: Sequence[str], rules: Rules, matches: int, prefix: str) -> list[Job]:
    """Jobs for every pair of ``bots``, ``matches`` per pair split over both seat orders;
    keys are ``<prefix>/<seat 0 bot>-<seat 1 bot>``."""
    first = max(1, matches // 2)
    second = max(1, matches - first)
    jobs = []
    for a, b in combinations(bots, 2):
        jobs.append(Job(f"{prefix}/{a}-{b}", rules, (a, b), first, f"{prefix}: {a} v {b}"))
        jobs.append(Job(f"{prefix}/{b}-{a}", rules, (b, a), second, f"{prefix}: {b} v {a}"))
    return jobs


@dataclass(frozen=True, slots=True)
class DuelTable:
    """Match wins of every bot against every other (``wins[i][j]``: ``i`` beat ``j``)."""

    bots: tuple[str, ...]
    wins: tuple[tuple[int, ...], ...]

    def games(self, i: int, j: int) -> int:
        return self.wins[i][j] + self.wins[j][i]

    def rate(self, i: int, j: int) -> Estimate:
        """Share of its matches against ``j`` that ``i`` won."""
        return proportion(self.wins[i][j], self.games(i, j))

    def overall(self, i: int) -> Estimate:
        """Share of all its matches that ``i`` won."""
        won = sum(self.wins[i])
        return proportion(won, sum(self.games(i, j) for j in range(len(self.bots)) if j != i))

    def rates_matrix(self) -> list[list[float]]:
        return [[math.nan if i == j else self.rate(i, j).value for j in range(len(self.bots))]
                for i in range(len(self.bots))]

    def rows(self) -> list[list[str]]:
        """Markdown rows: the bot, then its win rate against each bot, then overall."""
        size = len(self.bots)
        return [[self.bots[i], *("—" if i == j else fmt_pct(self.rate(i, j))
                                 for j in range(size)), fmt_pct(self.overall(i))]
                for i in range(size)]

    def to_json(self) -> dict[str, object]:
        size = len(self.bots)
        return {
            "bots": list(self.bots),
            "wins": [list(row) for row in self.wins],
            "win_rates": {self.bots[i]: {self.bots[j]: self.rate(i, j) for j in range(size)
                                         if j != i} for i in range(size)},
            "overall": {self.bots[i]: self.overall(i) for i in range(size)},
        }


def duel_table(results: Results, bots: Sequence[str], prefix: str) -> DuelTable:
    """Add up both seat orders of every pair of a :func:`duel_jobs` run."""
    index = {name: i for i, name in enumerate(bots)}
    wins = [[0] * len(bots) for _ in bots]
    for a, b in combinations(bots, 2):
        for first, second in ((a, b), (b, a)):
            total = results.total(f"{prefix}/{first}-{second}")
            wins[index[first]][index[second]] += total.wins[0]
            wins[index[second]][index[first]] += total.wins[1]
    return DuelTable(tuple(bots), tuple(tuple(row) for row in wins))
