"""The table as people see it, one event at a time: what a screen animates and what the
narration needs to know ("slot 7 already holds 7♥").

A :class:`Scene` holds only public things (face-up cards, the discard pile, counts): it is
made from a :class:`~trashcards.views.View` and moved on by events, which are public too
(RULES.md §8). So a screen can show each step of a chain in place, and a scene can never
show a hidden card: it has none. After the last event of a move the scene equals the one
made from the new view (``tests/tui/test_scene.py`` checks this over whole matches).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..events import (
    Called,
    Completed,
    DealerChosen,
    Dealt,
    Discarded,
    Drew,
    Event,
    PenaltyDrawn,
    Placed,
    Reshuffled,
    RoundVoid,
    RoundWon,
    StockEmpty,
    Swapped,
    TurnedUp,
    TurnPassed,
)
from ..rules import Rules
from ..views import View

__all__ = ["Scene"]


@dataclass(frozen=True, slots=True)
class Scene:
    """The public table: every seat's slots (``None`` face down), the piles and the turn.

    ``last`` is the slot the latest step touched, as ``(seat, slot)``, for a screen to
    highlight; ``completed`` the seats whose board is complete this round.
    """

    rules: Rules
    round: int
    dealer: int | None
    to_act: int | None
    in_hand: Card | None
    stock_count: int
    discard: tuple[Card, ...]
    slots: tuple[tuple[Card | None, ...], ...]
    rounds_won: tuple[int, ...]
    called: bool = False
    last: tuple[int, int] | None = None
    completed: tuple[int, ...] = ()

    @classmethod
    def from_view(cls, view: View) -> Scene:
        return cls(view.rules, view.round, view.dealer, view.to_act, view.in_hand,
                   view.stock_count, view.discard,
                   tuple(player.slots for player in view.players),
                   tuple(player.rounds_won for player in view.players), view.called,
                   completed=tuple(seat for seat, player in enumerate(view.players)
                                   if player.slots and player.face_down == 0))

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None

    def board_size(self, seat: int) -> int:
        return len(self.slots[seat])

    def after(self, event: Event) -> Scene:
        """The scene once ``event`` has happened."""
        change = _change(self, event)
        return dataclasses.replace(self, **change)

    def after_all(self, events: tuple[Event, ...] | list[Event]) -> Scene:
        scene = self
        for event in events:
            scene = scene.after(event)
        return scene


def _set_slot(scene: Scene, seat: int, slot: int, card: Card) -> tuple[tuple[Card | None, ...],
                                                                     ...]:
    board = list(scene.slots[seat])
    board[slot - 1] = card
    return tuple(tuple(board) if s == seat else row for s, row in enumerate(scene.slots))


def _change(scene: Scene, event: Event) -> dict[str, Any]:
    match event:
        case DealerChosen(seat=seat):
            return {"dealer": seat}
        case Dealt(round=number, dealer=dealer, sizes=sizes, first=first):
            total = len(scene.rules.match_cards(len(sizes)))
            return {"round": number, "dealer": dealer, "to_act": first, "in_hand": None,
                    "stock_count": total - sum(sizes), "discard": (),
                    "slots": tuple((None,) * size for size in sizes), "called": False,
                    "last": None, "completed": ()}
        case Drew(seat=seat, source=source, card=card):
            if source == "stock":
                return {"in_hand": card, "stock_count": scene.stock_count - 1,
                        "to_act": seat, "last": None}
            return {"in_hand": card, "discard": scene.discard[:-1], "to_act": seat,
                    "last": None}
        case Called():
            return {"called": True}
        case Placed(seat=seat, slot=slot, card=card):
            return {"slots": _set_slot(scene, seat, slot, card), "in_hand": None,
                    "last": (seat, slot)}
        case TurnedUp(seat=seat, slot=slot, card=card):
            return {"in_hand": card, "last": (seat, slot)}
        case Swapped(seat=seat, slot=slot, card=card, wild=wild_card):
            return {"slots": _set_slot(scene, seat, slot, card), "in_hand": wild_card,
                    "last": (seat, slot)}
        case Discarded(card=card):
            return {"discard": (*scene.discard, card), "in_hand": None, "last": None}
        case StockEmpty():
            return {"in_hand": None}
        case Reshuffled(size=size):
            return {"discard": scene.discard[-1:], "stock_count": size}
        case Completed(seat=seat):
            return {"completed": (*scene.completed, seat)}
        case PenaltyDrawn(card=card):
            return {"discard": (*scene.discard, card), "stock_count": scene.stock_count - 1}
        case RoundWon(seat=seat, rounds_won=won):
            return {"rounds_won": tuple(won if s == seat else w
                                        for s, w in enumerate(scene.rounds_won)),
                    "to_act": None, "in_hand": None}
        case RoundVoid():
            return {"to_act": None, "in_hand": None}
        case TurnPassed(seat=seat):
            return {"to_act": seat, "in_hand": None, "called": False, "last": None}
    return {}
