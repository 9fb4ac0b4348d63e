"""Who sits where: human players and bots, and how a record remembers which is which.

A record (RECORDS.md) stores only the players' names, so the name of a bot's seat says
that it is a bot and which one: ``bot:KIND`` (``bot:counter``), with ``:N`` added when the
same kind sits at the table more than once (``bot:greedy``, ``bot:greedy:2``); the naming
lives in :mod:`trashcards.bots`, so ``trashcards simulate --records`` names them the same
way. Every other name is a person's, checked by :func:`trashcards.names.check_name`.
``trashcards play --resume FILE`` reads the seats back from the names.

Players choose opponents by level (:data:`trashcards.ai.levels.LEVELS`): a level's seat
is its bot's seat (``bot:greedy`` plays ``good``), so a record stays readable by every
command, and the seat's :attr:`Seat.level` and :attr:`Seat.label` say the level and its
measured Elo wherever the table is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..ai.levels import LEVELS, Level, level_named
from ..bots import BOT_PREFIX, BOTS, bot_kind, bot_name
from ..names import NameRefusedError, check_name
from ..rules import MAX_PLAYERS, MIN_PLAYERS

__all__ = ["BOT_PREFIX", "Seat", "SeatError", "bot_name", "level_bots", "make_seats",
           "seats_from_names"]


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

    @property
    def level(self) -> Level | None:
        """The level this bot plays at (``None``: a person, or a bot off the ladder)."""
        return next((level for level in LEVELS if level.bot == self.bot), None)

    @property
    def level_note(self) -> str:
        """``"good, Elo 1670"`` for a level's bot, else ``""``."""
        level = self.level
        return "" if level is None else f"{level.name}, Elo {level.elo:.0f}"

    @property
    def label(self) -> str:
        """The name with the level and its Elo: ``"bot:greedy (good, Elo 1670)"``."""
        note = self.level_note
        return f"{self.name} ({note})" if note else self.name


def level_bots(names: Sequence[str]) -> list[str]:
    """The bot kinds of the levels ``names`` (``["good", "expert"]`` → ``["greedy",
    "expert"]``); :class:`SeatError` names an unknown level and lists the levels."""
    kinds = []
    for name in names:
        try:
            kinds.append(level_named(name).bot)
        except ValueError as exc:
            raise SeatError(str(exc)) from None
    return kinds


def _bot_kind(name: str) -> str | None:
    try:
        return bot_kind(name)
    except ValueError as exc:
        raise SeatError(str(exc)) from None


def _check_human(name: str) -> str:
    """A person's name, by the one check of :func:`trashcards.names.check_name`."""
    try:
        checked = check_name(name)
    except NameRefusedError as exc:
        raise SeatError(f"player {_shown(name)}: {exc}") from None
    if checked.lower().startswith(BOT_PREFIX):
        raise SeatError(f"player {checked!r}: names starting with {BOT_PREFIX!r} are for bots")
    return checked


def _shown(name: str) -> str:
    """A refused name quoted safely (it may hold the very characters it was refused for)."""
    return ascii(name.strip()) if not name.strip().isprintable() else repr(name.strip())


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
    if not any(seat.human for seat in seats):
        raise SeatError("nobody to play: name at least one person "
                        "(use `trashcards simulate` for bots only)")
    return tuple(seats)


def seats_from_names(names: Sequence[str]) -> tuple[Seat, ...]:
    """The table of a saved match, from its record's ``players``; a table of bots only
    (a record of ``trashcards simulate``) is watched, not played."""
    seats = tuple(Seat(name, _bot_kind(name)) for name in names)
    _check_table(list(seats))
    return seats


def _check_table(seats: list[Seat]) -> None:
    if not MIN_PLAYERS <= len(seats) <= MAX_PLAYERS:
        more = " (5 or more people: make two tables)" if len(seats) > MAX_PLAYERS else ""
        raise SeatError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} players, "
                        f"got {len(seats)}{more}")
    names = [seat.name.lower() for seat in seats]
    duplicates = sorted({seat.name for seat in seats if names.count(seat.name.lower()) > 1})
    if duplicates:
        raise SeatError(f"every player needs a different name: {', '.join(duplicates)}")
