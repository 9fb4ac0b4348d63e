"""What happened: the events :func:`trashcards.engine.apply` returns, in order.

Every event is public (RULES.md §8): a card appears in an event only once it is face up
for everyone. A front end can animate a turn by showing its events one by one.
"""

from __future__ import annotations

from typing import Any, NamedTuple

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


class DealerChosen(NamedTuple):
    """The cut chose the first dealer; ``cuts`` lists (seat, card) cut, ties included."""

    seat: int
    cuts: tuple[tuple[int, Card], ...]


class Dealt(NamedTuple):
    """A round was dealt: board sizes per seat, and who plays first."""

    round: int
    dealer: int
    sizes: tuple[int, ...]
    first: int


class Drew(NamedTuple):
    """``seat`` drew ``card`` from ``source`` ("stock" or "discard")."""

    seat: int
    source: str
    card: Card


class Called(NamedTuple):
    """``seat`` called "Trash!"."""

    seat: int


class Placed(NamedTuple):
    """``card`` went face up into ``slot`` of ``seat``'s board (``wild``: as a wild)."""

    seat: int
    slot: int
    card: Card
    wild: bool


class TurnedUp(NamedTuple):
    """The face-down card of ``slot`` was turned up; it is now the card in hand."""

    seat: int
    slot: int
    card: Card


class Swapped(NamedTuple):
    """``card`` took ``slot``; the wild ``wild`` that was there is now in hand."""

    seat: int
    slot: int
    card: Card
    wild: Card


class Discarded(NamedTuple):
    """``card`` went face up on the discard pile."""

    seat: int
    card: Card


class StockEmpty(NamedTuple):
    """``seat`` must draw from an empty stock: a reshuffle is due."""

    seat: int


class Reshuffled(NamedTuple):
    """The discard pile less its top card became the stock, of ``size`` cards."""

    size: int


class Completed(NamedTuple):
    """``seat``'s board has no face-down card left; ``claimed`` unless a call was due."""

    seat: int
    claimed: bool


class PenaltyDrawn(NamedTuple):
    """Call-trash penalty: ``seat`` drew ``card`` from the stock and discarded it."""

    seat: int
    card: Card


class Claimed(NamedTuple):
    """``seat`` claimed the board it completed without calling, at the start of its turn."""

    seat: int


class RoundWon(NamedTuple):
    """``seat`` won round ``round`` and has now won ``rounds_won`` rounds."""

    seat: int
    round: int
    rounds_won: int


class FinalCycle(NamedTuple):
    """Last chance: ``seat`` completed first; every other player gets one more turn."""

    seat: int


class RoundVoid(NamedTuple):
    """The stock could not be refilled: the round ends with no winner."""

    round: int


class MatchWon(NamedTuple):
    """``seat`` won the match; ``standings`` gives each seat's place (1 = first)."""

    seat: int
    standings: tuple[int, ...]


class TurnPassed(NamedTuple):
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
    for name, value in zip(event._fields, event, strict=True):
        out[name] = _json_value(value)
    return out


# Events are named tuples (a move makes several; a tuple is built twice as fast as a
# frozen dataclass), but an event equals only an event of the same kind: Called(0) is
# not Claimed(0).
def _same_event(self: tuple[Any, ...], other: object) -> bool:
    return type(self) is type(other) and tuple.__eq__(self, other)


def _other_event(self: tuple[Any, ...], other: object) -> bool:
    return not _same_event(self, other)


def _event_hash(self: tuple[Any, ...]) -> int:
    return hash((type(self).__name__, tuple.__hash__(self)))


for _kind in _TYPE_NAMES:
    _kind.__eq__ = _same_event  # type: ignore[assignment,method-assign]
    _kind.__ne__ = _other_event  # type: ignore[assignment,method-assign]
    _kind.__hash__ = _event_hash  # type: ignore[assignment,method-assign]
