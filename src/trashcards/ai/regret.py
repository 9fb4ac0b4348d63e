"""Regret against exact play: how much round-win chance a bot's decisions give up, by the
solver (:mod:`.solver`), over the positions reached when the bot plays small rounds."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bots import make_bot
from ..chance import sample_chance
from ..engine import apply
from ..rules import Rules
from ..state import Phase
from ..views import view
from .odds import round_start
from .solver import Solver

__all__ = ["RegretSample", "regret_sample"]


@dataclass(frozen=True)
class RegretSample:
    """Per decision with a choice: the solver's best value minus the value of the bot's
    action, for the seat to act (``regrets``), and how many rounds were played.
    ``exact``: every value came from expectimax alone; ``error``: the largest proven
    bound on a value's error (0 unless a reshuffle was reachable), so each regret is
    within ``2 * error``."""

    bot: str
    sizes: tuple[int, int]
    rounds: int
    regrets: tuple[float, ...]
    exact: bool
    error: float = 0.0


def regret_sample(bot: str, rules: Rules, sizes: tuple[int, int], rounds: int, seed: int,
                  solver: Solver) -> RegretSample:
    """Play ``rounds`` rounds dealt with ``sizes``, ``bot`` at both seats, and measure the
    regret of every decision with more than one legal action."""
    start = round_start(rules, sizes)
    regrets = []
    exact = True
    error = 0.0
    for index in range(rounds):
        chance = random.Random(f"trashcards-regret:{seed}:{index}")
        bots = [make_bot(bot, random.Random(f"{seed}:{index}:{s}")) for s in range(2)]
        state = apply(start, sample_chance(start, chance))[0]
        while state.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            seat = state.to_act
            if seat is None:
                state = apply(state, sample_chance(state, chance))[0]
                continue
            v = view(state, seat)
            action = bots[seat].choose(v)
            if len(v.legal) > 1:
                solution = solver.solve(solver.key_of(v))
                exact = exact and solution.exact
                error = max(error, solution.error)
                regrets.append(solution.regret(action))
            state = apply(state, action)[0]
    return RegretSample(bot, sizes, rounds, tuple(regrets), exact, error)
