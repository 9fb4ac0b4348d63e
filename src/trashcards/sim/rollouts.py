"""Rollouts, deal samples and batch evaluation of positions on the numba kernel.

* :func:`rollouts` — R rollouts of a full :class:`~trashcards.state.State` (any phase,
  hidden cards included, e.g. a sampled deal) with a kernel bot in every seat;
* :func:`sample_deals` — full states consistent with a :class:`~trashcards.views.View`,
  the kernel's deal sampler (:func:`trashcards.sim.positions.determinize` is the same
  draw in Python);
* :func:`evaluate` — for a view and candidate actions of the seat to act, K sampled deals
  and, on each deal, every action rolled out with the same streams (common random
  numbers), all in one compiled call.

Each runs as one compiled call that releases the GIL, so threads (a web server's pool)
run them in parallel. Everything is seeded: rollout or sample ``k`` of ``seed`` uses the
streams of match ``k`` of that seed (:mod:`trashcards.sim.kernel.rollouts`), so results
never depend on how a budget is split (``first`` continues a run) and equal those of
:mod:`trashcards.sim.positions` for the same seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..engine import is_legal
from ..public import action_index
from ..rules import Rules
from ..state import State
from ..views import View
from .arrays import load_state, load_view, to_state
from .kernel import layout
from .kernel import rollouts as kernel
from .positions import Horizon, Outcome
from .rng import seed_key
from .tables import Table, bot_codes

__all__ = ["Evaluation", "Rollouts", "evaluate", "rollout", "rollouts", "sample_deals"]

Ints = npt.NDArray[np.int32]
_HORIZONS: Final = {"round": layout.H_ROUND, "match": layout.H_MATCH}


@lru_cache(maxsize=64)
def _table(rules: Rules, players: int) -> Table:
    return Table.of(rules, players)


def _horizon(horizon: Horizon) -> int:
    if horizon not in _HORIZONS:
        raise ValueError(f"horizon must be 'round' or 'match', got {horizon!r}")
    return _HORIZONS[horizon]


def _codes(bots: Sequence[str], players: int) -> npt.NDArray[np.int64]:
    if len(bots) != players:
        raise ValueError(f"{players} seats need {players} bots, got {len(bots)}")
    return bot_codes(bots)


def _count(n: int, what: str) -> None:
    if n < 0:
        raise ValueError(f"{what} must be at least 0, got {n}")


@dataclass(frozen=True)
class Rollouts:
    """Results of R rollouts: per rollout, the winners of the position's round as a bit
    mask (0: a void round), the match winner (-1 when stopped at the round's end) and
    the rounds that ended during the rollout."""

    winners: Ints
    match_winner: Ints
    rounds: Ints

    def round_won(self, seat: int) -> npt.NDArray[np.bool_]:
        """Whether ``seat`` won the position's round, per rollout."""
        return np.asarray((self.winners >> seat) & 1 == 1)

    def match_won(self, seat: int) -> npt.NDArray[np.bool_]:
        """Whether ``seat`` won the match, per rollout."""
        return np.asarray(self.match_winner == seat)


def rollouts(state: State, bots: Sequence[str], count: int, seed: int,
             horizon: Horizon = "round", first: int = 0) -> Rollouts:
    """Rollouts ``first`` … ``first + count - 1`` of the full ``state``, every seat played
    by its kernel bot, to the end of the round or of the match."""
    _count(count, "count")
    table = _table(state.rules, state.players)
    codes = _codes(bots, state.players)
    base, _ = load_state(table, state)
    out = Rollouts(*(np.zeros(count, dtype=np.int32) for _ in range(3)))
    kernel.rollouts(table.tab, base, codes, np.uint64(seed_key(seed)), first, -1,
                    _horizon(horizon), out.winners, out.match_winner, out.rounds,
                    np.empty_like(base), np.zeros(layout.KEYS, dtype=np.uint64))
    return out


def rollout(state: State, bots: Sequence[str], seed: int, index: int,
            horizon: Horizon = "round", first: Action | None = None) -> Outcome:
    """Rollout ``index`` of :func:`rollouts` alone (``first``, a legal action of the seat
    to act, taken before it, as :func:`evaluate` does), with the state it ended in: the
    kernel's counterpart of :func:`trashcards.sim.positions.rollout`."""
    table = _table(state.rules, state.players)
    codes = _codes(bots, state.players)
    base, _ = load_state(table, state)
    pending = -1
    if first is not None:
        if state.to_act is None or not is_legal(state, first, state.to_act):
            raise ValueError(f"{first} is not legal in this position")
        pending = layout.ACTION_CODES[action_index(first)]
    st = np.empty_like(base)
    ky = np.zeros(layout.KEYS, dtype=np.uint64)
    out = Rollouts(*(np.zeros(1, dtype=np.int32) for _ in range(3)))
    kernel.rollouts(table.tab, base, codes, np.uint64(seed_key(seed)), index, pending,
                    _horizon(horizon), out.winners, out.match_winner, out.rounds, st, ky)
    return Outcome(int(out.winners[0]), int(out.match_winner[0]), int(out.rounds[0]),
                   to_state(table, st, ky, state.names))


def sample_deals(view: View, count: int, seed: int, first: int = 0) -> list[State]:
    """Samples ``first`` … ``first + count - 1`` of ``seed``: full states that agree with
    ``view`` (hidden cards dealt uniformly at random, see
    :func:`trashcards.sim.kernel.rollouts.determinize`)."""
    _count(count, "count")
    table, pub = _public(view)
    out = np.zeros((count, table.width), dtype=np.int32)
    if not kernel.deal_states(table.tab, pub, np.uint64(seed_key(seed)), first, out):
        raise ValueError("the view's unseen cards do not fill its hidden places")
    names = [player.name for player in view.players]
    keys = np.zeros(layout.KEYS, dtype=np.uint64)
    return [to_state(table, row, keys, names) for row in out]


def _public(view: View) -> tuple[Table, Ints]:
    table = _table(view.rules, len(view.players))
    return table, load_view(table, view)


@dataclass(frozen=True)
class Evaluation:
    """Outcomes of candidate actions over K sampled deals, ``[action, sample]``: the
    winners of the position's round (bit masks), the match winner (-1 when stopped at
    the round's end) and the rounds that ended; ``actor`` is the seat that acted."""

    actions: tuple[Action, ...]
    actor: int
    winners: Ints
    match_winner: Ints
    rounds: Ints

    @property
    def round_won(self) -> npt.NDArray[np.bool_]:
        """Whether the actor won the position's round, ``[action, sample]``."""
        return np.asarray((self.winners >> self.actor) & 1 == 1)

    @property
    def match_won(self) -> npt.NDArray[np.bool_]:
        """Whether the actor won the match, ``[action, sample]``."""
        return np.asarray(self.match_winner == self.actor)


def evaluate(view: View, bots: Sequence[str], samples: int, seed: int,
             actions: Sequence[Action] | None = None, horizon: Horizon = "round",
             first: int = 0) -> Evaluation:
    """Each candidate action (default: every legal action) of the seat to act in
    ``view``, on samples ``first`` … ``first + samples - 1`` of ``seed``: sample k deals
    the hidden cards once; each action is taken on that deal and rolled out with the
    same streams, every seat (the actor's too, after its action) played by its kernel
    bot. Decides from the view alone: nothing hidden is read."""
    _count(samples, "samples")
    if view.to_act is None:
        raise ValueError(f"no one is to act in phase {view.phase.value}: nothing to evaluate")
    chosen = tuple(view.legal if actions is None else actions)
    for action in chosen:
        if action not in view.legal:
            legal = ", ".join(str(a) for a in view.legal)
            raise ValueError(f"{action} is not legal here; the legal actions are {legal}")
    table, pub = _public(view)
    codes = _codes(bots, len(view.players))
    acts = np.array([layout.ACTION_CODES[action_index(a)] for a in chosen], dtype=np.int64)
    shape = (len(chosen), samples)
    out = Evaluation(chosen, view.to_act,
                     *(np.zeros(shape, dtype=np.int32) for _ in range(3)))
    if not kernel.evaluate(table.tab, pub, acts, codes, np.uint64(seed_key(seed)), first,
                           _horizon(horizon), out.winners, out.match_winner, out.rounds):
        raise ValueError("the view's unseen cards do not fill its hidden places")
    return out
