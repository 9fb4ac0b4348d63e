"""The log of every step."""

from __future__ import annotations

from textual.widgets import RichLog

__all__ = ["GameLog"]


class GameLog(RichLog):
    """The log of every step; never focused, so the arrow keys stay the game's."""

    can_focus = False
