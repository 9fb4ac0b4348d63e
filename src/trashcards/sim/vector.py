"""N tables of Trash stepped at once on the numba kernel: the stepping API a vectorized
environment (:class:`trashcards.envs.vector.TrashVectorEnv`) is built on.

Each table has one agent seat; the other seats are played by kernel bots. Actions are
indices in the fixed action list (:data:`trashcards.public.ACTIONS`: 0 stock,
1 discard, 2…11 wild 1…10, 12 swap, 13 trash, 14 call). After every :meth:`~VectorTables.
reset` and :meth:`~VectorTables.step`, the arrays hold, per table:

* ``mask`` (N, 15) uint8: the agent's legal actions (all 0 when the agent is not to act:
  the match is over, or the move cap stopped it on another seat's decision);
* ``obs`` (N, 100) int32: the public encoding of the agent's view
  (:func:`trashcards.public.encode` of :func:`trashcards.views.view` gives the same);
* ``agent_rounds`` / ``other_rounds`` (N,) int32: rounds won in that call by the agent /
  by the other seats;
* ``reward`` (N,) float64: the values of what ended in that call (``round_values`` of
  each round's winners, then ``match_values`` of the match's winner; zeros by default);
* ``done`` (N,) uint8: the match is over; ``winner`` (N,) int32: its winner, or -1;
* ``illegal`` (N,) uint8, after a step: the action was not legal (see :meth:`step`);
* ``truncated`` (N,) uint8: the match is not over but has had ``max_moves`` player
  actions (every seat's, calls included), so it stopped at the next decision.

A table's match with seed ``s`` is match 0 of that seed: with the agent's actions chosen
by a kernel bot, it is exactly the match :func:`trashcards.sim.fast.play_traced` plays.
A finished or truncated table stays so (its actions are ignored) until it is reset. A
whole step is two compiled calls that release the GIL (one checks, one plays).

>>> from trashcards import Rules
>>> from trashcards.sim.vector import VectorTables
>>> tables = VectorTables(Rules.preset_named("standard"), ["greedy", "greedy"], 4)
>>> tables.reset(range(4), seeds=[1, 2, 3, 4])
>>> tables.mask[:, 0].tolist()  # drawing from the stock is always legal
[1, 1, 1, 1]
>>> tables.step(tables.mask.argmax(axis=1))  # the first legal action of each table
>>> tables.obs.shape
(4, 100)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..bots import bot_seat_names
from ..public import ACTIONS, SIZE
from ..rules import Rules
from ..state import State
from ..views import View, view
from .arrays import to_state
from .kernel import layout
from .kernel import vector as kernel
from .rng import seed_key
from .tables import Table

__all__ = ["Outside", "VectorTables"]

#: Decides for the seats played outside the kernel: called with the tables that wait
#: (indices, in table order), the seat to act at each, each seat's public encoding
#: (M, 100) int32, legal-action mask (M, 15) uint8 and float observation (M, F) float32
#: (with a ``recipe``; else (M, 0)), all fresh arrays; returns one action index per table.
Outside = Callable[[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int32],
                    npt.NDArray[np.uint8], npt.NDArray[np.float32]], npt.ArrayLike]


class VectorTables:
    """``num_tables`` tables of ``len(bots)`` seats under ``rules``; ``bots[seat]`` plays
    every seat but the table's agent seat (``agent_seats``: one seat for all tables, or
    one per table; seat 0 by default). A seat whose bot is ``None`` is played outside the
    kernel by ``outside`` (see :data:`Outside`): every call plays on until each table is
    at its agent's decision (or over, or capped), asking ``outside`` for the other
    seats' decisions in batches, one batch per round trip across all waiting tables.
    The seats of ``take_forced`` (each one played outside) are not asked a decision with
    one legal action: the kernel takes it (a policy's forced moves; a bot object that
    may draw random numbers for them is asked all).

    ``max_moves`` (0: none) caps each match's player actions. ``round_values[a][w]`` is
    the reward of a round whose winners are the seats of bit mask ``w`` (0: a void round)
    to agent seat ``a``; ``match_values[a][s]`` that of a match won by seat ``s``.
    """

    def __init__(self, rules: Rules, bots: Sequence[str | None], num_tables: int,
                 agent_seats: int | Sequence[int] = 0, max_moves: int = 0,
                 round_values: npt.ArrayLike | None = None,
                 match_values: npt.ArrayLike | None = None,
                 outside: Outside | None = None, take_forced: Iterable[int] = (),
                 recipe: tuple[npt.NDArray[np.int8], npt.NDArray[np.int64],
                               npt.NDArray[np.float64]] | None = None) -> None:
        if num_tables < 1:
            raise ValueError(f"num_tables must be at least 1, got {num_tables}")
        if max_moves < 0:
            raise ValueError(f"max_moves must be at least 0 (0: no cap), got {max_moves}")
        if any(bot is None for bot in bots) and outside is None:
            raise ValueError("seats played outside the kernel (bot None) need `outside`")
        self.table = Table.build(rules, [bot or "random" for bot in bots])
        #: The kernel's bot code of each seat (B_EXTERNAL for a seat played outside).
        self.codes = self.table.codes.copy()
        self.codes[[bot is None for bot in bots]] = layout.B_EXTERNAL
        for seat in take_forced:
            if not 0 <= seat < len(bots) or bots[seat] is not None:
                raise ValueError(f"take_forced lists seats played outside; seat {seat} "
                                 "is not one")
            self.codes[seat] = layout.B_TAKES_FORCED
        self.outside = outside
        players = self.table.players
        self.tab = self.table.tab.copy()
        self.tab[layout.T_MOVE_CAP] = max_moves
        self.num_tables = num_tables
        self.agent: npt.NDArray[np.int64] = np.zeros(num_tables, dtype=np.int64)
        self.agent[:] = agent_seats
        if ((self.agent < 0) | (self.agent >= players)).any():
            raise ValueError(f"agent seats must be 0 to {players - 1}")
        self.round_values = _values(round_values, (players, 1 << players), "round_values")
        self.match_values = _values(match_values, (players, players), "match_values")
        self._zero_values = (np.zeros_like(self.round_values), np.zeros_like(self.match_values))
        self.st = np.zeros((num_tables, self.table.width), dtype=np.int32)
        self.ky = np.zeros((num_tables, layout.KEYS), dtype=np.uint64)
        self.mask = np.zeros((num_tables, len(ACTIONS)), dtype=np.uint8)
        self.obs = np.zeros((num_tables, SIZE), dtype=np.int32)
        self.agent_rounds = np.zeros(num_tables, dtype=np.int32)
        self.other_rounds = np.zeros(num_tables, dtype=np.int32)
        self.reward = np.zeros(num_tables, dtype=np.float64)
        self.done = np.ones(num_tables, dtype=np.uint8)
        self.truncated = np.zeros(num_tables, dtype=np.uint8)
        self.winner = np.full(num_tables, -1, dtype=np.int32)
        #: After :meth:`step`: the tables whose action was illegal.
        self.illegal = np.zeros(num_tables, dtype=np.uint8)
        self.st[:, layout.S_PHASE] = layout.PH_MATCH_OVER  # until reset
        self._before = np.zeros((num_tables, 4), dtype=np.int64)
        self._waiting = np.zeros(num_tables, dtype=np.uint8)
        self._other_obs = np.zeros((num_tables, SIZE), dtype=np.int32)
        self._other_mask = np.zeros((num_tables, len(ACTIONS)), dtype=np.uint8)
        #: With a ``recipe`` (:func:`trashcards.envs.observation.observation_recipe`),
        #: every call also writes each table's float observation into ``features``
        #: (which the caller may replace by a fresh (N, F) float32 array before a call).
        width = 0 if recipe is None else recipe[0].shape[1]
        self.features = np.zeros((num_tables if recipe else 0, width), dtype=np.float32)
        self._work = kernel.scratch()
        self._tables = np.zeros(num_tables, dtype=np.int64)
        self._pending = np.zeros(num_tables, dtype=np.int64)
        self._recipe = (kernel.split_recipe(*recipe) if recipe is not None else
                        (np.zeros((1, 1, 4), dtype=np.uint64), np.zeros((1, 1), dtype=np.float64),
                         np.zeros((1, 4), dtype=np.uint64)))

    def reset(self, tables: Iterable[int], seeds: Iterable[int],
              agent_seats: Iterable[int] | None = None,
              indices: Iterable[int] | None = None) -> None:
        """Tables ``tables`` start a new match each, with its seed (and agent seat), and
        play to the agent's first decision. The match is match ``indices[j]`` of the run
        with that seed (0 by default: :func:`trashcards.sim.fast.play_traced` plays it)."""
        which = np.array(list(tables), dtype=np.int64)
        keys = np.array([seed_key(s) for s in seeds], dtype=np.uint64)
        if which.shape != keys.shape:
            raise ValueError(f"{len(which)} tables need as many seeds, got {len(keys)}")
        index = (np.zeros(which.shape, dtype=np.int64) if indices is None
                 else np.array(list(indices), dtype=np.int64))
        if index.shape != which.shape or (index < 0).any():
            raise ValueError("one match index (0 or more) per table reset")
        if ((which < 0) | (which >= self.num_tables)).any():
            raise ValueError(f"tables are 0 to {self.num_tables - 1}")
        if agent_seats is not None:
            seats = np.array(list(agent_seats), dtype=np.int64)
            if seats.shape != which.shape or (
                    (seats < 0) | (seats >= self.table.players)).any():
                raise ValueError("one agent seat per table reset, each a seat of the table")
            self.agent[which] = seats
        self.reset_keys(which, keys, index)

    def reset_keys(self, which: npt.NDArray[np.int64], keys: npt.NDArray[np.uint64],
                   indices: npt.NDArray[np.int64]) -> None:
        """:meth:`reset` of tables ``which`` (int64, each a table) to match ``indices[j]``
        (int64, 0 or more) of the runs whose seed keys are ``keys`` (uint64,
        :func:`~trashcards.sim.rng.seed_key` of each seed), as given: nothing is checked
        or converted (the vector environment's autoreset calls it every step)."""
        kernel.reset(self.tab, self.st, self.ky, which, keys, indices, self._before,
                     self.reward)
        values = self._zero_values  # a reset scores nothing
        pending = np.full(which.shape[0], -1, dtype=np.int64)
        self._play(which, pending, values)

    def step(self, actions: npt.ArrayLike, skip_illegal: bool = False,
             deal: tuple[npt.NDArray[np.int64], npt.NDArray[np.uint64],
                         npt.NDArray[np.int64]] | None = None) -> None:
        """Each table whose match goes on takes its agent's action and plays to the
        agent's next decision, the match's end or the move cap. Refuses (nothing played)
        if any action is not legal for its table; with ``skip_illegal``, plays the legal
        ones only and marks the others in :attr:`illegal`.

        ``deal`` (with ``skip_illegal``): ``(tables, keys, indices)`` as
        :meth:`reset_keys` takes them, tables that start a new match in the same pass
        instead of taking their actions (a new match scores nothing): the round trips to
        the seats played outside serve both at once."""
        acts = np.ascontiguousarray(actions, dtype=np.int64)
        if acts.shape != (self.num_tables,):
            raise ValueError(f"one action per table: shape ({self.num_tables},), "
                             f"got {acts.shape}")
        if deal is not None:
            if not skip_illegal:
                raise ValueError("dealing tables in a step needs skip_illegal")
            acts = acts.copy()  # the caller's array stays as it was
            acts[deal[0]] = -1
        live = kernel.step(self.tab, self.st, acts, self._before, self.agent_rounds,
                           self.other_rounds, self.reward, self.illegal, not skip_illegal,
                           self._waiting, self.obs, self._feat(), self._tables,
                           self._pending)
        if live >= 0:
            which, pending = self._tables[:live], self._pending[:live]
            if deal is not None:
                kernel.reset(self.tab, self.st, self.ky, *deal, self._before, self.reward)
                which = np.concatenate((which, deal[0]))
                pending = np.concatenate((pending, np.full(len(deal[0]), -1, np.int64)))
            self._play(which, pending, (self.round_values, self.match_values))
            if deal is not None:
                self.reward[deal[0]] = 0.0
                self.illegal[deal[0]] = 0
        else:
            bad = np.flatnonzero(self.illegal).tolist()
            shown = ", ".join(f"table {i}: {int(acts[i])}" for i in bad[:8])
            raise ValueError(f"illegal actions ({shown}{' …' if len(bad) > 8 else ''}); "
                             "nothing was played")

    def _feat(self) -> kernel.Features:
        return (*self._recipe, self.features)

    def _play(self, which: npt.NDArray[np.int64], pending: npt.NDArray[np.int64],
              values: tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]) -> None:
        """Tables ``which`` play on (``pending``: each one's first action, -1 none) to
        their agent's decision, asking ``outside`` for the decisions of the tables that
        wait for it, until none does."""
        waiting = kernel.advance(self.tab, self.st, self.ky, self.codes, self.agent, which,
                                 pending, values[0], values[1], self._before, self.mask,
                                 self.obs, self.agent_rounds, self.other_rounds, self.reward,
                                 self.done, self.truncated, self.winner, self._waiting,
                                 self._other_obs, self._other_mask, self._feat(), self._work)
        ops, params, counts = self._recipe
        width = self.features.shape[1]
        while waiting > 0:
            assert self.outside is not None
            which = np.empty(waiting, dtype=np.int64)
            seats = np.empty(waiting, dtype=np.int64)
            public = np.empty((waiting, SIZE), dtype=np.int32)
            masks = np.empty((waiting, len(ACTIONS)), dtype=np.uint8)
            floats = np.empty((waiting if width else 0, width), dtype=np.float32)
            kernel.gather(self._waiting, self.st, self._other_obs, self._other_mask, which,
                          seats, public, masks, (ops, params, counts, floats))
            if not width:
                floats = np.empty((waiting, 0), dtype=np.float32)
            acts = np.asarray(self.outside(which, seats, public, masks, floats),
                              dtype=np.int64).reshape(-1)
            if acts.shape != which.shape:
                raise ValueError(f"the outside seats' policy gave {acts.shape[0]} actions "
                                 f"for {which.shape[0]} tables")
            j = kernel.first_illegal(acts, masks)
            if j >= 0:
                raise ValueError(f"the outside seats' policy chose an illegal action: "
                                 f"{int(acts[j])} at table {int(which[j])}, seat "
                                 f"{int(seats[j])} (legal: "
                                 f"{np.flatnonzero(masks[j]).tolist()})")
            waiting = kernel.advance(self.tab, self.st, self.ky, self.codes, self.agent,
                                     which, acts, values[0], values[1], self._before,
                                     self.mask, self.obs, self.agent_rounds,
                                     self.other_rounds, self.reward, self.done,
                                     self.truncated, self.winner, self._waiting,
                                     self._other_obs, self._other_mask, self._feat(),
                                     self._work)

    @property
    def moves(self) -> npt.NDArray[np.int32]:
        """Each table's player actions so far in its match (every seat's)."""
        moves: npt.NDArray[np.int32] = self.st[:, layout.S_MOVES].copy()
        return moves

    def state(self, i: int) -> State:
        """The full state of table ``i`` (hidden cards included: not for the agent)."""
        return to_state(self.table, self.st[i], self.ky[i], bot_seat_names(self.table.bots))

    def view(self, i: int, seat: int | None = None) -> View:
        """Table ``i`` as its agent (or ``seat``) sees it."""
        return view(self.state(i), int(self.agent[i]) if seat is None else seat)


def _values(values: npt.ArrayLike | None, shape: tuple[int, int],
            name: str) -> npt.NDArray[np.float64]:
    if values is None:
        return np.zeros(shape, dtype=np.float64)
    out = np.array(values, dtype=np.float64)
    if out.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {out.shape}")
    return out
