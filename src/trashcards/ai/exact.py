"""The exact values of a position, where they come cheap: what the coach asks first.

:func:`exact_solution` answers a two-player view with every legal action's exact chance
of winning the round (optimal play by both seats, full card counting; under call-trash
:mod:`.exact_calls`), or ``None`` when the answer is out of reach: more players, last
chance, a stock already reshuffled this round, a value that depends on a reshuffle
(bounded, not exact), or more work than ``budget`` types of
:class:`~.exact_solver.RoundSolver`. The budget counts
work, not seconds, so the same view gets the same answer on any machine, loaded or not.

With the shipped tables (:mod:`.exact_tables`) no position with boards of at most three
slots (presets standard, kings-wild, kids, first-to-N, classic, call-trash, jokers,
all-faces-wild) needs more than 700 types. Without a table (larger boards, other
card counts) an answer may compute at most :data:`UNTABLED` types whatever the budget,
and a position is tried only when :func:`estimate` is within that: an attempt that
would give up costs no time. docs/ai.md gives the measured times and the boundary.
"""

from __future__ import annotations

from functools import lru_cache
from math import prod
from typing import Final

from ..views import View
from .exact_solver import DOWN, Position, RoundSolver, position_of, solve_position
from .exact_tables import load_table
from .solver import OutOfReachError, Solution

__all__ = ["BUDGET", "UNTABLED", "clear_cache", "estimate", "exact_solution"]

#: Types one answer may compute (a hint's default; the shipped tables keep every
#: position of boards up to 3 + 3 under 700).
BUDGET: Final = 3000
#: The most types an answer without a table computes, whatever the budget asked for
#: (some 0.15 s of one idle core): reviews ask every decision of a match.
UNTABLED: Final = 3000


def exact_solution(view: View, budget: int = BUDGET) -> Solution | None:
    """Every legal action's exact round-win chances at ``view`` (legal order), or
    ``None`` where they are out of reach (see the module)."""
    try:
        position = position_of(view)
    except ValueError:
        return None
    return _solve(position, budget)


def estimate(position: Position) -> int:
    """A rough count of the types a position leads to, without a table: every count of
    each live class up to the unseen ones, every face-down card face down, natural or
    wild. Measured on boards of 4 slots (docs/ai.md), the solver computes fewer types
    than this up to some ten thousand, more beyond."""
    down = position.b0.count(DOWN) + position.b1.count(DOWN)
    count: int = prod(n + 1 for n in position.live)
    return count * int(3**down)


@lru_cache(maxsize=4096)
def _solve(position: Position, budget: int) -> Solution | None:
    table = load_table(position.sizes, position.totals)
    if table is None:
        budget = min(budget, UNTABLED)
        if estimate(position) > budget:
            return None  # not worth starting: it would spend the budget and give up
    solver = RoundSolver(position.sizes, position.totals,
                         table.get if table is not None else None, budget)
    try:
        solution = solve_position(solver, position)
    except OutOfReachError:
        return None
    return solution if solution.exact else None


def clear_cache() -> None:
    """Forget the answers kept (benchmarks time each one afresh)."""
    _solve.cache_clear()
