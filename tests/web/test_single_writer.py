"""One writer per database, for real: the lock is held on the database file itself (its
device and inode), so neither a symlink, nor a hard link, nor deleting a lock file lets a
second server in; and a server whose file was deleted or replaced under it refuses to
write instead of writing to a file nobody will read."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
import servetools
from starlette.testclient import TestClient
from webtools import Socket, create, make_settings, server

from trashcards.web import create_app
from trashcards.web.store import Store, StoreBusyError, WriteError


def _second_server(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(servetools.command("--port", "0", "--db", str(db)),
                          capture_output=True, text=True, timeout=60, check=False)


def test_no_path_to_the_same_file_lets_a_second_server_in(tmp_path: Path) -> None:
    db = tmp_path / "one.sqlite3"
    first = Store(db)
    try:
        (tmp_path / "link.sqlite3").symlink_to(db)
        os.link(db, tmp_path / "hard.sqlite3")
        (tmp_path / "sub").mkdir()
        for other in (db, tmp_path / "link.sqlite3", tmp_path / "hard.sqlite3",
                      tmp_path / "sub" / ".." / "one.sqlite3"):
            with pytest.raises(StoreBusyError, match="another trashcards server"):
                Store(other)
        assert not list(tmp_path.glob("*.lock"))  # no side file to delete
        (tmp_path / "one.sqlite3.lock").write_text("")  # one left by an older version
        (tmp_path / "one.sqlite3.lock").unlink()
        with pytest.raises(StoreBusyError):
            Store(db)
    finally:
        first.close()
    Store(tmp_path / "hard.sqlite3").close()  # free again once the first one is gone


@pytest.mark.numba_compile  # its serve subprocess warms up (compiles) the AI
def test_a_second_serve_is_refused_through_a_symlink_or_a_hard_link(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    with server(db) as (_proc, url):
        (tmp_path / "link.sqlite3").symlink_to(db)
        os.link(db, tmp_path / "hard.sqlite3")
        for path in (db, tmp_path / "link.sqlite3", tmp_path / "hard.sqlite3"):
            refused = _second_server(path)
            assert refused.returncode == 1
            assert "another trashcards server is using the database" in refused.stderr
            assert "Traceback" not in refused.stderr
        import httpx
        assert httpx.get(f"{url}/healthz").json()["ok"] is True  # the first one serves on


@pytest.mark.parametrize("fate", ["deleted", "replaced"])
@pytest.mark.numba_compile
def test_a_database_deleted_or_replaced_under_the_server_is_not_written(
        tmp_path: Path, fate: str) -> None:
    db = tmp_path / "gone.sqlite3"
    with TestClient(create_app(make_settings(db, write_retries=0))) as client:
        made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}])
        if fate == "deleted":
            db.unlink()
        else:
            other = tmp_path / "other.sqlite3"
            Store(other).close()
            other.replace(db)
        tokens = [s["token"] for s in made["seats"]]
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            state = sock.recv_type("state")["state"]
            sock.send({"type": "act", "token": tokens[state["to_act"]], "action": "stock",
                       "version": 2})
            refused = sock.recv_type("error")
            assert refused["code"] == "storage_error"
            assert f"was {fate}" in refused["message"]
        answer = client.post("/api/tables", json={"seats": [{"kind": "me"}, {"kind": "open"}]})
        assert (answer.status_code, answer.json()["error"]) == (503, "storage_error")


def test_a_store_refuses_writes_once_its_file_is_replaced(tmp_path: Path) -> None:
    db = tmp_path / "a.sqlite3"
    store = Store(db)
    try:
        store.create_table("t", {"preset": "standard"}, [], "waiting")
        db.rename(tmp_path / "moved.sqlite3")
        with pytest.raises(WriteError, match="deleted"):
            store.create_table("u", {"preset": "standard"}, [], "waiting")
    finally:
        store.close()
