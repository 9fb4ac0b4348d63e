"""The websocket of a table (docs/protocol.md): one client's connection, from the checks
of its handshake to its last frame.

Each frame is read, measured against the connection's message rate (over it, the
connection is not read again until it may send: a flood waits in its own buffers), parsed
(:func:`~trashcards.web.protocol.parse_client_message`), charged the limit of its route
(:data:`~trashcards.web.routes.ROUTES`) and dispatched by the hub
(:meth:`~trashcards.web.hub.Hub.handle`); a second task writes the connection's queued
frames in order. Nothing a client sends closes the connection, except a frame over
``max_frame`` (the ASGI server closes it), not joining in time, and a flood that keeps
its answer to the ASGI server's keepalive ping waiting too long."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from .connection import Close, Connection
from .hub import Hub
from .limits import TokenBucket
from .protocol import ClientMessage, ProtocolError, parse_client_message
from .refusals import storage_error, unavailable
from .routes import Limit, route_of
from .services import Guards, Services, address_of, origin_allowed
from .settings import Settings
from .storage import OwnerLostError
from .store import StoreError
from .table import Table

__all__ = ["FULL", "NO_JOIN", "NO_TABLE", "TOO_MANY", "serve"]

log = logging.getLogger(__name__)

#: Close codes of the websocket (docs/protocol.md).
NO_TABLE = 4404
NO_JOIN = Close(4400, "no join in time: join right after connecting")
TOO_MANY = Close(4429, "too many connections from your address")
FULL = Close(4503, "the server has as many connections as it takes: try again later")


async def serve(ws: WebSocket) -> None:
    """One client: check its origin and its address's connections, then talk."""
    services = Services.of(ws)
    settings, guards = services.settings, services.guards
    origin = ws.headers.get("origin")
    if origin is not None and not origin_allowed(origin, ws.headers.get("host"),
                                                 settings.allowed_origins):
        await ws.close(code=4403)  # before accepting: the handshake is refused (HTTP 403)
        return
    address = address_of(ws, guards.proxies)
    if guards.sockets >= settings.max_sockets:
        await ws.accept()
        await ws.close(code=FULL.code, reason=FULL.reason)
        return
    if not guards.connections.open(address):
        await ws.accept()
        await ws.close(code=TOO_MANY.code, reason=TOO_MANY.reason)
        return
    guards.sockets += 1
    try:
        await ws.accept()
        try:
            table = await services.hub.find(ws.path_params["table_id"])
        except StoreError as exc:
            await ws.close(code=1011, reason=f"the database failed: {exc}"[:120])
            return
        except ProtocolError as exc:
            await ws.close(code=NO_TABLE, reason=exc.message[:120])
            return
        await _talk(ws, table, services.hub, settings, _Limits(settings, guards, address))
    finally:
        guards.sockets -= 1
        guards.connections.close(address)


class _Limits:
    """A connection's rates: every message, and what each route's :class:`Limit` costs."""

    def __init__(self, settings: Settings, guards: Guards, address: str) -> None:
        self.settings = settings
        self.guards = guards
        self.address = address
        self.messages = TokenBucket(settings.rate, settings.burst, settings.clock)
        self.hints = TokenBucket(settings.hint_rate, settings.hint_burst, settings.clock)

    def message(self) -> ProtocolError | None:
        """One more message (of any kind, read or not): refused over the rate, with the
        seconds until the next one is accepted."""
        wait = self.messages.wait()
        if wait == 0.0:
            return None
        rate = self.settings.rate
        return ProtocolError("rate_limited", f"at most {rate:g} messages per second",
                             min(wait, 60.0))

    def charge(self, limit: Limit | None) -> ProtocolError | None:
        """Take what ``limit`` costs, or the refusal with the seconds to wait."""
        if limit is Limit.JOINS:
            wait = self.guards.joins.wait(self.address)
            if wait > 0:
                return ProtocolError("rate_limited", "too many joins from your address: try "
                                                     f"again in {math.ceil(wait)} s", wait)
        elif limit is Limit.HINTS:
            wait = self.hints.wait() or self.guards.hints.wait(self.address)
            if wait > 0:
                return ProtocolError("rate_limited", f"at most {self.settings.hint_rate:g} "
                                                     "hints per second", wait)
        return None


async def _talk(ws: WebSocket, table: Table, hub: Hub, settings: Settings,
                limits: _Limits) -> None:
    conn = Connection(settings.max_queue, settings.max_queue_bytes)
    conn.address = limits.address
    reader = asyncio.current_task()
    assert reader is not None
    stuck: list[bool] = []

    def give_up() -> None:
        """The client reads nothing (a frame could not be written in time): stop reading
        too, so the handler returns and the ASGI server drops the connection."""
        stuck.append(True)
        reader.cancel()

    writer = asyncio.create_task(_write(ws, conn, settings.send_timeout, give_up))

    def not_joined() -> None:
        if conn.table_id is None:
            conn.close(NO_JOIN)

    timer = asyncio.get_running_loop().call_later(settings.join_timeout, not_joined)
    pending: set[asyncio.Task[None]] = set()
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            if conn.dropped:
                continue  # closing: read what comes until the client hangs up
            data: str | bytes | None = frame.get("text")
            if data is None:
                data = frame.get("bytes") or b""
            refusal = limits.message()
            if refusal is not None:
                # Not read again until its next message would be accepted: a flood waits
                # in its own buffers (TCP holds the sender back) instead of costing the
                # event loop a refusal per frame.
                conn.error(refusal.code, refusal.message, refusal.retry_after)
                await asyncio.sleep(refusal.retry_after or 0.0)
                continue
            size = len(data.encode("utf-8", "replace")) if isinstance(data, str) else len(data)
            try:
                if size > settings.max_message:
                    raise ProtocolError("too_large",
                                        f"a message is at most {settings.max_message} bytes")
                message = parse_client_message(data, settings.max_message, settings.max_depth)
                route = route_of(message)
                refusal = limits.charge(route.limit)
                if refusal is not None:
                    raise refusal
            except ProtocolError as exc:
                conn.error(exc.code, exc.message, exc.retry_after)
                continue
            if route.concurrent:  # answered when done, while the next messages are read
                task = asyncio.create_task(_dispatch(hub, table, conn, message))
                pending.add(task)
                task.add_done_callback(pending.discard)
            else:
                await _dispatch(hub, table, conn, message)
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        if not stuck:
            raise  # the server is stopping
        log.info("table %s: dropped a connection that reads nothing", table.id)
    finally:
        timer.cancel()
        for task in pending:
            task.cancel()
        table.detach(conn)
        hub.release(table)
        if conn.dropped and not stuck and not writer.done():  # let it write the close
            with contextlib.suppress(Exception):
                async with asyncio.timeout(settings.send_timeout):
                    await asyncio.shield(writer)
        writer.cancel()


async def _dispatch(hub: Hub, table: Table, conn: Connection, message: ClientMessage) -> None:
    """:meth:`Hub.handle`; what fails on the database or as a bug is said to ``conn``."""
    try:
        await hub.handle(table, conn, message)
    except StoreError as exc:  # an outage: expected, one line, the documented code
        log.warning("table %s: a %s failed on the database: %s", table.id, message.type, exc)
        error = unavailable(str(exc)) if isinstance(exc, OwnerLostError) else \
            storage_error(exc)
        conn.error(error.code, error.message, error.retry_after)
    except Exception:  # a bug: say so, keep the connection
        log.exception("table %s: a %s message failed", table.id, message.type)
        conn.error("internal", "the server failed on this message; nothing changed")


async def _write(ws: WebSocket, conn: Connection, timeout: float,
                 give_up: Callable[[], None]) -> None:
    """Write the queued frames in order; a :class:`Close` closes the socket. A frame (or
    the close) that takes longer than ``timeout`` to write means the client reads
    nothing: ``give_up``."""
    try:
        while True:
            item = await conn.queue.get()
            # asyncio.timeout, not wait_for: Python 3.11's wait_for swallows a
            # cancellation that comes as the write completes, and the writer then waited
            # for ever on a queue nobody fills, until the garbage collector destroyed it
            async with asyncio.timeout(timeout):
                if isinstance(item, Close):
                    await ws.close(code=item.code, reason=item.reason)
                    return
                await ws.send_text(item)
            conn.sent(item)
    except TimeoutError:
        give_up()
    except Exception:  # the socket is gone: the reader hears of it
        return
