"""The full-screen game's widgets: each owns what it shows (reactive state) and tells the
app what a person did with a message (:class:`SlotPicked`, :class:`PilePicked`); none of
them knows the app."""

from __future__ import annotations

from .board import BoardState, BoardView, SlotPicked
from .log import GameLog
from .notice import Notice
from .piles import Pile, PilePicked

__all__ = ["BoardState", "BoardView", "GameLog", "Notice", "Pile", "PilePicked", "SlotPicked"]
