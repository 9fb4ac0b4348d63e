"""One seat's board: what it draws is one reactive value (:class:`BoardState`); a click
on a slot posts :class:`SlotPicked`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from ...cards import Card
from ...rules import Rules
from ..render import board_picture

__all__ = ["BoardState", "BoardView", "SlotPicked"]


@dataclass(frozen=True)
class BoardState:
    """Everything one board shows."""

    slots: Sequence[Card | None]
    rules: Rules
    big: bool
    #: the slot the arrow keys point at (the seat deciding only)
    cursor: int | None
    #: the slot the step on show touched
    touched: int | None
    title: Text
    subtitle: str
    to_act: bool
    winner: bool


class SlotPicked(Message):
    """A person clicked slot ``slot`` of ``seat``'s board."""

    def __init__(self, seat: int, slot: int) -> None:
        super().__init__()
        self.seat = seat
        self.slot = slot


class BoardView(Static):
    """One seat's board, framed, its title the player's name and rounds won."""

    state: reactive[BoardState | None] = reactive(None, always_update=True)

    def __init__(self, seat: int) -> None:
        super().__init__(id=f"board-{seat}", classes="board")
        self.seat = seat

    @property
    def big(self) -> bool:
        return self.state is not None and self.state.big

    def watch_state(self, state: BoardState | None) -> None:
        if state is None:
            return
        self.update(board_picture(state.slots, state.rules, big=state.big,
                                  cursor=state.cursor, touched=state.touched))
        self.border_title = state.title
        self.border_subtitle = state.subtitle
        self.set_class(state.to_act, "to-act")
        self.set_class(state.winner, "winner")

    def slot_at(self, x: int, y: int) -> int | None:
        """The slot drawn at ``(x, y)`` of this widget (its frame included)."""
        x, y = x - 1, y - 1  # inside the frame
        if x < 0 or y < 0:
            return None
        row, column = (y // 4, x // 6) if self.big else (y, x // 7)
        if column >= 5:
            return None
        return row * 5 + column + 1

    def on_click(self, event: events.Click) -> None:
        slot = self.slot_at(event.x, event.y)
        if slot is not None:
            self.post_message(SlotPicked(self.seat, slot))
