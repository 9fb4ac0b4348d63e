"""The line of notices under the actions: why a key was refused, which holds for the
moment it was about and goes when the turn moves on, and warnings, which stay."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

__all__ = ["Notice"]


class Notice(Static):
    """One line, in yellow. :meth:`say` a notice; :meth:`moved_on` when the turn moves on
    takes away a refusal (``passing``), not a warning."""

    text: reactive[str] = reactive("")

    def __init__(self, id: str) -> None:
        super().__init__(id=id)
        self.passing = False

    def say(self, text: str, passing: bool = False) -> None:
        self.passing = passing
        self.text = text

    def moved_on(self) -> None:
        if self.passing:
            self.say("")

    def watch_text(self, text: str) -> None:
        self.update(Text(text, style="yellow"))
