"""The route table of the client messages: for each type of
:data:`~trashcards.web.protocol.ClientMessage`, its handler, where it runs and what it
costs beyond the connection's message rate. The socket reads a frame, parses it
(:func:`~trashcards.web.protocol.parse_client_message`), charges the route's limit
(:func:`trashcards.web.sockets.serve`) and dispatches it (:func:`dispatch`); another
server process that receives a forwarded message dispatches it here too.

A new message type is a model in :mod:`trashcards.web.protocol` (added to
``ClientMessage``), a handler of the one shape (a :class:`~trashcards.web.table.Table`
method or a function taking the table, the connection, the message and ``remote``), and
one line below; ``tests/web/test_routes.py`` checks that every type has its route.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Generic, Protocol, TypeVar

from .connection import Connection
from .protocol import (
    Act,
    ClientMessage,
    HintRequest,
    HistoryRequest,
    Join,
    NextRound,
    Ping,
    React,
    RematchRequest,
    message_type,
)
from .table import Table

__all__ = ["ROUTES", "Forwarder", "Limit", "Route", "Where", "dispatch", "route_of"]

M = TypeVar("M", bound=ClientMessage)


class Where(StrEnum):
    """Where a message is acted on, with a shared database (several processes)."""

    #: in the process the client is connected to: every process has the table's moves
    HERE = "here"
    #: by the table's owner, the one process that writes it (forwarded there)
    OWNER = "owner"


class Limit(StrEnum):
    """What a message costs beyond one token of its connection's message rate
    (``Settings.rate``); each has its settings and its answer in
    :mod:`trashcards.web.sockets`."""

    #: joins of the client's address per minute (``join_rate``)
    JOINS = "joins"
    #: hints of the connection per second and of its address (``hint_rate``,
    #: ``hint_address_rate``)
    HINTS = "hints"


#: A message's handler: the table, the connection, the message and ``remote`` (forwarded
#: by another process, whose connection joined there). Refusals go to the connection.
Handler = Callable[[Table, Connection, M, bool], Awaitable[None]]


@dataclass(frozen=True)
class Route(Generic[M]):
    """How one type of client message is handled."""

    model: type[M]
    handler: Handler[M]
    where: Where
    limit: Limit | None = None
    #: answered when done while the connection's next messages are read (a hint is
    #: computed for a while), instead of one message after the other
    concurrent: bool = False

    @property
    def type(self) -> str:
        """The message's ``type``."""
        return message_type(self.model)


async def _pong(_table: Table, conn: Connection, _message: Ping, _remote: bool) -> None:
    conn.send_json({"type": "pong"})


#: The one route table, by message type.
ROUTES: Final[Mapping[str, Route[Any]]] = {route.type: route for route in (
    Route(Join, Table.join, Where.HERE, Limit.JOINS),
    Route(Act, Table.act, Where.OWNER),
    Route(NextRound, Table.next_round, Where.OWNER),
    Route(RematchRequest, Table.ask_rematch, Where.OWNER),
    Route(HistoryRequest, Table.history, Where.HERE),
    Route(HintRequest, Table.hint, Where.HERE, Limit.HINTS, concurrent=True),
    Route(React, Table.react, Where.OWNER),
    Route(Ping, _pong, Where.HERE),
)}


def route_of(message: ClientMessage) -> Route[Any]:
    """The route of a parsed message."""
    return ROUTES[message.type]


class Forwarder(Protocol):
    """Sends a message to the process that owns its table
    (:class:`~trashcards.web.cluster.Cluster`)."""

    async def forward(self, table: Table, conn: Connection, message: ClientMessage) -> None:
        """Have the table's owner act on ``message``; its refusals go to ``conn``."""


async def dispatch(table: Table, conn: Connection, message: ClientMessage,
                   forwarder: Forwarder | None = None, remote: bool = False) -> None:
    """Hand ``message`` to its handler: here, unless it runs at the table's owner and
    that is another process (then to ``forwarder``)."""
    route = route_of(message)
    if route.where is Where.OWNER and forwarder is not None and not table.owned:
        await forwarder.forward(table, conn, message)
    else:
        await route.handler(table, conn, message, remote)
