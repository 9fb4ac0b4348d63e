"""No HTTP body breaks the API: 10,000 mutated bodies (CI; ``--fuzz-scale`` for more)
posted to ``/api/tables`` and to tables' ``join``, in process through the ASGI app,
each answered with a documented status and error code, never a 500; and 300 bodies cut
off at random points (a client hanging up mid-body) on a real server, which logs no
traceback for any of them."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from fuzzkit import WORDS, body_mutant, tally
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("starlette")
from servetools import port_of, running
from starlette.testclient import TestClient
from webtools import make_settings, run_async

from trashcards.web import create_app

SEED = 11
#: Every status and error code docs/protocol.md gives for these endpoints.
STATUSES = {200, 201, 400, 403, 404, 409, 410, 413, 415, 429, 503}
CODES = {"bad_json", "bad_request", "bad_rules", "bad_name", "name_taken", "no_table",
         "seat_taken", "no_open_seat", "too_large", "unsupported_media_type"}


async def _fuzz(tmp_path: Path, count: int) -> None:
    result = tally("HTTP bodies")
    app = create_app(make_settings(tmp_path / "h.sqlite3"))
    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with app.router.lifespan_context(app), \
            httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
        waiting: list[str] = []
        for index in range(count):
            kind, body, content_type = body_mutant(SEED, index)
            if kind == "create" or not waiting:
                url = "/api/tables"
            else:
                url = f"/api/tables/{waiting[index % len(waiting)]}/join"
                if index % 50 == 0:
                    url = "/api/tables/" + "%C2%B2" * (index % 7) + "x/join"
            headers = {"Content-Type": content_type} if content_type else {}
            try:
                response = await client.post(url, content=body, headers=headers)
            except Exception as exc:  # the transport itself failed
                result.fail(f"body_mutant({SEED}, {index})", repr(exc))
                continue
            where = f"body_mutant({SEED}, {index}) -> {response.status_code}"
            if response.status_code not in STATUSES:
                result.fail(where, response.text[:200])
                continue
            data: Any = response.json()
            if response.status_code >= 400:
                if data.get("error") not in CODES or not data.get("message"):
                    result.fail(where, response.text[:200])
                    continue
                result.ok(f"{response.status_code} {data['error']}")
            else:
                result.ok(str(response.status_code))
                if kind == "create":  # tables with open seats: targets for joins
                    info = (await client.get(f"/api/tables/{data['table_id']}")).json()
                    if info["open"]:
                        waiting.append(data["table_id"])
                        waiting[:] = waiting[-20:]
        listing = await client.get("/api/tables")
        assert listing.status_code == 200
        json.dumps(listing.json())
    assert result.failures == []
    assert result.outcomes["201"] > count // 50  # the bodies are not all trivially bad
    assert result.outcomes["200"] > 0


@pytest.mark.numba_compile
def test_fuzzed_bodies_get_documented_answers_never_a_500(tmp_path: Path,
                                                           fuzz_scale: float) -> None:
    count = int(10_000 * fuzz_scale)
    started = time.perf_counter()
    run_async(_fuzz(tmp_path, count))
    print(f"{count:,} HTTP bodies in {time.perf_counter() - started:.1f} s")


@pytest.mark.parametrize("body", [
    b'{"seats": [{"kind": "me"}, {"kind": "me"}], "rules": {"decks": 1' + b"0" * 5000 + b"}}",
    b'{"seats": ' + b"[" * 5000 + b"]" * 5000 + b"}",
    b'{"rules": {"preset": "first-to-' + b"1" * 5000 + b'"}, "seats": [{"kind": "me"}, '
    b'{"kind": "me"}]}',
])
@pytest.mark.numba_compile
def test_the_bodies_that_once_answered_500(tmp_path: Path, body: bytes) -> None:
    """A 5,000-digit integer, nesting 5,000 deep, the preset first-to-111…1 (issue 7)."""
    async def post() -> httpx.Response:
        app = create_app(make_settings(tmp_path / "o.sqlite3"))
        transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
        async with app.router.lifespan_context(app), \
                httpx.AsyncClient(transport=transport, base_url="http://testserver") as client:
            return await client.post("/api/tables", content=body,
                                     headers={"Content-Type": "application/json"})

    response = run_async(post())
    assert response.status_code == 400
    assert response.json()["error"] in ("bad_json", "bad_rules")


_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30)
    | st.sampled_from(WORDS),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=25)
_SEAT = st.fixed_dictionaries(
    {"kind": st.sampled_from(["me", "hotseat", "open", "bot", "robot"])},
    optional={"name": st.text(max_size=30) | _VALUE, "bot": st.text(max_size=10) | _VALUE})
_BODY = st.one_of(
    st.fixed_dictionaries({"seats": st.lists(_SEAT, max_size=5)},
                          optional={"rules": st.dictionaries(st.sampled_from(
                              ["preset", "decks", "start_size", "wild_ranks", "colour"]),
                              _VALUE, max_size=3)}),
    st.fixed_dictionaries({}, optional={"name": _VALUE, "seat": _VALUE}),
    _VALUE)


@pytest.mark.numba_compile
def test_hypothesis_bodies_get_documented_answers(tmp_path: Path, fuzz_scale: float) -> None:
    result = tally("HTTP bodies (hypothesis)")
    with TestClient(create_app(make_settings(tmp_path / "y.sqlite3"))) as client:
        table_id = client.post("/api/tables", json={
            "seats": [{"kind": "me"}, {"kind": "open"}, {"kind": "open"}, {"kind": "open"}]
        }).json()["table_id"]

        @settings(max_examples=int(1_000 * fuzz_scale), deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow])
        @given(body=_BODY, join=st.booleans())
        def check(body: Any, join: bool) -> None:
            url = f"/api/tables/{table_id}/join" if join else "/api/tables"
            text = json.dumps(body, allow_nan=True).encode("utf-8", "surrogatepass")
            response = client.post(url, content=text,
                                   headers={"Content-Type": "application/json"})
            data = response.json()
            if response.status_code not in STATUSES or (
                    response.status_code >= 400 and data.get("error") not in CODES):
                result.fail(text[:100].decode("utf-8", "replace"), response.text[:200])
                raise AssertionError(response.text)
            result.ok(str(response.status_code))

        check()
    assert result.failures == []


#: The endpoints that read a body.
_POSTS = ("/api/tables", "/api/parties", "/api/review", "/api/tables/t0/join",
          "/api/tables/nothing/join")


@pytest.mark.numba_compile
def test_cut_bodies_leave_no_traceback(tmp_path: Path, fuzz_scale: float) -> None:
    """Bodies cut off at a random byte (or sent beyond their Content-Length, or not
    sent at all) by a client that then hangs up at once or after a pause."""
    rng = random.Random(SEED)
    count = int(300 * fuzz_scale)
    result = tally("cut HTTP bodies")
    with running(tmp_path / "cut.sqlite3", ("--test-seed", "1", "--create-rate", "1e9",
                                            "--join-rate", "1e9", "--review-rate", "1e9")
                 ) as (proc, url):
        assert proc.stdout is not None
        stdout = proc.stdout
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.extend(stdout), daemon=True)
        reader.start()
        httpx.post(f"{url}/api/tables", json={"seats": [{"kind": "me"}, {"kind": "open"}]},
                   timeout=10)
        port = port_of(url)
        for index in range(count):
            _kind, body, _content_type = body_mutant(SEED, index)
            path = rng.choice(_POSTS)
            declared = len(body) + rng.choice((1, 1, 10, 1000))
            sent = body[:rng.randrange(len(body) + 1)]
            with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
                sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: "
                             f"application/json\r\nContent-Length: {declared}\r\n\r\n"
                             .encode() + sent)
                if rng.random() < 0.2:
                    time.sleep(0.01)
                if rng.random() < 0.3:
                    sock.shutdown(socket.SHUT_WR)  # a half close first
            result.ok(path)
        time.sleep(1.0)
        assert httpx.get(f"{url}/healthz", timeout=10).status_code == 200
        proc.terminate()
        reader.join(timeout=10)
    text = "".join(lines)
    assert "Traceback" not in text, text[-3000:]
    assert "Exception in ASGI application" not in text, text[-3000:]
