"""Storage faults are reported or survived: an injected failing store (a write fails like
a full disk) answers clients with ``storage_error`` and changes nothing, bots and timers
go on once it works again, joining and starting are one transaction, "next round"
readiness survives a restart, tables whose record cannot be replayed are quarantined,
and a database that cannot be used stops ``trashcards serve`` with a clear error."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import servetools
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webtools import Socket, create, make_settings

from trashcards.web import create_app
from trashcards.web.store import Store

PEOPLE = [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]


class FlakyStore(Store):
    """A store whose writes fail (as on a full disk) while :attr:`broken` is set."""

    broken = False
    failed = 0

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with super()._transaction() as db:
            if self.broken:
                self.failed += 1
                raise sqlite3.OperationalError("database or disk is full (injected)")
            yield db


@pytest.fixture
def flaky(tmp_path: Path) -> Iterator[tuple[TestClient, list[FlakyStore]]]:
    stores: list[FlakyStore] = []

    def open_store(path: Path | str, **options: Any) -> FlakyStore:
        stores.append(FlakyStore(path, **options))
        return stores[-1]

    settings = make_settings(tmp_path / "f.sqlite3", store=open_store, write_retries=2,
                             write_backoff=0.001, retry_max=0.02, bot_delay=0.002)
    with TestClient(create_app(settings)) as client:
        yield client, stores


def _version(client: TestClient, table_id: str) -> int:
    version: int = client.get(f"/api/tables/{table_id}").json()["version"]
    return version


@pytest.mark.numba_compile
def test_a_move_that_cannot_be_saved_is_answered_and_changes_nothing(
        flaky: tuple[TestClient, list[FlakyStore]]) -> None:
    client, (store,) = flaky
    made = create(client, PEOPLE)
    tokens = [s["token"] for s in made["seats"]]
    with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
        sock = Socket(ws)
        sock.join(tokens)
        state = sock.recv_type("state")["state"]
        act = {"type": "act", "token": tokens[state["to_act"]], "action": "stock",
               "version": 2}
        store.broken = True
        sock.send(act)
        refused = sock.recv_type("error")
        assert refused["code"] == "storage_error"
        assert refused["retry_after"] > 0
        assert store.failed == 3  # the first try and write_retries more
        assert _version(client, made["table_id"]) == 2
        sock.send({"type": "ping"})
        sock.recv_type("pong")  # the socket stays open
        store.broken = False
        sock.send(act)  # the same move, once the disk has room again
        assert sock.recv_type("events")["from_version"] == 2
    assert _version(client, made["table_id"]) == 3


@pytest.mark.numba_compile
def test_bots_stall_while_storage_fails_and_resume_when_it_comes_back(
        flaky: tuple[TestClient, list[FlakyStore]]) -> None:
    client, (store,) = flaky
    made = create(client, [{"kind": "bot"}, {"kind": "bot", "bot": "random"}],
                  {"preset": "standard", "start_size": 3, "rounds_to_win": 2})
    table_id = made["table_id"]
    store.broken = True
    time.sleep(0.3)
    stalled = _version(client, table_id)
    time.sleep(0.2)
    assert _version(client, table_id) == stalled  # nothing moves, nothing is lost
    assert store.failed >= 3
    store.broken = False
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.join([], version=stalled)
        message = sock.recv()
        while message["state"]["phase"] != "match_over":
            message = sock.recv_type("events")
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "over"


@pytest.mark.numba_compile
def test_the_round_timer_deals_once_storage_comes_back(tmp_path: Path) -> None:
    stores: list[FlakyStore] = []

    def open_store(path: Path | str, **options: Any) -> FlakyStore:
        stores.append(FlakyStore(path, **options))
        return stores[-1]

    settings = make_settings(tmp_path / "r.sqlite3", store=open_store, round_pause=0.3,
                             write_retries=1, write_backoff=0.001, retry_max=0.02)
    with TestClient(create_app(settings)) as client:
        made = create(client, PEOPLE, {"preset": "standard", "start_size": 2})
        tokens = [s["token"] for s in made["seats"]]
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            message = sock.recv_type("state")
            while message["state"]["phase"] != "round_over":
                state = message["state"]
                sock.send({"type": "act", "token": tokens[state["to_act"]],
                           "action": state["legal"][0], "version": message["version"]})
                message = sock.recv_type("events")
            stores[0].broken = True  # the deal, 0.3 s after the round's end, will fail
            time.sleep(0.8)
            assert stores[0].failed >= 2
            assert _version(client, made["table_id"]) == message["version"]  # no deal yet
            stores[0].broken = False
            dealt = sock.recv_type("events")
            assert dealt["events"][0]["type"] == "dealt"


def test_taking_the_last_seat_and_starting_are_one_transaction(
        flaky: tuple[TestClient, list[FlakyStore]], tmp_path: Path) -> None:
    client, (store,) = flaky
    made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}])
    table_id = made["table_id"]
    store.broken = True
    answer = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
    assert (answer.status_code, answer.json()["error"]) == (503, "storage_error")
    assert int(answer.headers["retry-after"]) >= 1
    info = client.get(f"/api/tables/{table_id}").json()
    assert (info["status"], info["version"], info["open"]) == ("waiting", 0, [1])
    row = sqlite3.connect(tmp_path / "f.sqlite3").execute(
        "SELECT token_hash FROM seats WHERE table_id = ? AND seat = 1", (table_id,)).fetchone()
    assert row == (None,)  # no half-taken seat
    refused = client.post("/api/tables", json={"seats": PEOPLE})
    assert (refused.status_code, refused.json()["error"]) == (503, "storage_error")
    store.broken = False
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    assert joined["seat"] == 1
    info = client.get(f"/api/tables/{table_id}").json()
    assert (info["status"], info["version"]) == ("playing", 2)
    assert len(client.get("/api/tables").json()["tables"]) == 0  # the failed one is not there


@pytest.mark.numba_compile
def test_next_round_readiness_survives_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "n.sqlite3"
    with TestClient(create_app(make_settings(db))) as client:
        made = create(client, PEOPLE, {"preset": "standard", "start_size": 2})
        tokens = [s["token"] for s in made["seats"]]
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            message = sock.recv_type("state")
            while message["state"]["phase"] != "round_over":
                state = message["state"]
                sock.send({"type": "act", "token": tokens[state["to_act"]],
                           "action": state["legal"][0], "version": message["version"]})
                message = sock.recv_type("events")
            winner = message["state"]["round_winners"][0]
            sock.send({"type": "next_round", "token": tokens[winner]})
            assert sock.recv_type("table")["table"]["ready"] == [winner]
    with TestClient(create_app(make_settings(db))) as client:
        assert client.get(f"/api/tables/{made['table_id']}").json()["ready"] == [winner]
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            sock.recv_type("state")
            sock.send({"type": "next_round", "token": tokens[1 - winner]})
            dealt = sock.recv_type("events")  # the other seat was still counted as ready
            assert dealt["events"][0]["type"] == "dealt"
        assert client.get(f"/api/tables/{made['table_id']}").json()["ready"] == []


def _corrupt(db: Path, table_id: str, how: str) -> None:
    with sqlite3.connect(db) as conn:
        if how == "unparsable move":
            conn.execute("UPDATE moves SET move = 'wild ²' WHERE table_id = ? AND idx = 0",
                         (table_id,))
        elif how == "illegal move":
            conn.execute("INSERT INTO moves VALUES (?, 99, '0: swap')", (table_id,))
        elif how == "bad rules":
            conn.execute("UPDATE tables SET rules = '{\"start_size\": 99}' WHERE id = ?",
                         (table_id,))
        elif how == "not JSON":
            conn.execute("UPDATE tables SET rules = '{nope' WHERE id = ?", (table_id,))
        elif how == "unknown bot":
            conn.execute("UPDATE seats SET bot = 'genius' WHERE table_id = ? AND seat = 1",
                         (table_id,))


HOW = ("unparsable move", "illegal move", "bad rules", "not JSON", "unknown bot")


@pytest.mark.numba_compile
def test_tables_that_cannot_be_replayed_are_quarantined_and_the_rest_start(
        tmp_path: Path) -> None:
    db = tmp_path / "q.sqlite3"
    with TestClient(create_app(make_settings(db, bot_delay=3600.0))) as client:
        bad = [create(client, [{"kind": "me"}, {"kind": "bot"}])["table_id"] for _ in HOW]
        good = create(client, [{"kind": "me"}, {"kind": "open"}])
    for table_id, how in zip(bad, HOW, strict=True):
        _corrupt(db, table_id, how)
    with TestClient(create_app(make_settings(db, bot_delay=3600.0))) as client:
        assert [t["table_id"] for t in client.get("/api/tables").json()["tables"]] == \
            [good["table_id"]]
        for table_id in bad:
            answer = client.get(f"/api/tables/{table_id}")
            assert (answer.status_code, answer.json()["error"]) == (410, "quarantined")
            with client.websocket_connect(f"/ws/{table_id}") as ws, \
                    pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_text()
            assert closed.value.code == 4404
        with client.websocket_connect(f"/ws/{good['table_id']}") as ws:
            assert Socket(ws).join([good["seats"][0]["token"]])["seats"] == [0]
    result = _serve("--check", "--db", str(db))
    assert result.returncode == 1
    for table_id in bad:
        assert f"quarantined {table_id}: " in result.stdout
    for reason in ("wild ²", "start_size", "genius", "cannot be read", "move 2 \"0: swap\""):
        assert reason in result.stdout
    assert "1 table(s) replay, 5 quarantined" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def _serve(*args: str, privileged: bool = True) -> subprocess.CompletedProcess[str]:
    """``trashcards serve`` as a subprocess that stops at once on a bad database (a
    good one would serve: these tests never give one). ``privileged=False`` drops
    root's power to write read-only files, so permissions apply as for anyone."""
    command = servetools.command("--port", "0", *args)
    if not privileged and os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root, and no setpriv to drop the file-permission override")
        command = ["setpriv", "--inh-caps=-dac_override,-dac_read_search",
                   "--bounding-set=-dac_override,-dac_read_search", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def _real_database(path: Path, tables: int = 40) -> None:
    """A database of ``tables`` waiting tables, every write in the main file."""
    with TestClient(create_app(make_settings(path))) as client:
        for _ in range(tables):
            create(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}])
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for side in path.parent.glob(path.name + "-*"):
        side.unlink()


@pytest.mark.parametrize("damage", ["garbage", "empty", "through a file", "damaged header",
                                    "cut in half", "another program's", "read-only",
                                    "read-only directory"])
@pytest.mark.numba_compile
def test_a_database_that_cannot_be_used_is_a_clear_error_at_start(tmp_path: Path,
                                                                  damage: str) -> None:
    db = tmp_path / "d.sqlite3"
    if damage == "garbage":
        db.write_bytes(os.urandom(10_000))
    elif damage == "empty":
        _real_database(db)
        db.write_bytes(b"")  # truncated to 0 bytes: the tables are gone
    elif damage == "through a file":
        (tmp_path / "file").write_text("x")
        db = tmp_path / "file" / "d.sqlite3"
    elif damage == "damaged header":
        _real_database(db)
        data = db.read_bytes()
        db.write_bytes(data[:100] + b"\0" * 50 + data[150:4096])
    elif damage == "cut in half":
        _real_database(db, 400)
        data = db.read_bytes()
        db.write_bytes(data[:len(data) // 2])
    elif damage == "another program's":
        with sqlite3.connect(db) as conn:
            conn.execute("CREATE TABLE photos (id INTEGER)")
    elif damage == "read-only":
        _real_database(db, 2)
        db.chmod(0o444)
        tmp_path.chmod(0o555)
    elif damage == "read-only directory":
        _real_database(db, 2)
        tmp_path.chmod(0o555)
    try:
        result = _serve("--db", str(db), privileged=not damage.startswith("read-only"))
    finally:
        tmp_path.chmod(0o755)
    assert result.returncode == 1, result.stdout + result.stderr
    assert result.stderr.startswith("Error: "), result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert "served at" not in result.stdout
    print(damage, "->", result.stderr.strip())


@pytest.mark.numba_compile
def test_a_damaged_page_of_one_table_leaves_the_server_up(tmp_path: Path) -> None:
    """Garbage over the pages that hold moves: the server starts (or refuses clearly),
    never with a traceback, and reports what it cannot read."""
    db = tmp_path / "p.sqlite3"
    with TestClient(create_app(make_settings(db))) as client:
        tables = [create(client, PEOPLE)["table_id"] for _ in range(60)]
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    page = 4096
    moves = [n for n in range(1, len(data) // page) if b"deck " in data[n * page:(n + 1) * page]]
    for number in moves[len(moves) // 2:len(moves) // 2 + 2]:  # two pages of moves
        data[number * page + 8:(number + 1) * page] = os.urandom(page - 8)
    db.write_bytes(bytes(data))
    check = _serve("--check", "--db", str(db))
    assert check.returncode in (1, 2)
    assert "Traceback" not in check.stdout + check.stderr
    assert "quarantined" in check.stdout or "damaged" in check.stdout + check.stderr
    with TestClient(create_app(make_settings(db))) as client:  # starts for the rest
        answers = [client.get(f"/api/tables/{t}").status_code for t in tables]
        assert set(answers) <= {200, 410}
        assert answers.count(200) > 0
    print(f"{answers.count(410)} of {len(tables)} tables quarantined, the rest served")


@pytest.mark.numba_compile
def test_a_store_error_in_a_read_is_503_not_500(flaky: tuple[TestClient, list[FlakyStore]],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    client, (store,) = flaky
    create(client, [{"kind": "me"}, {"kind": "open"}])

    def fail(*_args: Any) -> list[str]:
        from trashcards.web.store import StoreError
        raise StoreError("disk I/O error (injected)")

    monkeypatch.setattr(store, "ids", fail)
    answer = client.get("/api/tables")
    assert (answer.status_code, answer.json()["error"]) == (503, "storage_error")
    assert json.loads(answer.text)["retry_after"] == 5
