"""Helpers for the web server tests: deterministic settings and a websocket
client that validates every frame against the protocol models."""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import json
import random
import subprocess
import time
from collections.abc import Coroutine, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from servetools import running
from starlette.testclient import TestClient

from trashcards.web import Settings
from trashcards.web.protocol import parse_server_message

try:
    import websockets.sync.client as websockets_sync
except ImportError:  # pragma: no cover - the web extra is missing
    websockets_sync = None  # type: ignore[assignment]

T = TypeVar("T")


def make_settings(db: Path | str, seed: int = 1, **changes: Any) -> Settings:
    """Settings for tests: no bot delay, no pause timer, no rate limit (of messages,
    hints and reviews) or per-address cap, seeded chance and bots, table ids t0, t1, …;
    the AI waits for its warm-up (the same answers in every run)."""
    counter = itertools.count()
    values: dict[str, Any] = {
        "db_path": db, "bot_delay": 0.0, "bot_jitter": 0.0, "round_pause": 3600.0,
        "chance_rng": lambda table_id: random.Random(f"{seed}/{table_id}"),
        "bot_rng": lambda table_id, seat: random.Random(f"{seed}/{table_id}/{seat}"),
        "new_id": lambda: f"t{next(counter)}", "rate": 1e6, "burst": 1_000_000,
        "create_rate": 1e9, "join_rate": 1e9, "max_connections": 1_000_000,
        "hint_rate": 1e6, "hint_burst": 1_000_000, "hint_address_rate": 1e6,
        "review_rate": 1e9,
        # answers that never depend on the machine's load (docs/development.md)
        "coarse_when_busy": False, "odds_in_background": False,
        "ai_answer_while_warming": False,
        "http_rate": 1e9, "http_burst": 1_000_000_000,
        "ai_processes": False,
    }
    values.update(changes)
    return Settings(**values)


def wait_until_warm(client: Any, timeout: float = 180.0) -> None:
    """Wait until the server's AI warm-up is over (``/healthz`` says ``"ai": "ready"``):
    it computes a hint of its own, which a test that counts hints must not see."""
    deadline = time.monotonic() + timeout
    while client.get("/healthz").json()["ai"] != "ready":
        assert time.monotonic() < deadline, "the AI's warm-up did not end"
        time.sleep(0.05)


class Socket:
    """A websocket of a TestClient; :meth:`recv` checks each frame against the protocol."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[str] = []
        #: the ``chances`` frames, which come whenever the server has computed them:
        #: :meth:`recv` sets them aside here (in order) and returns the next other frame
        self.chances: list[dict[str, Any]] = []
        self._held: list[str] = []

    def send(self, message: dict[str, Any] | str) -> None:
        if isinstance(message, str):
            self.ws.send_text(message)
        else:
            self.ws.send_text(json.dumps(message))

    def _next(self) -> tuple[str, dict[str, Any]]:
        text = self._held.pop(0) if self._held else self.ws.receive_text()
        parse_server_message(text)  # raises if the frame breaks the protocol
        data: dict[str, Any] = json.loads(text)
        return text, data

    def recv(self) -> dict[str, Any]:
        while True:
            text, data = self._next()
            if data["type"] != "chances":
                break
            self.chances.append(data)
        self.frames.append(text)
        return data

    def recv_chances(self, version: int) -> dict[str, Any]:
        """The ``chances`` frame of ``version``, waiting for it (the other frames that
        come first are kept for :meth:`recv`)."""
        held: list[str] = []
        try:
            while True:
                for message in self.chances:
                    if message["version"] == version:
                        return message
                text = self.ws.receive_text()
                parse_server_message(text)
                data: dict[str, Any] = json.loads(text)
                if data["type"] == "chances":
                    self.chances.append(data)
                else:
                    held.append(text)
        finally:
            self._held.extend(held)

    def recv_type(self, kind: str) -> dict[str, Any]:
        message = self.recv()
        assert message["type"] == kind, message
        return message

    def join(self, tokens: list[str], version: int | None = None) -> dict[str, Any]:
        self.send({"type": "join", "tokens": tokens, "version": version})
        return self.recv_type("joined")


class Client:
    """A websocket to one table of a real server, reading and checking frames."""

    def __init__(self, url: str, table_id: str) -> None:
        connection = websockets_sync.connect(url.replace("http", "ws", 1) + f"/ws/{table_id}",
                                             open_timeout=20, close_timeout=1)
        self.ws = connection.__enter__()  # closed by close()

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))

    def recv(self, *kinds: str) -> dict[str, Any]:
        """The next frame (checked), passing over the win chances, which come whenever
        the server has computed them."""
        while True:
            text = self.ws.recv(timeout=20)
            parse_server_message(text)
            message: dict[str, Any] = json.loads(text)
            if message["type"] != "chances":
                break
        assert message["type"] in kinds, message
        return message

    def close(self) -> None:
        self.ws.__exit__(None, None, None)


def create(client: TestClient, seats: list[dict[str, Any]],
           rules: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"seats": seats}
    if rules is not None:
        body["rules"] = rules
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def addressed(app: Any) -> Any:
    """``app`` seeing each request come from the address in its ``x-test-address``
    header (TestClient has one client address; the per-address limits need several)."""
    async def wrapper(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            for key, value in scope["headers"]:
                if key == b"x-test-address":
                    scope = {**scope, "client": (value.decode(), 1)}
        await app(scope, receive, send)
    return wrapper


@contextmanager
def server(db: Path, bot_delay: float = 0.0, *options: str
           ) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``trashcards serve`` on a free port (with ``options``, chance seeded by
    ``--test-seed 1``, no HTTP request rate); yields the process and its base URL; killed afterwards
    (:func:`servetools.running`)."""
    with running(db, ("--bot-delay", str(bot_delay), "--round-pause", "3600", "--test-seed", "1",
                      "--http-rate", "1000000", *options)
                 ) as (proc, url):
        yield proc, url


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coroutine)`` in a thread of its own: some tests (Playwright's sync
    API) leave an event loop running in the main thread, where ``asyncio.run`` fails."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
