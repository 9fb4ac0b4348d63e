"""Rematches: a seat of a finished match asks for one; the first request makes the
rematch table (once) and every connection, also those of the other processes sharing
the database, hears of it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Protocol, TypeVar

from ..state import Phase, State
from .connection import Connection
from .frames import rematch_frame
from .moves import started
from .protocol import ProtocolError, RematchRequest
from .refusals import unavailable
from .seats import seat_for
from .storage import Storage
from .store import SeatRow, WriteError

__all__ = ["RematchTable", "ask_rematch", "send_rematch"]

log = logging.getLogger(__name__)


class RematchTable(Protocol):
    """What a rematch needs of its table (:class:`trashcards.web.table.Table`)."""

    #: the rematch table's id, once there is one
    rematch_id: str | None

    @property
    def id(self) -> str: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def conns(self) -> set[Connection]: ...
    @property
    def owned(self) -> bool: ...
    @property
    def seats(self) -> Sequence[SeatRow]: ...
    @property
    def state(self) -> State | None: ...
    @property
    def store(self) -> Storage: ...
    @property
    def version(self) -> int: ...

    def send_table(self) -> None:
        """Send the ``table`` message to every connection."""


T = TypeVar("T", bound=RematchTable)


async def ask_rematch(table: T, conn: Connection, message: RematchRequest,
                      make_rematch: Callable[[T], Awaitable[str]],
                      remote: bool = False) -> None:
    """A seat asks for a rematch (refusals are sent to ``conn``): the first request makes
    the rematch table with ``make_rematch``; every request announces it. With ``remote``
    the request was forwarded by another process, whose connection joined there."""
    async with table.lock:
        try:
            if conn not in table.conns and not remote:
                raise ProtocolError("not_joined", "send join first")
            if not table.owned:
                raise unavailable()
            seat_for(table.seats, message.token)
            if started(table.state).phase is not Phase.MATCH_OVER:
                raise ProtocolError("bad_phase", "the match is not over")
        except ProtocolError as exc:
            conn.error(exc.code, exc.message)
            return
        if table.rematch_id is None:
            try:
                table.rematch_id = await make_rematch(table)
            except ProtocolError as exc:  # storage_error: nothing was made
                conn.error(exc.code, exc.message, exc.retry_after)
                return
            table.send_table()
        if table.store.shared:  # the connections of the other processes hear of it too
            try:
                await table.store.ask_rematch(table.id, table.version, table.rematch_id)
            except WriteError as exc:
                log.warning("table %s: the rematch could not be announced: %s",
                            table.id, exc)
        send_rematch(table.conns, table.rematch_id)


def send_rematch(conns: Iterable[Connection], rematch_id: str) -> None:
    """Tell every connection where the rematch table ``rematch_id`` is."""
    text = rematch_frame(rematch_id)
    for other in conns:
        other.send(text)
