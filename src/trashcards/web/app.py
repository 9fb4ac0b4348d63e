"""The ASGI application: pages, the JSON API and the websocket (docs/protocol.md).

:func:`create_app` builds everything from a :class:`~trashcards.web.settings.Settings`;
there is no module-level state, so tests can run several servers side by side.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..bots import BOTS
from ..rules import PRESETS, Rules
from .connection import Connection, TokenBucket
from .hub import Hub
from .protocol import CreateTable, JoinTable, Ping, ProtocolError, parse_client_message
from .settings import Settings
from .store import Store
from .table import Table

__all__ = ["create_app"]

MAX_BODY = 16 * 1024
_STATUS = {"no_table": 404, "seat_taken": 409, "no_open_seat": 409, "too_large": 413}


def create_app(settings: Settings | None = None) -> Starlette:
    """The whole server for ``settings`` (defaults: those of ``trashcards serve``)."""
    settings = settings or Settings()
    holder: dict[str, Hub] = {}

    def hub() -> Hub:
        return holder["hub"]

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        store = Store(settings.db_path)
        holder["hub"] = Hub(settings, store)
        await holder["hub"].resume()
        gc.freeze()  # what start-up made lives as long as the server: never scan it again
        try:
            yield
        finally:
            holder["hub"].close()
            store.close()

    def page(name: str) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(_request: Request) -> Response:
            path = Path(settings.static_dir) / name
            if not path.is_file():
                return PlainTextResponse(f"{name} is not there yet", status_code=404)
            return FileResponse(path, headers={"Cache-Control": "no-cache"})
        return endpoint

    async def create_table(request: Request) -> Response:
        spec = CreateTable.model_validate(await _body(request))
        table, mine = await hub().create(spec)
        return JSONResponse({"table_id": table.id, "seats": mine, "invite": f"/t/{table.id}",
                             "spectate": f"/t/{table.id}?watch=1"}, status_code=201)

    async def list_tables(_request: Request) -> Response:
        return JSONResponse({"tables": hub().open_tables()})

    async def get_table(request: Request) -> Response:
        return JSONResponse(_table(hub(), request).info())

    async def join_table(request: Request) -> Response:
        table = _table(hub(), request)
        spec = JoinTable.model_validate(await _body(request))
        seat, token, name = await table.take_seat(spec.name, spec.seat)
        return JSONResponse({"table_id": table.id, "seat": seat, "token": token,
                             "name": name})

    async def get_record(request: Request) -> Response:
        table = _table(hub(), request)
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

    async def healthz(_request: Request) -> Response:
        return JSONResponse({"ok": True})

    async def websocket(ws: WebSocket) -> None:
        await _serve_socket(ws, hub(), settings)

    async def protocol_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ProtocolError)
        return JSONResponse({"error": exc.code, "message": exc.message},
                            status_code=_STATUS.get(exc.code, 400))

    async def validation_error(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, ValidationError)
        parts = [f"{'.'.join(str(p) for p in e['loc']) or 'body'}: {e['msg']}"
                 for e in exc.errors()[:3]]
        return JSONResponse({"error": "bad_request", "message": "; ".join(parts)},
                            status_code=400)

    routes = [
        Route("/", page("index.html")),
        Route("/t/{table_id}", page("table.html")),
        Route("/rules", page("rules.html")),
        Route("/rules/{lang}", page("rules.html")),
        Route("/healthz", healthz),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables/{table_id}", get_table, methods=["GET"]),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", get_record, methods=["GET"]),
        Route("/api/presets", presets),
        Route("/api/bots", bots),
        WebSocketRoute("/ws/{table_id}", websocket),
        Mount("/static", StaticFiles(directory=settings.static_dir, check_dir=False),
              name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan, exception_handlers={
        ProtocolError: protocol_error, ValidationError: validation_error})


def _table(hub: Hub, request: Request) -> Table:
    table = hub.get(request.path_params["table_id"])
    if table is None:
        raise ProtocolError("no_table", "there is no such table")
    return table


async def _body(request: Request) -> Any:
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ProtocolError("too_large", f"the body is over {MAX_BODY} bytes")
    try:
        return json.loads(body or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None


def _all_fields(rules: Rules) -> dict[str, Any]:
    return {"preset": rules.preset, "decks": rules.decks,
            "jokers_per_deck": rules.jokers_per_deck, "wild_ranks": list(rules.wild_ranks),
            "start_size": rules.start_size, "rounds_to_win": rules.rounds_to_win,
            "call_trash": rules.call_trash, "last_chance": rules.last_chance}


async def _serve_socket(ws: WebSocket, hub: Hub, settings: Settings) -> None:
    """One client: read frames, check size and rate, hand messages to the table; a
    second task writes the connection's queued frames in order."""
    await ws.accept()
    table = hub.get(ws.path_params["table_id"])
    if table is None:
        await ws.close(code=4404, reason="no such table")
        return
    conn = Connection(settings.max_queue)
    bucket = TokenBucket(settings.rate, settings.burst, settings.clock)
    writer = asyncio.create_task(_write(ws, conn))
    try:
        while True:
            frame = await ws.receive()
            if frame["type"] == "websocket.disconnect":
                break
            data: str | bytes | None = frame.get("text")
            if data is None:
                data = frame.get("bytes") or b""
            size = len(data.encode()) if isinstance(data, str) else len(data)
            if size > settings.max_message:
                conn.error("too_large", f"a message is at most {settings.max_message} bytes")
                continue
            if not bucket.take():
                conn.error("rate_limited", f"at most {settings.rate:g} messages per second")
                continue
            try:
                message = parse_client_message(data)
            except ProtocolError as exc:
                conn.error(exc.code, exc.message)
                continue
            if isinstance(message, Ping):
                conn.send_json({"type": "pong"})
            else:
                await table.handle(conn, message, hub.rematch)
    except WebSocketDisconnect:
        pass
    finally:
        table.detach(conn)
        hub.release(table)
        writer.cancel()


async def _write(ws: WebSocket, conn: Connection) -> None:
    with contextlib.suppress(Exception):
        while (text := await conn.queue.get()) is not None:
            await ws.send_text(text)
        await ws.close(code=4408, reason="too slow: reconnect and join again")
