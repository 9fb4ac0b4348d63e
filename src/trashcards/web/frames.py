"""The frames a table sends, as JSON text: a seat's ``state``, the ``events`` of some
moves with the state after them, the ``table``, the ``rematch`` and a ``reaction``.
Every view of the match is built here (:func:`trashcards.views.view`), so a seat sees
its own view and a spectator the public one."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from ..state import State
from ..statejson import view_json
from ..views import view
from .connection import Connection, dumps

__all__ = ["broadcast_events", "broadcast_reaction", "broadcast_table", "events_frame",
           "joined", "rematch_frame", "state_frame"]


def state_frame(state: State, version: int, seat: int | None) -> str:
    """A ``state`` message with the view of ``seat``."""
    return dumps({"type": "state", "version": version, "seat": seat,
                  "state": view_json(view(state, seat))})


def events_frame(state: State, version: int, since: int, events_text: str,
                 seat: int | None) -> str:
    """An ``events`` message for ``seat``: ``events_text`` is the events' JSON list
    (the same for every seat) and the state is this seat's view."""
    seat_text = "null" if seat is None else str(seat)
    return (f'{{"type":"events","from_version":{since},"version":{version},'
            f'"seat":{seat_text},"events":{events_text},'
            f'"state":{dumps(view_json(view(state, seat)))}}}')


def broadcast_events(conns: Iterable[Connection], state: State, version: int, since: int,
                     events_text: str) -> None:
    """Send the ``events`` from ``since`` to every connection (one frame per view)."""
    frames: dict[int | None, str] = {}
    for conn in conns:
        seat = conn.view_seat
        if seat not in frames:
            frames[seat] = events_frame(state, version, since, events_text, seat)
        conn.send(frames[seat])


def broadcast_table(conns: Iterable[Connection], info: dict[str, Any]) -> None:
    """Send the ``table`` message (the table's ``info``) to every connection."""
    text = dumps({"type": "table", "table": info})
    for conn in conns:
        conn.send(text)


def broadcast_reaction(conns: Iterable[Connection], seat: int, emote: str) -> None:
    """Send a seat's ``reaction`` to every connection (spectators too)."""
    text = dumps({"type": "reaction", "seat": seat, "emote": emote})
    for conn in conns:
        conn.send(text)


def rematch_frame(rematch_id: str | None) -> str:
    """The ``rematch`` message naming the rematch table."""
    return dumps({"type": "rematch", "table_id": rematch_id, "url": f"/t/{rematch_id}"})


def joined(texts: Sequence[str]) -> str:
    """The JSON list of the events of several moves."""
    return "[" + ",".join(t for t in texts if t) + "]"
