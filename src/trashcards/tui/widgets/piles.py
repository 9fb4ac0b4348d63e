"""The stock and the discard pile: a click posts :class:`PilePicked`."""

from __future__ import annotations

from textual.message import Message
from textual.widgets import Static

__all__ = ["Pile", "PilePicked"]


class PilePicked(Message):
    """A person clicked a pile: ``key`` is its key (``s`` the stock, ``d`` the pile)."""

    def __init__(self, key: str) -> None:
        super().__init__()
        self.key = key


class Pile(Static):
    """The stock or the discard pile."""

    def __init__(self, key: str, id: str) -> None:
        super().__init__(id=id)
        self.key = key

    def on_click(self) -> None:
        self.post_message(PilePicked(self.key))
