"""A table's seats: who holds them (by token), which are open, and the names people
choose or the server gives."""

from __future__ import annotations

import hmac
from collections.abc import Sequence

from ..bots import BOT_PREFIX
from ..names import NameRefusedError, check_name
from .protocol import ProtocolError
from .store import SeatRow, hash_token

__all__ = ["choose_name", "choose_seat", "names", "seat_for", "seat_of", "taken",
           "unique_name", "valid_name"]


def valid_name(name: str) -> str:
    """A name people chose, checked (:func:`trashcards.names.check_name`); raises
    :class:`ProtocolError` ``bad_name``."""
    try:
        checked = check_name(name)
    except NameRefusedError as exc:
        raise ProtocolError("bad_name", str(exc)) from None
    if checked.casefold().startswith(BOT_PREFIX):
        raise ProtocolError("bad_name", f"names starting with {BOT_PREFIX!r} are for the "
                                        "computer's seats")
    return checked


def unique_name(name: str, taken: Sequence[str | None]) -> str:
    """``name``, or ``name 2``, ``name 3`` … if another seat has it (ignoring case): for
    the names the server gives."""
    used = {t.casefold() for t in taken if t}
    candidate, number = name, 1
    while candidate.casefold() in used:
        number += 1
        candidate = f"{name} {number}"
    return candidate


def taken(seat: SeatRow) -> bool:
    """Whether someone holds the seat (a bot, or a person with its token)."""
    return seat.kind != "open" or seat.token_hash is not None


def names(seats: Sequence[SeatRow]) -> dict[int, str]:
    """Each seat's name (``""`` when it has none)."""
    return {s.seat: s.name or "" for s in seats}


def seat_of(seats: Sequence[SeatRow], token: str) -> int | None:
    """The seat ``token`` claims, or ``None``."""
    digest = hash_token(token)
    for s in seats:
        if s.token_hash is not None and hmac.compare_digest(s.token_hash, digest):
            return s.seat
    return None


def seat_for(seats: Sequence[SeatRow], token: str) -> int:
    """The seat ``token`` claims; raises :class:`ProtocolError` ``bad_token``."""
    seat = seat_of(seats, token)
    if seat is None:
        raise ProtocolError("bad_token", "this token is not a seat of this table")
    return seat


def choose_seat(seats: Sequence[SeatRow], seat: int | None) -> SeatRow:
    """The open seat asked for (``None``: the first open one); raises
    :class:`ProtocolError` (``no_open_seat``, ``bad_request``, ``seat_taken``)."""
    if seat is None:
        free = [s for s in seats if not taken(s)]
        if not free:
            raise ProtocolError("no_open_seat", "every seat of this table is taken")
        return free[0]
    found = [s for s in seats if s.seat == seat]
    if not found:
        raise ProtocolError("bad_request", f"no seat {seat} at this table")
    if taken(found[0]):
        raise ProtocolError("seat_taken", f"seat {seat} is taken")
    return found[0]


def choose_name(seats: Sequence[SeatRow], row: SeatRow, name: str | None) -> str:
    """The name of the person taking ``row``: ``name`` (checked, and no other seat may
    have it: ``bad_name``, ``name_taken``) or, without one, the seat's own or default
    name made unique."""
    others = [s.name for s in seats if s is not row]
    if name is not None:
        chosen = valid_name(name)
        if unique_name(chosen, others) != chosen:
            raise ProtocolError("name_taken", f"another seat at this table is called "
                                              f"{chosen!r}: choose another name")
        return chosen
    return unique_name(row.name or f"Player {row.seat + 1}", others)
