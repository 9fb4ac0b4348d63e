"""Quitting asks first."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

__all__ = ["ConfirmQuit"]


class ConfirmQuit(ModalScreen[bool]):
    """Quitting asks first; the answer is ``True`` to leave."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,q,enter", "answer(True)", "leave"),
        Binding("n,escape", "answer(False)", "keep playing"),
    ]

    def __init__(self, where: str) -> None:
        super().__init__(id="confirm")
        self.where = where

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-box"):
            yield Static(Text("Leave the game?", style="bold"))
            yield Static(Text(self.where))
            yield Static(Text.assemble(("y", "bold"), " leave   ", ("n", "bold"),
                                       " keep playing"))

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
