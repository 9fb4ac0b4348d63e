"""Who sits where: human players and bots, and how a record remembers which is which.

A record (RECORDS.md) stores only the players' names, so the name of a bot's seat says
that it is a bot and which one: ``bot:KIND`` (``bot:counter``), with ``:N`` added when the
same kind sits at the table more than once (``bot:greedy``, ``bot:greedy:2``). Every other
name is a person. ``trashcards play --resume FILE`` reads the seats back from the names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from ..bots import BOTS
from ..rules import MAX_PLAYERS, MIN_PLAYERS

__all__ = ["BOT_PREFIX", "Seat", "SeatError", "bot_name", "make_seats", "seats_from_names"]

#: The prefix that marks a bot's seat in a record's ``players``.
BOT_PREFIX: Final = "bot:"
_MAX_NAME: Final = 24


class SeatError(ValueError):
    """Names or bots that cannot make a table; the message says why."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: its display name and, for a bot, the bot's kind (``None``: a person)."""

    name: str
    bot: str | None = None

    @property
    def human(self) -> bool:
        return self.bot is None


def bot_name(kind: str, copy: int = 1) -> str:
    """The seat name of the ``copy``-th bot of ``kind`` at the table."""
    return f"{BOT_PREFIX}{kind}" if copy == 1 else f"{BOT_PREFIX}{kind}:{copy}"


def _bot_kind(name: str) -> str | None:
    """The bot kind a seat name stands for, or ``None`` for a person's name."""
    if not name.startswith(BOT_PREFIX):
        return None
    parts = name[len(BOT_PREFIX):].split(":")
    kind = parts[0]
    if kind not in BOTS or len(parts) > 2 or (len(parts) == 2 and not parts[1].isdigit()):
        raise SeatError(f"player {name!r}: names starting with {BOT_PREFIX!r} are bots, "
                        f"and the bots are {', '.join(BOTS)}")
    return kind


def _check_human(name: str) -> str:
    name = name.strip()
    if not name:
        raise SeatError("a player's name cannot be empty")
    if len(name) > _MAX_NAME:
        raise SeatError(f"player {name!r}: names are at most {_MAX_NAME} characters")
    if name.lower().startswith(BOT_PREFIX):
        raise SeatError(f"player {name!r}: names starting with {BOT_PREFIX!r} are for bots")
    return name


def make_seats(humans: Sequence[str], bots: Sequence[str]) -> tuple[Seat, ...]:
    """The table for a new match: the people first, then one seat per bot kind."""
    seats = [Seat(_check_human(name)) for name in humans]
    copies: dict[str, int] = {}
    for raw in bots:
        kind = raw.strip().lower()
        if kind not in BOTS:
            raise SeatError(f"unknown bot {raw!r}; the bots are {', '.join(BOTS)}")
        copies[kind] = copies.get(kind, 0) + 1
        seats.append(Seat(bot_name(kind, copies[kind]), kind))
    _check_table(seats)
    return tuple(seats)


def seats_from_names(names: Sequence[str]) -> tuple[Seat, ...]:
    """The table of a saved match, from its record's ``players``."""
    seats = tuple(Seat(name, _bot_kind(name)) for name in names)
    _check_table(list(seats))
    return seats


def _check_table(seats: list[Seat]) -> None:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        more = " (5 or more people: make two tables)" if len(seats) > MAX_PLAYERS else ""
        raise SeatError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                        f"got {len(seats)}{more}")
    if not any(seat.human for seat in seats):
        raise SeatError("nobody to play: name at least one person "
                        "(use `trashcards simulate` for bots only)")
    names = [seat.name.lower() for seat in seats]
    duplicates = sorted({seat.name for seat in seats if names.count(seat.name.lower()) > 1})
    if duplicates:
        raise SeatError(f"every player needs a different name: {', '.join(duplicates)}")
