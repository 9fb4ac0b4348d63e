"""Other addresses flood the AI work while a victim at another table plays: a real server
(``trashcards serve``), the victim at 127.0.0.1 against an expert bot with a hint before
every decision; an attacker at 127.0.0.2 asking for hints at four-player tables of its
own as fast as it may, watching tables of bots (win chances at every version) and ten
tables of expert bots; nine more addresses posting eight long reviews each, again and
again. The victim keeps getting its moves answered, its hints and the expert's replies
(benchmarks/server.py --attack measures how fast), it is never ``busy`` (before, the
reviews filled the one queue of all kinds and the victim's hints were refused), and the
AI work runs in worker processes: the server's own process uses less CPU than they do
(before, all of it ran in the server's process, under its interpreter lock). On the
server before the fair scheduler the victim stalled for good under the watched tables."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from webtools import run_async, server

from trashcards.bots import make_bot
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.views import view
from trashcards.web.viewjson import view_from_json

websockets_client = pytest.importorskip("websockets.asyncio.client")
connect = websockets_client.connect

ATTACKER = "127.0.0.2"
#: What the victim must get while the attack goes on: moves answered, hints, the
#: expert's replies; and the longest the test waits for them (the attack goes on as
#: long as it takes: a busy machine makes everything slower, only a stall fails).
ENOUGH = {"moves": 8, "hints": 4, "replies": 4}
LIMIT = 300.0
BOT_DELAY = 0.3  # the expert's delay (no jitter with this option)


def _record(seed: int) -> str:
    match = Match(Rules.preset_named("standard"), [f"p{i}" for i in range(4)],
                  random.Random(seed))
    bots = [make_bot("random", random.Random(seed * 10 + i)) for i in range(4)]
    match.advance()
    while not match.over and len(match.record.moves) < 600:
        seat = match.state.to_act
        assert seat is not None
        match.play(bots[seat].choose(view(match.state, seat)))
        match.advance()
    return match.record.dumps()


class Victim:
    def __init__(self) -> None:
        self.moves: list[float] = []
        self.hints: list[float] = []
        self.replies: list[float] = []
        self.errors: list[str] = []

    async def play(self, url: str, stop: asyncio.Event) -> None:
        async with httpx.AsyncClient(timeout=30) as http:
            made = (await http.post(f"{url}/api/tables", json={
                "hints": True, "seats": [{"kind": "me", "name": "Victim"},
                                         {"kind": "bot", "bot": "expert"}]})).json()
        token = made["seats"][0]["token"]
        person = make_bot("greedy", random.Random(7))
        rules = Rules.preset_named("standard")
        sent: dict[int, float] = {}
        asked: dict[int, float] = {}
        bot_since: float | None = None
        async with connect(f"{url.replace('http', 'ws', 1)}/ws/{made['table_id']}",
                           ping_interval=None) as ws:
            await ws.send(json.dumps({"type": "join", "tokens": [token], "version": None}))
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    continue
                now = time.monotonic()
                message = json.loads(text)
                kind = message["type"]
                if kind == "error":
                    self.errors.append(message["code"])
                elif kind == "hint":
                    start = asked.pop(message["version"], None)
                    if start is not None:
                        self.hints.append(now - start)
                if kind not in ("state", "events"):
                    continue
                state, version = message["state"], message["version"]
                if kind == "events":
                    start = sent.pop(message["from_version"], None)
                    if start is not None:
                        self.moves.append(now - start)
                    elif bot_since is not None:
                        self.replies.append(now - bot_since)
                    bot_since = now if state["to_act"] == 1 and \
                        state["phase"] in ("draw", "wild", "swap") else None
                if state["phase"] == "round_over":
                    await ws.send(json.dumps({"type": "next_round", "token": token}))
                if state["to_act"] != 0 or state["phase"] not in ("draw", "wild", "swap"):
                    continue
                asked[version] = time.monotonic()
                await ws.send(json.dumps({"type": "hint", "token": token, "version": version}))
                action = person.choose(view_from_json(state, rules))
                await asyncio.sleep(0.2)
                sent[version] = time.monotonic()
                await ws.send(json.dumps({"type": "act", "token": token, "version": version,
                                          "action": str(action)}))


async def _hint_flood(url: str, stop: asyncio.Event, http: httpx.AsyncClient) -> None:
    made = (await http.post(f"{url}/api/tables", json={
        "hints": True, "seats": [{"kind": "hotseat", "name": f"A{s}"} for s in range(4)]})
            ).json()
    tokens = [s["token"] for s in made["seats"]]
    bot = make_bot("greedy", random.Random(1))
    rules = Rules.preset_named("standard")
    async with connect(f"{url.replace('http', 'ws', 1)}/ws/{made['table_id']}",
                       ping_interval=None, local_addr=(ATTACKER, 0)) as ws:
        await ws.send(json.dumps({"type": "join", "tokens": tokens, "version": None}))
        state: dict[str, Any] | None = None
        version = -1
        while not stop.is_set():
            if state is not None and state["to_act"] is not None:
                await ws.send(json.dumps({"type": "hint", "version": version,
                                          "token": tokens[state["to_act"]]}))
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), 0.02))
            except TimeoutError:
                continue
            if message["type"] in ("state", "events"):
                state, version = message["state"], message["version"]
                if state["phase"] == "round_over":
                    await ws.send(json.dumps({"type": "next_round", "token": tokens[0]}))
            elif message["type"] == "hint" and state is not None and \
                    message["version"] == version and state["to_act"] is not None:
                await ws.send(json.dumps({
                    "type": "act", "version": version, "token": tokens[state["to_act"]],
                    "action": str(bot.choose(view_from_json(state, rules)))}))


async def _review_flood(url: str, stop: asyncio.Event, address: str, record: str) -> None:
    """Eight reviews at a time from ``address``, again and again."""
    async def one(http: httpx.AsyncClient) -> None:
        while not stop.is_set():
            with contextlib.suppress(httpx.HTTPError):
                answer = await http.post(f"{url}/api/review", content=record,
                                         headers={"content-type": "application/json"})
                if answer.status_code != 200:
                    await asyncio.sleep(0.1)

    transport = httpx.AsyncHTTPTransport(local_address=address)
    async with httpx.AsyncClient(timeout=60, transport=transport) as http:
        await asyncio.gather(*(one(http) for _ in range(8)))


async def _watch(url: str, stop: asyncio.Event, http: httpx.AsyncClient,
                 seats: list[dict[str, str]] | None = None) -> None:
    made = (await http.post(f"{url}/api/tables", json={
        "seats": seats or [{"kind": "bot", "bot": "greedy"} for _ in range(4)]})).json()
    async with connect(f"{url.replace('http', 'ws', 1)}/ws/{made['table_id']}",
                       ping_interval=None, local_addr=(ATTACKER, 0)) as ws:
        await ws.send(json.dumps({"type": "join", "tokens": [], "version": None}))
        while not stop.is_set():
            try:
                await asyncio.wait_for(ws.recv(), 0.5)
            except TimeoutError:
                continue


async def _scenario(url: str, record: str) -> Victim:
    victim = Victim()
    stop = asyncio.Event()
    transport = httpx.AsyncHTTPTransport(local_address=ATTACKER)
    async with httpx.AsyncClient(timeout=60, transport=transport) as evil:
        attack = [asyncio.create_task(_hint_flood(url, stop, evil)) for _ in range(6)]
        attack += [asyncio.create_task(_review_flood(url, stop, f"127.0.0.{10 + n}", record))
                   for n in range(9)]
        attack += [asyncio.create_task(_watch(url, stop, evil)) for _ in range(25)]
        experts = [{"kind": "bot", "bot": "expert"}] * 2
        attack += [asyncio.create_task(_watch(url, stop, evil, experts)) for _ in range(10)]
        playing = asyncio.create_task(victim.play(url, stop))
        started = time.monotonic()
        while time.monotonic() - started < LIMIT and not playing.done() and any(
                len(getattr(victim, what)) < n for what, n in ENOUGH.items()):
            await asyncio.sleep(0.5)
        stop.set()
        await asyncio.wait([playing, *attack], timeout=30)
        for task in attack:
            task.cancel()
        playing.result()
    return victim


def _drain(proc: Any) -> None:
    """Read the server's output so it never blocks on a full pipe, until the pipe is
    closed (the server's context closes it when the test ends)."""
    with contextlib.suppress(ValueError, OSError):
        for _line in proc.stdout:
            pass


def _cpu(pid: int) -> float:
    """CPU seconds of the process ``pid`` so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children_cpu(pid: int) -> float:
    """CPU seconds so far of the living processes whose parent is ``pid``."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == pid:
                    total += _cpu(int(entry.name))
    return total


@pytest.mark.numba_compile
def test_a_flood_from_other_addresses_leaves_another_tables_play_alone(
        tmp_path: Path) -> None:
    record = _record(3)
    with server(tmp_path / "attack.sqlite3", BOT_DELAY, "--create-rate", "1e6",
                "--max-connections", "1000", "--review-rate", "1e6") as (proc, url):
        threading.Thread(target=_drain, args=(proc,), daemon=True).start()
        victim = run_async(_scenario(url, record))
        server_cpu, ai_cpu = _cpu(proc.pid), _children_cpu(proc.pid)
    assert ai_cpu > server_cpu, (ai_cpu, server_cpu)  # the AI works outside the loop's process
    print(f"victim: moves {sorted(victim.moves)}, hints {sorted(victim.hints)}, expert "
          f"replies {sorted(victim.replies)}; CPU: server {server_cpu:.1f} s, AI workers "
          f"{ai_cpu:.1f} s")
    for what, n in ENOUGH.items():  # the victim kept playing: nothing stalled
        assert len(getattr(victim, what)) >= n, (what, victim.__dict__)
    # never refused for the attackers' work (its own pace may meet its own limits)
    assert "busy" not in victim.errors
    assert "internal" not in victim.errors
