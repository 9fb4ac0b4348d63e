"""The HTTP app's edges (issue 33, items 5 and 7): a redirect never names the host a
request's ``Host`` header claims, the unfilled service-worker template is not served,
and a client that hangs up in the middle of its body costs one log line, never a
traceback (a real ``trashcards serve``)."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from servetools import port_of, running
from starlette.testclient import TestClient
from webtools import make_settings

from trashcards.web import create_app


@pytest.mark.numba_compile
def test_redirects_are_paths_never_the_requests_host(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path / "r.sqlite3")),
                    base_url="http://evil.example") as client:
        for path, target in (("/rules/", "/rules"), ("/review/", "/review"),
                             ("/rules/?lang=es", "/rules?lang=es")):
            answer = client.get(path, follow_redirects=False)
            assert answer.status_code == 307, path
            assert answer.headers["location"] == target
        # a path that starts with two slashes must not become another host's address
        for path in ("//evil.example/", "//evil.example/rules/", "///x/"):
            answer = client.get(path, follow_redirects=False)
            location = answer.headers.get("location", "")
            assert not location.startswith("//"), (path, location)
            assert "evil.example" not in location.split("/")[:3], (path, location)


@pytest.mark.numba_compile
def test_the_service_worker_template_is_not_served(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path / "w.sqlite3"))) as client:
        for path in ("/static/sw.js", "/static/./sw.js", "/static//sw.js"):
            assert client.get(path).status_code == 404, path
        worker = client.get("/sw.js")
        assert worker.status_code == 200
        assert "__VERSION__" not in worker.text
        assert client.get("/static/js/table.js").status_code == 200


def _cut(port: int, path: str, declared: int, sent: bytes) -> None:
    """A request whose client hangs up after ``sent`` of the ``declared`` body bytes."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {declared}\r\n\r\n".encode() + sent)
        time.sleep(0.05)


@pytest.mark.numba_compile  # its serve subprocess warms up (compiles) the AI
def test_a_cut_body_is_one_log_line_not_a_traceback(tmp_path: Path) -> None:
    with running(tmp_path / "c.sqlite3", ("--test-seed", "1")) as (proc, url):
        lines: list[str] = []
        assert proc.stdout is not None
        stdout = proc.stdout
        reader = threading.Thread(target=lambda: lines.extend(stdout), daemon=True)
        reader.start()
        port = port_of(url)
        for path in ("/api/tables", "/api/parties", "/api/review", "/api/tables/t0/join"):
            for _ in range(3):
                _cut(port, path, 400, b'{"seats": [{"kind": "me"}, ')
        time.sleep(1.0)  # the server notices the hang-ups
        assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200
        proc.terminate()
        reader.join(timeout=10)
    text = "".join(lines)
    assert "Traceback" not in text, text
    assert "ClientDisconnect" not in text, text
    said = [line for line in lines if "hung up before its request was read whole" in line]
    assert len(said) == 1, text  # one line, then quiet for LOG_EVERY seconds
