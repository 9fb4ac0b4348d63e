"""Rollouts of a position, the deal sampler, and the batch evaluation of candidate actions
with common random numbers: many in one compiled call, without the GIL.

Streams: rollout (or sample) ``k`` of a run with seed key ``skey`` takes the streams of
match ``k`` (:func:`~.numbers.match_keys`): each seat's bot stream from its start, and
the chance stream, whose shuffles 0 and 1 are the deal sampler's (:func:`determinize`)
and whose shuffles 2, 3, … are the rollout's own (reshuffles, then the decks of later
rounds). So a rollout of a full state and the rollout of the same deal in an evaluation
draw the same numbers.

The results of a rollout: the winners of the position's round (a bit mask; 0 for a void
round), the match winner (-1 when the rollout stopped at the end of the round) and the
number of rounds that ended during the rollout.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .game import run
from .jit import hold, kjit, unowned
from .layout import (
    ACC_SIZE,
    H_MATCH,
    H_ROUND,
    K_CHANCE,
    KEYS,
    O_BCARD,
    O_CTR,
    O_DECK,
    O_DOWN,
    O_SIZE,
    OVERFLOW_SIZE,
    PH_DEAL,
    PH_DEALER,
    PH_MATCH_OVER,
    PH_ROUND_OVER,
    R_ROUND_OVER,
    ROUNDS_HIST,
    S_DL,
    S_HAND,
    S_MATCH_WINNER,
    S_NSHUF,
    S_PHASE,
    S_ROUND,
    S_SE,
    S_SHUFFLED,
    S_SP,
    S_STOCK_PUBLIC,
    S_WINNERS,
    T_CARDS,
    T_ORDER,
    T_PLAYERS,
    TURNS_HIST,
)
from .numbers import fy_step, match_keys, next_key

__all__ = ["ROLLOUT_SHUFFLES", "deal_states", "determinize", "evaluate", "rollouts"]

Array = npt.NDArray[Any]

#: The first shuffle of the chance stream that a rollout uses (0 and 1: the deal sampler).
ROLLOUT_SHUFFLES = 2


@kjit(inline=True)
def _streams(tab: Array, st: Array, ky: Array, skey: np.uint64, index: int) -> None:
    """The streams of rollout ``index``, every bot stream from its start."""
    match_keys(ky, skey, index, tab[T_PLAYERS])
    for s in range(4):
        st[O_CTR + s] = 0
    st[S_NSHUF] = ROLLOUT_SHUFFLES


@kjit(inline=True)
def _copy(to: Array, source: Array) -> None:
    """``to[:] = source`` (same length): numba compiles a slice assignment with its
    shape-mismatch error message, which took seconds of the first compilation."""
    for i in range(source.shape[0]):
        to[i] = source[i]


@kjit(inline=True)
def _ended(st: Array) -> int:
    return int(st[S_PHASE] == PH_ROUND_OVER or st[S_PHASE] == PH_MATCH_OVER)


@kjit(inline=True)
def _scratch() -> tuple[Array, Array, Array, Array, Array, Array, Array]:
    acc = np.zeros(ACC_SIZE, dtype=np.int64)
    thist = np.zeros(TURNS_HIST, dtype=np.int64)
    rhist = np.zeros(ROUNDS_HIST, dtype=np.int64)
    ovf = np.zeros((OVERFLOW_SIZE, 2), dtype=np.int64)
    tmp = np.zeros(16, dtype=np.int64)
    log = np.zeros(1, dtype=np.int32)
    lp = np.zeros(1, dtype=np.int64)
    return acc, thist, rhist, ovf, tmp, log, lp


@kjit(inline=True)
def _unowned_scratch(work: tuple[Array, Array, Array, Array, Array, Array, Array]
                     ) -> tuple[Array, Array, Array, Array, Array, Array, Array]:
    """:func:`_scratch`'s arrays :func:`~.jit.unowned` (held by :func:`_hold_scratch`)."""
    return (unowned(work[0]), unowned(work[1]), unowned(work[2]), unowned(work[3]),
            unowned(work[4]), unowned(work[5]), unowned(work[6]))


@kjit(inline=True)
def _hold_scratch(work: tuple[Array, Array, Array, Array, Array, Array, Array]) -> None:
    hold(work[0])
    hold(work[1])
    hold(work[2])
    hold(work[3])
    hold(work[4])
    hold(work[5])
    hold(work[6])


# A rollout plays ``st`` on (its streams set by :func:`_streams`), its pending action
# first if there is one, to the end of the position's round, then, for the horizon
# ``H_MATCH``, to the end of the match; the position's round's winners are read at the
# end of that round. :func:`rollouts` and :func:`evaluate` each hold that loop: the
# game is inlined into the function that calls it, so a helper holding the call would
# be compiled as one more copy of the game.


@kjit()
def rollouts(tab: Array, base: Array, bots: Array, skey: np.uint64, first: int,
             pending: int, horizon: int, winners: Array, match_winner: Array,
             rounds: Array, st: Array, ky: Array) -> None:
    """Rollouts ``first`` … ``first + len(winners) - 1`` of the full state ``base``, each
    taking the action ``pending`` first (a kernel action; -1: none), then every seat
    played by its bot ``bots[seat]``, to the end of the round (``H_ROUND``) or of the
    match (``H_MATCH``); their results go into the three output arrays, and the last
    one's end state into ``st``/``ky``."""
    work = _scratch()
    acc, thist, rhist, ovf, tmp, log, lp = _unowned_scratch(work)
    tab, base, bots, st, ky = unowned(tab), unowned(base), unowned(bots), unowned(st), unowned(ky)
    for r in range(winners.shape[0]):
        _copy(st, base)
        _streams(tab, st, ky, skey, first + r)
        first_round = st[S_ROUND]
        first_ended = _ended(st)
        upto = H_ROUND
        act = pending
        while True:
            status = run(tab, st, ky, bots, -1, act, upto, acc, thist, rhist, ovf, tmp,
                         False, log, lp)
            if upto == H_ROUND:
                winners[r] = st[S_WINNERS]
                if horizon == H_MATCH and status == R_ROUND_OVER:
                    upto = H_MATCH
                    act = -1
                    continue
            break
        match_winner[r] = st[S_MATCH_WINNER]
        rounds[r] = st[S_ROUND] - first_round + _ended(st) - first_ended
    _hold_scratch(work)


@kjit()
def determinize(tab: Array, pub: Array, chance: np.uint64, out: Array, pool: Array,
                mark: Array) -> bool:
    """A full state ``out`` consistent with the public state ``pub`` (hidden entries are
    ignored, whatever they hold): the deal of the sample whose chance stream has key
    ``chance``. False (``out`` unusable) when ``pub`` is not a possible position.

    The draw, exactly (:func:`trashcards.sim.positions.determinize` is the same in
    Python), once the first round is dealt (before, nothing is hidden):

    1. The unseen cards: every card of the match except the face-up board cards, the
       discard pile, the card in hand and, when the stock is public (``S_STOCK_PUBLIC``),
       the stock's cards; listed in canonical order (:class:`~trashcards.cards.Card`
       order: ``tab[T_ORDER …]``).
    2. Fisher–Yates over that list with shuffle 0 of the chance stream
       (:func:`trashcards.sim.rng.fisher_yates`).
    3. The face-down slots take the list's cards from the front in (seat, slot) order.
    4. When the stock is public, its cards in canonical order are shuffled by Fisher–Yates
       with shuffle 1 and become the stock, top first; otherwise the rest of the list
       is the stock, top first.

    ``pool`` and ``mark`` are scratch (at least ``T_CARDS`` entries each).
    """
    players = tab[T_PLAYERS]
    ncards = tab[T_CARDS]
    _copy(out, pub)
    if pub[S_PHASE] == PH_DEAL or pub[S_PHASE] == PH_DEALER:
        return True  # nothing is dealt yet, so nothing is hidden
    dsc = O_DECK + ncards
    for i in range(ncards):
        mark[i] = 0  # 0 unseen, 1 in sight, 2 in the public stock
    if pub[S_HAND] >= 0:
        mark[pub[S_HAND]] = 1
    down = 0
    for q in range(players):
        mask = pub[O_DOWN + q]
        for k in range(pub[O_SIZE + q]):
            if (mask >> k) & 1:
                down += 1
            else:
                mark[pub[O_BCARD + q * 10 + k]] = 1
    for i in range(pub[S_DL]):
        mark[pub[dsc + i]] = 1
    sp = pub[S_SP]
    stock = pub[S_SE] - sp
    public = pub[S_STOCK_PUBLIC] != 0
    if public:
        for i in range(stock):
            mark[pub[O_DECK + sp + i]] = 2
    n = 0
    for i in range(ncards):
        c = tab[T_ORDER + i]
        if mark[c] == 0:
            pool[n] = c
            n += 1
    if n != down + (0 if public else stock):
        return False
    key = next_key(chance, 0)
    for p in range(n):
        fy_step(pool, 0, p, n, key)
    i = 0
    for q in range(players):
        mask = pub[O_DOWN + q]
        for k in range(pub[O_SIZE + q]):
            if (mask >> k) & 1:
                out[O_BCARD + q * 10 + k] = pool[i]
                i += 1
    if public:
        n = 0
        for j in range(ncards):
            c = tab[T_ORDER + j]
            if mark[c] == 2:
                pool[n] = c
                n += 1
        key = next_key(chance, 1)
        for p in range(n):
            fy_step(pool, 0, p, n, key)
        i = 0
    for j in range(stock):
        out[O_DECK + sp + j] = pool[i + j]
    out[S_SHUFFLED] = 1
    return True


@kjit()
def deal_states(tab: Array, pub: Array, skey: np.uint64, first: int, out: Array) -> bool:
    """``out[k]``: the deal of sample ``first + k`` of the public state ``pub``
    (:func:`determinize`); False if ``pub`` is not a possible position."""
    ncards = tab[T_CARDS]
    pool = np.empty(ncards, dtype=np.int32)
    mark = np.empty(ncards, dtype=np.int8)
    ky = np.zeros(KEYS, dtype=np.uint64)
    for k in range(out.shape[0]):
        match_keys(ky, skey, first + k, tab[T_PLAYERS])
        if not determinize(tab, pub, ky[K_CHANCE], out[k], pool, mark):
            return False
    return True


@kjit()
def evaluate(tab: Array, pub: Array, actions: Array, bots: Array, skey: np.uint64,
             first: int, horizon: int, winners: Array, match_winner: Array,
             rounds: Array) -> bool:
    """Candidate ``actions`` (kernel actions, legal for the seat to act in ``pub``) over
    samples ``first`` … ``first + K - 1`` (K = ``winners.shape[1]``) of the public state
    ``pub``. Sample k deals the hidden cards once (:func:`determinize`); then each action
    is taken on that same deal and rolled out with the same streams (common random
    numbers), every seat, the actor's included, then played by its bot. Results go
    into ``winners``/``match_winner``/``rounds[action, sample]``; False if ``pub`` is
    not a possible position."""
    ncards = tab[T_CARDS]
    work = _scratch()
    acc, thist, rhist, ovf, tmp, log, lp = _unowned_scratch(work)
    pool = np.empty(ncards, dtype=np.int32)
    mark = np.empty(ncards, dtype=np.int8)
    deal = np.empty_like(pub)
    state = np.empty_like(pub)
    keys = np.zeros(KEYS, dtype=np.uint64)
    st, ky = unowned(state), unowned(keys)
    tab, bots = unowned(tab), unowned(bots)
    for k in range(winners.shape[1]):
        match_keys(ky, skey, first + k, tab[T_PLAYERS])
        if not determinize(tab, pub, ky[K_CHANCE], deal, pool, mark):
            return False
        for a in range(actions.shape[0]):
            _copy(st, deal)
            _streams(tab, st, ky, skey, first + k)
            first_round = st[S_ROUND]
            first_ended = _ended(st)
            upto = H_ROUND
            act = actions[a]
            while True:
                status = run(tab, st, ky, bots, -1, act, upto, acc, thist, rhist, ovf, tmp,
                             False, log, lp)
                if upto == H_ROUND:
                    winners[a, k] = st[S_WINNERS]
                    if horizon == H_MATCH and status == R_ROUND_OVER:
                        upto = H_MATCH
                        act = -1
                        continue
                break
            match_winner[a, k] = st[S_MATCH_WINNER]
            rounds[a, k] = st[S_ROUND] - first_round + _ended(st) - first_ended
    _hold_scratch(work)
    hold(state)
    hold(keys)
    return True
