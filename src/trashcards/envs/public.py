"""The public int encoding of a view: 100 whole numbers, the first step of every observation.

Every environment (and the compiled vector environment, which writes the same array from
the kernel's state) turns a :class:`~trashcards.views.View` into this array, then the
array into the float observation (:mod:`trashcards.envs.observation`). The array is a
function of the view alone, so it cannot hold anything a seat may not know.

Seats are absolute (0…3, zero-padded for absent seats). A card is given by its CLASS: a
pip card of rank 1…10 is class 0…9, a wild (a wild rank or a Joker under the rules) is
class 10 (:data:`WILD_CLASS`), a trash card class 11 (:data:`TRASH_CLASS`); ``-1``
(:data:`NONE`) means "no card" or "no seat". The layout is in ``docs/envs.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from ..cards import Card
from ..rules import WILD, Rules, card_roles
from ..state import Phase
from ..views import View

__all__ = [
    "BOARD_SIZE",
    "CALLED",
    "CLASSES",
    "CLASS_NAMES",
    "DEALER",
    "DISCARD_COUNTS",
    "FINAL_FROM",
    "IN_HAND",
    "LENGTH",
    "MATCH_WINNER",
    "MAX_SEATS",
    "MUST_PLAY",
    "NONE",
    "PHASE",
    "PHASE_CODES",
    "PLAYERS",
    "ROUND",
    "ROUNDS_WON",
    "ROUND_WINNERS",
    "SLOTS",
    "SLOTS_PER_SEAT",
    "SLOT_ABSENT",
    "SLOT_DOWN",
    "SLOT_NATURAL",
    "SLOT_WILD",
    "STOCK_COUNT",
    "STOCK_KNOWN",
    "STOCK_KNOWN_COUNTS",
    "TOP_DISCARD",
    "TO_ACT",
    "TRASH_CLASS",
    "UNCLAIMED",
    "UNSEEN_COUNTS",
    "VIEWER",
    "WILD_CLASS",
    "card_class",
    "class_roles",
    "class_totals",
    "public_array",
]

MAX_SEATS: Final = 4
SLOTS_PER_SEAT: Final = 10
#: Card classes: pip ranks 1…10 are 0…9, then wild, then trash.
CLASSES: Final = 12
WILD_CLASS: Final = 10
TRASH_CLASS: Final = 11
NONE: Final = -1
#: The classes' names, for people.
CLASS_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "wild", "trash")

# Indices of the array (docs/envs.md, "The public int encoding").
PLAYERS: Final = 0
PHASE: Final = 1
TO_ACT: Final = 2
IN_HAND: Final = 3
TOP_DISCARD: Final = 4
STOCK_COUNT: Final = 5
STOCK_KNOWN: Final = 6
CALLED: Final = 7
MUST_PLAY: Final = 8
UNCLAIMED: Final = 9  # bit s: seat s waits to claim its board
FINAL_FROM: Final = 10
ROUND_WINNERS: Final = 11  # bit s: seat s won this round
MATCH_WINNER: Final = 12
DEALER: Final = 13
ROUND: Final = 14
ROUNDS_WON: Final = 15  # 4 entries, one per seat
BOARD_SIZE: Final = 19  # 4 entries
SLOTS: Final = 23  # 40 entries: seat * 10 + slot index
DISCARD_COUNTS: Final = 63  # 12 entries, one per class
UNSEEN_COUNTS: Final = 75  # 12 entries
STOCK_KNOWN_COUNTS: Final = 87  # 12 entries
VIEWER: Final = 99
LENGTH: Final = 100

# Slot codes.
SLOT_ABSENT: Final = 0  # no such slot (slot index >= board size, or not dealt yet)
SLOT_DOWN: Final = 1
SLOT_NATURAL: Final = 2
SLOT_WILD: Final = 3

PHASE_CODES: Final = {Phase.DRAW: 0, Phase.WILD: 1, Phase.SWAP: 2, Phase.CHANCE: 3,
                      Phase.ROUND_OVER: 4, Phase.MATCH_OVER: 5}


@lru_cache(maxsize=16)
def class_roles(wild_ranks: tuple[str, ...]) -> dict[Card, int]:
    """Each card's class under the given wild face ranks (Jokers are always wild)."""
    return {card: (role - 1 if role > 0 else WILD_CLASS if role == WILD else TRASH_CLASS)
            for card, role in card_roles(wild_ranks).items()}


def card_class(card: Card, rules: Rules) -> int:
    """The class of ``card`` under ``rules``: 0…9 for pip ranks 1…10, then wild, trash."""
    return class_roles(rules.wild_ranks)[card]


@lru_cache(maxsize=64)
def class_totals(rules: Rules, players: int) -> tuple[int, ...]:
    """How many cards of each class the match has (its packs and Jokers)."""
    classes = class_roles(rules.wild_ranks)
    totals = [0] * CLASSES
    for card in rules.match_cards(players):
        totals[classes[card]] += 1
    return tuple(totals)


def _counts(cards: Sequence[Card], classes: dict[Card, int]) -> list[int]:
    counts = [0] * CLASSES
    for card in cards:
        counts[classes[card]] += 1
    return counts


def _bits(seats: Sequence[int]) -> int:
    mask = 0
    for seat in seats:
        mask |= 1 << seat
    return mask


def _or_none(value: int | None) -> int:
    return NONE if value is None else value


def public_array(view: View) -> list[int]:
    """The view of a seat as the 100 numbers of the public int encoding (docs/envs.md).

    A spectator's view (``seat=None``) has no encoding: observations are a seat's.
    """
    if view.seat is None:
        raise ValueError("the public encoding is a seat's: this is a spectator's view")
    rules = view.rules
    classes = class_roles(rules.wild_ranks)
    players = len(view.players)
    out = [0] * LENGTH
    out[PLAYERS] = players
    out[PHASE] = PHASE_CODES[view.phase]
    out[TO_ACT] = _or_none(view.to_act)
    out[IN_HAND] = NONE if view.in_hand is None else classes[view.in_hand]
    top = view.top_discard
    out[TOP_DISCARD] = NONE if top is None else classes[top]
    out[STOCK_COUNT] = view.stock_count
    out[STOCK_KNOWN] = int(view.stock_known is not None)
    out[CALLED] = int(view.called)
    out[MUST_PLAY] = int(view.must_play)
    out[UNCLAIMED] = _bits(view.unclaimed)
    out[FINAL_FROM] = _or_none(view.final_from)
    out[ROUND_WINNERS] = _bits(view.round_winners)
    out[MATCH_WINNER] = _or_none(view.match_winner)
    out[DEALER] = _or_none(view.dealer)
    out[ROUND] = view.round
    unseen = list(class_totals(rules, players))
    for seat, player in enumerate(view.players):
        out[ROUNDS_WON + seat] = player.rounds_won
        out[BOARD_SIZE + seat] = player.board_size
        base = SLOTS + seat * SLOTS_PER_SEAT
        for k, card in enumerate(player.slots):
            if card is None:
                out[base + k] = SLOT_DOWN
                continue
            cls = classes[card]
            unseen[cls] -= 1
            out[base + k] = SLOT_NATURAL if cls == k else SLOT_WILD
    discard = _counts(view.discard, classes)
    out[DISCARD_COUNTS:DISCARD_COUNTS + CLASSES] = discard
    if view.in_hand is not None:
        unseen[classes[view.in_hand]] -= 1
    out[UNSEEN_COUNTS:UNSEEN_COUNTS + CLASSES] = [u - d for u, d in zip(unseen, discard,
                                                                          strict=True)]
    if view.stock_known is not None:
        out[STOCK_KNOWN_COUNTS:STOCK_KNOWN_COUNTS + CLASSES] = _counts(view.stock_known,
                                                                         classes)
    out[VIEWER] = view.seat
    return out
