"""A PostgreSQL outage while people play: every request is answered with a documented
code (``storage_error`` or ``unavailable`` on the websocket, 503 ``storage_error`` over
HTTP), the server's log has no traceback for it, and play goes on once the database is
back."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from pgtools import OPT_OUT, Cluster, PostgresMissingError, running_cluster
from webtools import Client, server

DOCUMENTED = {"storage_error", "unavailable"}


def _restart(cluster: Cluster) -> None:
    """Start a stopped cluster again (its data kept)."""
    options = (f"-k {cluster.socket_dir} -c listen_addresses='' -c max_connections=200 "
               f"{cluster.settings}")
    done = cluster._run(str(cluster.bindir / "pg_ctl"), "-D", str(cluster.root / "data"),
                        "-l", str(cluster.root / "log"), "-o", options, "-w", "-t", "60",
                        "start")
    assert done.returncode == 0, done.stderr or done.stdout


@pytest.mark.numba_compile
def test_a_postgresql_outage_gives_the_documented_codes(tmp_path: Path) -> None:
    try:
        own = running_cluster("")  # fully durable: an immediate stop loses no commit
        cluster = own.__enter__()
    except PostgresMissingError as exc:
        if __import__("os").environ.get(OPT_OUT) == "1":
            pytest.skip(str(exc))
        raise
    try:
        db = cluster.database()
        with server(db, 0.0) as (proc, url):  # type: ignore[arg-type]
            made = httpx.post(f"{url}/api/tables", json={"seats": [
                {"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]}).json()
            tokens = [s["token"] for s in made["seats"]]
            client = Client(url, made["table_id"])
            client.send({"type": "join", "tokens": tokens, "version": None})
            client.recv("joined")
            state = client.recv("state")
            act = {"type": "act", "action": "stock", "version": state["version"],
                   "token": tokens[state["state"]["to_act"]]}
            cluster.stop()
            try:
                client.send(act)
                refused = client.recv("error")
                assert refused["code"] in DOCUMENTED, refused
                assert refused["retry_after"] > 0
                created = httpx.post(f"{url}/api/tables", json={"seats": [
                    {"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]},
                    timeout=30)
                assert (created.status_code, created.json()["error"]) == \
                    (503, "storage_error")
            finally:
                _restart(cluster)
            deadline = time.monotonic() + 30
            while True:  # once the database is back, the same move goes through
                client.send(act)
                answer = client.recv("events", "error", "state", "table")
                if answer["type"] == "events":
                    break
                if answer["type"] == "error":
                    assert answer["code"] in DOCUMENTED | {"stale_version"}, answer
                assert time.monotonic() < deadline, "play did not resume"
                time.sleep(0.5)
            client.close()
            proc.kill()
            assert proc.stdout is not None
            log = proc.stdout.read()
        assert "Traceback" not in log, log
    finally:
        own.__exit__(None, None, None)
