"""Moves: the players' actions and the chance moves (RULES.md §10, RECORDS.md).

An :class:`Action` is a player's decision; :class:`Dealer`, :class:`Deck` and
:class:`Reshuffle` record what chance decided. A game is its rules plus its list of moves.
Every move has a text form (``str(move)``) that :func:`parse_move` reads back.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, NamedTuple

from .cards import Card, format_cards, parse_cards
from .digits import small_number
from .errors import NotationError, brief
from .rules import MAX_PLAYERS

__all__ = [
    "CALL",
    "DISCARD",
    "STOCK",
    "SWAP",
    "TRASH",
    "Action",
    "ChanceMove",
    "Dealer",
    "Deck",
    "Move",
    "Reshuffle",
    "Verb",
    "parse_action",
    "parse_move",
    "wild",
]


class Verb(StrEnum):
    """What a player can decide (RULES.md §10)."""

    STOCK = "stock"
    DISCARD = "discard"
    WILD = "wild"
    SWAP = "swap"
    TRASH = "trash"
    CALL = "call"


class Action(NamedTuple):
    """A player's decision; ``slot`` is 1…10 for ``wild``, else 0.

    Compare with the constants (``STOCK``, ``wild(7)`` …); ``str()`` gives the record text.
    """

    verb: Verb
    slot: int = 0

    def __str__(self) -> str:
        return f"wild {self.slot}" if self.verb is Verb.WILD else self.verb.value

    def __repr__(self) -> str:
        return f"parse_action({str(self)!r})"


STOCK: Final = Action(Verb.STOCK)
DISCARD: Final = Action(Verb.DISCARD)
SWAP: Final = Action(Verb.SWAP)
TRASH: Final = Action(Verb.TRASH)
CALL: Final = Action(Verb.CALL)
_WILDS: Final = tuple(Action(Verb.WILD, k) for k in range(11))


def wild(slot: int) -> Action:
    """The action "put the wild in hand on slot ``slot``"."""
    if not 1 <= slot <= 10:
        raise NotationError(f"wild needs a slot from 1 to 10, got {slot}")
    return _WILDS[slot]


@dataclass(frozen=True, slots=True)
class Dealer:
    """Chance: the cut made ``seat`` the first dealer. ``cuts`` (seat, card) is
    informative only (what each player cut, every tie-break included); not recorded."""

    seat: int
    cuts: tuple[tuple[int, Card], ...] = ()

    def __str__(self) -> str:
        return f"dealer {self.seat}"


@dataclass(frozen=True, slots=True)
class Deck:
    """Chance: the whole shuffled deck for the next round, top card first."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"deck {format_cards(self.cards)}"


@dataclass(frozen=True, slots=True)
class Reshuffle:
    """Chance: the new stock, top card first, after the stock ran out."""

    cards: tuple[Card, ...]

    def __str__(self) -> str:
        return f"reshuffle {format_cards(self.cards)}"


ChanceMove = Dealer | Deck | Reshuffle
Move = Action | ChanceMove

_PREFIX: Final = re.compile(r"^\s*([0-9]+)\s*:\s*(.*)$", re.DOTALL)
_SIMPLE: Final = {v.value: Action(v) for v in Verb if v is not Verb.WILD}


def parse_action(text: str) -> Action:
    """Parse an action's text form (any case, extra spaces allowed): ``wild 7``, ``swap``."""
    words = text.split()
    if not words:
        raise NotationError("empty action")
    verb = words[0].lower()
    if verb == "wild":
        slot = small_number(words[1], 1, 10) if len(words) == 2 else None
        if slot is None:
            raise NotationError(f"not an action: {brief(text)} "
                                "(wild needs one slot from 1 to 10, e.g. 'wild 7')")
        return wild(slot)
    action = _SIMPLE.get(verb)
    if action is None or len(words) != 1:
        raise NotationError(f"not an action: {brief(text)} "
                            "(the actions are stock, discard, wild K, swap, trash, call)")
    return action


def parse_move(text: str) -> tuple[int | None, Move]:
    """Parse one record move; returns the seat prefix (or ``None``) and the move."""
    seat: int | None = None
    match = _PREFIX.match(text)
    if match:
        seat = small_number(match.group(1), 0, MAX_PLAYERS - 1)
        if seat is None:
            raise NotationError(f"not a seat prefix: {brief(match.group(1))} "
                                f"(seats are 0 to {MAX_PLAYERS - 1})")
        text = match.group(2)
    words = text.split(maxsplit=1)
    verb = words[0].lower() if words else ""
    rest = words[1] if len(words) > 1 else ""
    if verb in ("dealer", "deck", "reshuffle"):
        if seat is not None:
            raise NotationError(f"a {verb} move takes no seat prefix")
        if verb == "dealer":
            dealer = small_number(rest.strip(), 0, MAX_PLAYERS - 1)
            if dealer is None:
                raise NotationError(f"not a move: {brief(text)} "
                                    f"(dealer needs a seat number from 0 to {MAX_PLAYERS - 1})")
            return None, Dealer(dealer)
        cards = parse_cards(rest)
        return None, Deck(cards) if verb == "deck" else Reshuffle(cards)
    return seat, parse_action(text)
