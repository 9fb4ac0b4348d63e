"""The one error family of trashcards.

Every error the core raises is a :class:`TrashError`, itself a :class:`ValueError`, so
callers can catch the whole family or one cause at a time.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "RecordFormatError",
    "RulesError",
    "TrashError",
]


class TrashError(ValueError):
    """Base class of every error raised by trashcards."""


class RulesError(TrashError):
    """A `Rules` value or a player count that the rules do not allow.

    The message names the field and the allowed values.
    """

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field


class NotationError(TrashError):
    """Text that is not a card, an action or a move of the record notation."""


class IllegalActionError(TrashError):
    """A move that the rules do not allow in this position; ``reason`` says why."""

    def __init__(self, move: str, reason: str) -> None:
        super().__init__(f'"{move}": {reason}')
        self.move = move
        self.reason = reason


class RecordError(TrashError):
    """A record that breaks the rules at one of its moves (exit status 1).

    ``index`` counts moves from 0 (``dealer`` is move 0); ``None`` when the error is not
    tied to one move.
    """

    exit_status = 1

    def __init__(self, message: str, index: int | None = None, move: str | None = None) -> None:
        if index is not None:
            message = f'move {index} "{move}": {message}'
        super().__init__(message)
        self.index = index
        self.move = move


class RecordFormatError(RecordError):
    """A record that cannot be read at all: not JSON, wrong format, bad rules, an
    unreadable card or move word (exit status 2)."""

    exit_status = 2
