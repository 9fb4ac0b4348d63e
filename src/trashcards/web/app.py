"""The ASGI application: pages, the JSON API and the websocket (docs/protocol.md).

:func:`create_app` builds everything from a :class:`~trashcards.web.settings.Settings`;
there is no module-level state, so tests can run several servers side by side: the
handlers below reach what they use through the application's one
:class:`~trashcards.web.services.Services` (``app.state.services``). Every limit of
docs/protocol.md ("Limits") is enforced here (JSON-only bodies, the Origin of pages,
per-address rates), in :mod:`~trashcards.web.sockets` (connection caps, the message
rates, the join timeout) or in the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.cors import CORSMiddleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.templating import Jinja2Templates

from ..ai.levels import LEVELS
from ..bots import BOTS
from ..rules import PRESETS, Rules
from . import offline, sockets
from .backends import open_storage
from .edges import RequestRate, client_gone, relative_redirects
from .hub import Hub
from .limits import AddressLimiter
from .party import PARTY_TABLES
from .players import PAGES as PLAYER_PAGES
from .players import Players, PlayerSettings
from .protocol import CreateParty, CreateTable, JoinTable, ProtocolError, parse_json
from .services import Guards, Services, address_of, origin_allowed
from .settings import Settings
from .store import StoreError
from .table import Table

__all__ = ["create_app", "origin_allowed"]

log = logging.getLogger(__name__)

#: HTTP status of each error code; any other code is 400.
_STATUS = {"no_table": 404, "no_party": 404, "quarantined": 410, "seat_taken": 409,
           "no_open_seat": 409, "name_taken": 409, "bad_origin": 403, "too_large": 413,
           "unsupported_media_type": 415, "rate_limited": 429, "storage_error": 503,
           "busy": 503, "bad_record": 422, "unavailable": 503}


def create_app(settings: Settings | None = None,
               player_settings: PlayerSettings | None = None) -> Starlette:
    """The whole server for ``settings`` (defaults: those of ``trashcards serve``);
    ``player_settings``: those of accounts, ratings and pairing (docs/players.md)."""
    settings = settings or Settings()
    players = Players(settings, player_settings)  # players: accounts, ratings, pairing
    services = Services(settings, Guards.of(settings),
                        Jinja2Templates(directory=settings.templates_dir))

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = await open_storage(settings.db_path, store=settings.store,
                                   clock=settings.wall_clock)
        try:
            services.start(Hub(settings, store))
            if settings.ai_answer_while_warming:  # the slower path until it is ready
                services.hub.advisor.warm = services.warm
            services.warm.start()  # in the background: the server answers at once
            services.hub.advisor.start()  # the AI's worker processes, warming up too
            await services.hub.resume()
            services.hub.start_sweeping()
            await players.start(services.hub)  # players: after the hub, before requests
            gc.freeze()  # what start-up made lives as long as the server: never scan it
            yield
        finally:
            services.warm.close()
            await players.close()
            if services.started:
                services.hub.close()
            await store.close()

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table_id}", page("table.html")),
        Route("/p/{party_id}", page("party.html")),
        Route("/rules", page("rules.html")),
        Route("/review", page("review.html")),
        Route("/rules/{lang}", page("rules.html")),
        Route("/profile", page("profile.html")),
        *(Route(path, page(name)) for path, name in PLAYER_PAGES.items()),
        *players.routes(),
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
        WebSocketRoute("/ws/{table_id}", sockets.serve),
        Mount("/static", offline.ShellFiles(directory=settings.static_dir, check_dir=False),
              name="static"),
    ]
    # Pages of the allowed origins (a static copy of the app, docs/offline.md) read the
    # API's answers: CORS for exactly those origins.
    origins = [origin.strip().rstrip("/") for origin in settings.allowed_origins]
    middleware = [Middleware(RequestRate, rate=settings.http_rate, burst=settings.http_burst,
                             clock=settings.clock, proxies=services.guards.proxies)]
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
    app.state.services = services
    app.state.players = players  # players: for tests and benchmarks
    return app


# -- pages ---------------------------------------------------------------------------------

def page(name: str) -> Callable[[Request], Awaitable[Response]]:
    """A page: its template (``templates/NAME``, which extends ``base.html``)."""
    async def endpoint(request: Request) -> Response:
        services = Services.of(request)
        if not (Path(services.settings.templates_dir) / name).is_file():
            return PlainTextResponse(f"{name} is not there yet", status_code=404)
        # served at the host's root: every address from "/" (docs/offline.md)
        return services.templates.TemplateResponse(request, name, {"root": "/"},
                                                   headers={"Cache-Control": "no-cache"})
    return endpoint


async def service_worker(request: Request) -> Response:
    settings = Services.of(request).settings
    return Response(offline.service_worker(Path(settings.static_dir),
                                           Path(settings.templates_dir)),
                    media_type="text/javascript", headers={"Cache-Control": "no-cache"})


async def web_manifest(_request: Request) -> Response:
    return JSONResponse(offline.manifest(), media_type="application/manifest+json",
                        headers={"Cache-Control": "no-cache"})


# -- the JSON API ------------------------------------------------------------------------

async def create_table(request: Request) -> Response:
    services = Services.of(request)
    _check_post(request, services, services.guards.creates, "tables created")
    spec = CreateTable.model_validate(await _body(request, services.settings))
    table, mine = await services.hub.create(spec)
    table.creator = address_of(request, services.guards.proxies)  # its bots' fair share
    return JSONResponse({"table_id": table.id, "seats": mine, "invite": f"/t/{table.id}",
                         "spectate": f"/t/{table.id}?watch=1"}, status_code=201)


async def create_party(request: Request) -> Response:
    services = Services.of(request)
    # a party makes two tables at once: it costs two of the address's creates
    _check_post(request, services, services.guards.creates, "tables created",
                cost=PARTY_TABLES)
    spec = CreateParty.model_validate(await _body(request, services.settings))
    made = await services.parties.create(spec)
    for table_id in made["tables"]:  # their expert bots' fair share
        if table_id in services.hub.tables:
            services.hub.tables[table_id].creator = address_of(request,
                                                               services.guards.proxies)
    return JSONResponse(made, status_code=201)


async def get_party(request: Request) -> Response:
    return JSONResponse(await Services.of(request).parties.info(
        request.path_params["party_id"]))


async def list_tables(request: Request) -> Response:
    return JSONResponse({"tables": await Services.of(request).hub.open_tables()})


async def get_table(request: Request) -> Response:
    return JSONResponse((await _table(request)).info())


async def join_table(request: Request) -> Response:
    services = Services.of(request)
    _check_post(request, services, services.guards.joins, "joins")
    table = await _table(request)
    spec = JoinTable.model_validate(await _body(request, services.settings))
    seat, token, name = await services.hub.take_seat(table, spec.name, spec.seat)
    return JSONResponse({"table_id": table.id, "seat": seat, "token": token, "name": name})


async def get_record(request: Request) -> Response:
    table = await _table(request)
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
    services = Services.of(request)
    settings = services.settings
    _check_post(request, services, services.guards.reviews, "reviews")
    body = await _raw_body(request, settings.max_review_body)
    job = asyncio.ensure_future(services.hub.advisor.review(
        body, settings.review_samples, settings.max_review_moves, settings.review_deals,
        settings.review_deadline, address_of(request, services.guards.proxies)))
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


async def healthz(request: Request) -> Response:
    """For load balancers: 200 while this process can serve (with a shared database:
    while its owner connection is up and its tables can move), else 503."""
    services = Services.of(request)
    hub = services.hub
    store = hub.store
    ok = not store.shared or await store.healthy()
    if ok and hub.cluster is not None:  # and its tables can move
        ok = hub.cluster.healthy()
    body = {"ok": ok, "process": store.process_id, "ai": services.warm.state,
            "ai_jobs": {"waiting": hub.advisor.waiting, "running": hub.advisor.running},
            "tables_owned": sum(t.owned for t in hub.tables.values()),
            "tables_followed": sum(not t.owned for t in hub.tables.values())}
    return JSONResponse(body, status_code=200 if ok else 503)


# -- errors --------------------------------------------------------------------------------

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


async def _table(request: Request) -> Table:
    return await Services.of(request).hub.find(request.path_params["table_id"])


def _check_post(request: Request, services: Services, limiter: AddressLimiter,
                what: str, cost: int = 1) -> None:
    """JSON only (so no HTML form of another site can post), from an allowed origin,
    within the address's rate (``cost`` tokens of it); raises :class:`ProtocolError`."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise ProtocolError("unsupported_media_type", "the body must be JSON, sent with "
                                                      "Content-Type: application/json")
    origin = request.headers.get("origin")
    if origin is not None and not origin_allowed(origin, request.headers.get("host"),
                                                 services.settings.allowed_origins):
        raise ProtocolError("bad_origin", "pages of another site may not use this server")
    wait = limiter.wait(address_of(request, services.guards.proxies), cost)
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
    """Every field of ``rules`` (a preset's API entry), as JSON."""
    return {f.name: list(value) if isinstance(value := getattr(rules, f.name), tuple) else value
            for f in dataclasses.fields(rules)}
