"""What happened: the events :func:`trashcards.engine.apply` returns, in order.

Every event is public (RULES.md §8): a card appears in an event only once it is face up
for everyone. A front end can animate a turn by showing its events one by one.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .cards import Card

__all__ = [
    "Called",
    "Claimed",
    "Completed",
    "DealerChosen",
    "Dealt",
    "Discarded",
    "Drew",
    "Event",
    "FinalCycle",
    "MatchWon",
    "PenaltyDrawn",
    "Placed",
    "Reshuffled",
    "RoundVoid",
    "RoundWon",
    "StockEmpty",
    "Swapped",
    "TurnPassed",
    "TurnedUp",
    "event_to_json",
]


@dataclass(frozen=True, slots=True)
class DealerChosen:
    """The cut chose the first dealer; ``cuts`` lists (seat, card) cut, ties included."""

    seat: int
    cuts: tuple[tuple[int, Card], ...]


@dataclass(frozen=True, slots=True)
class Dealt:
    """A round was dealt: board sizes per seat, and who plays first."""

    round: int
    dealer: int
    sizes: tuple[int, ...]
    first: int


@dataclass(frozen=True, slots=True)
class Drew:
    """``seat`` drew ``card`` from ``source`` ("stock" or "discard")."""

    seat: int
    source: str
    card: Card


@dataclass(frozen=True, slots=True)
class Called:
    """``seat`` called "Trash!"."""

    seat: int


@dataclass(frozen=True, slots=True)
class Placed:
    """``card`` went face up into ``slot`` of ``seat``'s board (``wild``: as a wild)."""

    seat: int
    slot: int
    card: Card
    wild: bool


@dataclass(frozen=True, slots=True)
class TurnedUp:
    """The face-down card of ``slot`` was turned up; it is now the card in hand."""

    seat: int
    slot: int
    card: Card


@dataclass(frozen=True, slots=True)
class Swapped:
    """``card`` took ``slot``; the wild ``wild`` that was there is now in hand."""

    seat: int
    slot: int
    card: Card
    wild: Card


@dataclass(frozen=True, slots=True)
class Discarded:
    """``card`` went face up on the discard pile."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class StockEmpty:
    """``seat`` must draw from an empty stock: a reshuffle is due."""

    seat: int


@dataclass(frozen=True, slots=True)
class Reshuffled:
    """The discard pile less its top card became the stock (``count`` cards)."""

    count: int


@dataclass(frozen=True, slots=True)
class Completed:
    """``seat``'s board has no face-down card left; ``claimed`` unless a call was due."""

    seat: int
    claimed: bool


@dataclass(frozen=True, slots=True)
class PenaltyDrawn:
    """Call-trash penalty: ``seat`` drew ``card`` from the stock and discarded it."""

    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Claimed:
    """``seat`` claimed the board it completed without calling, at the start of its turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class RoundWon:
    """``seat`` won round ``round`` and has now won ``rounds_won`` rounds."""

    seat: int
    round: int
    rounds_won: int


@dataclass(frozen=True, slots=True)
class FinalCycle:
    """Last chance: ``seat`` completed first; every other player gets one more turn."""

    seat: int


@dataclass(frozen=True, slots=True)
class RoundVoid:
    """The stock could not be refilled: the round ends with no winner."""

    round: int


@dataclass(frozen=True, slots=True)
class MatchWon:
    """``seat`` won the match; ``standings`` gives each seat's place (1 = first)."""

    seat: int
    standings: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TurnPassed:
    """The turn passed to ``seat``."""

    seat: int


Event = (DealerChosen | Dealt | Drew | Called | Placed | TurnedUp | Swapped | Discarded
         | StockEmpty | Reshuffled | Completed | PenaltyDrawn | Claimed | RoundWon
         | FinalCycle | RoundVoid | MatchWon | TurnPassed)

_TYPE_NAMES: dict[type, str] = {
    DealerChosen: "dealer_chosen", Dealt: "dealt", Drew: "drew", Called: "called",
    Placed: "placed", TurnedUp: "turned_up", Swapped: "swapped", Discarded: "discarded",
    StockEmpty: "stock_empty", Reshuffled: "reshuffled", Completed: "completed",
    PenaltyDrawn: "penalty_drawn", Claimed: "claimed", RoundWon: "round_won",
    FinalCycle: "final_cycle", RoundVoid: "round_void", MatchWon: "match_won",
    TurnPassed: "turn_passed",
}


def _json_value(value: Any) -> Any:
    if isinstance(value, Card):
        return value.text
    if isinstance(value, tuple):
        return [_json_value(v) for v in value]
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """The event as a JSON object: ``{"type": "placed", "seat": 0, "slot": 7, ...}``."""
    out: dict[str, Any] = {"type": _TYPE_NAMES[type(event)]}
    for f in fields(event):
        out[f.name] = _json_value(getattr(event, f.name))
    return out
