"""The bots of :mod:`trashcards.bots`, compiled: fed the same numbers
(:class:`~trashcards.sim.rng.KernelRandom`) they choose what the reference bots choose.

They decide from what a view shows: the phase, the acting board's face-down mask, the
playable discard, the call rule, and (the counting bot) the face-up cards of every board
and the discard pile. :func:`decide` is inlined into the game loop.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .jit import kjit
from .layout import (
    B_COUNTER,
    B_KID,
    B_RANDOM,
    B_SOMETIMES,
    B_STOCKONLY,
    O_BCARD,
    O_DOWN,
    O_SIZE,
    PH_DRAW,
    PH_WILD,
    T_DECKS,
    T_PLAYERS,
    T_RANKS,
    V_CALL,
    V_DISCARD,
    V_STOCK,
    V_SWAP,
    V_TRASH,
    V_WILD,
)
from .numbers import uniform

__all__ = ["HIGH", "POP", "counter_slot", "decide"]

Array = npt.NDArray[Any]

_STOCK = V_STOCK * 16
_DISCARD = V_DISCARD * 16
_SWAP = V_SWAP * 16
_TRASH = V_TRASH * 16
_CALL = V_CALL * 16


def _bit_tables() -> tuple[Array, Array]:
    pop = np.zeros(1024, dtype=np.int8)
    high = np.full(1024, -1, dtype=np.int8)
    for mask in range(1, 1024):
        pop[mask] = bin(mask).count("1")
        high[mask] = mask.bit_length() - 1
    return pop, high


#: popcount and index of the highest set bit of a 10-slot mask.
POP, HIGH = _bit_tables()


@kjit()
def counter_slot(down: int, tab: Array, st: Array, dsc: int, dl: int, unseen: Array) -> int:
    """The counting bot's slot: fewest unseen cards of its rank, ties the highest."""
    players = tab[T_PLAYERS]
    for r in range(11):
        unseen[r] = 4 * tab[T_DECKS]
    for q in range(players):
        mask = st[O_DOWN + q]
        for k in range(st[O_SIZE + q]):
            if not (mask >> k) & 1:
                r = tab[T_RANKS + st[O_BCARD + q * 10 + k]]
                if 1 <= r <= 10:
                    unseen[r] -= 1
    for i in range(dl):
        r = tab[T_RANKS + st[dsc + i]]
        if 1 <= r <= 10:
            unseen[r] -= 1
    best = -1
    best_unseen = 0
    for k in range(10):
        if (down >> k) & 1 and (best < 0 or unseen[k + 1] <= best_unseen):
            best = k
            best_unseen = unseen[k + 1]
    return best + 1


@kjit(inline=True)
def decide(bot: int, phase: int, seat: int, down: int, can_discard: bool, must_play: bool,
           call_ok: bool, tab: Array, st: Array, ky: Array, dsc: int, dl: int,
           tmp: Array) -> int:
    """The action of ``bot`` (``verb * 16 + slot``), as :mod:`trashcards.bots` decides it
    from the legal actions in the engine's order; ``tmp`` is scratch (11 entries)."""
    if bot == B_RANDOM:
        u = uniform(ky, st, seat)
        if phase == PH_DRAW:
            i = int(u * (1 + int(can_discard) + int(call_ok)))
            if i == 0:
                return _STOCK
            if i == 1 and can_discard:
                return _DISCARD
            return _CALL
        if phase == PH_WILD:
            nd = POP[down]
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
    wants_call = call_ok and POP[down] == 1
    if bot == B_KID:
        if wants_call and uniform(ky, st, seat) >= 0.5:
            return _CALL
        if phase == PH_DRAW:
            if can_discard:
                return _STOCK if uniform(ky, st, seat) < 0.3 else _DISCARD
            return _STOCK
        if phase == PH_WILD:
            high: int = HIGH[down]
            return V_WILD * 16 + high + 1
        return _SWAP
    if wants_call:
        return _CALL
    if phase == PH_DRAW:
        if not can_discard or bot == B_STOCKONLY:
            return _STOCK
        if bot == B_SOMETIMES and not uniform(ky, st, seat) < 0.5:
            return _STOCK
        return _DISCARD
    if phase == PH_WILD:
        if bot == B_COUNTER:
            return V_WILD * 16 + counter_slot(down, tab, st, dsc, dl, tmp)
        highest: int = HIGH[down]
        return V_WILD * 16 + highest + 1
    return _SWAP
