"""The game, compiled: :func:`run` plays a match state on from any point until a seat
that is not a bot must decide, the round ends or the match ends.

It plays exactly the game of :mod:`trashcards.engine` (RULES.md §4–§9): the deal, the
draw, the chain, wilds and swaps, completion, call-trash and its penalty card, claims,
the last-chance lap, reshuffles and stuck rounds. Every other kernel entry point (whole
matches, rollouts, evaluation, vector stepping) is this one function with different
arguments; there is no second copy of the rules.

Chance follows :mod:`trashcards.sim.rng`: shuffle ``t`` of the chance stream (``S_NSHUF``
counts them) is the cut for the dealer, a round's deck or a reshuffle, in the order they
happen. Shuffles are Fisher–Yates done lazily, one position when its card is drawn (each
position has its own counter-based number, so this equals a shuffle done all at once,
which a traced run does to log it); a stock loaded from a position is already in order
(``S_SHUFFLED``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .bots import decide
from .jit import kjit
from .layout import (
    A_DECIDED,
    A_FIRST_WINS,
    A_MATCHES,
    A_ROUND_WINS,
    A_ROUNDS,
    A_STARTER_WINS,
    A_TURNS,
    A_WINS,
    H_MATCH,
    H_ROUND,
    K_CHANCE,
    K_SHUFFLE,
    LOG_ACTION,
    LOG_DEALER,
    LOG_DECK,
    LOG_RESHUFFLE,
    O_BCARD,
    O_CTR,
    O_DECK,
    O_DOWN,
    O_SIZE,
    O_WILD,
    O_WON,
    PH_DEAL,
    PH_DEALER,
    PH_DRAW,
    PH_MATCH_OVER,
    PH_PENALTY,
    PH_RESHUFFLE,
    PH_ROUND_OVER,
    PH_SWAP,
    PH_WILD,
    R_DECIDE,
    R_MATCH_OVER,
    R_MOVE_CAP,
    R_ROUND_OVER,
    S_CALLED,
    S_DEALER,
    S_DECIDED,
    S_DL,
    S_FINAL_FROM,
    S_FIRST,
    S_HAND,
    S_MATCH_WINNER,
    S_MOVES,
    S_MUST_PLAY,
    S_NSHUF,
    S_PHASE,
    S_ROUND,
    S_SE,
    S_SHUFFLED,
    S_SP,
    S_STARTER_WON,
    S_STOCK_PUBLIC,
    S_TURN,
    S_TURNS,
    S_UNCLAIMED,
    S_WINNERS,
    T_CALL_TRASH,
    T_CARDS,
    T_LAST_CHANCE,
    T_MOVE_CAP,
    T_PLAYERS,
    T_ROLES,
    T_START_SIZE,
    T_TARGET,
    V_CALL,
    V_STOCK,
    V_SWAP,
    V_WILD,
)
from .numbers import G, bounded, fy_step, match_keys, mix64, next_key

__all__ = ["Flag", "Int", "new_match", "run", "stock_empty", "stuck"]

Array = npt.NDArray[Any]
#: The argument types of :func:`run`'s ``ext``/``pending``/``horizon`` and ``trace``
#: (any integer or boolean: :mod:`.jit` compiles one copy for all).
Int = int | np.int64
Flag = bool | np.bool_

_STOCK = V_STOCK * 16
_SWAP = V_SWAP * 16
_CALL = V_CALL * 16
_WILD_ROLE = 0

# -- the trace ----------------------------------------------------------------------------------


@kjit()
def _log(log: Array, lp: Array, value: int) -> None:
    """Append to the trace (counting even past its end, so the caller can grow it)."""
    n = lp[0]
    if n < log.shape[0]:
        log[n] = value
    lp[0] = n + 1


@kjit()
def _log_action(log: Array, lp: Array, seat: int, act: int) -> None:
    _log(log, lp, LOG_ACTION)
    _log(log, lp, seat)
    _log(log, lp, act >> 4)
    _log(log, lp, act & 15)


@kjit()
def _log_cards(log: Array, lp: Array, kind: int, a: Array, at: int, n: int) -> None:
    _log(log, lp, kind)
    _log(log, lp, n)
    for i in range(n):
        _log(log, lp, a[at + i])


# -- the stock runs out -------------------------------------------------------------------------


@kjit(inline=True)
def stuck(tab: Array, st: Array, dsc: int, dl: int, players: int) -> bool:
    """Whether no card of the discard pile is playable on any board: a pip card whose
    slot is face down or holds a wild, a wild while a slot is face down.

    With the stock empty, every card off the boards is in that pile, so no board can
    change any more: the round is stuck and ends with no winner (RULES.md §5.4, the
    engine's ``_stuck``; the caller checks that no claim or final lap is pending).
    """
    needed = 0  # slots, on any board, that a pip card of that slot's rank would fill
    face_down = False
    for q in range(players):
        needed |= st[O_DOWN + q] | st[O_WILD + q]
        face_down = face_down or st[O_DOWN + q] != 0
    for i in range(dl):
        r = tab[T_ROLES + st[dsc + i]]
        if r > 0:
            if (needed >> (r - 1)) & 1:
                return False
        elif r == _WILD_ROLE and face_down:
            return False
    return True


@kjit()
def stock_empty(tab: Array, st: Array, dsc: int, dl: int, key: np.uint64, may_stick: Flag,
                players: int, trace: Flag, log: Array, lp: Array) -> int:
    """The stock is empty when a card must be drawn (RULES.md §5.4). Returns 0 when the
    round ends with no winner: nothing to reshuffle, or, if ``may_stick`` (a draw of the
    player's own, no claim or final lap pending), the round is stuck (:func:`stuck`).
    Else the discard pile less its top card becomes the stock ``deck[0:k]``, shuffled
    with ``key`` at once when traced, else lazily as it is drawn, and k is returned.

    One call for both outcomes, with :func:`stuck` inlined into it: the stuck test
    called from the game loop, or called from here, made every round about 5 % slower
    (measured: two-player standard, one thread), though it runs only when the stock is
    empty.
    """
    if dl <= 1 or (may_stick and stuck(tab, st, dsc, dl, players)):
        return 0
    k = dl - 1
    for i in range(k):
        st[O_DECK + i] = st[dsc + i]
    st[dsc] = st[dsc + k]
    if trace:
        for p in range(k):
            fy_step(st, O_DECK, p, k, key)
        _log_cards(log, lp, LOG_RESHUFFLE, st, O_DECK, k)
    return k


# -- statistics ---------------------------------------------------------------------------------


@kjit(inline=True)
def _count(acc: Array, hist: Array, ovf: Array, kind: int, value: int) -> None:
    if value < hist.shape[0]:
        hist[value] += 1
        return
    n = acc[14]  # A_OVERFLOW
    if n < ovf.shape[0]:
        ovf[n, 0] = kind
        ovf[n, 1] = value
        acc[14] = n + 1
    else:
        acc[15] = 1  # A_ERROR


# -- the state between two calls ----------------------------------------------------------------


@kjit(inline=True)
def _store(st: Array, ky: Array, phase: int, seat: int, card: int, called: bool,
           must_play: bool, unclaimed: int, final_from: int, winners: int, dealer: int,
           rnd: int, sp: int, se: int, dl: int, shuffled: bool, stock_public: bool,
           nshuf: int, key: np.uint64, turns: int, decided: bool, starter_won: bool,
           moves: int) -> None:
    st[S_PHASE] = phase
    st[S_TURN] = seat
    st[S_HAND] = card
    st[S_CALLED] = called
    st[S_MUST_PLAY] = must_play
    st[S_UNCLAIMED] = unclaimed
    st[S_FINAL_FROM] = final_from
    st[S_WINNERS] = winners
    st[S_DEALER] = dealer
    st[S_ROUND] = rnd
    st[S_SP] = sp
    st[S_SE] = se
    st[S_DL] = dl
    st[S_SHUFFLED] = shuffled
    st[S_STOCK_PUBLIC] = stock_public
    st[S_NSHUF] = nshuf
    ky[K_SHUFFLE] = key
    st[S_TURNS] = turns
    st[S_DECIDED] = decided
    st[S_STARTER_WON] = starter_won
    st[S_MOVES] = moves


# -- the game -----------------------------------------------------------------------------------


@kjit(inline=True)
def new_match(tab: Array, st: Array, ky: Array, skey: np.uint64, index: int) -> None:
    """``st``/``ky`` become match ``index`` of the run with seed key ``skey`` before the cut
    for the dealer (:func:`trashcards.state.new_match`)."""
    players = tab[T_PLAYERS]
    match_keys(ky, skey, index, players)
    st[S_PHASE] = PH_DEALER
    st[S_TURN] = -1
    st[S_HAND] = -1
    st[S_CALLED] = 0
    st[S_MUST_PLAY] = 0
    st[S_UNCLAIMED] = 0
    st[S_FINAL_FROM] = -1
    st[S_WINNERS] = 0
    st[S_MATCH_WINNER] = -1
    st[S_DEALER] = -1
    st[S_ROUND] = 1
    st[S_SP] = 0
    st[S_SE] = 0
    st[S_DL] = 0
    st[S_SHUFFLED] = 0
    st[S_STOCK_PUBLIC] = 0
    st[S_NSHUF] = 0
    st[S_TURNS] = 0
    st[S_DECIDED] = 0
    st[S_STARTER_WON] = 0
    st[S_FIRST] = -1
    st[S_MOVES] = 0
    for s in range(4):
        st[O_SIZE + s] = tab[T_START_SIZE] if s < players else 0
        st[O_DOWN + s] = 0
        st[O_WILD + s] = 0
        st[O_WON + s] = 0
        st[O_CTR + s] = 0


@kjit(inline=True)
def run(tab: Array, st: Array, ky: Array, bots: Array, ext: Int, pending: Int, horizon: Int,
        acc: Array, thist: Array, rhist: Array, ovf: Array, tmp: Array,
        trace: Flag, log: Array, lp: Array) -> int:
    """Play the state ``st``/``ky`` on; returns what it stopped at (``R_*``).

    The bots ``bots[seat]`` decide for every seat but ``ext`` and the seats whose code is
    negative (:data:`~trashcards.sim.kernel.layout.B_EXTERNAL`: decided outside, e.g. by
    a learned policy): at a decision of any of those the state is stored and
    :data:`R_DECIDE` returned (``st[S_TURN]`` says whose it is). ``pending`` (≥ 0) is the action
    taken at the first decision instead of asking anyone (a candidate action, or the
    external seat's choice when resuming); the caller has checked that it is legal.
    ``horizon`` ``H_ROUND`` stops when the round ends (``R_ROUND_OVER``), ``H_MATCH``
    plays new rounds until the match ends (``R_MATCH_OVER``), ``H_ROUNDS`` does too but
    stops at every round's end (called again, it deals the next round). With a move cap
    (``tab[T_MOVE_CAP]`` > 0), the first decision of any seat once the match has had that
    many player actions (``st[S_MOVES]``, every seat's) stores the state and returns
    ``R_MOVE_CAP``. Statistics go into
    ``acc``/``thist``/``rhist``/``ovf``; ``tmp`` is scratch (at least 11 entries); with
    ``trace``, chance moves and actions are appended to ``log``.

    It is compiled once and inlined by LLVM into each caller (one call site each: the
    whole-match loop, the traced match, the rollouts, the evaluation, the vector step),
    where the constant arguments (``trace``, ``horizon``) prune what they rule out.
    """
    entry = st[S_PHASE]
    if entry == PH_MATCH_OVER:
        return R_MATCH_OVER
    if entry == PH_ROUND_OVER and horizon == H_ROUND:
        return R_ROUND_OVER
    players = tab[T_PLAYERS]
    ncards = tab[T_CARDS]
    start_size = tab[T_START_SIZE]
    target = tab[T_TARGET]
    call_trash = tab[T_CALL_TRASH] != 0
    last_chance = tab[T_LAST_CHANCE] != 0
    dsc = O_DECK + ncards  # the discard pile
    chance = ky[K_CHANCE]
    key = ky[K_SHUFFLE]
    seat = st[S_TURN]
    card = st[S_HAND]
    called = st[S_CALLED] != 0
    must_play = st[S_MUST_PLAY] != 0
    unclaimed = st[S_UNCLAIMED]
    final_from = st[S_FINAL_FROM]
    winners = st[S_WINNERS]
    dealer = st[S_DEALER]
    rnd = st[S_ROUND]
    sp = st[S_SP]
    se = st[S_SE]
    dl = st[S_DL]
    shuffled = st[S_SHUFFLED] != 0
    stock_public = st[S_STOCK_PUBLIC] != 0
    nshuf = st[S_NSHUF]
    turns = st[S_TURNS]
    decided = st[S_DECIDED] != 0
    starter_won = st[S_STARTER_WON] != 0
    moves = st[S_MOVES]
    cap = tab[T_MOVE_CAP]
    # 0: playing, 1: round over, 2: match over
    state = 0
    while True:
        if entry >= PH_DEAL:
            # -- the cut, then the deal (RULES.md §4) --
            if entry == PH_DEALER:
                key = next_key(chance, nshuf)
                nshuf += 1
                dealer = bounded(mix64(key + G), players)
                if trace:
                    _log(log, lp, LOG_DEALER)
                    _log(log, lp, dealer)
                st[S_FIRST] = (dealer + 1) % players
            elif entry == PH_ROUND_OVER:
                dealer = (dealer + 1) % players
                rnd += 1
            for i in range(ncards):
                st[O_DECK + i] = i
            key = next_key(chance, nshuf)
            nshuf += 1
            shuffled = False
            if trace:
                for p in range(ncards):
                    fy_step(st, O_DECK, p, ncards, key)
                shuffled = True
                _log_cards(log, lp, LOG_DECK, st, O_DECK, ncards)
            total = 0
            for s in range(players):
                size = start_size - st[O_WON + s]
                st[O_SIZE + s] = size
                total += size
                tmp[s] = 0
            seat = dealer
            for p in range(total):
                seat = seat + 1 if seat + 1 < players else 0
                while tmp[seat] == st[O_SIZE + seat]:
                    seat = seat + 1 if seat + 1 < players else 0
                dealt = st[O_DECK + p] if shuffled else fy_step(st, O_DECK, p, ncards, key)
                st[O_BCARD + seat * 10 + tmp[seat]] = dealt
                tmp[seat] += 1
            for s in range(players):
                st[O_DOWN + s] = (1 << st[O_SIZE + s]) - 1
                st[O_WILD + s] = 0
            sp = total
            se = ncards
            dl = 0
            seat = (dealer + 1) % players
            card = -1
            called = False
            must_play = False
            unclaimed = 0
            final_from = -1
            winners = 0
            stock_public = False
            turns = 0
            decided = False
            starter_won = False
            entry = PH_DRAW
        starter = (dealer + 1) % players
        state = 0
        while state == 0:
            # -- one turn of `seat` (RULES.md §5), or the rest of one --
            size = st[O_SIZE + seat]
            d = st[O_DOWN + seat]
            w = st[O_WILD + seat]
            base = O_BCARD + seat * 10
            bot = bots[seat]
            penalty = entry == PH_PENALTY
            if entry <= PH_RESHUFFLE:  # a draw
                act = _STOCK
                if entry == PH_DRAW:
                    while True:
                        can_discard = False
                        if dl > 0:
                            r = tab[T_ROLES + st[dsc + dl - 1]]
                            if r > 0:
                                can_discard = r <= size and ((d | w) >> (r - 1)) & 1 != 0
                            else:
                                can_discard = r == _WILD_ROLE and d != 0
                        if pending >= 0:
                            act = int(pending)
                            pending = -1
                        elif seat == ext or bot < 0 or (cap > 0 and moves >= cap):
                            _store(st, ky, PH_DRAW, seat, -1, called, must_play, unclaimed,
                                   final_from, winners, dealer, rnd, sp, se, dl, shuffled,
                                   stock_public, nshuf, key, turns, decided, starter_won, moves)
                            return R_DECIDE if seat == ext or bot < 0 else R_MOVE_CAP
                        else:
                            act = decide(bot, PH_DRAW, seat, d, can_discard, False,
                                         call_trash and not called, tab, st, ky, dsc, dl, tmp)
                        moves += 1
                        if trace:
                            _log_action(log, lp, seat, act)
                        if act != _CALL:
                            break
                        called = True
                if act == _STOCK:
                    if sp == se:
                        # a reshuffle due when resuming was checked for a stuck round
                        key = next_key(chance, nshuf)
                        stock = stock_empty(tab, st, dsc, dl, key,
                                            entry == PH_DRAW and unclaimed == 0
                                            and final_from < 0, players, trace, log, lp)
                        if stock == 0:
                            state = 1  # a void round
                            card = -1
                            break
                        nshuf += 1
                        se = stock
                        dl = 1
                        sp = 0
                        shuffled = trace
                        stock_public = True
                    card = st[O_DECK + sp] if shuffled else fy_step(st, O_DECK, sp, se, key)
                    sp += 1
                else:
                    dl -= 1
                    card = st[dsc + dl]
                    must_play = True
                turns += 1
            entry = PH_DRAW
            if not penalty:
                # -- the chain (RULES.md §5.2), from the card in hand --
                complete = False
                while True:
                    r = tab[T_ROLES + card]
                    if r > 0 and r <= size:
                        bit = 1 << (r - 1)
                        if d & bit:
                            turned = st[base + r - 1]
                            st[base + r - 1] = card
                            d &= ~bit
                            must_play = False
                            card = turned
                            if d == 0:
                                complete = True
                                break
                            continue
                        if w & bit:
                            st[O_DOWN + seat] = d
                            while True:
                                if pending >= 0:
                                    act = int(pending)
                                    pending = -1
                                elif seat == ext or bot < 0 or (cap > 0 and moves >= cap):
                                    st[O_WILD + seat] = w
                                    _store(st, ky, PH_SWAP, seat, card, called, must_play,
                                           unclaimed, final_from, winners, dealer, rnd, sp, se,
                                           dl, shuffled, stock_public, nshuf, key, turns,
                                           decided, starter_won, moves)
                                    return R_DECIDE if seat == ext or bot < 0 else R_MOVE_CAP
                                else:
                                    act = decide(bot, PH_SWAP, seat, d, False, must_play,
                                                 call_trash and not called, tab, st, ky, dsc,
                                                 dl, tmp)
                                moves += 1
                                if trace:
                                    _log_action(log, lp, seat, act)
                                if act != _CALL:
                                    break
                                called = True
                            if act == _SWAP:
                                held = st[base + r - 1]
                                st[base + r - 1] = card
                                w &= ~bit
                                must_play = False
                                card = held
                                continue
                        st[dsc + dl] = card
                        dl += 1
                        break
                    if r == _WILD_ROLE:
                        st[O_DOWN + seat] = d
                        while True:
                            if pending >= 0:
                                act = int(pending)
                                pending = -1
                            elif seat == ext or bot < 0 or (cap > 0 and moves >= cap):
                                st[O_WILD + seat] = w
                                _store(st, ky, PH_WILD, seat, card, called, must_play,
                                       unclaimed, final_from, winners, dealer, rnd, sp, se, dl,
                                       shuffled, stock_public, nshuf, key, turns, decided,
                                       starter_won, moves)
                                return R_DECIDE if seat == ext or bot < 0 else R_MOVE_CAP
                            else:
                                act = decide(bot, PH_WILD, seat, d, False, must_play,
                                             call_trash and not called, tab, st, ky, dsc, dl,
                                             tmp)
                            moves += 1
                            if trace:
                                _log_action(log, lp, seat, act)
                            if act != _CALL:
                                break
                            called = True
                        if act >> 4 == V_WILD:
                            k = (act & 15) - 1
                            bit = 1 << k
                            turned = st[base + k]
                            st[base + k] = card
                            d &= ~bit
                            w |= bit
                            must_play = False
                            card = turned
                            if d == 0:
                                complete = True
                                break
                            continue
                    st[dsc + dl] = card
                    dl += 1
                    break
                st[O_DOWN + seat] = d
                st[O_WILD + seat] = w
                if complete:
                    # -- a board is complete (RULES.md §6, §9) --
                    st[dsc + dl] = card
                    dl += 1
                    if not call_trash or called:
                        won = st[O_WON + seat] + 1
                        st[O_WON + seat] = won
                        acc[A_ROUND_WINS + seat] += 1
                        winners |= 1 << seat
                        decided = True
                        starter_won = starter_won or seat == starter
                        if won >= target:
                            state = 2
                        elif not last_chance:
                            state = 1
                        if state != 0:
                            called = False
                            must_play = False
                            card = -1
                            break
                        if final_from < 0:
                            final_from = seat
                    else:
                        unclaimed |= 1 << seat
                        penalty = True
            if penalty:
                # -- the penalty card (no stuck test: a claim is pending) --
                if sp == se:
                    key = next_key(chance, nshuf)
                    stock = stock_empty(tab, st, dsc, dl, key, False, players,
                                        trace, log, lp)
                    if stock == 0:
                        state = 1
                        card = -1
                        break
                    nshuf += 1
                    se = stock
                    dl = 1
                    sp = 0
                    shuffled = trace
                    stock_public = True
                st[dsc + dl] = st[O_DECK + sp] if shuffled else fy_step(st, O_DECK, sp, se,
                                                                         key)
                sp += 1
                dl += 1
            # -- the turn passes; claims and the final cycle (RULES.md §9) --
            called = False
            must_play = False
            card = -1
            while True:
                seat = seat + 1 if seat + 1 < players else 0
                if seat == final_from:
                    state = 1
                    break
                if unclaimed & (1 << seat):
                    unclaimed &= ~(1 << seat)
                    won = st[O_WON + seat] + 1
                    st[O_WON + seat] = won
                    acc[A_ROUND_WINS + seat] += 1
                    winners |= 1 << seat
                    decided = True
                    starter_won = starter_won or seat == starter
                    if won >= target:
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
        if state == 2 or horizon != H_MATCH:
            break
        entry = PH_ROUND_OVER
    if state == 2:
        st[S_MATCH_WINNER] = seat
        acc[A_MATCHES] += 1
        acc[A_WINS + seat] += 1
        if seat == st[S_FIRST]:
            acc[A_FIRST_WINS] += 1
        _count(acc, rhist, ovf, 1, rnd)
        _store(st, ky, PH_MATCH_OVER, seat, card, called, must_play, unclaimed, final_from,
               winners, dealer, rnd, sp, se, dl, shuffled, stock_public, nshuf, key, turns,
               decided, starter_won, moves)
        return R_MATCH_OVER
    _store(st, ky, PH_ROUND_OVER, seat, card, called, must_play, unclaimed, final_from,
           winners, dealer, rnd, sp, se, dl, shuffled, stock_public, nshuf, key, turns,
           decided, starter_won, moves)
    return R_ROUND_OVER
