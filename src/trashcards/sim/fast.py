"""The fast simulator: bulk bot matches with the numba kernel, statistics like the
reference's (:func:`trashcards.simulation.play_chunk`), and any match as a record.

Match ``i`` of a run with seed ``s`` draws every number from counter-based streams of
``(s, i)`` (:mod:`trashcards.sim.rng`), so totals never depend on how the matches are
split into chunks, threads or machines. Within one call the matches run on every core
(``numba.prange`` over contiguous blocks, one accumulator row per block, added up at the
end); memory does not grow with the number of matches.

The fast kernel draws the first dealer as a uniformly random seat (the record stores only
``dealer S``, so this is a legal game) and shuffles with its own Fisher–Yates; its decks,
and so its games, differ from the reference engine's for the same seed, while its rules
and its bots are the same (the differential test replays its records with the engine).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import numba
import numpy as np
import numpy.typing as npt

from ..actions import CALL, DISCARD, STOCK, SWAP, TRASH, Action, Dealer, Deck, Reshuffle, wild
from ..bots import bot_seat_names
from ..record import Entry, Record
from ..rules import Rules
from ..simulation import SimStats, record_file
from ..state import State
from .arrays import to_state
from .kernel import layout, matches
from .rng import seed_key
from .tables import Table

__all__ = ["Accumulators", "TracedMatch", "decode_log", "match_record", "play_chunk",
           "play_traced", "warm_up"]

#: Matches per kernel call between two progress reports.
SLICE: Final = 16384
#: Accumulator rows (blocks of matches) per thread: threads take the blocks one at a time,
#: so a thread slowed by another process does not hold the others up.
BLOCKS_PER_THREAD: Final = 16
_INITIAL_LOG: Final = 1 << 15
_VERBS: Final = {layout.V_STOCK: STOCK, layout.V_DISCARD: DISCARD, layout.V_SWAP: SWAP,
                 layout.V_TRASH: TRASH, layout.V_CALL: CALL}

Ints = npt.NDArray[np.int64]


class Accumulators:
    """Per-block running totals of the kernel; :meth:`stats` adds them up.

    Values beyond a histogram's range come back in a small per-block overflow list,
    which :meth:`drain` (after every kernel call) moves into Python dictionaries.
    """

    def __init__(self, players: int, blocks: int) -> None:
        self.players = players
        self.acc: Ints = np.zeros((blocks, layout.ACC_SIZE), dtype=np.int64)
        self.turns: Ints = np.zeros((blocks, layout.TURNS_HIST), dtype=np.int64)
        self.rounds: Ints = np.zeros((blocks, layout.ROUNDS_HIST), dtype=np.int64)
        self.overflow: Ints = np.zeros((blocks, layout.OVERFLOW_SIZE, 2), dtype=np.int64)
        self.long_turns: dict[int, int] = {}
        self.long_rounds: dict[int, int] = {}

    def drain(self) -> None:
        """Check the kernel's error flag; move the overflow lists into the dictionaries."""
        if self.acc[:, layout.A_ERROR].any():
            raise RuntimeError("more out-of-range histogram values than the kernel keeps "
                               f"({layout.OVERFLOW_SIZE} per block and call)")
        for block in range(self.acc.shape[0]):
            for kind, value in self.overflow[block, : self.acc[block, layout.A_OVERFLOW]].tolist():
                hist = self.long_turns if kind == 0 else self.long_rounds
                hist[value] = hist.get(value, 0) + 1
        self.acc[:, layout.A_OVERFLOW] = 0

    def add(self, other: Accumulators) -> None:
        """Add ``other``'s totals (same number of blocks) into these."""
        other.drain()
        self.acc += other.acc
        self.turns += other.turns
        self.rounds += other.rounds
        for mine, theirs in ((self.long_turns, other.long_turns),
                             (self.long_rounds, other.long_rounds)):
            for value, n in theirs.items():
                mine[value] = mine.get(value, 0) + n

    def stats(self, elapsed_s: float = 0.0) -> SimStats:
        """The totals as :class:`SimStats`."""
        self.drain()
        acc = self.acc.sum(axis=0)
        players = self.players
        turns_hist = _hist(self.turns.sum(axis=0), self.long_turns)
        rounds_hist = _hist(self.rounds.sum(axis=0), self.long_rounds)
        return SimStats(
            players=players,
            matches=int(acc[layout.A_MATCHES]),
            rounds=int(acc[layout.A_ROUNDS]),
            decided_rounds=int(acc[layout.A_DECIDED]),
            turns=int(acc[layout.A_TURNS]),
            wins=[int(v) for v in acc[layout.A_WINS: layout.A_WINS + players]],
            round_wins=[int(v) for v in acc[layout.A_ROUND_WINS: layout.A_ROUND_WINS + players]],
            first_player_wins=int(acc[layout.A_FIRST_WINS]),
            round_starter_wins=int(acc[layout.A_STARTER_WINS]),
            turns_hist=turns_hist,
            rounds_hist=rounds_hist,
            elapsed_s=elapsed_s,
        )


def _hist(counts: Ints, beyond: dict[int, int]) -> dict[int, int]:
    hist = {value: n for value, n in enumerate(counts.tolist()) if n}
    hist.update(beyond)  # every key of ``beyond`` is past the end of ``counts``
    return dict(sorted(hist.items()))


def play_chunk(rules: Rules, bots: Sequence[str], seed: int, start: int, count: int,
               records: Path | None = None,
               progress: Callable[[int], None] | None = None) -> SimStats:
    """Play matches ``start`` … ``start + count - 1`` with the fast kernel on every core.

    Same signature and statistics as :func:`trashcards.simulation.play_chunk`. With
    ``records``, each match's ``trash/1`` record is written there as
    ``match-{seed}-{index:07d}.trash.json`` (those matches are played one by one, traced).
    ``progress`` receives the number of matches finished, every few thousand.
    """
    if count < 0:
        raise ValueError(f"count must be at least 0, got {count}")
    table = Table.build(rules, bots)
    began = time.perf_counter()
    if records is not None:
        acc = Accumulators(table.players, 1)
        for index in range(start, start + count):
            match = _traced(table, seed, index, acc)
            match.record.dump(records / record_file(seed, index))
            if progress is not None:
                progress(1)
        return acc.stats(time.perf_counter() - began)
    blocks = max(1, numba.get_num_threads() * BLOCKS_PER_THREAD)
    acc = Accumulators(table.players, blocks)
    skey = np.uint64(seed_key(seed))
    done = 0
    chunksize = numba.set_parallel_chunksize(1)  # threads take blocks as they go
    try:
        while done < count:
            n = min(SLICE, count - done)
            matches.play_many(table.tab, table.codes, skey, start + done, n, acc.acc,
                              acc.turns, acc.rounds, acc.overflow)
            acc.drain()
            done += n
            if progress is not None:
                progress(n)
    finally:
        numba.set_parallel_chunksize(chunksize)
    return acc.stats(time.perf_counter() - began)


@dataclass(frozen=True)
class TracedMatch:
    """One match of the kernel: its record, the state the kernel ended it in (the
    engine's :class:`~trashcards.state.State`) and its statistics."""

    record: Record
    end: State
    stats: SimStats

    @property
    def winner(self) -> int:
        assert self.end.match_winner is not None
        return self.end.match_winner

    @property
    def rounds(self) -> int:
        return self.end.round

    @property
    def dealer(self) -> int | None:
        return self.end.dealer

    @property
    def rounds_won(self) -> tuple[int, ...]:
        return self.end.rounds_won


def play_traced(rules: Rules, bots: Sequence[str], seed: int, index: int) -> TracedMatch:
    """Match ``index`` of the run with ``seed``, exactly as :func:`play_chunk` plays it,
    with its record and end state."""
    table = Table.build(rules, bots)
    acc = Accumulators(table.players, 1)
    return _traced(table, seed, index, acc)


def match_record(rules: Rules, bots: Sequence[str], seed: int, index: int) -> Record:
    """The ``trash/1`` record of match ``index`` of the run with ``seed``."""
    return play_traced(rules, bots, seed, index).record


def _traced(table: Table, seed: int, index: int, acc: Accumulators) -> TracedMatch:
    players = table.players
    size = _INITIAL_LOG
    skey = np.uint64(seed_key(seed))
    st = np.zeros(table.width, dtype=np.int32)
    ky = np.zeros(layout.KEYS, dtype=np.uint64)
    while True:
        log = np.zeros(size, dtype=np.int32)
        lp = np.zeros(1, dtype=np.int64)
        trial = Accumulators(players, 1)
        matches.play_traced(table.tab, table.codes, skey, index, trial.acc[0],
                            trial.turns[0], trial.rounds[0], trial.overflow[0], log, lp,
                            st, ky)
        if lp[0] <= size:
            break
        size = int(lp[0])
    stats = trial.stats()
    acc.add(trial)
    names = bot_seat_names(table.bots)
    record = Record(table.rules, names, tuple(decode_log(table, log[: int(lp[0])])))
    return TracedMatch(record, to_state(table, st, ky, names), stats)


def decode_log(table: Table, log: npt.NDArray[np.int32]) -> list[Entry]:
    """The record moves of a kernel trace."""
    cards = table.cards
    moves: list[Entry] = []
    i = 0
    values = log.tolist()
    while i < len(values):
        kind = values[i]
        if kind == layout.LOG_DEALER:
            moves.append(Entry(None, Dealer(values[i + 1])))
            i += 2
        elif kind in (layout.LOG_DECK, layout.LOG_RESHUFFLE):
            n = values[i + 1]
            shuffled = tuple(cards[c] for c in values[i + 2: i + 2 + n])
            moves.append(Entry(None, Deck(shuffled) if kind == layout.LOG_DECK
                               else Reshuffle(shuffled)))
            i += 2 + n
        else:
            seat, verb, slot = values[i + 1: i + 4]
            action: Action = wild(slot) if verb == layout.V_WILD else _VERBS[verb]
            moves.append(Entry(seat, action))
            i += 4
    return moves


def warm_up(traced: bool = False) -> None:
    """Compile the kernel, or load it from numba's on-disk cache, by playing one tiny
    match: the first run on a machine takes about 15 s, later ones well under one.
    ``traced``: the kernel that writes records (``records=``) instead."""
    rules = Rules.preset_named("kids").with_fields({"rounds_to_win": 1})
    if traced:
        play_traced(rules, ["random", "random"], 0, 0)
    else:
        play_chunk(rules, ["random", "random"], 0, 0, 1)
