"""Load benchmark of ``trashcards serve`` (issue 3, "Speed"); a benchmark, not a test.

Starts the server as a subprocess on a temporary database (127.0.0.1 only, bots without
delay, no pause between rounds), creates N tables whose seats are all people, and opens
one websocket per seat. Each seat is played by an ordinary bot (greedy by default)
deciding from the view JSON it receives, so every action goes through the websocket
path of a person. For a bounded time it measures

* actions/s (actions the server accepted and answered),
* per-seat latency: from sending an action to its ``events`` message arriving at a seat,
* all-seats latency: from sending an action until every seat of the table has it,

and counts errors (error messages, broken connections). When a match ends, the table
asks for a rematch and its seats move to the new table, so the load stays constant.

    python benchmarks/server.py --tables 500 --seconds 30

``--think S`` makes every seat wait about S seconds (0.5 S to 1.5 S) before each action,
like a bot in live play; with ``--think 0`` every table plays flat out, the server is
saturated, and latency is simply tables / throughput (Little's law).

``--workers N`` measures ``trashcards serve --workers K`` for K = 1 … N, one after the
other in the same run, each on a fresh database of a throwaway PostgreSQL cluster (as the
tests start one: tests/web/pgtools.py, durable settings), after one process on SQLite
as the baseline, and prints each one's figures as a ratio to one PostgreSQL process. The
websockets land on whichever process the kernel gives them, so most seats play through a
process that does not own their table (docs/deploy.md):

    python benchmarks/server.py --tables 200 --seconds 20 --workers 2

A seat told ``rate_limited``, ``unavailable`` or ``storage_error`` sends its message
again after ``retry_after``; the servers started here lift every per-address and
per-socket limit (the benchmark is one address playing flat out).

``--ai`` runs another scenario (issue 12): N tables (default 100), each one person (a
websocket played by greedy at ``--think`` pace, default 1 s) against an ``expert`` bot of
the server at its live pace (0.7 s plus up to 0.5 s); the person asks for a hint before
every decision, and the server sends every seat's win chances after every version. It
measures how fast the person's actions are answered (act to its ``events``) and the hints
(request to answer), then runs the same tables without AI load in the same run (greedy
bots, hints off, so no win chances either) and prints the ratio:

    python benchmarks/server.py --ai --tables 100 --seconds 30

Client and server share the machine: the client's own work (parsing every frame, the
bots' decisions) is part of what is measured.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
import servetools
from pgtools import DURABLE, PostgresMissingError, running_cluster

from trashcards.bots import Bot, make_bot
from trashcards.rules import Rules
from trashcards.web.viewjson import view_from_json

#: Errors after which a seat sends its last message again (after ``retry_after``).
RETRY: frozenset[str] = frozenset({"rate_limited", "unavailable", "storage_error"})


@dataclass
class Stats:
    actions: int = 0
    errors: int = 0
    error_codes: dict[str, int] = field(default_factory=dict)
    retries: int = 0
    seat_latency: list[float] = field(default_factory=list)
    table_latency: list[float] = field(default_factory=list)
    matches: int = 0
    measuring: bool = False
    elapsed: float = 0.0
    joined: int = 0
    go: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Pending:
    sent: float
    waiting: int


class BenchTable:
    """One table's seats: a websocket and a bot per seat."""

    def __init__(self, url: str, rules: dict[str, Any], bot: str, players: int,
                 seed: int, stats: Stats, think: float) -> None:
        self.url = url
        self.think = think
        self.rng = random.Random(f"think/{seed}")
        self.rules_json = rules
        self.rules = Rules.from_dict(rules)
        self.players = players
        self.bots: list[Bot] = [make_bot(bot, random.Random(f"{seed}/{s}"))
                                for s in range(players)]
        self.stats = stats
        self.pending: dict[int, Pending] = {}

    async def run(self, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        made = (await http.post(f"{self.url}/api/tables", json={
            "rules": self.rules_json,
            "seats": [{"kind": "hotseat", "name": f"P{s}"} for s in range(self.players)]})
                ).json()
        table_id, tokens = made["table_id"], [s["token"] for s in made["seats"]]
        while not stop.is_set():
            ws_url = self.url.replace("http", "ws", 1) + f"/ws/{table_id}"
            async with asyncio.TaskGroup() as group:
                seats = [group.create_task(self._seat(ws_url, tokens, s, stop))
                         for s in range(self.players)]
            results = [task.result() for task in seats]
            rematch = next((r for r in results if r), None)
            if rematch is None:
                return
            table_id = rematch
            self.pending.clear()

    async def _seat(self, ws_url: str, tokens: list[str], seat: int,
                    stop: asyncio.Event) -> str | None:
        """Play one seat until the match is over (returns the rematch table) or stop."""
        stats = self.stats
        try:
            async with connect(ws_url, max_queue=None, ping_interval=None, open_timeout=120,
                               compression=None) as ws:
                await ws.send(json.dumps({"type": "join", "tokens": [tokens[seat]],
                                          "version": None}))
                last: str | None = None  # the last act or rematch this seat sent
                acted: int | None = None  # the version of the last act
                async for text in ws:
                    now = time.perf_counter()
                    message = json.loads(text)
                    kind = message["type"]
                    if kind == "error":
                        code = message["code"]
                        if code in RETRY and last is not None and not stop.is_set():
                            stats.retries += 1  # not an error: the server asked to wait
                            await asyncio.sleep(message.get("retry_after") or 0.05)
                            await ws.send(last)
                        elif stats.measuring:
                            stats.errors += 1
                            stats.error_codes[code] = stats.error_codes.get(code, 0) + 1
                        continue
                    if kind == "joined":
                        stats.joined += 1
                    if kind == "rematch":
                        return str(message["table_id"])
                    if kind not in ("state", "events"):
                        continue
                    if kind == "events":
                        self._arrived(message["from_version"], now)
                    state = message["state"]
                    if state["phase"] == "match_over":
                        if seat == 0:
                            if stats.measuring:
                                stats.matches += 1
                            if stop.is_set():
                                return None
                            last = json.dumps({"type": "rematch", "token": tokens[seat]})
                            await ws.send(last)
                        continue
                    if stop.is_set():
                        return None
                    # one action per version: a fresh ``state`` of a version this seat
                    # already acted at (sent after a stale_version) is not a new turn
                    if state["to_act"] == seat and message["version"] != acted:
                        await stats.go.wait()  # nobody plays before every seat is in
                        if self.think > 0:
                            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                        acted = message["version"]
                        last = await self._act(ws, tokens[seat], seat, state, acted)
        except (TimeoutError, OSError, Exception) as exc:
            if stats.measuring and not stop.is_set():
                stats.errors += 1
                name = type(exc).__name__
                stats.error_codes[name] = stats.error_codes.get(name, 0) + 1
        return None

    async def _act(self, ws: ClientConnection, token: str, seat: int, state: dict[str, Any],
                   version: int) -> str:
        """Choose and send an action; the message sent."""
        action = self.bots[seat].choose(view_from_json(state, self.rules))
        self.pending[version] = Pending(time.perf_counter(), self.players)
        text = json.dumps({"type": "act", "token": token, "action": str(action),
                           "version": version})
        await ws.send(text)
        return text

    def _arrived(self, from_version: int, now: float) -> None:
        pending = self.pending.get(from_version)
        if pending is None:
            return  # a deal or a catch-up, not an answer to an action
        latency = now - pending.sent
        pending.waiting -= 1
        if self.stats.measuring:
            self.stats.seat_latency.append(latency)
        if pending.waiting == 0:
            del self.pending[from_version]
            if self.stats.measuring:
                self.stats.actions += 1
                self.stats.table_latency.append(latency)


def serve(db: Path | str, *options: str) -> tuple[subprocess.Popen[str], str]:
    """``trashcards serve`` on ``db`` on a free local port with ``options``; the process
    and its URL. Every client here is one address, so the per-address limits are lifted."""
    try:
        return servetools.launch(db, (
            "--host", "127.0.0.1", "--create-rate", "1000000", "--join-rate", "1000000000",
            "--max-connections", "100000",
            "--max-http-connections", "100000", "--http-rate", "1000000", *options))
    except servetools.ServerError as exc:
        raise SystemExit(f"the server did not start: {exc}") from None


def start_server(db: Path | str, workers: int = 1) -> tuple[subprocess.Popen[str], str]:
    """A server on ``db`` (a file, or a PostgreSQL URL with ``workers``) whose bots play
    flat out, with no message-rate limit."""
    return serve(db, "--workers", str(workers), "--bot-delay", "0", "--round-pause", "0",
                 "--message-rate", "1000000")


def stop_server(proc: subprocess.Popen[str], grace: float = 30.0) -> None:
    """Ctrl-C (a clean shutdown), then SIGKILL after ``grace`` seconds."""
    servetools.stop(proc, grace)


def measure(args: argparse.Namespace, db: Path | str, workers: int = 1) -> Stats:
    """One measurement against a server started here."""
    proc, url = start_server(db, workers)
    try:
        wait_until_up(url, workers)
        return asyncio.run(bench(args, url))
    finally:
        stop_server(proc)


def wait_until_up(url: str, workers: int) -> None:
    """Until every worker answers its health check (each reports its process id)."""
    seen: set[str] = set()
    deadline = time.monotonic() + 120
    while len(seen) < workers and time.monotonic() < deadline:
        try:
            seen.add(httpx.get(f"{url}/healthz", timeout=5).json()["process"])
        except (httpx.TransportError, ValueError):
            time.sleep(0.1)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def bench(args: argparse.Namespace, url: str) -> Stats:
    stats = Stats()
    stop = asyncio.Event()
    rules = {"preset": args.preset}
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=60) as http:
        tables = [BenchTable(url, rules, args.bot, args.players, n, stats, args.think)
                  for n in range(args.tables)]
        tasks = [asyncio.create_task(t.run(http, stop)) for t in tables]
        while stats.joined < args.tables * args.players:  # every seat connected
            await asyncio.sleep(0.1)
        stats.go.set()
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        started = time.perf_counter()
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        stats.elapsed = time.perf_counter() - started
        stop.set()
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            task.cancel()
    return stats


@dataclass
class AiStats:
    """What the ``--ai`` scenario measures."""

    act_latency: list[float] = field(default_factory=list)
    hint_latency: list[float] = field(default_factory=list)
    chances: int = 0
    bot_moves: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    measuring: bool = False
    joined: int = 0

    def error(self, code: str) -> None:
        if self.measuring:
            self.errors[code] = self.errors.get(code, 0) + 1


class AiTable:
    """One person (greedy, at ``think`` pace, asking for a hint before each decision when
    ``hints``) against a server bot."""

    def __init__(self, url: str, rules: dict[str, Any], bot: str, hints: bool, seed: int,
                 stats: AiStats, think: float) -> None:
        self.url, self.rules_json, self.bot, self.hints = url, rules, bot, hints
        self.rules = Rules.from_dict(rules)
        self.person = make_bot("greedy", random.Random(f"person/{seed}"))
        self.rng = random.Random(f"think/{seed}")
        self.stats, self.think = stats, think

    async def run(self, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        made = (await http.post(f"{self.url}/api/tables", json={
            "rules": self.rules_json, "hints": self.hints,
            "seats": [{"kind": "me", "name": "Person"}, {"kind": "bot", "bot": self.bot}]})
                ).json()
        table_id, token = made["table_id"], made["seats"][0]["token"]
        while table_id is not None and not stop.is_set():
            table_id = await self._play(table_id, token, stop)

    async def _play(self, table_id: str, token: str, stop: asyncio.Event) -> str | None:
        stats = self.stats
        ws_url = self.url.replace("http", "ws", 1) + f"/ws/{table_id}"
        sent: dict[int, float] = {}
        asked: dict[int, float] = {}
        state: dict[str, Any] | None = None
        version = -1
        try:
            async with connect(ws_url, max_queue=None, ping_interval=None, open_timeout=120,
                               compression=None) as ws:
                await ws.send(json.dumps({"type": "join", "tokens": [token],
                                          "version": None}))
                async for text in ws:
                    now = time.perf_counter()
                    message = json.loads(text)
                    kind = message["type"]
                    if kind == "joined":
                        stats.joined += 1
                        continue
                    if kind == "error":
                        stats.error(message["code"])
                        continue
                    if kind == "rematch":
                        return str(message["table_id"])
                    if kind == "chances":
                        stats.chances += stats.measuring
                        continue
                    if kind == "hint":
                        start = asked.pop(message["version"], None)
                        if start is not None and stats.measuring:
                            stats.hint_latency.append(now - start)
                        if state is not None and message["version"] == version:
                            await self._act(ws, token, state, version, sent)
                        continue
                    if kind not in ("state", "events"):
                        continue
                    if kind == "events":
                        start = sent.pop(message["from_version"], None)
                        if start is not None and stats.measuring:
                            stats.act_latency.append(now - start)
                        elif stats.measuring:
                            stats.bot_moves += 1
                    state, version = message["state"], message["version"]
                    if stop.is_set():
                        return None
                    if state["phase"] == "match_over":
                        await ws.send(json.dumps({"type": "rematch", "token": token}))
                        continue
                    if state["to_act"] != 0 or state["phase"] not in ("draw", "wild", "swap"):
                        continue
                    await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
                    if state is not message["state"]:
                        continue  # pragma: no cover - one reader per socket
                    if self.hints:
                        asked[version] = time.perf_counter()
                        await ws.send(json.dumps({"type": "hint", "token": token,
                                                  "version": version}))
                    else:
                        await self._act(ws, token, state, version, sent)
        except Exception as exc:  # a broken connection is an error of the run
            if not stop.is_set():
                stats.error(type(exc).__name__)
        return None

    async def _act(self, ws: ClientConnection, token: str, state: dict[str, Any],
                   version: int, sent: dict[int, float]) -> None:
        action = self.person.choose(view_from_json(state, self.rules))
        sent[version] = time.perf_counter()
        await ws.send(json.dumps({"type": "act", "token": token, "action": str(action),
                                  "version": version}))


def start_live_server(db: Path) -> tuple[subprocess.Popen[str], str]:
    """A server whose bots play at their live pace (the default delay)."""
    return serve(db, "--round-pause", "1", "--hint-rate", "100")


async def ai_bench(args: argparse.Namespace, url: str, bot: str, hints: bool) -> AiStats:
    stats = AiStats()
    stop = asyncio.Event()
    rules = {"preset": args.preset}
    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=50), timeout=60) as http:
        tables = [AiTable(url, rules, bot, hints, n, stats, args.think or 1.0)
                  for n in range(args.tables)]
        tasks = [asyncio.create_task(t.run(http, stop)) for t in tables]
        while stats.joined < args.tables:
            await asyncio.sleep(0.1)
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        await asyncio.sleep(args.seconds)
        stats.measuring = False
        stop.set()
        await asyncio.wait(tasks, timeout=30)
        for task in tasks:
            task.cancel()
    return stats


def ai_main(args: argparse.Namespace) -> None:
    """The ``--ai`` scenario and its baseline, each on a fresh server."""
    results: dict[str, AiStats] = {}
    for name, bot, hints in (("AI load", "expert", True), ("baseline", "greedy", False)):
        with tempfile.TemporaryDirectory() as tmp:
            proc, url = start_live_server(Path(tmp) / "bench.sqlite3")
            try:
                results[name] = asyncio.run(ai_bench(args, url, bot, hints))
            finally:
                stop_server(proc, grace=20)
    ms = 1000.0
    print(f"tables: {args.tables}, each one person (think {args.think or 1.0:g} s) against "
          f"a server bot at live pace ({args.preset}); measured {args.seconds:.0f} s after "
          f"{args.warmup:.0f} s warm-up, each scenario on a fresh server")
    for name, stats in results.items():
        acts = stats.act_latency
        line = (f"{name:9}: actions answered {len(acts)} ({len(acts) / args.seconds:.0f}/s), "
                f"p50 {percentile(acts, 0.5) * ms:.1f} ms, p99 {percentile(acts, 0.99) * ms:.1f}"
                f" ms, max {max(acts, default=float('nan')) * ms:.1f} ms; bot moves "
                f"{stats.bot_moves}")
        if stats.hint_latency:
            hint_s = stats.hint_latency
            line += (f"; hints {len(hint_s)} ({len(hint_s) / args.seconds:.0f}/s) p50 "
                     f"{percentile(hint_s, 0.5) * ms:.1f} ms p99 "
                     f"{percentile(hint_s, 0.99) * ms:.1f} ms; win-chance frames "
                     f"{stats.chances} ({stats.chances / args.seconds:.0f}/s)")
        print(line + f"; errors {sum(stats.errors.values())} {stats.errors or ''}")
    load, base = results["AI load"], results["baseline"]
    p99 = percentile(load.act_latency, 0.99)
    print(f"action p99 with AI load / without: {p99 / percentile(base.act_latency, 0.99):.2f}"
          f"  (target: p99 under 50 ms: {'met' if p99 < 0.050 else 'NOT met'})")


# -- the attack scenario (issue 21) ------------------------------------------------------

#: The phases of ``--attack``, in order: what the other address does meanwhile.
PHASES = ("none", "hint flood", "review flood", "watched tables", "after")
#: The address the attacker's sockets and requests come from (the victim: 127.0.0.1).
ATTACKER = "127.0.0.2"


@dataclass
class VictimStats:
    """What one phase of ``--attack`` measures at the victim's tables."""

    moves: list[float] = field(default_factory=list)
    hints: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    attack: dict[str, int] = field(default_factory=dict)

    def count(self, table: dict[str, int], what: str) -> None:
        table[what] = table.get(what, 0) + 1


class Victim:
    """One person (greedy, at ``think`` pace, asking for a hint before every decision)
    against the server's expert bot at its live pace, on a 2-player standard table;
    records into ``self.stats`` (swapped per phase): the answer to each move, to each
    hint, and the expert's reply (from the person's move to the bot's)."""

    def __init__(self, url: str, seed: int, think: float) -> None:
        self.url, self.think = url, think
        self.rules = Rules.preset_named("standard")
        self.person = make_bot("greedy", random.Random(f"victim/{seed}"))
        self.rng = random.Random(f"victim-think/{seed}")
        self.stats = VictimStats()
        self._thinking: set[asyncio.Task[None]] = set()

    async def run(self, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        made = (await http.post(f"{self.url}/api/tables", json={
            "rules": {"preset": "standard"}, "hints": True,
            "seats": [{"kind": "me", "name": "Victim"}, {"kind": "bot", "bot": "expert"}]})
                ).json()
        table_id: str | None = made["table_id"]
        token = made["seats"][0]["token"]
        while table_id is not None and not stop.is_set():
            table_id = await self._play(table_id, token, stop)

    async def _play(self, table_id: str, token: str, stop: asyncio.Event) -> str | None:
        ws_url = self.url.replace("http", "ws", 1) + f"/ws/{table_id}"
        sent: dict[int, float] = {}
        asked: dict[int, float] = {}
        bot_since: float | None = None
        async with connect(ws_url, max_queue=None, ping_interval=None, open_timeout=60,
                           compression=None) as ws:
            await ws.send(json.dumps({"type": "join", "tokens": [token], "version": None}))
            async for text in ws:
                now = time.perf_counter()
                message = json.loads(text)
                kind = message["type"]
                stats = self.stats
                if kind == "error":
                    stats.count(stats.errors, message["code"])
                    start = asked.pop(message.get("version", -1), None)
                    continue
                if kind == "rematch":
                    return str(message["table_id"])
                if kind == "hint":
                    start = asked.pop(message["version"], None)
                    if start is not None:
                        stats.hints.append(now - start)
                    continue
                if kind not in ("state", "events"):
                    continue
                state, version = message["state"], message["version"]
                if kind == "events":
                    start = sent.pop(message["from_version"], None)
                    if start is not None:
                        stats.moves.append(now - start)
                    elif bot_since is not None:
                        stats.replies.append(now - bot_since)
                    bot_since = None
                    if state["to_act"] == 1 and state["phase"] in ("draw", "wild", "swap"):
                        bot_since = now
                if stop.is_set():
                    return None
                if state["phase"] == "match_over":
                    await ws.send(json.dumps({"type": "rematch", "token": token}))
                    continue
                if state["to_act"] != 0 or state["phase"] not in ("draw", "wild", "swap"):
                    continue
                asked[version] = time.perf_counter()
                await ws.send(json.dumps({"type": "hint", "token": token,
                                          "version": version}))
                # think while the answers are read (a hint is timed to its arrival)
                thinking = asyncio.create_task(self._act(ws, token, state, version, sent))
                self._thinking.add(thinking)
                thinking.add_done_callback(self._thinking.discard)
        return None

    async def _act(self, ws: ClientConnection, token: str, state: dict[str, Any],
                   version: int, sent: dict[int, float]) -> None:
        await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        action = self.person.choose(view_from_json(state, self.rules))
        sent[version] = time.perf_counter()
        with contextlib.suppress(Exception):  # the socket closed meanwhile
            await ws.send(json.dumps({"type": "act", "token": token,
                                      "action": str(action), "version": version}))


def _long_record(seed: int, moves: int) -> str:
    """A record of four random bots (no match-odds table: a review plays every decision
    out to the end of the match), cut at ``moves`` moves."""
    from trashcards.session import Match
    from trashcards.views import view
    match = Match(Rules.preset_named("standard"), [f"p{i}" for i in range(4)],
                  random.Random(seed))
    bots = [make_bot("random", random.Random(seed * 10 + i)) for i in range(4)]
    match.advance()
    while not match.over and len(match.record.moves) < moves:
        seat = match.state.to_act
        assert seat is not None
        match.play(bots[seat].choose(view(match.state, seat)))
        match.advance()
    return match.record.dumps()


class Attacker:
    """Everything the other address does, phase by phase (see ``--attack``)."""

    def __init__(self, url: str, stats: Callable[[], VictimStats]) -> None:
        self.url = url
        self.stats = stats
        self.ws_url = url.replace("http", "ws", 1)
        self.records = [_long_record(seed, 600) for seed in range(4)]

    def _count(self, what: str) -> None:
        stats = self.stats()
        stats.count(stats.attack, what)

    async def hint_flood(self, http: httpx.AsyncClient, stop: asyncio.Event,
                         tables: int = 20) -> None:
        """Four-player tables of the attacker's own seats (no odds table: costly hints),
        each seat asking for a hint again and again and moving as soon as it gets one."""
        await asyncio.gather(*(self._hint_table(http, stop, n) for n in range(tables)))

    async def _hint_table(self, http: httpx.AsyncClient, stop: asyncio.Event,
                          n: int) -> None:
        made = (await http.post(f"{self.url}/api/tables", json={
            "rules": {"preset": "standard"}, "hints": True,
            "seats": [{"kind": "hotseat", "name": f"A{s}"} for s in range(4)]})).json()
        tokens = [s["token"] for s in made["seats"]]
        bot = make_bot("greedy", random.Random(f"attacker/{n}"))
        rules = Rules.preset_named("standard")
        async with connect(f"{self.ws_url}/ws/{made['table_id']}", max_queue=None,
                           ping_interval=None, compression=None,
                           local_addr=(ATTACKER, 0)) as ws:
            await ws.send(json.dumps({"type": "join", "tokens": tokens, "version": None}))
            state: dict[str, Any] | None = None
            version = -1
            while not stop.is_set():
                if state is not None and state["to_act"] is not None and \
                        state["phase"] in ("draw", "wild", "swap"):
                    await ws.send(json.dumps({"type": "hint", "version": version,
                                              "token": tokens[state["to_act"]]}))
                    self._count("hints asked")
                try:
                    text = await asyncio.wait_for(ws.recv(), 0.05)
                except TimeoutError:
                    continue
                message = json.loads(text)
                if message["type"] in ("state", "events"):
                    state, version = message["state"], message["version"]
                    if state["phase"] in ("round_over", "match_over"):
                        await ws.send(json.dumps({"type": "next_round", "token": tokens[0]}))
                elif message["type"] == "hint" and state is not None and \
                        message["version"] == version:
                    self._count("hints answered")
                    action = bot.choose(view_from_json(state, rules))
                    await ws.send(json.dumps({"type": "act", "action": str(action),
                                              "version": version,
                                              "token": tokens[state["to_act"]]}))
                elif message["type"] == "error":
                    self._count(f"error {message['code']}")

    async def review_flood(self, http: httpx.AsyncClient, stop: asyncio.Event,
                           parallel: int = 12) -> None:
        async def one(n: int) -> None:
            while not stop.is_set():
                try:
                    response = await http.post(
                        f"{self.url}/api/review", content=self.records[n % 4],
                        headers={"content-type": "application/json"}, timeout=120)
                    self._count(f"review {response.status_code}")
                    if response.status_code != 200:
                        await asyncio.sleep(0.2)
                except httpx.HTTPError as exc:
                    self._count(type(exc).__name__)
        await asyncio.gather(*(one(n) for n in range(parallel)))

    async def watched_tables(self, http: httpx.AsyncClient, stop: asyncio.Event,
                             tables: int = 100) -> None:
        """Tables of four greedy bots at live pace, each watched by one socket: win
        chances for every version (four players: played out to the end of the match)."""
        async def one(n: int) -> None:
            made = (await http.post(f"{self.url}/api/tables", json={
                "rules": {"preset": "standard"},
                "seats": [{"kind": "bot", "bot": "greedy"} for _ in range(4)]})).json()
            async with connect(f"{self.ws_url}/ws/{made['table_id']}", max_queue=None,
                               ping_interval=None, compression=None,
                               local_addr=(ATTACKER, 0)) as ws:
                await ws.send(json.dumps({"type": "join", "tokens": [], "version": None}))
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), 0.5)
                    except TimeoutError:
                        continue
                    if json.loads(text)["type"] == "chances":
                        self._count("chances frames")
        for result in await asyncio.gather(*(one(n) for n in range(tables)),
                                           return_exceptions=True):
            if isinstance(result, Exception):
                self._count(type(result).__name__)


def attack_main(args: argparse.Namespace) -> None:
    """``--attack``: the victims play through every phase of one run on one server."""
    with tempfile.TemporaryDirectory() as tmp:
        # the server's own limits, but for reviews and the tables and sockets one
        # address may open (lifted by serve()), so that the attacker can flood
        proc, url = serve(Path(tmp) / "attack.sqlite3", "--round-pause", "1",
                          "--review-rate", "100000")
        try:
            wait_until_up(url, 1)
            results = asyncio.run(_attack(args, url))
        finally:
            stop_server(proc)
    ms = 1000.0
    print(f"victims: {args.tables} table(s) of one person (think {args.think:g} s, a hint "
          f"before every decision) against the expert at its live pace (0.7 s + up to "
          f"0.5 s); each phase {args.seconds:g} s, attacker from {ATTACKER}")
    print("| attack from another address | move p50 / p99 | hint p50 / p99 | "
          "expert reply p99 | ratios to none (move, hint, reply p99) | victim errors | "
          "attacker |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    base = results["none"]

    def p(values: list[float], q: float) -> float:
        return percentile(values, q) * ms

    for name, stats in results.items():
        ratios = (f"{p(stats.moves, 0.99) / p(base.moves, 0.99):.2f} / "
                  f"{p(stats.hints, 0.99) / p(base.hints, 0.99):.2f} / "
                  f"{p(stats.replies, 0.99) / p(base.replies, 0.99):.2f}")
        print(f"| {name} | {p(stats.moves, 0.5):.1f} / {p(stats.moves, 0.99):.1f} ms "
              f"(n={len(stats.moves)}) | {p(stats.hints, 0.5):.1f} / "
              f"{p(stats.hints, 0.99):.1f} ms (n={len(stats.hints)}) | "
              f"{p(stats.replies, 0.99):.0f} ms (n={len(stats.replies)}) | {ratios} | "
              f"{stats.errors or '-'} | {stats.attack or '-'} |")
    worst = {name: (percentile(s.moves, 0.99), percentile(s.hints, 0.99),
                    percentile(s.replies, 0.99)) for name, s in results.items()}
    met = all(m <= 0.050 and h <= 0.250 and r <= 1.2 + 0.100
              for m, h, r in worst.values())
    print(f"goals (move p99 <= 50 ms, hint p99 <= 250 ms, expert reply p99 <= 1.2 s + "
          f"100 ms, in every phase): {'met' if met else 'NOT met'}")


async def _attack(args: argparse.Namespace, url: str) -> dict[str, VictimStats]:
    results: dict[str, VictimStats] = {}
    stop = asyncio.Event()
    async with httpx.AsyncClient(timeout=60) as http, httpx.AsyncClient(
            timeout=120, transport=httpx.AsyncHTTPTransport(local_address=ATTACKER),
            limits=httpx.Limits(max_connections=200)) as evil:
        victims = [Victim(url, n, args.think) for n in range(args.tables)]
        tasks = [asyncio.create_task(v.run(http, stop)) for v in victims]
        current = VictimStats()
        attacker = Attacker(url, lambda: current)
        await asyncio.sleep(args.warmup)
        for phase in PHASES:
            current = VictimStats()
            for victim in victims:
                victim.stats = current
            halt = asyncio.Event()
            attack = {"hint flood": attacker.hint_flood, "review flood":
                      attacker.review_flood, "watched tables": attacker.watched_tables
                      }.get(phase)
            running = asyncio.create_task(attack(evil, halt)) if attack else None
            print(f"phase: {phase}", file=sys.stderr, flush=True)
            await asyncio.sleep(args.seconds)
            results[phase] = current
            halt.set()
            if running is not None:
                await asyncio.wait([running], timeout=10)
                running.cancel()
        stop.set()
        await asyncio.wait(tasks, timeout=10)
        for task in tasks:
            task.cancel()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--seconds", type=float, default=30.0, help="measured time")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--bot", default="greedy")
    parser.add_argument("--url", default=None,
                        help="use this running server (e.g. http://127.0.0.1:8000) instead "
                             "of starting one")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a seat waits before each action (0: none, the "
                             "server runs flat out; 1: about a bot's live pace)")
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="measure 1 to N server processes on a throwaway PostgreSQL "
                             "cluster, in this run (default: one process on SQLite)")
    parser.add_argument("--ai", action="store_true",
                        help="the AI scenario instead: --tables people (default 100) against "
                             "expert bots, asking for hints, with win chances, against a "
                             "baseline without AI in the same run")
    parser.add_argument("--attack", action="store_true",
                        help="the attack scenario instead: --tables victims (default 2) "
                             "against expert bots, with hints, through the phases none / "
                             "hint flood / review flood / watched tables / after of an "
                             "attacker at another address (127.0.0.2), --seconds each "
                             "(default 15)")
    args = parser.parse_args()
    if args.attack:
        if args.tables == parser.get_default("tables"):
            args.tables = 2
        if args.seconds == parser.get_default("seconds"):
            args.seconds = 15.0
        if args.think == parser.get_default("think"):
            args.think = 0.3
        if args.warmup == parser.get_default("warmup"):
            args.warmup = 3.0
        attack_main(args)
        return
    if args.ai:
        if args.tables == parser.get_default("tables"):
            args.tables = 100
        ai_main(args)
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, 65536)), hard))
    if args.url:
        report(args, asyncio.run(bench(args, args.url.rstrip("/"))))
    elif args.workers is None:
        with tempfile.TemporaryDirectory() as tmp:
            report(args, measure(args, Path(tmp) / "bench.sqlite3"))
    else:
        scale(args)


def scale(args: argparse.Namespace) -> None:
    """``--workers N``: 1 … N processes on PostgreSQL, each compared with one."""
    results: list[tuple[str, Stats]] = []
    with tempfile.TemporaryDirectory() as tmp:
        print("== 1 server process, SQLite (the baseline)", flush=True)
        stats = measure(args, Path(tmp) / "bench.sqlite3")
        report(args, stats)
        results.append(("SQLite, 1 process", stats))
    try:
        with running_cluster(DURABLE) as cluster:
            for workers in range(1, args.workers + 1):
                print(f"== {workers} server process{'es' if workers > 1 else ''}, "
                      "PostgreSQL", flush=True)
                stats = measure(args, cluster.database(), workers)
                report(args, stats)
                results.append((f"PostgreSQL, {workers} process{'es' if workers > 1 else ''}",
                                stats))
    except PostgresMissingError as exc:
        raise SystemExit(str(exc)) from None
    print(f"== scaling on {os.cpu_count()} cores (client, servers and PostgreSQL share "
          "them); ratios to PostgreSQL with 1 process")
    base = results[1][1]
    base_rate = base.actions / base.elapsed
    base_p99 = percentile(base.table_latency, 0.99)
    for name, stats in results:
        rate = stats.actions / stats.elapsed
        p99 = percentile(stats.table_latency, 0.99)
        print(f"{name:24}: {rate:7.0f} actions/s (x{rate / base_rate:.2f})  p99 all seats "
              f"{p99 * 1000:7.1f} ms (x{p99 / base_p99:.2f})  errors {stats.errors}")


def report(args: argparse.Namespace, stats: Stats) -> None:
    elapsed = stats.elapsed
    ms = 1000.0
    print(f"tables: {args.tables} x {args.players} seats ({args.preset}, {args.bot} bots, "
          f"{args.tables * args.players} websockets, think {args.think:g} s), measured "
          f"{elapsed:.1f} s after every seat joined and {args.warmup:.0f} s warm-up")
    print(f"actions/s: {stats.actions / elapsed:.0f}  (actions: {stats.actions}, "
          f"matches finished: {stats.matches})")
    for name, values in (("per seat", stats.seat_latency),
                         ("all seats", stats.table_latency)):
        mean = statistics.fmean(values) if values else float("nan")
        print(f"latency {name:9}: p50 {percentile(values, 0.5) * ms:.1f} ms  "
              f"p99 {percentile(values, 0.99) * ms:.1f} ms  mean {mean * ms:.1f} ms  "
              f"max {max(values, default=float('nan')) * ms:.1f} ms")
    print(f"errors: {stats.errors} {stats.error_codes or ''}  (messages sent again after "
          f"rate_limited/unavailable: {stats.retries})", flush=True)


if __name__ == "__main__":
    main()
