"""Hot-seat: the screen is hidden until the next player takes the keyboard."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["PassScreen"]


class PassScreen(ModalScreen[None]):
    """Hot-seat: the screen is hidden until the next player takes the keyboard."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "go", "ready")]

    def __init__(self, name: str) -> None:
        super().__init__(id="pass")
        self.player = name

    def compose(self) -> ComposeResult:
        with Vertical(id="pass-box"):
            yield Static(Text(f"Pass to {self.player}", style="bold"), id="pass-title")
            yield Static(f"{self.player}: press Enter when you are ready (q quits)")

    def action_go(self) -> None:
        self.dismiss(None)
