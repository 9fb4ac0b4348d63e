"""No frame closes the socket: 10,000 fuzzed frames (CI; ``--fuzz-scale`` for more) over
ONE real websocket to a real ``trashcards serve``, mixed with the legal moves that keep
its game going. Every answer is a valid server message, the socket stays open to the
end (a last ping gets its pong), and the server logs no traceback and answers no
``internal`` error."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from fuzzkit import WORDS, frame_mutant, tally
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

websockets_client = pytest.importorskip("websockets.asyncio.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402
from webtools import run_async, server  # noqa: E402

from trashcards.web.protocol import parse_server_message  # noqa: E402

SEED = 13
#: Limits out of the way: this test is about parsing, test_limits about limits.
OPTIONS = ("--message-rate", "1000000", "--join-rate", "1000000000", "--create-rate",
           "1000000", "--join-timeout", "3600")


async def _fuzz(url: str, table_id: str, tokens: list[str], count: int) -> Counter[str]:
    replies: Counter[str] = Counter()
    bad: list[str] = []
    latest: dict[str, Any] = {"state": None, "version": 0}
    rng = random.Random(SEED)
    async with websockets_client.connect(f"{url.replace('http', 'ws', 1)}/ws/{table_id}",
                                         max_queue=None, ping_interval=None) as ws:
        async def read() -> None:
            async for text in ws:
                try:
                    parse_server_message(text)
                except Exception as exc:  # a frame that breaks the protocol
                    bad.append(f"{exc!s:.200}: {text[:200]!r}")
                message = json.loads(text)
                kind = message["type"]
                replies[kind if kind != "error" else f"error {message['code']}"] += 1
                if kind in ("state", "events"):
                    latest["state"], latest["version"] = message["state"], message["version"]
                if kind == "pong":
                    pongs.set()

        pongs = asyncio.Event()
        reader = asyncio.create_task(read())
        for sent in range(count):
            if sent % 10 == 0:  # read as a client does: a ping, then wait for its pong
                pongs.clear()
                await ws.send(json.dumps({"type": "ping"}))
                await asyncio.wait_for(pongs.wait(), 60)
            frame = frame_mutant(rng, tokens, latest["state"], latest["version"])
            if isinstance(frame, str):
                try:
                    frame.encode()
                except UnicodeEncodeError:  # a lone surrogate: only bytes can carry it
                    frame = frame.encode("utf-8", "surrogatepass")
            await ws.send(frame)
        pongs.clear()
        await ws.send(json.dumps({"type": "ping"}))
        await asyncio.wait_for(pongs.wait(), 60)  # still open, still answering
        assert ws.close_code is None
        reader.cancel()
    assert bad == []
    return replies


@pytest.mark.numba_compile
def test_fuzzed_frames_never_close_the_socket(tmp_path: Path, fuzz_scale: float) -> None:
    count = int(10_000 * fuzz_scale)
    result = tally("websocket frames (one socket)")
    with server(tmp_path / "w.sqlite3", 0.0, *OPTIONS) as (proc, url):
        made = httpx.post(f"{url}/api/tables", json={
            "rules": {"preset": "standard"},
            "seats": [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]}
        ).json()
        tokens = [s["token"] for s in made["seats"]]
        started = time.perf_counter()
        replies = run_async(_fuzz(url, made["table_id"], tokens, count))
        elapsed = time.perf_counter() - started
        assert proc.poll() is None
        version = httpx.get(f"{url}/api/tables/{made['table_id']}").json()["version"]
        proc.kill()
        assert proc.stdout is not None
        log = proc.stdout.read()
    for kind, number in replies.items():
        result.outcomes[kind] += number
    result.tried += count
    print(f"{count:,} frames in {elapsed:.1f} s; the game reached version {version}; "
          f"replies {dict(replies.most_common())}")
    assert "Traceback" not in log, log[-3000:]
    assert replies["error internal"] == 0
    assert replies["events"] > 150  # the game went on between the bad frames (to its end,
    assert version > 100             # in long runs)


@pytest.mark.numba_compile  # its serve subprocess warms up (compiles) the AI
def test_a_frame_over_the_frame_limit_closes_with_1009(tmp_path: Path) -> None:
    """The one documented exception: the ASGI server refuses to take in a frame over
    ``--max-frame`` (64 KiB) at all."""
    async def send_big(url: str, table_id: str) -> int | None:
        async with websockets_client.connect(
                f"{url.replace('http', 'ws', 1)}/ws/{table_id}", ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "ping", "pad": "x" * 70_000}))
            with pytest.raises(ConnectionClosed):
                await ws.recv()
            return ws.close_code

    with server(tmp_path / "b.sqlite3", 0.0) as (_proc, url):
        made = httpx.post(f"{url}/api/tables", json={
            "seats": [{"kind": "me"}, {"kind": "open"}]}).json()
        assert run_async(send_big(url, made["table_id"])) == 1009


_VALUE = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20)
    | st.sampled_from(WORDS),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20)


@pytest.mark.numba_compile
def test_hypothesis_frames_are_answered_on_an_open_socket(tmp_path: Path,
                                                          fuzz_scale: float) -> None:
    """Hypothesis-made messages (every client type, any field values) over one
    in-process websocket: each gets its answers, the socket stays open."""
    from starlette.testclient import TestClient
    from webtools import Socket, create, make_settings

    from trashcards.web import create_app

    result = tally("websocket frames (hypothesis)")
    with TestClient(create_app(make_settings(tmp_path / "h.sqlite3"))) as client:
        made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}])
        tokens = [s["token"] for s in made["seats"]]
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            sock = Socket(ws)
            message = st.fixed_dictionaries(
                {"type": st.sampled_from(["join", "act", "next_round", "rematch", "ping",
                                          "fly"]) | _VALUE},
                optional={"token": st.sampled_from(tokens) | _VALUE,
                          "tokens": st.lists(st.sampled_from(tokens)) | _VALUE,
                          "action": st.sampled_from(["stock", "discard", "wild 3", "swap"])
                          | _VALUE, "version": st.integers(-3, 400) | _VALUE})

            @settings(max_examples=int(1_000 * fuzz_scale), deadline=None, database=None,
                      suppress_health_check=[HealthCheck.too_slow])
            @given(frame=message | _VALUE)
            def check(frame: Any) -> None:
                text = json.dumps(frame, allow_nan=True)
                if text.encode("utf-8", "surrogatepass") != text.encode("utf-8", "replace"):
                    sock.ws.send_bytes(text.encode("utf-8", "surrogatepass"))
                else:
                    sock.send(text)
                sock.send({"type": "ping"})
                kinds = []
                while (reply := sock.recv())["type"] != "pong" or \
                        (isinstance(frame, dict) and frame.get("type") == "ping" and not kinds):
                    kinds.append(reply.get("code", reply["type"]))
                if "internal" in kinds:
                    result.fail(text[:100], str(kinds))
                    raise AssertionError(kinds)
                result.ok(kinds[0] if kinds else "pong")

            check()
            sock.send({"type": "ping"})
            sock.recv_type("pong")
    assert result.failures == []
