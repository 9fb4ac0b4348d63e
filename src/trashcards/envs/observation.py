"""The observation every environment gives: float features of the public int encoding.

:func:`observation_batch` turns an ``(N, 100)`` array of public encodings
(:mod:`trashcards.envs.public`) into ``(N, OBSERVATION_SIZE)`` float32 features with numpy
alone, so a vectorized environment computes exactly what the single environments do.
Each row is seen from its viewer's seat (``public[:, VIEWER]``): seats are relative, the
viewer first, then clockwise. Every feature lies in ``[0, 1]``; :data:`FEATURES` names
each block, its index range and meaning (``docs/envs.md`` is this table).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from ..rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ..views import View
from .public import (
    BOARD_SIZE,
    CALLED,
    CLASSES,
    DEALER,
    DISCARD_COUNTS,
    FINAL_FROM,
    IN_HAND,
    LENGTH,
    MATCH_WINNER,
    MAX_SEATS,
    MUST_PLAY,
    PHASE,
    PHASE_CODES,
    PLAYERS,
    ROUND_WINNERS,
    ROUNDS_WON,
    SLOT_DOWN,
    SLOT_NATURAL,
    SLOT_WILD,
    SLOTS,
    SLOTS_PER_SEAT,
    STOCK_COUNT,
    STOCK_KNOWN,
    STOCK_KNOWN_COUNTS,
    TO_ACT,
    TOP_DISCARD,
    UNCLAIMED,
    UNSEEN_COUNTS,
    VIEWER,
    class_totals,
    public_array,
)

__all__ = ["FEATURES", "OBSERVATION_SIZE", "Feature", "feature_slice", "observation",
           "observation_batch"]


class Feature(NamedTuple):
    """One block of the observation: ``size`` floats from ``start``, each in [0, 1]."""

    name: str
    start: int
    size: int
    meaning: str


_BLOCKS: Final = (
    ("slots", MAX_SEATS * SLOTS_PER_SEAT * 3,
     "for each seat (own first, then clockwise) and each slot 1…10, three flags: face "
     "down, natural face up, wild face up; all 0 for a slot the board does not have "
     "(or not dealt yet) and for an absent seat"),
    ("board_size", MAX_SEATS, "each seat's board size ÷ 10"),
    ("rounds_won", MAX_SEATS, "each seat's rounds won ÷ rounds_to_win"),
    ("seated", MAX_SEATS, "1 for each seat at the table (seats past the players are 0)"),
    ("to_act", MAX_SEATS, "1 for the seat to act (all 0 at chance, between rounds, at the end)"),
    ("dealer", MAX_SEATS, "1 for the dealer (all 0 before the cut)"),
    ("final_from", MAX_SEATS, "last chance: 1 for the seat whose completion started the "
                              "final cycle (all 0 when no cycle runs)"),
    ("match_winner", MAX_SEATS, "1 for the match winner"),
    ("unclaimed", MAX_SEATS,
     "call-trash: 1 for each seat that completed without calling and claims next turn"),
    ("round_winners", MAX_SEATS, "1 for each seat that won the current round so far"),
    ("phase", len(PHASE_CODES), "one-hot: draw, wild, swap, chance, round over, match over"),
    ("in_hand", CLASSES, "one-hot class of the card in hand (pip 1…10, wild, trash); all 0 "
                         "for none"),
    ("top_discard", CLASSES, "one-hot class of the top discard; all 0 for an empty pile"),
    ("discard_counts", CLASSES, "cards of each class in the discard pile ÷ the match's "
                                "cards of that class (0 when it has none)"),
    ("unseen_counts", CLASSES, "cards of each class not face up on a board, not in the "
                               "discard pile and not in hand ÷ the match's cards of that class"),
    ("stock_known_counts", CLASSES, "cards of each class in the stock when it is known ÷ "
                                    "the match's cards of that class; all 0 when unknown"),
    ("stock_count", 1, "cards in the stock ÷ the match's cards"),
    ("stock_known", 1, "1 once a reshuffle made the stock's cards public this round"),
    ("called", 1, "call-trash: 1 if the seat to act called \"Trash!\" this turn"),
    ("must_play", 1, "1 if the card in hand was taken from the discard pile (it must be played)"),
    ("call_trash_rule", 1, "the rules: 1 if call_trash is on"),
    ("last_chance_rule", 1, "the rules: 1 if last_chance is on"),
    ("start_size", 1, "the rules: start_size ÷ 10"),
    ("rounds_to_win", 1, "the rules: rounds to win the match ÷ 10"),
    ("players", MAX_PLAYERS - MIN_PLAYERS + 1, "one-hot number of players: 2, 3, 4"),
)


def _features() -> tuple[Feature, ...]:
    out, start = [], 0
    for name, size, meaning in _BLOCKS:
        out.append(Feature(name, start, size, meaning))
        start += size
    return tuple(out)


#: The blocks of the observation, in order.
FEATURES: Final = _features()
OBSERVATION_SIZE: Final = FEATURES[-1].start + FEATURES[-1].size
_AT: Final = {f.name: slice(f.start, f.start + f.size) for f in FEATURES}


def feature_slice(name: str) -> slice:
    """Where the block ``name`` lies in an observation."""
    return _AT[name]


@lru_cache(maxsize=64)
def _rule_constants(rules: Rules) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32],
                                           npt.NDArray[np.float32]]:
    """Per number of players (index 0…4): the reciprocal of each class's total and of the
    match's card count; and the rules' own features."""
    inverse = np.zeros((MAX_PLAYERS + 1, CLASSES), dtype=np.float32)
    cards = np.zeros(MAX_PLAYERS + 1, dtype=np.float32)
    for players in range(MAX_PLAYERS + 1):
        totals = np.array(class_totals(rules, max(players, MIN_PLAYERS)), dtype=np.float32)
        inverse[players] = np.divide(1.0, totals, out=np.zeros_like(totals), where=totals > 0)
        cards[players] = 1.0 / totals.sum()
    constants = np.array([rules.call_trash, rules.last_chance, rules.start_size / 10,
                          rules.target_rounds / 10], dtype=np.float32)
    return inverse, cards, constants


_SEATS: Final = np.arange(MAX_SEATS)
_CLASSES: Final = np.arange(CLASSES)
_PHASES: Final = np.arange(len(PHASE_CODES))
_SLOT_CODES: Final = np.array([SLOT_DOWN, SLOT_NATURAL, SLOT_WILD])
_PLAYER_COUNTS: Final = np.arange(MIN_PLAYERS, MAX_PLAYERS + 1)
_ONE_SEAT: Final = [TO_ACT, DEALER, FINAL_FROM, MATCH_WINNER]  # as the blocks' order
_SEAT_BITS: Final = [UNCLAIMED, ROUND_WINNERS]
_ONE_CLASS: Final = [IN_HAND, TOP_DISCARD]
_FLAGS: Final = [STOCK_KNOWN, CALLED, MUST_PLAY]
_COUNTS: Final = np.concatenate([np.arange(start, start + CLASSES) for start in
                                 (DISCARD_COUNTS, UNSEEN_COUNTS, STOCK_KNOWN_COUNTS)])


def _span(first: str, last: str) -> slice:
    return slice(_AT[first].start, _AT[last].stop)


def observation_batch(public: npt.ArrayLike, rules: Rules) -> npt.NDArray[np.float32]:
    """The observations of ``N`` public encodings (an ``(N, 100)`` int array) under
    ``rules``: an ``(N, OBSERVATION_SIZE)`` float32 array, each row from its viewer's seat."""
    pub = np.asarray(public, dtype=np.int64)
    if pub.ndim != 2 or pub.shape[1] != LENGTH:
        raise ValueError(f"expected an (N, {LENGTH}) array of public encodings, "
                         f"got shape {pub.shape}")
    n = pub.shape[0]
    inverse, cards, constants = _rule_constants(rules)
    players = pub[:, PLAYERS]
    viewer = pub[:, VIEWER]
    tables = np.maximum(players, 1)[:, None]
    present = _SEATS[None, :] < players[:, None]
    seat = (viewer[:, None] + _SEATS[None, :]) % tables  # relative seat -> absolute
    rows = np.arange(n)[:, None]
    out = np.zeros((n, OBSERVATION_SIZE), dtype=np.float32)

    # Each group of consecutive blocks is written by one array operation.
    slots = pub[:, SLOTS:SLOTS + MAX_SEATS * SLOTS_PER_SEAT].reshape(n, MAX_SEATS,
                                                                      SLOTS_PER_SEAT)
    slots = np.where(present[:, :, None], slots[rows, seat], 0)
    out[:, _AT["slots"]] = (slots[..., None] == _SLOT_CODES).reshape(n, -1)
    sizes = pub[:, BOARD_SIZE:BOARD_SIZE + MAX_SEATS][rows, seat] / 10
    won = pub[:, ROUNDS_WON:ROUNDS_WON + MAX_SEATS][rows, seat] / rules.target_rounds
    out[:, _span("board_size", "seated")] = (
        np.stack([sizes, won, np.ones_like(sizes)], axis=1) * present[:, None, :]
    ).reshape(n, -1)
    value = pub[:, _ONE_SEAT]
    relative = (value - viewer[:, None]) % tables
    out[:, _span("to_act", "match_winner")] = (
        (relative[:, :, None] == _SEATS) & (value >= 0)[:, :, None]).reshape(n, -1)
    bits = (pub[:, _SEAT_BITS][:, :, None] >> seat[:, None, :]) & 1
    out[:, _span("unclaimed", "round_winners")] = (bits * present[:, None, :]).reshape(n, -1)
    out[:, _AT["phase"]] = pub[:, PHASE][:, None] == _PHASES
    out[:, _span("in_hand", "top_discard")] = (
        pub[:, _ONE_CLASS][:, :, None] == _CLASSES).reshape(n, -1)
    counts = pub[:, _COUNTS].reshape(n, 3, CLASSES)
    out[:, _span("discard_counts", "stock_known_counts")] = (
        counts * inverse[players][:, None, :]).reshape(n, -1)
    out[:, _AT["stock_count"]] = (pub[:, STOCK_COUNT] * cards[players])[:, None]
    out[:, _span("stock_known", "must_play")] = pub[:, _FLAGS]
    out[:, _span("call_trash_rule", "rounds_to_win")] = constants
    out[:, _AT["players"]] = players[:, None] == _PLAYER_COUNTS
    return out


def observation(view: View) -> npt.NDArray[np.float32]:
    """The observation of one seat's view: ``(OBSERVATION_SIZE,)`` float32."""
    row: npt.NDArray[np.float32] = observation_batch(
        np.array([public_array(view)], dtype=np.int32), view.rules)[0]
    return row
