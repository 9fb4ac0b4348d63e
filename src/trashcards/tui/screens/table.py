"""The one screen of the game: the table, redrawn in place."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import Container, Horizontal, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Static

from ..widgets import BoardView, GameLog, Notice, Pile

__all__ = ["GAME_KEYS", "OTHER_KEYS", "StrayKey", "TableReady", "TableScreen"]

#: The keys of the game's actions (bound by the app).
GAME_KEYS = "sdwtc1234567890"
#: Keys bound to something besides the game's actions.
OTHER_KEYS = "ho"


class TableReady(Message):
    """The table's widgets exist: the match may start."""


class StrayKey(Message):
    """A printable key that no binding took."""

    def __init__(self, character: str) -> None:
        super().__init__()
        self.character = character


class TableScreen(Screen[None]):
    """The table: header, boards, piles, chances, status, log and hint, actions, notice."""

    def __init__(self, players: int) -> None:
        super().__init__(id="table")
        self.players = players

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        with Container(id="boards"):
            for seat in range(self.players):
                yield BoardView(seat)
        with Horizontal(id="piles"):
            yield Pile("s", id="stock")
            yield Pile("d", id="discard")
            yield Static(id="hand")
        yield Static(id="chances")
        yield Static(id="status")
        with Horizontal(id="log-row"):
            yield GameLog(id="log", wrap=True, markup=False, highlight=False, min_width=20)
            with VerticalScroll(id="hint-box"):
                yield Static(id="hint")
        yield Static(id="actions")
        yield Notice(id="message")

    def on_mount(self) -> None:
        self.post_message(TableReady())

    def on_key(self, event: events.Key) -> None:
        if event.is_printable and event.character \
                and event.character not in GAME_KEYS + OTHER_KEYS:
            self.post_message(StrayKey(event.character))
