"""Abandoned tables (a table still playing with nobody connected) expire
``abandoned_ttl`` after their last *real* activity: a person's move or the last
connection leaving. The time is kept in the database, so a restart keeps the clock
(before, loading a table set it to the load time, so a server restarted more often than
the limit never freed its tables), and bots playing on do not count as activity."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from webtools import Socket, create, make_settings

from trashcards.web import create_app

TTL = 600.0


def _server(database: str | Path, now: list[float], **changes: Any) -> TestClient:
    settings = make_settings(database, wall_clock=lambda: now[0], abandoned_ttl=TTL,
                             sweep_interval=0.05, **changes)
    return TestClient(create_app(settings))


def _gone(client: TestClient, table_id: str) -> bool:
    for _ in range(60):
        if client.get(f"/api/tables/{table_id}").status_code == 404:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.numba_compile
def test_a_restart_keeps_the_abandoned_clock(database: str | Path) -> None:
    now = [1_000_000.0]
    with _server(database, now) as client:
        made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}])
        table_id = made["table_id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            sock.join([s["token"] for s in made["seats"]])
            now[0] += 100
        left = now[0]  # the last connection left: the clock starts
    for restart in range(3):  # each restart before the limit, as a busy server's would be
        now[0] = left + (restart + 1) * (TTL / 4)
        with _server(database, now) as client:
            assert client.get(f"/api/tables/{table_id}").status_code == 200, restart
    now[0] = left + TTL + 1
    with _server(database, now) as client:
        assert _gone(client, table_id), "a restart set the clock back to the load time"


@pytest.mark.numba_compile
def test_bots_playing_on_are_no_activity(database: str | Path) -> None:
    now = [1_000_000.0]
    # two bots in a long match: they move while nobody is there
    with _server(database, now, bot_delay=0.01) as client:
        table_id = create(client, [{"kind": "bot"}, {"kind": "bot"}])["table_id"]
        version = client.get(f"/api/tables/{table_id}").json()["version"]
        now[0] += TTL - 1
        for _ in range(100):  # the bots move on
            if client.get(f"/api/tables/{table_id}").json()["version"] > version + 5:
                break
            time.sleep(0.02)
        now[0] += 2
        assert _gone(client, table_id), "bots' moves kept an abandoned table"


@pytest.mark.numba_compile
def test_the_bots_of_a_table_nobody_watches_stop_until_someone_joins(tmp_path: Path) -> None:
    """Issue 33: a creator's tables of bots played on after everyone left, costing AI
    work for nobody. Now they stop ``bot_grace`` seconds after the last real activity
    and go on when someone joins."""
    now = [1_000_000.0]
    with _server(tmp_path / "p.sqlite3", now, bot_delay=0.05, bot_grace=60.0) as client:
        table_id = create(client, [{"kind": "bot"}, {"kind": "bot", "bot": "random"}],
                          {"preset": "standard"})["table_id"]

        def version() -> int:
            return int(client.get(f"/api/tables/{table_id}").json()["version"])

        def moving() -> bool:
            before = version()
            for _ in range(100):
                time.sleep(0.02)
                if version() > before:
                    return True
            return False

        assert moving()  # within the grace: the bots play on
        now[0] += 61
        time.sleep(0.3)  # the move under way ends
        assert not moving()
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            Socket(ws).join([])
            assert moving()  # someone watches: they go on
