"""A flood against a real ``trashcards serve`` with its default limits: table creation
from one address and from 40, 300 idle sockets, slow readers asking for catch-ups they
never read, readers who fall behind a game, and message floods. The limits hold (429s,
4429, 4400, ``rate_limited``) and the server's resident memory stays bounded; the figures are
printed (``pytest -s``). (That a reader that falls too far behind is dropped is shown,
deterministically, by ``test_limits.test_a_client_that_reads_nothing_is_dropped``.)"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from webtools import run_async, server

websockets_client = pytest.importorskip("websockets.asyncio.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402

#: How much the server's RSS may grow over the whole flood, in MiB.
RSS_BOUND = 40.0


def rss(pid: int) -> float:
    """Resident memory of process ``pid`` in MiB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def _http(url: str, address: str) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address,
                                         limits=httpx.Limits(max_connections=20))
    return httpx.AsyncClient(base_url=url, timeout=60, transport=transport)


async def _unread_socket(url: str, address: str) -> Any:
    """A websocket from ``address`` that reads nothing: its receive buffer is tiny, so
    what the server sends piles up at the server (the bound under test), not in the
    kernel."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.bind((address, 0))
    host, port = url.split("//")[1].split("/")[0].split(":")
    sock.connect((host, int(port)))
    sock.setblocking(False)
    return await websockets_client.connect(url, sock=sock, ping_interval=None, max_queue=1)


async def _create(client: httpx.AsyncClient, count: int) -> Counter[int]:
    answers = await asyncio.gather(*[client.post("/api/tables", json={
        "seats": [{"kind": "me"}, {"kind": "open"}]}) for _ in range(count)])
    for answer in answers:
        if answer.status_code == 429:
            assert int(answer.headers["retry-after"]) >= 1
    return Counter(a.status_code for a in answers)


async def _flood(url: str, pid: int) -> dict[str, Any]:
    ws_url = url.replace("http", "ws", 1)
    figures: dict[str, Any] = {"RSS at start": rss(pid)}

    async with _http(url, "127.0.0.1") as client:  # creation, one address
        started = time.monotonic()
        figures["2,000 creations from one address"] = dict(await _create(client, 2000))
        figures["2,000 creations from one address: seconds"] = round(
            time.monotonic() - started, 1)
    made = 0
    for n in range(2, 42):  # creation, 40 addresses
        async with _http(url, f"127.0.0.{n}") as client:
            made += (await _create(client, 50))[201]
    figures["tables made by 40 addresses trying 50 each"] = made
    figures["RSS after the creation floods"] = rss(pid)

    async with _http(url, "127.0.0.50") as client:  # a long game to catch up with
        table_id = (await client.post("/api/tables", json={"seats": [
            {"kind": "bot"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"},
            {"kind": "bot", "bot": "counter"}]})).json()["table_id"]
        await asyncio.sleep(2)
        figures["moves of the bot table"] = (await client.get(
            f"/api/tables/{table_id}")).json()["version"]

    closes: Counter[Any] = Counter()

    async def idle() -> None:
        async with websockets_client.connect(f"{ws_url}/ws/{table_id}", ping_interval=None,
                                             local_addr=("127.0.0.60", 0)) as ws:
            with contextlib.suppress(ConnectionClosed):
                await ws.recv()
            closes[ws.close_code] += 1

    started = time.monotonic()
    idlers = [asyncio.create_task(idle()) for _ in range(300)]
    await asyncio.sleep(1)
    figures["RSS with 300 idle sockets"] = rss(pid)
    await asyncio.wait_for(asyncio.gather(*idlers), 30)
    figures["300 idle sockets: closes"] = dict(closes)
    figures["300 idle sockets: all closed after (s)"] = round(time.monotonic() - started, 1)

    # slow readers of a finished long game: each asks for the catch-up 40 times and never
    # reads; a connection gets one catch-up per version, so this costs next to nothing
    slow = [await websockets_client.connect(f"{ws_url}/ws/{table_id}", ping_interval=None,
                                            max_queue=1, local_addr=(f"127.0.0.{n}", 0))
            for n in (70, 71) for _ in range(32)]
    for _ in range(40):
        for ws in slow:
            await ws.send(json.dumps({"type": "join", "tokens": [], "version": 0}))
        await asyncio.sleep(0.02)
    figures["RSS with 64 slow readers asking 40 catch-ups each"] = rss(pid)
    await asyncio.gather(*[ws.close() for ws in slow])

    # readers of a game that goes on who read nothing: what they do not read waits in
    # the kernel's socket buffers (some MB), then at most max_queue_bytes at the server
    async with _http(url, "127.0.0.51") as client:
        made = (await client.post("/api/tables", json={"seats": [
            {"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]})).json()
    tokens = [seat["token"] for seat in made["seats"]]
    behind = [await _unread_socket(f"{ws_url}/ws/{made['table_id']}", "127.0.0.72")
              for _ in range(32)]
    for ws in behind:
        await ws.send(json.dumps({"type": "join", "tokens": [], "version": 0}))
    # the game is driven through 30 sockets in turn (each may send 20 messages a second)
    drivers = [await websockets_client.connect(f"{ws_url}/ws/{made['table_id']}",
                                               ping_interval=None, local_addr=("127.0.0.73", 0))
               for _ in range(30)]
    for ws in drivers:
        await ws.send(json.dumps({"type": "join", "tokens": tokens, "version": None}))

    async def discard(ws: Any) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for _ in ws:
                pass

    draining = [asyncio.create_task(discard(ws)) for ws in drivers[1:]]
    moves = 0
    message = json.loads(await drivers[0].recv())
    while moves < 1000:
        if message["type"] == "error":
            raise AssertionError(message)
        if message["type"] in ("state", "events"):
            state = message["state"]
            driver = drivers[moves % len(drivers)]
            if state["to_act"] is not None:
                await driver.send(json.dumps({
                    "type": "act", "token": tokens[state["to_act"]],
                    "action": state["legal"][0], "version": message["version"]}))
                moves += 1
            elif state["phase"] == "round_over":
                for token in tokens:
                    await driver.send(json.dumps({"type": "next_round", "token": token}))
            else:
                break
            if moves % 20 == 0:
                for ws in behind:  # they ask for catch-ups they will not read
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send(json.dumps({"type": "join", "tokens": [],
                                                  "version": 0}))
        message = json.loads(await asyncio.wait_for(drivers[0].recv(), 30))
    await asyncio.gather(*[ws.close() for ws in drivers])
    for task in draining:
        task.cancel()
    figures["moves made while 32 readers fell behind"] = moves
    figures["RSS with 32 readers falling behind"] = rss(pid)

    for ws in behind:  # they hang up without reading
        ws.transport.abort()
    await asyncio.sleep(0.5)
    figures["RSS after they hung up"] = rss(pid)

    flooders = [await websockets_client.connect(f"{ws_url}/ws/{table_id}", ping_interval=None,
                                                local_addr=("127.0.0.80", 0))
                for _ in range(32)]
    answers: Counter[str] = Counter()

    async def flood(ws: Any) -> None:
        await ws.send(json.dumps({"type": "join", "tokens": [], "version": None}))
        for _ in range(400):
            await ws.send(json.dumps({"type": "ping"}))
        for _ in range(2 + 400):  # joined, state, and an answer to every ping
            message = json.loads(await ws.recv())
            answers[message.get("code", message["type"])] += 1

    await asyncio.wait_for(asyncio.gather(*[flood(ws) for ws in flooders]), 60)
    figures["32 sockets x 400 pings: answers"] = dict(answers.most_common(4))
    figures["RSS after the message flood"] = rss(pid)
    await asyncio.gather(*[ws.close() for ws in flooders])
    await asyncio.sleep(0.5)
    figures["RSS at the end"] = rss(pid)
    return figures


@pytest.mark.slow
def test_a_flood_is_limited_and_memory_stays_bounded(tmp_path: Path) -> None:
    with server(tmp_path / "flood.sqlite3", 0.0, "--join-timeout", "2") as (proc, url):
        time.sleep(0.5)
        figures = run_async(_flood(url, proc.pid))
        assert httpx.get(f"{url}/healthz").json()["ok"] is True
        proc.kill()
        assert proc.stdout is not None
        log = proc.stdout.read()
    for name, value in figures.items():
        print(f"flood: {name}: {value}")
    assert "Traceback" not in log
    one = figures["2,000 creations from one address"]
    seconds = figures["2,000 creations from one address: seconds"]
    assert 20 <= one[201] <= 21 + seconds / 3  # the burst of 20, then one every 3 s
    assert one[429] == 2000 - one[201]
    assert 40 * 20 <= figures["tables made by 40 addresses trying 50 each"] <= 40 * 25
    closes = figures["300 idle sockets: closes"]
    assert set(closes) == {4429, 4400}  # refused at once, or closed for not joining
    assert sum(closes.values()) == 300
    assert 32 <= closes[4400] < 64
    assert figures["300 idle sockets: all closed after (s)"] < 10
    assert figures["32 sockets x 400 pings: answers"].get("rate_limited", 0) > 0
    growth = max(v for k, v in figures.items() if k.startswith("RSS")) - figures["RSS at start"]
    print(f"flood: RSS grew at most {growth:.1f} MiB (bound {RSS_BOUND} MiB)")
    assert growth < RSS_BOUND
