"""Helpers of the players' tests: a server with players' settings for tests, requests
that carry the CSRF token, a seat played to the end of its match over the websocket,
and reviewed rated games written straight into the players' tables."""

from __future__ import annotations

import json
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


def run_sql(client: TestClient, query: str, params: tuple[Any, ...] = ()) -> None:
    """Run a statement on the players' tables of ``client``'s server."""
    sql = client.app.state.players._sql()  # type: ignore[attr-defined]
    client.portal.call(sql.run, query, params)  # type: ignore[union-attr]


def fetch_sql(client: TestClient, query: str, params: tuple[Any, ...] = ()) -> list[Any]:
    """The rows of a query on the players' tables of ``client``'s server."""
    sql = client.app.state.players._sql()  # type: ignore[attr-defined]
    rows: list[Any] = client.portal.call(sql.fetch, query, params)  # type: ignore[union-attr]
    return rows


def account_id(client: TestClient, name: str) -> str:
    return str(fetch_sql(client, "SELECT id FROM accounts WHERE name = %s", (name,))[0][0])


def judged_game(client: TestClient, table: str, account: str, rating: float,
                counts: dict[str, list[int]], rd: float = 60.0,
                when: float | None = None) -> None:
    """A finished rated standard game of ``account`` (rated ``rating`` ± ``rd`` before
    it) that the coach has reviewed into ``counts``."""
    now = time.time() if when is None else when
    run_sql(client, "INSERT INTO player_games (table_id, seat, account_id, name, family, "
            "rated, created, finished, rating_before, judged) VALUES (%s, 0, %s, %s, "
            "'standard', 1, %s, %s, %s, %s)",
            (table, account, account, now - 100, now - 50,
             json.dumps({"rating": rating, "rd": rd, "volatility": 0.06}), json.dumps(counts)))


def habits_and_band(client: TestClient, players: range) -> None:
    """Ana, rated 1712 in standard, who drew from the stock when the discard fitted in
    12 % of 200 chances, and the given other players at 1690, who did in 2 % (6 games
    of 25 chances each)."""
    if not fetch_sql(client, "SELECT id FROM accounts WHERE name = 'Ana'"):
        sign_up(client, "Ana")
        ana = account_id(client, "Ana")
        run_sql(client, "INSERT INTO ratings (account_id, family, rating, rd, volatility, "
                "games, last) VALUES (%s, 'standard', 1712, 60, 0.06, 40, %s)",
                (ana, time.time()))
        for number in range(10):
            judged_game(client, f"ana{number}", ana, 1700.0,
                        {"discard": [20, 3 if number < 4 else 2]})
    for player in players:
        for number in range(6):
            judged_game(client, f"p{player}g{number}", f"other{player}", 1690.0,
                        {"discard": [25, 0 if number % 2 else 1]})
