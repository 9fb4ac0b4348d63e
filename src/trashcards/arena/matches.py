"""The arena's matches: an agent against copies of one opponent on numbered deals, each
match's result kept (1 a win, 0 a loss, 0.5 a match stopped by the move cap).

**Deals.** Deal ``d`` of a run with seed ``s`` is match ``d`` of the fast kernel's run
with that seed (:mod:`trashcards.sim.rng`): every card drawn, from the cut for the first
dealer to the last reshuffle, comes from counter-based streams of ``(s, d)`` that the
players' choices do not touch, so a deal played twice gives the same seat the same
cards for as long as the two matches keep the same shape (the same rounds, the same
number of cards dealt; after a round won by another seat the deck is still the same
shuffle, dealt to the new hand sizes).

* **duplicate**: every deal is played once per seat rotation, the agent at seat ``r``
  in rotation ``r`` (2 players: twice, seats swapped; 3–4 players: every seat), so the
  agent and the opponent hold each seat's cards in turn;
* **plain**: every deal once, the agent at seat ``d · players // deals`` (a block of
  consecutive deals per seat; the same matches as the duplicate run's at those seats).

Bots the kernel has play whole matches in one compiled call (one accumulator row per
match, so each match's winner is read back); anything else (a batched policy, a bot
deciding from its views, an opponent the kernel lacks such as ``expert``) plays on
:class:`trashcards.sim.vector.VectorTables`, one table per match, where a table's match
is the same kernel match: the same deal gives the same cards on both paths, so every
agent meets the same deals for the same seed.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Literal

import numba
import numpy as np
import numpy.typing as npt

from ..bots import make_bot
from ..envs.actions import action_index
from ..envs.gymnasium import KERNEL_BOTS
from ..envs.observation import observation_recipe
from ..envs.policy import policy_actions
from ..rules import Rules
from ..session import Chooser
from ..sim.kernel import layout
from ..sim.kernel import matches as kernel_matches
from ..sim.rng import seed_key
from ..sim.tables import Table
from ..sim.vector import VectorTables
from .agents import Agent

__all__ = ["MAX_MOVES", "MODES", "Mode", "Progress", "play_deals", "seats_of"]

Mode = Literal["duplicate", "plain"]
MODES: Final[tuple[Mode, ...]] = ("duplicate", "plain")
Progress = Callable[[int], None] | None
Scores = npt.NDArray[np.float64]

#: The move cap of an arena match; a match stopped by it counts as half a win.
MAX_MOVES: Final = 10_000
#: Matches per kernel call (each its own accumulator row: about 26 kB).
_KERNEL_SLICE: Final = 1024
#: Tables stepped together on the vector tables.
_TABLE_SLICE: Final = 4096


@dataclass(frozen=True, slots=True)
class Layout:
    """Which matches a run plays: ``deals[j]`` with the agent at ``seats[j]``."""

    deals: npt.NDArray[np.int64]
    seats: npt.NDArray[np.int64]


def seats_of(mode: Mode, deals: int, players: int) -> Layout:
    """The matches of ``deals`` deals: duplicate, every deal at every seat (seat-major:
    all deals at seat 0, then at seat 1 …); plain, deal ``d`` at seat
    ``d · players // deals``."""
    if mode == "duplicate":
        return Layout(np.tile(np.arange(deals, dtype=np.int64), players),
                      np.repeat(np.arange(players, dtype=np.int64), deals))
    index = np.arange(deals, dtype=np.int64)
    return Layout(index, index * players // deals)


def play_deals(agent: Agent, opponent: str, rules: Rules, players: int, deals: int,
               seed: int, mode: Mode, progress: Progress = None) -> Scores:
    """The agent's score in every match of ``deals`` deals of run ``seed`` against
    ``opponent`` at every other seat: shape ``(deals, players)`` in duplicate (column
    ``r``: the agent at seat ``r``), ``(deals, 1)`` in plain."""
    if deals < 1:
        raise ValueError("at least one deal")
    plan = seats_of(mode, deals, players)
    if agent.kernel_bot is not None and opponent in KERNEL_BOTS:
        scores = _kernel(agent.kernel_bot, opponent, rules, players, plan, seed, progress)
    else:
        scores = _tables(agent, opponent, rules, players, plan, seed, progress)
    if mode == "duplicate":
        return scores.reshape(players, deals).T.copy()
    return scores.reshape(deals, 1)


def _kernel(bot: str, opponent: str, rules: Rules, players: int, plan: Layout, seed: int,
            progress: Progress) -> Scores:
    """Whole matches on the compiled kernel, a block of consecutive deals per seat."""
    scores = np.empty(len(plan.deals), dtype=np.float64)
    skey = np.uint64(seed_key(seed))
    chunksize = numba.set_parallel_chunksize(1)
    try:
        for seat in range(players):
            picked = np.flatnonzero(plan.seats == seat)
            if not len(picked):
                continue
            first, count = int(plan.deals[picked[0]]), len(picked)
            if not (plan.deals[picked] == np.arange(first, first + count)).all():
                raise AssertionError("a seat's deals are consecutive")
            bots = [opponent] * players
            bots[seat] = bot
            table = Table.build(rules, bots)
            for lo in range(0, count, _KERNEL_SLICE):
                n = min(_KERNEL_SLICE, count - lo)
                acc = np.zeros((n, layout.ACC_SIZE), dtype=np.int64)
                turns = np.zeros((n, layout.TURNS_HIST), dtype=np.int64)
                rounds = np.zeros((n, layout.ROUNDS_HIST), dtype=np.int64)
                overflow = np.zeros((n, layout.OVERFLOW_SIZE, 2), dtype=np.int64)
                kernel_matches.play_many(table.tab, table.codes, skey, first + lo, n, acc,
                                         turns, rounds, overflow)
                won = acc[:, layout.A_WINS + seat].astype(np.float64)
                finished = acc[:, layout.A_MATCHES] == 1
                scores[picked[lo: lo + n]] = np.where(finished, won, 0.5)
                if progress is not None:
                    progress(n)
    finally:
        numba.set_parallel_chunksize(chunksize)
    return scores


def _tables(agent: Agent, opponent: str, rules: Rules, players: int, plan: Layout,
            seed: int, progress: Progress) -> Scores:
    """Whole matches on the vector tables, in slices of at most ``_TABLE_SLICE``."""
    scores = np.empty(len(plan.deals), dtype=np.float64)
    for lo in range(0, len(plan.deals), _TABLE_SLICE):
        part = Layout(plan.deals[lo: lo + _TABLE_SLICE], plan.seats[lo: lo + _TABLE_SLICE])
        scores[lo: lo + len(part.deals)] = _table_slice(agent, opponent, rules, players,
                                                        part, seed, progress)
    return scores


def _table_slice(agent: Agent, opponent: str, rules: Rules, players: int, plan: Layout,
                 seed: int, progress: Progress) -> Scores:
    count = len(plan.deals)
    name = opponent.strip().lower()
    inside = name in KERNEL_BOTS
    outside: dict[int, Chooser] = {}

    def decide(which: npt.NDArray[np.int64], seats: npt.NDArray[np.int64], *_: object
               ) -> npt.NDArray[np.int64]:
        acts = np.empty(len(which), dtype=np.int64)
        for j, (i, s) in enumerate(zip(which.tolist(), seats.tolist(), strict=True)):
            if s not in outside:
                outside[s] = make_bot(name, random.Random(f"{seed}/{s}"))
            acts[j] = action_index(outside[s].choose(tables.view(i, s)))
        return acts

    tables = VectorTables(rules, [name if inside else None] * players, count,
                          agent_seats=plan.seats.tolist(), max_moves=MAX_MOVES,
                          outside=None if inside else decide,
                          recipe=observation_recipe(rules))
    tables.reset(range(count), [seed] * count, agent_seats=plan.seats.tolist(),
                 indices=plan.deals.tolist())
    bots: dict[int, Chooser] = {}
    ended = np.zeros(count, dtype=bool)
    reported = 0
    while True:
        ended = (tables.done | tables.truncated).astype(bool)
        if progress is not None and int(ended.sum()) > reported:
            progress(int(ended.sum()) - reported)
            reported = int(ended.sum())
        if ended.all():
            break
        mask = tables.mask
        live = np.flatnonzero(mask.any(axis=1) & ~ended)
        actions = np.zeros(count, dtype=np.int64)
        if agent.policy is not None:
            actions[live] = policy_actions(agent.policy, mask[live], tables.features[live],
                                           agent.name)
        else:
            assert agent.bot is not None
            for i in live.tolist():
                if i not in bots:
                    bots[i] = agent.bot(random.Random(
                        f"{seed}/{int(plan.deals[i])}/{int(plan.seats[i])}"))
                actions[i] = action_index(bots[i].choose(tables.view(i)))
        tables.step(actions, skip_illegal=True)
        if tables.illegal.any():
            raise ValueError(f"{agent.name} chose an illegal action")
    winner = tables.winner.astype(np.int64)
    return np.where(tables.done.astype(bool), (winner == plan.seats).astype(np.float64), 0.5)
