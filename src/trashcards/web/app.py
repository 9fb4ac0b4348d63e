"""The ASGI application: pages, the JSON API and the websocket (docs/protocol.md).

:func:`create_app` builds everything from a :class:`~trashcards.web.settings.Settings`;
there is no module-level state, so tests can run several servers side by side. Every
limit of docs/protocol.md ("Limits") is enforced here or in the connection: JSON-only
bodies, the Origin of pages, per-address rates and connection caps, the join timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib
import logging
import math
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.templating import Jinja2Templates
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..ai.levels import LEVELS
from ..bots import BOTS
from ..rules import PRESETS, Rules
from . import offline
from .advice import warm_up
from .backends import open_storage
from .connection import Close, Connection
from .edges import RequestRate, client_gone, relative_redirects
from .hub import Hub
from .limits import (
    AddressLimiter,
    ConnectionCounter,
    Network,
    TokenBucket,
    client_address,
    proxy_networks,
)
from .party import PARTY_TABLES, Parties
from .protocol import (
    CreateParty,
    CreateTable,
    HintRequest,
    Join,
    JoinTable,
    Ping,
    ProtocolError,
    parse_client_message,
    parse_json,
)
from .refusals import storage_error, unavailable
from .settings import Settings
from .storage import OwnerLostError
from .store import StoreError
from .table import Table

__all__ = ["create_app", "origin_allowed"]

log = logging.getLogger(__name__)
#: The warm-up's two lines ("warming up …", "ready …"): ``trashcards serve`` shows them.
warm_log = logging.getLogger(f"{__name__}.warmup")

#: HTTP status of each error code; any other code is 400.
_STATUS = {"no_table": 404, "no_party": 404, "quarantined": 410, "seat_taken": 409,
           "no_open_seat": 409, "name_taken": 409, "bad_origin": 403, "too_large": 413,
           "unsupported_media_type": 415, "rate_limited": 429, "storage_error": 503,
           "busy": 503, "bad_record": 422, "unavailable": 503}
#: Close codes of the websocket (docs/protocol.md).
NO_TABLE = 4404
NO_JOIN = Close(4400, "no join in time: join right after connecting")
TOO_MANY = Close(4429, "too many connections from your address")
FULL = Close(4503, "the server has as many connections as it takes: try again later")
#: Longest table id looked up (ids are 11 characters).
_MAX_ID = 64


class WarmUp:
    """The AI's warm-up (:func:`~trashcards.web.advice.warm_up`: on a first start, numba
    compiles the fast kernel, half a minute or more) in a thread of its own, so
    that the server answers at once. Until it is done, hints, win chances and expert bots
    wait for it (the kernel's first calls wait for its compilation); ``/healthz`` says
    ``"ai": "warming_up"`` and the table page shows a note."""

    def __init__(self) -> None:
        self.done = threading.Event()
        #: the engine the AI runs on ("fast" or "reference"), once done
        self.engine: str | None = None
        self.seconds: float | None = None

    @property
    def state(self) -> str:
        return "ready" if self.done.is_set() else "warming_up"

    def start(self) -> None:
        # numpy is imported here first: its modules import one another, and two threads
        # importing it at once (this one's kernel and, say, a request's pytest.approx or a
        # worker's) can be handed a partly initialised module by Python's deadlock
        # avoidance ("partially initialized module 'numpy'").
        with contextlib.suppress(ImportError):
            importlib.import_module("numpy")
        threading.Thread(target=self._run, name="trashcards-warm-up", daemon=True).start()

    def _run(self) -> None:
        start = time.monotonic()
        warm_log.info("warming up the AI: hints, win chances and expert bots wait until it "
                      "is ready (a first start compiles the fast engine: half a minute or more)")
        try:
            self.engine = warm_up()
        except Exception:  # the AI's own errors show where it is used; never kill the start
            log.exception("the AI's warm-up failed")
        finally:
            self.seconds = time.monotonic() - start
            self.done.set()
        warm_log.info("the AI is ready (%s engine, warmed up in %.1f s)",
                      self.engine or "no", self.seconds)


@dataclass
class _Guards:
    """The per-address limits of one server."""

    creates: AddressLimiter
    joins: AddressLimiter
    reviews: AddressLimiter
    connections: ConnectionCounter
    hints: AddressLimiter
    proxies: tuple[Network, ...] = ()
    #: open websockets of the whole server
    sockets: int = 0

    @classmethod
    def of(cls, settings: Settings) -> _Guards:
        def per_minute(rate: float) -> AddressLimiter:
            return AddressLimiter(rate / 60.0, math.ceil(rate), settings.clock)
        return cls(per_minute(settings.create_rate), per_minute(settings.join_rate),
                   per_minute(settings.review_rate),
                   ConnectionCounter(settings.max_connections),
                   AddressLimiter(settings.hint_address_rate,
                                  max(1, math.ceil(2 * settings.hint_address_rate)),
                                  settings.clock),
                   proxy_networks(settings.trusted_proxies))


def create_app(settings: Settings | None = None) -> Starlette:
    """The whole server for ``settings`` (defaults: those of ``trashcards serve``)."""
    settings = settings or Settings()
    holder: dict[str, Hub] = {}
    parties: dict[str, Parties] = {}
    guards = _Guards.of(settings)
    warm = WarmUp()

    def hub() -> Hub:
        return holder["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = await open_storage(settings.db_path, store=settings.store,
                                   clock=settings.wall_clock)
        try:
            holder["hub"] = Hub(settings, store)
            parties["parties"] = Parties(holder["hub"])
            warm.start()  # in the background: the server answers at once
            holder["hub"].advisor.start()  # the AI's worker processes, warming up too
            await holder["hub"].resume()
            holder["hub"].start_sweeping()
            gc.freeze()  # what start-up made lives as long as the server: never scan it
            yield
        finally:
            if "hub" in holder:
                holder["hub"].close()
            await store.close()

    templates = Jinja2Templates(directory=settings.templates_dir)

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        """A page: its template (``templates/NAME``, which extends ``base.html``)."""
        async def endpoint(request: Request) -> Response:
            if not (Path(settings.templates_dir) / name).is_file():
                return PlainTextResponse(f"{name} is not there yet", status_code=404)
            # served at the host's root: every address from "/" (docs/offline.md)
            return templates.TemplateResponse(request, name, {"root": "/"},
                                              headers={"Cache-Control": "no-cache"})
        return endpoint

    async def service_worker(_request: Request) -> Response:
        return Response(offline.service_worker(Path(settings.static_dir),
                                               Path(settings.templates_dir)),
                        media_type="text/javascript",
                        headers={"Cache-Control": "no-cache"})

    async def web_manifest(_request: Request) -> Response:
        return JSONResponse(offline.manifest(), media_type="application/manifest+json",
                            headers={"Cache-Control": "no-cache"})

    async def create_table(request: Request) -> Response:
        _check_post(request, settings, guards.creates, "tables created", guards.proxies)
        spec = CreateTable.model_validate(await _body(request, settings))
        table, mine = await hub().create(spec)
        table.creator = _address(request, guards.proxies)  # its expert bots' fair share
        return JSONResponse({"table_id": table.id, "seats": mine, "invite": f"/t/{table.id}",
                             "spectate": f"/t/{table.id}?watch=1"}, status_code=201)

    async def create_party(request: Request) -> Response:
        # a party makes two tables at once: it costs two of the address's creates
        _check_post(request, settings, guards.creates, "tables created", guards.proxies,
                    cost=PARTY_TABLES)
        spec = CreateParty.model_validate(await _body(request, settings))
        made = await parties["parties"].create(spec)
        for table_id in made["tables"]:  # their expert bots' fair share
            if table_id in hub().tables:
                hub().tables[table_id].creator = _address(request, guards.proxies)
        return JSONResponse(made, status_code=201)

    async def get_party(request: Request) -> Response:
        return JSONResponse(await parties["parties"].info(request.path_params["party_id"]))

    async def list_tables(_request: Request) -> Response:
        return JSONResponse({"tables": await hub().open_tables()})

    async def get_table(request: Request) -> Response:
        return JSONResponse((await _table(hub(), request)).info())

    async def join_table(request: Request) -> Response:
        _check_post(request, settings, guards.joins, "joins", guards.proxies)
        table = await _table(hub(), request)
        spec = JoinTable.model_validate(await _body(request, settings))
        seat, token, name = await hub().take_seat(table, spec.name, spec.seat)
        return JSONResponse({"table_id": table.id, "seat": seat, "token": token,
                             "name": name})

    async def get_record(request: Request) -> Response:
        table = await _table(hub(), request)
        record, complete = table.record()
        return Response(record.dumps(), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="trash-{table.id}.trash.json"',
            "X-Trash-Record": "complete" if complete else "partial"})

    async def presets(_request: Request) -> Response:
        names = [p for p in PRESETS if p != "first-to-N"] + [f"first-to-{n}" for n in (5, 7)]
        out = []
        for name in names:
            rules = Rules.preset_named(name)
            out.append({"name": name, "rules": _all_fields(rules), "summary": rules.describe()})
        return JSONResponse({"presets": out})

    async def bots(_request: Request) -> Response:
        return JSONResponse({"bots": [{"name": name, "description": description}
                                      for name, (_f, description) in BOTS.items()]})

    async def levels(_request: Request) -> Response:
        return JSONResponse({"levels": [
            {"name": level.name, "bot": level.bot, "elo": round(level.elo),
             "elo_ci": [round(level.low), round(level.high)],
             "apart_from_below": level.apart_from_below, "description": level.description}
            for level in LEVELS]})

    async def review_record(request: Request) -> Response:
        _check_post(request, settings, guards.reviews, "reviews", guards.proxies)
        body = await _raw_body(request, settings.max_review_body)
        job = asyncio.ensure_future(hub().advisor.review(
            body, settings.review_samples, settings.max_review_moves, settings.review_deals,
            settings.review_deadline, _address(request, guards.proxies)))
        gone = asyncio.ensure_future(_disconnected(request))
        try:  # a client that hangs up takes its review out of the queue (or stops it)
            await asyncio.wait((job, gone), return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            if not job.done():
                job.cancel()
        if not job.done() or job.cancelled():
            return Response(status_code=499)  # nobody is there to read it
        return Response(job.result(), media_type="application/json")

    async def healthz(_request: Request) -> Response:
        """For load balancers: 200 while this process can serve (with a shared database:
        while its owner connection is up and its tables can move), else 503."""
        the_hub = hub()
        store = the_hub.store
        ok = not store.shared or await store.healthy()
        if ok and the_hub.cluster is not None:  # and its tables can move
            ok = the_hub.cluster.healthy()
        body = {"ok": ok, "process": store.process_id, "ai": warm.state,
                "ai_jobs": {"waiting": the_hub.advisor.waiting,
                            "running": the_hub.advisor.running},
                "tables_owned": sum(t.owned for t in the_hub.tables.values()),
                "tables_followed": sum(not t.owned for t in the_hub.tables.values())}
        return JSONResponse(body, status_code=200 if ok else 503)

    async def websocket(ws: WebSocket) -> None:
        await _serve_socket(ws, hub(), settings, guards)

    async def protocol_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ProtocolError)
        body: dict[str, Any] = {"error": exc.code, "message": exc.message}
        headers = {}
        if exc.retry_after is not None:
            body["retry_after"] = round(exc.retry_after, 3)
            headers["Retry-After"] = str(max(1, math.ceil(exc.retry_after)))
        return JSONResponse(body, status_code=_STATUS.get(exc.code, 400), headers=headers)

    async def store_error(_request: Request, exc: Exception) -> Response:
        log.warning("a request failed on the database: %s", exc)
        return JSONResponse({"error": "storage_error", "message": f"the database failed: {exc}",
                             "retry_after": 5}, status_code=503, headers={"Retry-After": "5"})

    async def validation_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ValidationError)
        parts = [f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}"
                 for e in exc.errors()[:3]]
        return JSONResponse({"error": "bad_request", "message": "; ".join(parts)},
                            status_code=400)

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table_id}", page("table.html")),
        Route("/p/{party_id}", page("party.html")),
        Route("/rules", page("rules.html")),
        Route("/review", page("review.html")),
        Route("/rules/{lang}", page("rules.html")),
        # The pages again at the addresses the service worker caches them from.
        *(Route(f"/pages/{name}", page(name)) for name in offline.PAGE_NAMES),
        Route("/healthz", healthz),
        Route(offline.SW_PATH, service_worker),
        Route(offline.MANIFEST_PATH, web_manifest),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", get_table, methods=["GET"]),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", get_record, methods=["GET"]),
        Route("/api/parties", create_party, methods=["POST"]),
        Route("/api/parties/{party_id}", get_party, methods=["GET"]),
        Route("/api/presets", presets),
        Route("/api/bots", bots),
        Route("/api/levels", levels),
        Route("/api/review", review_record, methods=["POST"]),
        WebSocketRoute("/ws/{table_id}", websocket),
        Mount("/static", offline.ShellFiles(directory=settings.static_dir, check_dir=False),
              name="static"),
    ]
    # Pages of the allowed origins (a static copy of the app, docs/offline.md) read the
    # API's answers: CORS for exactly those origins.
    origins = [origin.strip().rstrip("/") for origin in settings.allowed_origins]
    middleware = [Middleware(RequestRate, rate=settings.http_rate, burst=settings.http_burst,
                             clock=settings.clock, proxies=guards.proxies)]
    middleware += [Middleware(CORSMiddleware, allow_origins=origins,
                              allow_methods=["GET", "POST"], allow_headers=["Content-Type"],
                              expose_headers=["X-Trash-Record", "Retry-After"])
                   ] if settings.allowed_origins else []
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware,
                    exception_handlers={ProtocolError: protocol_error,
                                        ValidationError: validation_error,
                                        StoreError: store_error,
                                        ClientDisconnect: client_gone})
    relative_redirects(app.router)
    return app


async def _find(hub: Hub, table_id: str) -> Table:
    """The table; raises :class:`ProtocolError` ``no_table`` or ``quarantined``."""
    table = await hub.get(table_id) if len(table_id) <= _MAX_ID else None
    if table is not None:
        return table
    if table_id in hub.quarantined:
        raise ProtocolError("quarantined", "this table's record cannot be replayed, so the "
                                           "server left it out (see the server's log)")
    raise ProtocolError("no_table", "there is no such table")


async def _table(hub: Hub, request: Request) -> Table:
    return await _find(hub, request.path_params["table_id"])


def origin_allowed(origin: str, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a page from ``origin`` may use the server whose ``Host`` is ``host``: its
    own pages (same host and port), the ``allowed`` origins, any with ``"*"``."""
    if "*" in allowed:
        return True
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port  # a bad port raises
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    if host is not None and parts.netloc == host.strip().lower():
        return True
    shown = f"{parts.scheme}://{parts.hostname}" + (f":{port}" if port is not None else "")
    return shown in {a.strip().lower().rstrip("/") for a in allowed}


def _address(connection: Request | WebSocket, proxies: tuple[Network, ...] = ()) -> str:
    """The client's address (behind a trusted proxy: the one it forwards for)."""
    peer = connection.client.host if connection.client is not None else "unknown"
    return client_address(peer, connection.headers.get("x-forwarded-for"), proxies)


def _check_post(request: Request, settings: Settings, limiter: AddressLimiter,
                what: str, proxies: tuple[Network, ...] = (), cost: int = 1) -> None:
    """JSON only (so no HTML form of another site can post), from an allowed origin,
    within the address's rate (``cost`` tokens of it); raises :class:`ProtocolError`."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ProtocolError("unsupported_media_type", "the body must be JSON, sent with "
                                                      "Content-Type: application/json")
    origin = request.headers.get("origin")
    if origin is not None and not origin_allowed(origin, request.headers.get("host"),
                                                 settings.allowed_origins):
        raise ProtocolError("bad_origin", "pages of another site may not use this server")
    wait = limiter.wait(_address(request, proxies), cost)
    if wait > 0:
        raise ProtocolError("rate_limited", f"too many {what} from your address: try again "
                                            f"in {math.ceil(wait)} s", retry_after=wait)


async def _raw_body(request: Request, limit: int) -> bytes:
    """The body, read up to ``limit`` bytes; raises :class:`ProtocolError` ``too_large``."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise ProtocolError("too_large", f"the body is over {limit} bytes")
    return body


async def _disconnected(request: Request) -> None:
    """Returns when the client of ``request`` (whose body was read) hangs up."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _body(request: Request, settings: Settings) -> Any:
    body = await _raw_body(request, settings.max_body)
    return parse_json(body or b"{}", settings.max_body, settings.max_depth)


def _all_fields(rules: Rules) -> dict[str, Any]:
    return {"preset": rules.preset, "decks": rules.decks,
            "jokers_per_deck": rules.jokers_per_deck, "wild_ranks": list(rules.wild_ranks),
            "start_size": rules.start_size, "rounds_to_win": rules.rounds_to_win,
            "call_trash": rules.call_trash, "last_chance": rules.last_chance}


async def _serve_socket(ws: WebSocket, hub: Hub, settings: Settings, guards: _Guards) -> None:
    """One client: check its origin and its address's connections, read frames, check
    size and rate, hand messages to the table; a second task writes the connection's
    queued frames in order. Nothing a client sends closes the connection, except a frame
    over ``max_frame`` (the ASGI server closes it) and not joining in time."""
    origin = ws.headers.get("origin")
    if origin is not None and not origin_allowed(origin, ws.headers.get("host"),
                                                 settings.allowed_origins):
        await ws.close(code=4403)  # before accepting: the handshake is refused (HTTP 403)
        return
    address = _address(ws, guards.proxies)
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
            table = await _find(hub, ws.path_params["table_id"])
        except StoreError as exc:
            await ws.close(code=1011, reason=f"the database failed: {exc}"[:120])
            return
        except ProtocolError as exc:
            await ws.close(code=NO_TABLE, reason=exc.message[:120])
            return
        await _talk(ws, table, hub, settings, guards, address)
    finally:
        guards.sockets -= 1
        guards.connections.close(address)


async def _talk(ws: WebSocket, table: Table, hub: Hub, settings: Settings, guards: _Guards,
                address: str) -> None:
    conn = Connection(settings.max_queue, settings.max_queue_bytes)
    conn.address = address
    bucket = TokenBucket(settings.rate, settings.burst, settings.clock)
    hints = TokenBucket(settings.hint_rate, settings.hint_burst, settings.clock)
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
    pending_hints: set[asyncio.Task[None]] = set()
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
            size = len(data.encode("utf-8", "replace")) if isinstance(data, str) else len(data)
            if size > settings.max_message:
                conn.error("too_large", f"a message is at most {settings.max_message} bytes")
                continue
            if not bucket.take():
                conn.error("rate_limited", f"at most {settings.rate:g} messages per second",
                           1.0 / settings.rate if settings.rate > 0 else None)
                continue
            try:
                message = parse_client_message(data, settings.max_message, settings.max_depth)
            except ProtocolError as exc:
                conn.error(exc.code, exc.message)
                continue
            if isinstance(message, Ping):
                conn.send_json({"type": "pong"})
                continue
            if isinstance(message, HintRequest):
                wait = hints.wait() or guards.hints.wait(address)
                if wait > 0:
                    conn.error("rate_limited", f"at most {settings.hint_rate:g} hints per "
                                               "second", wait)
                    continue
                # answered when computed, while this connection's next messages are read
                task = asyncio.create_task(table.handle(conn, message, hub.rematch))
                pending_hints.add(task)
                task.add_done_callback(pending_hints.discard)
                continue
            if isinstance(message, Join):
                wait = guards.joins.wait(address)
                if wait > 0:
                    conn.error("rate_limited", "too many joins from your address: try again "
                                               f"in {math.ceil(wait)} s", wait)
                    continue
            try:
                await hub.handle(table, conn, message)
            except StoreError as exc:  # an outage: expected, one line, the documented code
                log.warning("table %s: a %s failed on the database: %s", table.id,
                            message.type, exc)
                error = unavailable(str(exc)) if isinstance(exc, OwnerLostError) else \
                    storage_error(exc)
                conn.error(error.code, error.message, error.retry_after)
            except Exception:  # a bug: say so, keep the connection
                log.exception("table %s: a %s message failed", table.id, message.type)
                conn.error("internal", "the server failed on this message; nothing changed")
    except WebSocketDisconnect:
        pass
    except asyncio.CancelledError:
        if not stuck:
            raise  # the server is stopping
        log.info("table %s: dropped a connection that reads nothing", table.id)
    finally:
        timer.cancel()
        for task in pending_hints:
            task.cancel()
        table.detach(conn)
        hub.release(table)
        if conn.dropped and not stuck and not writer.done():  # let it write the close
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(writer), settings.send_timeout)
        writer.cancel()


async def _write(ws: WebSocket, conn: Connection, timeout: float,
                 give_up: Callable[[], None]) -> None:
    """Write the queued frames in order; a :class:`Close` closes the socket. A frame (or
    the close) that takes longer than ``timeout`` to write means the client reads
    nothing: ``give_up``."""
    try:
        while True:
            item = await conn.queue.get()
            if isinstance(item, Close):
                await asyncio.wait_for(ws.close(code=item.code, reason=item.reason), timeout)
                return
            await asyncio.wait_for(ws.send_text(item), timeout)
            conn.sent(item)
    except TimeoutError:
        give_up()
    except Exception:  # the socket is gone: the reader hears of it
        return
