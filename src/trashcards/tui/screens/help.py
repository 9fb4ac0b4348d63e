"""The keys."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from ..keys import KEY_HELP

__all__ = ["HelpScreen"]


class HelpScreen(ModalScreen[None]):
    """The keys; any key closes it."""

    def compose(self) -> ComposeResult:
        table = Text()
        rows = [*KEY_HELP, ("← → ↑ ↓", "point at a slot (or the stock and the pile)"),
                ("Enter", "play what the arrows point at; skip an animation"),
                ("mouse", "click a slot, the stock, the pile or an action"),
                ("Ctrl-C", "leave at once (the match is saved)")]
        for key, meaning in rows:
            table.append(f"{key:>8}  ", style="bold")
            table.append(f"{meaning}\n")
        table.rstrip()
        with Vertical(id="help-box"):
            yield Static(Text("Keys", style="bold"))
            yield Static(table)
            yield Static(Text("any key closes this help", style="dim"))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        self.dismiss(None)
