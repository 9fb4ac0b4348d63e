"""The one error family of trashcards.

Every error the core raises is a :class:`TrashError`, itself a :class:`ValueError`, so
callers can catch the whole family or one cause at a time.
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = [
    "ArgumentError",
    "IllegalActionError",
    "JSONTextError",
    "NotationError",
    "PositionError",
    "RecordError",
    "RecordFormatError",
    "RulesError",
    "TrashError",
    "brief",
]

#: Longest piece of a rejected text that an error message quotes.
_QUOTE: Final = 40


class TrashError(ValueError):
    """Base class of every error raised by trashcards."""


class PositionError(TrashError):
    """A position that cannot answer what it was asked: no chance move is due, there is
    no such seat, a view that no state of the match fits."""


class ArgumentError(TrashError):
    """A value a function does not take: a count out of range, an unknown name, two
    things that do not go together."""


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
            shown = move if move is None or len(move) <= 2 * _QUOTE else move[:2 * _QUOTE] + "…"
            message = f'move {index} "{shown}": {message}'
        super().__init__(message)
        self.index = index
        self.move = move


class RecordFormatError(RecordError):
    """A record that cannot be read at all: not JSON, wrong format, bad rules, an
    unreadable card or move word (exit status 2)."""

    exit_status = 2


class JSONTextError(TrashError):
    """Text that is not JSON, or JSON beyond the reader's bounds (RECORDS.md, "Limits").

    ``kind`` says which: ``"syntax"`` (not JSON), ``"size"`` (too long), ``"depth"``
    (nested too deep), ``"number"`` (an integer with too many digits, ``NaN``,
    ``Infinity``) or ``"surrogate"`` (a string with a lone surrogate).
    """

    def __init__(self, kind: Literal["syntax", "size", "depth", "number", "surrogate"],
                 message: str) -> None:
        super().__init__(message)
        self.kind = kind


def brief(value: object) -> str:
    """A short description of a rejected value for an error message.

    Short strings and numbers are shown as their ``repr`` (a long string is cut, a huge
    number described by its length), a short list of them item by item; any other
    container is named by its type and size, never looked into, so any value, however
    large or deeply nested, makes a short message.
    """
    if value is None or isinstance(value, bool | float):
        return repr(value)
    if isinstance(value, int):
        if value.bit_length() <= 64:
            return repr(value)
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    if isinstance(value, str):
        if len(value) <= _QUOTE:
            return repr(value)
        return repr(value[:_QUOTE]) + f"… ({len(value)} characters)"
    if isinstance(value, list | tuple):
        if len(value) <= 4 and all(_scalar(item) for item in value):
            return "[" + ", ".join(brief(item) for item in value) + "]"
        return f"a list of {len(value)} item{'' if len(value) == 1 else 's'}"
    if isinstance(value, dict):
        return f"an object of {len(value)} field{'' if len(value) == 1 else 's'}"
    return f"a {type(value).__name__}"


def _scalar(value: object) -> bool:
    return value is None or isinstance(value, bool | int | float | str)
