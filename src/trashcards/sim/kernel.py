"""The numba kernel: whole matches of Trash between bots, compiled.

It plays exactly the game of :mod:`trashcards.engine` (the differential test replays its
records with the engine) with the bots of :mod:`trashcards.bots` re-implemented so that,
fed the same numbers (:class:`trashcards.sim.rng.KernelRandom`), they decide the same.

State of a match, in per-worker scratch arrays reused from match to match:

* ``deck``: the cards of the current shuffle (the deal's deck, then each reshuffle's
  stock); the stock is ``deck[sp:se]``, top first. Shuffles are Fisher–Yates done lazily,
  one position when its card is drawn (every position has its own counter-based number,
  so this equals a shuffle done all at once, which is what a traced match does to write
  the record);
* ``discard[0:dl]``: the discard pile, bottom first;
* ``bcard[seat * 10 + k]``: the card in slot k+1; ``down[seat]`` a bit mask of face-down
  slots, ``wildm[seat]`` of face-up slots holding a wild; ``sizes``, ``rounds_won``;
* ``keys``/``ctr``: each seat's bot stream and how many numbers it used.

Statistics go into per-worker accumulators (``acc``, the two histograms and an overflow
list for values beyond them), exactly the totals of :class:`trashcards.simulation.SimStats`.
A void round (the stock ran out with nothing to reshuffle, or with no card of the discard
pile playable on any board: the round is stuck, see :func:`_stuck`) counts as a round and
its turns, with no winner, as the reference tally counts it.
A traced match also writes its moves into ``log`` (see :data:`LOG_DEALER` …).

Everything compiled lives in this one module on purpose: numba's on-disk cache
(``cache=True``) is checked against the source file of each function only, so a compiled
helper imported from another module could go stale in the cache unnoticed. The bot
decision is inlined into the game loop (``inline="always"``): a call with its many array
arguments cost a third of the time of a round.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, TypeVar, cast

import numba
import numpy as np
import numpy.typing as npt

from .rng import GAMMA, MASK, STREAM

__all__ = [
    "ACC_SIZE",
    "A_DECIDED",
    "A_ERROR",
    "A_FIRST_WINS",
    "A_MATCHES",
    "A_OVERFLOW",
    "A_ROUNDS",
    "A_ROUND_WINS",
    "A_STARTER_WINS",
    "A_TURNS",
    "A_WINS",
    "LOG_ACTION",
    "LOG_DEALER",
    "LOG_DECK",
    "LOG_RESHUFFLE",
    "OVERFLOW_SIZE",
    "ROUNDS_HIST",
    "TURNS_HIST",
    "V_CALL",
    "V_DISCARD",
    "V_STOCK",
    "V_SWAP",
    "V_TRASH",
    "V_WILD",
    "play_many",
    "play_traced",
    "stream_numbers",
]

Array = npt.NDArray[Any]
_F = TypeVar("_F", bound=Callable[..., Any])


def _jit(parallel: bool = False,
         inline: Literal["never", "always"] = "never") -> Callable[[_F], _F]:
    """``numba.njit(cache=True)``, typed for mypy."""
    return cast(Callable[[_F], _F], numba.njit(cache=True, parallel=parallel, inline=inline))


# -- numbers shared with Python -------------------------------------------------------------

#: Verbs of actions (an action is ``verb * 16 + slot``).
V_STOCK: Final = 0
V_DISCARD: Final = 1
V_WILD: Final = 2
V_SWAP: Final = 3
V_TRASH: Final = 4
V_CALL: Final = 5

#: Log entries: ``[LOG_DEALER, seat]``, ``[LOG_DECK, n, card…]``, ``[LOG_RESHUFFLE, n,
#: card…]``, ``[LOG_ACTION, seat, verb, slot]``.
LOG_DEALER: Final = 0
LOG_DECK: Final = 1
LOG_RESHUFFLE: Final = 2
LOG_ACTION: Final = 3

#: Indices into a worker's accumulator row.
A_MATCHES: Final = 0
A_ROUNDS: Final = 1
A_DECIDED: Final = 2
A_TURNS: Final = 3
A_FIRST_WINS: Final = 4
A_STARTER_WINS: Final = 5
A_WINS: Final = 6  # … 9, one per seat
A_ROUND_WINS: Final = 10  # … 13
A_OVERFLOW: Final = 14  # entries used in the overflow list
A_ERROR: Final = 15  # 1: the overflow list overflowed
ACC_SIZE: Final = 16

#: Histogram sizes: turns per round, rounds per match; larger values go to the overflow
#: list as (0, turns) or (1, rounds) pairs.
TURNS_HIST: Final = 1024
ROUNDS_HIST: Final = 128
OVERFLOW_SIZE: Final = 1024

# -- kernel-private constants ---------------------------------------------------------------

_B_RANDOM = 0
_B_GREEDY = 1
_B_COUNTER = 2
_B_KID = 3
_B_SOMETIMES = 4
_B_STOCKONLY = 5

_PH_DRAW = 0
_PH_WILD = 1
_PH_SWAP = 2

_STOCK = V_STOCK * 16
_DISCARD = V_DISCARD * 16
_SWAP = V_SWAP * 16
_TRASH = V_TRASH * 16
_CALL = V_CALL * 16

_WILD_ROLE = 0

_G = np.uint64(GAMMA)
_STREAM = np.uint64(STREAM)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_U11 = np.uint64(11)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_TWO_53 = 1.0 / 9007199254740992.0
assert MASK == (1 << 64) - 1


def _tables() -> tuple[Array, Array]:
    pop = np.zeros(1024, dtype=np.int8)
    high = np.full(1024, -1, dtype=np.int8)
    for mask in range(1, 1024):
        pop[mask] = bin(mask).count("1")
        high[mask] = mask.bit_length() - 1
    return pop, high


#: popcount and index of the highest set bit of a 10-slot mask.
_POP, _HIGH = _tables()

# -- random numbers -------------------------------------------------------------------------


@_jit(inline="always")
def _mix64(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@_jit(inline="always")
def _bounded(x: np.uint64, m: int) -> int:
    """``floor(x · m / 2**64)``, as :func:`trashcards.sim.rng.bounded`."""
    mu = np.uint64(m)
    hi = (x >> _U32) * mu
    lo = ((x & _LOW32) * mu) >> _U32
    return int(np.int64((hi + lo) >> _U32))


@_jit()
def _next_key(chance: np.uint64, t: int) -> np.uint64:
    return _mix64(chance + np.uint64(t + 1) * _G)


@_jit(inline="always")
def _uniform(keys: Array, ctr: Array, seat: int) -> float:
    ctr[seat] += 1
    x = _mix64(keys[seat] + np.uint64(ctr[seat]) * _G)
    return np.float64(x >> _U11) * _TWO_53


@_jit(inline="always")
def _fy_step(deck: Array, p: int, end: int, key: np.uint64) -> int:
    """Fisher–Yates at position ``p`` of ``deck[0:end]``: the card that lands there."""
    x = _mix64(key + np.uint64(p + 1) * _G)
    j = p + _bounded(x, end - p)
    card: int = deck[j]
    deck[j] = deck[p]
    deck[p] = card
    return card


@_jit()
def stream_numbers(skey: np.uint64, index: int, stream: int, count: int) -> Array:
    """The first ``count`` numbers of a stream of the run with seed key ``skey`` (for
    tests against :mod:`.rng`)."""
    mk = _mix64(skey + np.uint64(index + 1) * _G)
    key = _mix64(mk ^ (np.uint64(stream + 1) * _STREAM))
    out = np.empty(count, dtype=np.uint64)
    for n in range(count):
        out[n] = _mix64(key + np.uint64(n + 1) * _G)
    return out


# -- bots -------------------------------------------------------------------------------------


@_jit()
def _counter_slot(down: int, decks: int, players: int, sizes: Array,
                  bdown: Array, bcard: Array, discard: Array,
                  dl: int, ranks: Array, unseen: Array) -> int:
    """The counting bot's slot: fewest unseen cards of its rank, ties the highest."""
    for r in range(11):
        unseen[r] = 4 * decks
    for q in range(players):
        mask = bdown[q]
        for k in range(sizes[q]):
            if not (mask >> k) & 1:
                r = ranks[bcard[q * 10 + k]]
                if 1 <= r <= 10:
                    unseen[r] -= 1
    for i in range(dl):
        r = ranks[discard[i]]
        if 1 <= r <= 10:
            unseen[r] -= 1
    best = -1
    best_unseen = 0
    for k in range(10):
        if (down >> k) & 1 and (best < 0 or unseen[k + 1] <= best_unseen):
            best = k
            best_unseen = unseen[k + 1]
    return best + 1


@_jit(inline="always")
def _decide(bot: int, phase: int, seat: int, down: int, can_discard: bool, must_play: bool,
            call_ok: bool, keys: Array, ctr: Array,
            decks: int, players: int, sizes: Array, bdown: Array,
            bcard: Array, discard: Array, dl: int,
            ranks: Array, unseen: Array) -> int:
    """The action of ``bot`` (an action is ``verb * 16 + slot``), as :mod:`trashcards.bots`
    decides it from the legal actions in the engine's order."""
    if bot == _B_RANDOM:
        u = _uniform(keys, ctr, seat)
        if phase == _PH_DRAW:
            i = int(u * (1 + int(can_discard) + int(call_ok)))
            if i == 0:
                return _STOCK
            if i == 1 and can_discard:
                return _DISCARD
            return _CALL
        if phase == _PH_WILD:
            nd = _POP[down]
            i = int(u * (nd + int(not must_play) + int(call_ok)))
            if i < nd:
                for k in range(10):
                    if (down >> k) & 1:
                        if i == 0:
                            return V_WILD * 16 + k + 1
                        i -= 1
            i -= nd
            if not must_play:
                if i == 0:
                    return _TRASH
                i -= 1
            return _CALL
        i = int(u * (1 + int(not must_play) + int(call_ok)))
        if i == 0:
            return _SWAP
        if i == 1 and not must_play:
            return _TRASH
        return _CALL
    wants_call = call_ok and _POP[down] == 1
    if bot == _B_KID:
        if wants_call and _uniform(keys, ctr, seat) >= 0.5:
            return _CALL
        if phase == _PH_DRAW:
            if can_discard:
                return _STOCK if _uniform(keys, ctr, seat) < 0.3 else _DISCARD
            return _STOCK
        if phase == _PH_WILD:
            high: int = _HIGH[down]
            return V_WILD * 16 + high + 1
        return _SWAP
    if wants_call:
        return _CALL
    if phase == _PH_DRAW:
        if not can_discard or bot == _B_STOCKONLY:
            return _STOCK
        if bot == _B_SOMETIMES and not _uniform(keys, ctr, seat) < 0.5:
            return _STOCK
        return _DISCARD
    if phase == _PH_WILD:
        if bot == _B_COUNTER:
            return V_WILD * 16 + _counter_slot(down, decks, players, sizes, bdown, bcard,
                                               discard, dl, ranks, unseen)
        highest: int = _HIGH[down]
        return V_WILD * 16 + highest + 1
    return _SWAP


# -- the game ---------------------------------------------------------------------------------


@_jit()
def _log(log: Array, lp: Array, value: int) -> None:
    """Append to the trace (counting even past its end, so the caller can grow it)."""
    n = lp[0]
    if n < log.shape[0]:
        log[n] = value
    lp[0] = n + 1


@_jit()
def _log_action(log: Array, lp: Array, seat: int, act: int) -> None:
    _log(log, lp, LOG_ACTION)
    _log(log, lp, seat)
    _log(log, lp, act >> 4)
    _log(log, lp, act & 15)


@_jit()
def _log_cards(log: Array, lp: Array, kind: int,
               deck: Array, n: int) -> None:
    _log(log, lp, kind)
    _log(log, lp, n)
    for i in range(n):
        _log(log, lp, deck[i])


@_jit(inline="always")
def _stuck(roles: Array, discard: Array, dl: int, players: int, down: Array,
           wildm: Array) -> bool:
    """Whether no card of the discard pile ``discard[0:dl]`` is playable on any board: a
    pip card whose slot is face down or holds a wild, a wild while a slot is face down.

    With the stock empty, every card off the boards is in that pile, so no board can
    change any more: the round is stuck and ends with no winner (RULES.md §5.4, the
    engine's ``_stuck``; the caller checks that no claim or final lap is pending).
    """
    needed = 0  # slots, on any board, that a pip card of that slot's rank would fill
    face_down = False
    for q in range(players):
        needed |= down[q] | wildm[q]
        face_down = face_down or down[q] != 0
    for i in range(dl):
        r = roles[discard[i]]
        if r > 0:
            if (needed >> (r - 1)) & 1:
                return False
        elif r == _WILD_ROLE and face_down:
            return False
    return True


@_jit()
def _stock_empty(deck: Array, discard: Array, dl: int, key: np.uint64, may_stick: bool,
                 roles: Array, players: int, down: Array, wildm: Array, trace: bool,
                 log: Array, lp: Array) -> int:
    """The stock is empty when a card must be drawn (RULES.md §5.4). Returns 0 when the
    round ends with no winner: nothing to reshuffle, or, if ``may_stick`` (a draw of the
    player's own, no claim or final lap pending), the round is stuck (:func:`_stuck`).
    Else the discard pile less its top card becomes the stock ``deck[0:k]``, shuffled
    with ``key`` at once when traced, else lazily as it is drawn, and k is returned.

    One call for both outcomes, with :func:`_stuck` inlined into it: the stuck test
    called from the game loop, or called from here, made every round about 5 % slower
    (measured: two-player standard, one thread), though it runs only when the stock is
    empty.
    """
    if dl <= 1 or (may_stick and _stuck(roles, discard, dl, players, down, wildm)):
        return 0
    k = dl - 1
    for i in range(k):
        deck[i] = discard[i]
    discard[0] = discard[k]
    if trace:
        for p in range(k):
            _fy_step(deck, p, k, key)
        _log_cards(log, lp, LOG_RESHUFFLE, deck, k)
    return k


@_jit(inline="always")
def _count(acc: Array, hist: Array, ovf: Array,
           kind: int, value: int) -> None:
    if value < hist.shape[0]:
        hist[value] += 1
        return
    n = acc[A_OVERFLOW]
    if n < ovf.shape[0]:
        ovf[n, 0] = kind
        ovf[n, 1] = value
        acc[A_OVERFLOW] = n + 1
    else:
        acc[A_ERROR] = 1


@_jit()
def _play(params: Array, roles: Array, ranks: Array,
          bots: Array, mk: np.uint64, deck: Array, discard: Array,
          bcard: Array, down: Array, wildm: Array,
          sizes: Array, rounds_won: Array, keys: Array,
          ctr: Array, unseen: Array, counts: Array,
          acc: Array,
          thist: Array, rhist: Array, ovf: Array,
          trace: bool, log: Array,
          lp: Array) -> tuple[int, int, int, int, int, int]:
    """Play one match with key ``mk``; returns (winner, rounds, dl, sp, se, dealer)."""
    players = params[0]
    ncards = params[1]
    decks = params[2]
    start_size = params[3]
    target = params[4]
    call_trash = params[5] != 0
    last_chance = params[6] != 0

    chance = _mix64(mk ^ _STREAM)
    for s in range(players):
        keys[s] = _mix64(mk ^ (np.uint64(s + 2) * _STREAM))
        ctr[s] = 0
        rounds_won[s] = 0
    nshuf = 0
    key = _next_key(chance, nshuf)
    nshuf += 1
    dealer = _bounded(_mix64(key + _G), players)
    if trace:
        _log(log, lp, LOG_DEALER)
        _log(log, lp, dealer)
    first_player = (dealer + 1) % players
    nrounds = 0
    winner = -1
    dl = 0
    sp = 0
    se = 0
    while True:
        # -- the deal (RULES.md §4) --
        if nrounds > 0:
            dealer = (dealer + 1) % players
        nrounds += 1
        for i in range(ncards):
            deck[i] = i
        key = _next_key(chance, nshuf)
        nshuf += 1
        shuffled = False
        if trace:
            for p in range(ncards):
                _fy_step(deck, p, ncards, key)
            shuffled = True
            _log_cards(log, lp, LOG_DECK, deck, ncards)
        total = 0
        for s in range(players):
            sizes[s] = start_size - rounds_won[s]
            total += sizes[s]
            counts[s] = 0
        seat = dealer
        for p in range(total):
            seat = seat + 1 if seat + 1 < players else 0
            while counts[seat] == sizes[seat]:
                seat = seat + 1 if seat + 1 < players else 0
            card = deck[p] if shuffled else _fy_step(deck, p, ncards, key)
            bcard[seat * 10 + counts[seat]] = card
            counts[seat] += 1
        for s in range(players):
            down[s] = (1 << sizes[s]) - 1
            wildm[s] = 0
        sp = total
        se = ncards
        dl = 0
        starter = (dealer + 1) % players
        seat = starter
        turns = 0
        decided = False
        starter_won = False
        final_from = -1
        unclaimed = 0
        # 0: playing, 1: round over, 2: match over
        state = 0
        while state == 0:
            # -- one turn of `seat` (RULES.md §5) --
            called = False
            must_play = False
            size = sizes[seat]
            d = down[seat]
            w = wildm[seat]
            base = seat * 10
            bot = bots[seat]
            while True:
                can_discard = False
                if dl > 0:
                    r = roles[discard[dl - 1]]
                    if r > 0:
                        can_discard = r <= size and ((d | w) >> (r - 1)) & 1 != 0
                    else:
                        can_discard = r == _WILD_ROLE and d != 0
                act = _decide(bot, _PH_DRAW, seat, d, can_discard, False,
                              call_trash and not called, keys, ctr, decks, players, sizes,
                              down, bcard, discard, dl, ranks, unseen)
                if trace:
                    _log_action(log, lp, seat, act)
                if act != _CALL:
                    break
                called = True
            if act == _STOCK:
                if sp == se:
                    key = _next_key(chance, nshuf)
                    stock = _stock_empty(deck, discard, dl, key,
                                         unclaimed == 0 and final_from < 0, roles, players,
                                         down, wildm, trace, log, lp)
                    if stock == 0:
                        state = 1  # a void round
                        break
                    nshuf += 1
                    se = stock
                    dl = 1
                    sp = 0
                    shuffled = trace
                card = deck[sp] if shuffled else _fy_step(deck, sp, se, key)
                sp += 1
            else:
                dl -= 1
                card = discard[dl]
                must_play = True
            turns += 1
            # -- the chain (RULES.md §5.2) --
            complete = False
            while True:
                r = roles[card]
                if r > 0 and r <= size:
                    bit = 1 << (r - 1)
                    if d & bit:
                        turned = bcard[base + r - 1]
                        bcard[base + r - 1] = card
                        d &= ~bit
                        must_play = False
                        card = turned
                        if d == 0:
                            complete = True
                            break
                        continue
                    if w & bit:
                        down[seat] = d
                        while True:
                            act = _decide(bot, _PH_SWAP, seat, d, False, must_play,
                                          call_trash and not called, keys, ctr, decks, players,
                                          sizes, down, bcard, discard, dl, ranks, unseen)
                            if trace:
                                _log_action(log, lp, seat, act)
                            if act != _CALL:
                                break
                            called = True
                        if act == _SWAP:
                            held = bcard[base + r - 1]
                            bcard[base + r - 1] = card
                            w &= ~bit
                            must_play = False
                            card = held
                            continue
                    discard[dl] = card
                    dl += 1
                    break
                if r == _WILD_ROLE:
                    down[seat] = d
                    while True:
                        act = _decide(bot, _PH_WILD, seat, d, False, must_play,
                                      call_trash and not called, keys, ctr, decks, players,
                                      sizes, down, bcard, discard, dl, ranks, unseen)
                        if trace:
                            _log_action(log, lp, seat, act)
                        if act != _CALL:
                            break
                        called = True
                    if act >> 4 == V_WILD:
                        k = (act & 15) - 1
                        bit = 1 << k
                        turned = bcard[base + k]
                        bcard[base + k] = card
                        d &= ~bit
                        w |= bit
                        must_play = False
                        card = turned
                        if d == 0:
                            complete = True
                            break
                        continue
                discard[dl] = card
                dl += 1
                break
            down[seat] = d
            wildm[seat] = w
            if complete:
                # -- a board is complete (RULES.md §6, §9) --
                discard[dl] = card
                dl += 1
                if not call_trash or called:
                    rounds_won[seat] += 1
                    acc[A_ROUND_WINS + seat] += 1
                    decided = True
                    starter_won = starter_won or seat == starter
                    if rounds_won[seat] >= target:
                        winner = seat
                        state = 2
                        break
                    if not last_chance:
                        state = 1
                        break
                    if final_from < 0:
                        final_from = seat
                else:
                    unclaimed |= 1 << seat
                    if sp == se:  # the penalty card (no stuck test: a claim is pending)
                        key = _next_key(chance, nshuf)
                        stock = _stock_empty(deck, discard, dl, key, False, roles, players,
                                             down, wildm, trace, log, lp)
                        if stock == 0:
                            state = 1
                            break
                        nshuf += 1
                        se = stock
                        dl = 1
                        sp = 0
                        shuffled = trace
                    card = deck[sp] if shuffled else _fy_step(deck, sp, se, key)
                    sp += 1
                    discard[dl] = card
                    dl += 1
            # -- the turn passes; claims and the final cycle (RULES.md §9) --
            while True:
                seat = seat + 1 if seat + 1 < players else 0
                if seat == final_from:
                    state = 1
                    break
                if unclaimed & (1 << seat):
                    unclaimed &= ~(1 << seat)
                    rounds_won[seat] += 1
                    acc[A_ROUND_WINS + seat] += 1
                    decided = True
                    starter_won = starter_won or seat == starter
                    if rounds_won[seat] >= target:
                        winner = seat
                        state = 2
                        break
                    if not last_chance:
                        state = 1
                        break
                    if final_from < 0:
                        final_from = seat
                    continue
                break
        # -- the round is over --
        acc[A_ROUNDS] += 1
        acc[A_TURNS] += turns
        _count(acc, thist, ovf, 0, turns)
        if decided:
            acc[A_DECIDED] += 1
            if starter_won:
                acc[A_STARTER_WINS] += 1
        if state == 2:
            break
    acc[A_MATCHES] += 1
    acc[A_WINS + winner] += 1
    if winner == first_player:
        acc[A_FIRST_WINS] += 1
    _count(acc, rhist, ovf, 1, nrounds)
    return winner, nrounds, dl, sp, se, dealer


@_jit()
def _scratch(players: int, ncards: int) -> tuple[Array, ...]:
    deck = np.empty(ncards, dtype=np.int16)
    discard = np.empty(ncards, dtype=np.int16)
    bcard = np.zeros(players * 10, dtype=np.int16)
    down = np.zeros(players, dtype=np.int64)
    wildm = np.zeros(players, dtype=np.int64)
    sizes = np.zeros(players, dtype=np.int64)
    rounds_won = np.zeros(players, dtype=np.int64)
    keys = np.zeros(players, dtype=np.uint64)
    ctr = np.zeros(players, dtype=np.int64)
    unseen = np.zeros(11, dtype=np.int64)
    counts = np.zeros(players, dtype=np.int64)
    return deck, discard, bcard, down, wildm, sizes, rounds_won, keys, ctr, unseen, counts


@_jit(parallel=True)
def play_many(params: Array, roles: Array, ranks: Array,
              bots: Array, skey: np.uint64, start: int, count: int,
              acc: Array, thist: Array, rhist: Array,
              ovf: Array) -> None:
    """Matches ``start`` … ``start + count - 1``, split into ``acc.shape[0]`` contiguous
    blocks run in parallel; block b adds its totals into row b of the accumulators."""
    blocks = acc.shape[0]
    players = params[0]
    ncards = params[1]
    log = np.zeros(1, dtype=np.int32)
    lp = np.zeros(1, dtype=np.int64)
    for b in numba.prange(blocks):
        lo = start + count * b // blocks
        hi = start + count * (b + 1) // blocks
        (deck, discard, bcard, down, wildm, sizes, rounds_won, keys, ctr, unseen,
         counts) = _scratch(
            players, ncards)
        for index in range(lo, hi):
            mk = _mix64(skey + np.uint64(index + 1) * _G)
            _play(params, roles, ranks, bots, mk, deck, discard, bcard, down, wildm, sizes,
                  rounds_won, keys, ctr, unseen, counts, acc[b], thist[b], rhist[b], ovf[b],
                  False, log, lp)


@_jit()
def play_traced(params: Array, roles: Array, ranks: Array,
                bots: Array, skey: np.uint64, index: int, acc: Array,
                thist: Array, rhist: Array, ovf: Array,
                log: Array, lp: Array,
                final: Array) -> None:
    """Match ``index`` with its moves written to ``log`` (``lp[0]``: entries needed) and its
    end state to ``final``: ``[winner, rounds, dealer, rounds_won × P, sizes × P,
    down × P, cards × 10P, discard count, discard…, stock count, stock…]``."""
    players = params[0]
    ncards = params[1]
    mk = _mix64(skey + np.uint64(index + 1) * _G)
    (deck, discard, bcard, down, wildm, sizes, rounds_won, keys, ctr, unseen,
         counts) = _scratch(
        players, ncards)
    lp[0] = 0
    winner, nrounds, dl, sp, se, dealer = _play(
        params, roles, ranks, bots, mk, deck, discard, bcard, down, wildm, sizes, rounds_won,
        keys, ctr, unseen, counts, acc, thist, rhist, ovf, True, log, lp)
    final[0] = winner
    final[1] = nrounds
    final[2] = dealer
    n = 3
    for s in range(players):
        final[n] = rounds_won[s]
        final[n + players] = sizes[s]
        final[n + 2 * players] = down[s]
        n += 1
    n += 2 * players
    for i in range(players * 10):
        final[n] = bcard[i]
        n += 1
    final[n] = dl
    n += 1
    for i in range(dl):
        final[n] = discard[i]
        n += 1
    final[n] = se - sp
    n += 1
    for i in range(sp, se):
        final[n] = deck[i]
        n += 1
