"""Every limit of docs/protocol.md ("Limits") is enforced: per-address rates (429 with
Retry-After), the per-address connection cap, the join timeout, one catch-up per
connection per version, JSON-only POSTs, the Origin check, names checked and unique,
waiting tables expiring and finished ones purged (after ``trashcards export``)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webtools import Socket, addressed, create, make_settings, run_async

from trashcards.cli.export import export
from trashcards.record import load
from trashcards.web import create_app
from trashcards.web.limits import AddressLimiter

TWO = [{"kind": "me", "name": "Ana"}, {"kind": "open"}]


def _app(tmp_path: Path, **changes: Any) -> Any:
    return create_app(make_settings(tmp_path / "l.sqlite3", **changes))


@pytest.mark.numba_compile
def test_table_creation_is_rate_limited_per_address_with_retry_after(tmp_path: Path) -> None:
    now = [1000.0]
    app = _app(tmp_path, create_rate=2.0, clock=lambda: now[0])  # 2 a minute, burst 2
    first, second = {"x-test-address": "10.0.0.1"}, {"x-test-address": "10.0.0.2"}
    with TestClient(addressed(app)) as client:
        for _ in range(2):
            assert client.post("/api/tables", json={"seats": TWO}, headers=first
                               ).status_code == 201
        refused = client.post("/api/tables", json={"seats": TWO}, headers=first)
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert refused.headers["retry-after"] == "30"  # one token every 30 s
        assert refused.json()["retry_after"] == pytest.approx(30.0)
        # another address is not affected
        assert client.post("/api/tables", json={"seats": TWO}, headers=second
                           ).status_code == 201
        now[0] += 30.0
        assert client.post("/api/tables", json={"seats": TWO}, headers=first
                           ).status_code == 201
        assert client.post("/api/tables", json={"seats": TWO}, headers=first
                           ).status_code == 429


@pytest.mark.numba_compile
def test_http_requests_are_rate_limited_per_address(tmp_path: Path) -> None:
    """Any HTTP request counts (a page, a file, the API, the health check); beyond the
    rate an address is answered 429 before its request is read further, and the others
    are not affected (issue 33: one address's keep-alive flood slowed everyone)."""
    now = [1000.0]
    app = _app(tmp_path, http_rate=5.0, http_burst=10, clock=lambda: now[0])
    first, second = {"x-test-address": "10.0.0.1"}, {"x-test-address": "10.0.0.2"}
    with TestClient(addressed(app)) as client:
        paths = ["/healthz", "/", "/static/css/app.css", "/api/presets", "/api/tables"]
        answers = [client.get(paths[i % len(paths)], headers=first).status_code
                   for i in range(10)]
        assert 429 not in answers
        refused = client.get("/api/presets", headers=first)
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert refused.headers["retry-after"] == "1"
        assert client.get("/healthz", headers=second).status_code == 200
        now[0] += 1.0  # five more a second
        assert [client.get("/healthz", headers=first).status_code for _ in range(6)] == \
            [200] * 5 + [429]


@pytest.mark.numba_compile
def test_a_party_costs_as_many_creates_as_the_tables_it_makes(tmp_path: Path) -> None:
    """With 20 creates a minute, one address makes 10 parties (20 tables), then neither a
    party nor a table; a party needs two tokens, so one left over is not enough."""
    now = [1000.0]
    app = _app(tmp_path, create_rate=20.0, clock=lambda: now[0])
    party = {"seats": [{"kind": "me", "name": "Ana"}] + [{"kind": "bot"}] * 4}
    with TestClient(app) as client:
        codes = [client.post("/api/parties", json=party).status_code for _ in range(11)]
        assert codes == [201] * 10 + [429]
        assert client.post("/api/tables", json={"seats": TWO}).status_code == 429
        now[0] += 3.0  # one token back (one every 3 s)
        assert client.post("/api/parties", json=party).status_code == 429
        assert client.post("/api/tables", json={"seats": TWO}).status_code == 201
        now[0] += 6.0
        made = client.post("/api/parties", json=party)
        assert made.status_code == 201, made.text
        refused = client.post("/api/parties", json=party)
        assert refused.status_code == 429
        assert refused.json()["retry_after"] == pytest.approx(6.0)  # two tokens: 6 s


@pytest.mark.numba_compile
def test_joins_are_rate_limited_per_address_over_http_and_websocket(tmp_path: Path) -> None:
    now = [0.0]
    with TestClient(_app(tmp_path, join_rate=3.0, clock=lambda: now[0])) as client:
        made = create(client, [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}])
        table_id = made["table_id"]
        assert client.post(f"/api/tables/{table_id}/join", json={}).status_code == 200
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            sock.join([made["seats"][0]["token"]])
            sock.send({"type": "join", "tokens": [], "version": None})
            sock.recv_type("joined")  # the third join of this address
            sock.send({"type": "join", "tokens": [], "version": None})
            refused = sock.recv_type("error")
            assert refused["code"] == "rate_limited"
            assert refused["retry_after"] == pytest.approx(20.0)
            sock.send({"type": "ping"})
            sock.recv_type("pong")  # the connection stays open
            answer = client.post(f"/api/tables/{table_id}/join", json={})
            assert (answer.status_code, answer.headers["retry-after"]) == (429, "20")


@pytest.mark.numba_compile
def test_connections_are_capped_per_address(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, max_connections=2)) as client:
        table_id = create(client, TWO)["table_id"]
        with client.websocket_connect(f"/ws/{table_id}") as a, \
                client.websocket_connect(f"/ws/{table_id}") as b:
            with client.websocket_connect(f"/ws/{table_id}") as third, \
                    pytest.raises(WebSocketDisconnect) as closed:
                third.receive_text()
            assert closed.value.code == 4429
            for ws in (a, b):
                ws.send_json({"type": "ping"})
                assert ws.receive_json() == {"type": "pong"}
        with client.websocket_connect(f"/ws/{table_id}") as again:  # freed on close
            again.send_json({"type": "ping"})
            assert again.receive_json() == {"type": "pong"}


@pytest.mark.numba_compile
def test_a_socket_that_never_joins_is_closed_after_the_join_timeout(tmp_path: Path) -> None:
    with TestClient(_app(tmp_path, join_timeout=0.3)) as client:
        table_id = create(client, TWO)["table_id"]
        started = time.monotonic()
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            ws.send_json({"type": "ping"})  # pings do not count as joining
            assert ws.receive_json() == {"type": "pong"}
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
        assert closed.value.code == 4400
        assert 0.25 < time.monotonic() - started < 5
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # a joined one stays
            sock = Socket(ws)
            sock.join([])
            time.sleep(0.5)
            sock.send({"type": "ping"})
            sock.recv_type("pong")


@pytest.mark.numba_compile
def test_catch_up_is_sent_once_per_connection_per_version(client: TestClient) -> None:
    made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}])
    tokens = [s["token"] for s in made["seats"]]
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        sock = Socket(ws)
        sock.join(tokens, version=0)
        caught_up = sock.recv_type("events")
        for _ in range(3):  # joining again at the same version: no second catch-up
            sock.join(tokens, version=0)
        sock.send({"type": "ping"})
        sock.recv_type("pong")
        state = caught_up["state"]
        sock.send({"type": "act", "token": tokens[state["to_act"]], "action": "stock",
                   "version": caught_up["version"]})
        sock.recv_type("events")
        sock.join(tokens, version=caught_up["version"])  # a new version: caught up again
        assert sock.recv_type("events")["from_version"] == caught_up["version"]


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x", None])
@pytest.mark.numba_compile
def test_the_api_takes_json_only(client: TestClient, content_type: str | None) -> None:
    """A form on another site can send only these types: none of them gets in."""
    headers = {"Content-Type": content_type} if content_type else {}
    response = client.post("/api/tables", content=b'{"seats": [{"kind": "me"}, {"kind": "me"}]}',
                           headers=headers)
    assert response.status_code == 415
    assert response.json()["error"] == "unsupported_media_type"
    assert client.post("/api/tables/x/join", content=b"{}", headers=headers).status_code == 415
    assert client.get("/api/tables").json()["tables"] == []


@pytest.mark.numba_compile
def test_only_allowed_origins_may_open_a_websocket_or_post(tmp_path: Path) -> None:
    app = _app(tmp_path, allowed_origins=("https://friend.example",))
    with TestClient(app) as client:
        table_id = create(client, TWO)["table_id"]
        for origin, allowed in [("http://testserver", True), ("https://friend.example", True),
                                ("https://FRIEND.example/", True), (None, True),
                                ("https://evil.example", False), ("null", False),
                                ("http://testserver.evil.example", False),
                                ("https://friend.example:444", False), ("http://[::1", False)]:
            headers = {"origin": origin} if origin else {}
            if allowed:
                with client.websocket_connect(f"/ws/{table_id}", headers=headers) as ws:
                    ws.send_json({"type": "ping"})
                    assert ws.receive_json() == {"type": "pong"}
            else:
                with pytest.raises(WebSocketDisconnect) as refused, \
                        client.websocket_connect(f"/ws/{table_id}", headers=headers):
                    pass
                assert refused.value.code == 4403, origin
            response = client.post("/api/tables", json={"seats": TWO}, headers=headers)
            assert response.status_code == (201 if allowed else 403), origin
    with TestClient(_app(tmp_path, allowed_origins=("*",))) as client:
        assert client.post("/api/tables", json={"seats": TWO},
                           headers={"origin": "https://any.example"}).status_code == 201


@pytest.mark.parametrize(("name", "code"), [("\x1b[31mRed", "bad_name"), ("A\u202eB", "bad_name"),
                                            ("x" * 25, "bad_name"), ("", "bad_name"),
                                            ("ana", "name_taken"), (" Ana ", "name_taken")])
@pytest.mark.numba_compile
def test_joining_names_are_checked_and_unique(client: TestClient, name: str, code: str) -> None:
    table_id = create(client, TWO)["table_id"]
    answer = client.post(f"/api/tables/{table_id}/join", json={"name": name})
    assert answer.json()["error"] == code
    assert answer.status_code == (409 if code == "name_taken" else 400)
    assert client.get(f"/api/tables/{table_id}").json()["open"] == [1]  # nothing taken
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "  Bo  "}).json()
    assert joined["name"] == "Bo"


@pytest.mark.numba_compile
def test_names_at_creation_are_unique_and_defaults_never_collide(client: TestClient) -> None:
    answer = client.post("/api/tables", json={"seats": [{"kind": "me", "name": "Ana"},
                                                        {"kind": "hotseat", "name": "ANA"}]})
    assert (answer.status_code, answer.json()["error"]) == (409, "name_taken")
    made = create(client, [{"kind": "me", "name": "Player 2"}, {"kind": "hotseat"},
                           {"kind": "bot"}, {"kind": "bot"}])
    names = [s["name"] for s in client.get(f"/api/tables/{made['table_id']}").json()["seats"]]
    assert names == ["Player 2", "Player 2 2", "bot:greedy", "bot:greedy:2"]


@pytest.mark.numba_compile
def test_the_address_limiter_forgets_idle_addresses() -> None:
    now = [0.0]
    limiter = AddressLimiter(1.0, 1, lambda: now[0], max_addresses=100)
    for n in range(1000):
        limiter.wait(f"10.0.{n // 256}.{n % 256}")
    assert len(limiter) <= 100
    assert limiter.wait("10.0.3.231") > 0  # the newest are still limited
    now[0] += 5
    assert limiter.wait("10.0.3.231") == 0


@pytest.mark.numba_compile
def test_waiting_tables_expire_and_their_sockets_are_closed(tmp_path: Path) -> None:
    now = [time.time()]
    app = _app(tmp_path, wall_clock=lambda: now[0], sweep_interval=0.05)
    with TestClient(app) as client:
        old = create(client, TWO)
        now[0] += 3600
        young = create(client, TWO)
        with client.websocket_connect(f"/ws/{old['table_id']}") as ws:
            sock = Socket(ws)
            sock.join([old["seats"][0]["token"]])
            now[0] += 23.5 * 3600  # old: 24.5 h, young: 23.5 h
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
            assert closed.value.code == 4404
        assert client.get(f"/api/tables/{old['table_id']}").status_code == 404
        assert [t["table_id"] for t in client.get("/api/tables").json()["tables"]] == \
            [young["table_id"]]


@pytest.mark.numba_compile
def test_finished_tables_are_purged_after_the_retention_and_exported_first(
        tmp_path: Path) -> None:
    db = tmp_path / "l.sqlite3"
    now = [time.time()]
    settings: dict[str, Any] = {"wall_clock": lambda: now[0]}
    with TestClient(create_app(make_settings(db, **settings))) as client:
        made = create(client, [{"kind": "bot"}, {"kind": "bot"}],
                      {"preset": "classic", "start_size": 2})
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            sock = Socket(ws)
            sock.join([], version=0)
            while sock.recv()["state"]["phase"] != "match_over":
                pass
    out = tmp_path / "records"
    result = CliRunner().invoke(export, [str(out), "--db", str(db)])
    assert result.exit_code == 0, result.output
    assert "exported 1 record(s)" in result.output
    record = load(out / f"trash-{made['table_id']}.trash.json")
    assert record.replay().match_winner is not None
    now[0] += 29 * 86400
    with TestClient(create_app(make_settings(db, **settings))) as client:  # kept: 29 days
        assert client.get(f"/api/tables/{made['table_id']}").status_code == 200
    now[0] += 2 * 86400
    with TestClient(create_app(make_settings(db, **settings))) as client:  # 31 days: gone
        assert client.get(f"/api/tables/{made['table_id']}").status_code == 404


@pytest.mark.numba_compile
def test_a_client_that_reads_nothing_is_dropped(tmp_path: Path,
                                               caplog: pytest.LogCaptureFixture) -> None:
    """Through the real ASGI app, a client whose socket takes no frame (every send
    blocks): its queue is cut at ``max_queue_bytes``, and once a frame could not be
    written for ``send_timeout`` the server stops serving it (the handler returns, so
    the ASGI server drops the connection)."""
    async def run() -> list[str]:
        app = create_app(make_settings(tmp_path / "n.sqlite3", max_queue_bytes=20_000,
                                       send_timeout=0.5, bot_delay=0.001))
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                table_id = (await http.post("/api/tables", json={"seats": [
                    {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}, {"kind": "bot"}]}
                )).json()["table_id"]
            inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
            sent: list[str] = []

            async def send(message: dict[str, Any]) -> None:
                sent.append(message["type"])
                if message["type"] == "websocket.send":
                    await asyncio.Event().wait()  # the client never reads

            scope = {"type": "websocket", "path": f"/ws/{table_id}",
                     "raw_path": f"/ws/{table_id}".encode(), "query_string": b"",
                     "headers": [(b"host", b"t")], "client": ("10.1.1.1", 1),
                     "server": ("t", 80), "scheme": "ws", "subprotocols": [],
                     "asgi": {"version": "3.0"}, "root_path": ""}
            handler = asyncio.create_task(app(scope, inbox.get, send))
            await inbox.put({"type": "websocket.connect"})
            await inbox.put({"type": "websocket.receive",
                             "text": json.dumps({"type": "join", "tokens": [], "version": 0})})
            await asyncio.wait_for(handler, 10)  # it returns on its own
            return sent

    with caplog.at_level("INFO", logger="trashcards.web.sockets"):
        sent = run_async(run())
    assert sent == ["websocket.accept", "websocket.send"]  # the first frame never went
    assert "dropped a connection that reads nothing" in caplog.text
