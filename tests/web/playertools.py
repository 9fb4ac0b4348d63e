"""Helpers of the players' tests: a server with players' settings for tests, requests
that carry the CSRF token, and a seat played to the end of its match over the
websocket."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from webtools import Socket, make_settings

from trashcards.web import create_app
from trashcards.web.players import PlayerSettings

#: Fast for tests: ratings and pairing every few hundredths of a second.
FAST = PlayerSettings(rate_interval=0.05, pair_interval=0.05, login_rate=1000.0,
                      signup_rate=1000.0, habit_interval=3600.0)


@contextmanager
def players_server(database: str | Path, options: PlayerSettings = FAST,
                   **settings: Any) -> Iterator[TestClient]:
    app = create_app(make_settings(database, **settings), options)
    with TestClient(app, base_url="http://testserver") as client:
        yield client


def csrf(client: TestClient) -> str:
    """The page's CSRF token (asked for once; the client keeps the cookie)."""
    token = client.cookies.get("trash_csrf")
    if token is None:
        token = client.get("/api/account").json()["csrf"]
    return str(token)


def post(client: TestClient, path: str, body: dict[str, Any] | None = None,
         **headers: str) -> Any:
    """A POST as the page sends it: JSON, with the CSRF header."""
    return client.post(path, json=body or {}, headers={"X-Trash-CSRF": csrf(client),
                                                       **headers})


def sign_up(client: TestClient, name: str, password: str = "correct horse battery") -> None:
    response = post(client, "/api/account/signup", {"name": name, "password": password})
    assert response.status_code == 201, response.text


def play_out(client: TestClient, table_id: str, token: str) -> dict[str, Any]:
    """Play the seat of ``token`` to the end of the match (its first legal action each
    time, the next round asked for at once); returns the final state."""
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        joined = sock.join([token])
        seat = joined["seats"][0]
        state: dict[str, Any] | None = None
        version = 0
        while True:
            message = sock.recv()
            if message["type"] in ("state", "events"):
                state, version = message["state"], message["version"]
            else:
                continue
            if state["phase"] == "match_over":
                return state
            if state["phase"] == "round_over":
                sock.send({"type": "next_round", "token": token})
            elif state["to_act"] == seat and state["legal"]:
                sock.send({"type": "act", "token": token, "action": state["legal"][0],
                           "version": version})


def wait_for(check: Any, timeout: float = 10.0) -> Any:
    """Poll ``check()`` until it is truthy (the server's loops run in the background)."""
    end = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        time.sleep(0.02)
