"""The public int encoding of a view: 100 whole numbers, the first step of every observation.

Every environment (and the compiled vector environment, which writes the same array from
the kernel's state) turns a :class:`~trashcards.views.View` into this array, then the
array into the float observation (:mod:`trashcards.envs.observation`). The array is a
function of the view alone, so it cannot hold anything a seat may not know. The layout
and its one encoder live in :mod:`trashcards.public` (the core, shared with the kernel);
this module names them for the environments and adds the class helpers.

Seats are absolute (0…3, zero-padded for absent seats). A card is given by its CLASS: a
pip card of rank 1…10 is class 0…9, a wild (a wild rank or a Joker under the rules) is
class 10 (:data:`WILD_CLASS`), a trash card class 11 (:data:`TRASH_CLASS`); ``-1``
(:data:`NONE`) means "no card" or "no seat". The layout is in ``docs/envs.md``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from ..cards import Card
from ..public import (
    BOARD_SIZE,
    CALLED,
    CLASS_TRASH,
    CLASS_WILD,
    CLASSES,
    DEALER,
    DISCARD_COUNTS,
    FINAL_FROM,
    IN_HAND,
    MATCH_WINNER,
    MUST_PLAY,
    PHASE,
    PHASE_CODES,
    PLAYERS,
    ROUND,
    ROUND_WINNERS,
    ROUNDS_WON,
    SIZE,
    SLOT_ABSENT,
    SLOT_DOWN,
    SLOT_NATURAL,
    SLOT_WILD,
    SLOTS,
    STOCK_COUNT,
    STOCK_KNOWN,
    STOCK_KNOWN_COUNTS,
    TO_ACT,
    TOP_DISCARD,
    UNCLAIMED,
    UNSEEN_COUNTS,
    VIEWER,
    encode,
)
from ..public import card_class as role_class
from ..rules import Rules, card_roles
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
WILD_CLASS: Final = CLASS_WILD
TRASH_CLASS: Final = CLASS_TRASH
NONE: Final = -1
LENGTH: Final = SIZE
#: The classes' names, for people.
CLASS_NAMES: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "wild", "trash")


@lru_cache(maxsize=16)
def class_roles(wild_ranks: tuple[str, ...]) -> dict[Card, int]:
    """Each card's class under the given wild face ranks (Jokers are always wild)."""
    return {card: role_class(role) for card, role in card_roles(wild_ranks).items()}


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


def public_array(view: View) -> list[int]:
    """The view of a seat as the 100 numbers of the public int encoding (docs/envs.md):
    :func:`trashcards.public.encode`, the one implementation the kernel's is tested
    against.

    A spectator's view (``seat=None``) has no encoding: observations are a seat's.
    """
    if view.seat is None:
        raise ValueError("the public encoding is a seat's: this is a spectator's view")
    return encode(view)
