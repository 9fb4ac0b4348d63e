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

``--attack`` runs the attack scenario (issues 21 and 33): victims at 127.0.0.1, each one
person against an expert bot at live pace asking for a hint before every decision,
played from a process of their own, while attackers at other loopback addresses go
through phases: none, a hint flood from 10 addresses, a review flood from 9, 5 addresses
watching 20 bot tables each, one address watching 20 expert tables, the hint flood and
the watched tables at once, none again. Per phase it prints the victims' move, hint and
expert-reply latencies as ratios to the no-attack phase of the same run, the server's and
its AI workers' CPU and the machine's load:

    python benchmarks/server.py --attack --seconds 15

(``PYTHONPATH=OTHER/src python benchmarks/server.py --attack`` measures another tree's
server the same way, for a before/after comparison.)

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
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
import servetools
from pgtools import DURABLE, PostgresMissingError, running_cluster

from players_sim import Pace, Person
from quantiles import goal_verdict, percentile, quantile_interval
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
    lifted = ["--http-rate", "1000000"] if _serve_knows("--http-rate") else []
    try:
        return servetools.launch(db, (
            "--host", "127.0.0.1", "--create-rate", "1000000", "--join-rate", "1000000000",
            "--max-connections", "100000",
            "--max-http-connections", "100000", *lifted, *options))
    except servetools.ServerError as exc:
        raise SystemExit(f"the server did not start: {exc}") from None


def _serve_knows(option: str) -> bool:
    """Whether this tree's ``trashcards serve`` has ``option`` (an older one, measured
    for a before/after comparison, may not)."""
    done = subprocess.run([*servetools.command("--help")], capture_output=True, text=True,
                          check=False)
    return option in done.stdout


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


# -- the attack scenario (issues 21 and 33) -----------------------------------------------

#: The phases of ``--attack``, in order, and what the other addresses do in each.
PHASES: dict[str, str] = {
    "none": "nothing (the baseline)",
    "hint flood": "10 addresses ask for hints as fast as they may at 2 four-seat tables each",
    "review flood": "9 addresses post 8 long reviews each, again and again",
    "watched tables": "5 addresses watch 20 tables of 4 bots each (win chances at every move)",
    "expert tables": "1 address watches 20 tables of 2 expert bots",
    "hints + watched": "the hint flood and the watched tables at once",
    "after": "nothing (the attack is over)",
}
#: The first attacker address of each kind of attack (the victims: 127.0.0.1).
HINTERS, REVIEWERS, WATCHERS, EXPERTS = 10, 30, 50, 70


@dataclass
class VictimStats:
    """What one phase of ``--attack`` measures at the victims' tables."""

    moves: list[float] = field(default_factory=list)
    hints: list[float] = field(default_factory=list)
    replies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    attack: dict[str, int] = field(default_factory=dict)
    #: CPU seconds of the server's own process and of its AI worker processes, the
    #: phase's wall seconds, and the machine's load average at its end
    server_cpu: float = 0.0
    ai_cpu: float = 0.0
    wall: float = 0.0
    load: float = 0.0
    #: seconds the server's event loop (its main thread) was runnable but waiting for a
    #: CPU: the machine's other work, not the server's
    loop_waited: float = 0.0
    #: CPU seconds of this benchmark's own process (the attackers' clients), which
    #: shares the machine's cores with the server
    attackers_cpu: float = 0.0

    def count(self, table: dict[str, int], what: str) -> None:
        table[what] = table.get(what, 0) + 1


class Victim:
    """One person (greedy, at ``think`` pace, asking for a hint before every decision)
    against the server's expert bot at its live pace, on a 2-player standard table.
    Runs in a process of its own (``--victim``), so that the attackers' clients cannot
    slow its measurements; every sample is kept with its time (``time.monotonic``, the
    same clock in every process) and sorted into phases afterwards."""

    def __init__(self, url: str, seed: int, think: float) -> None:
        #: (kind, time, seconds or error code)
        self.samples: list[tuple[str, float, float | str]] = []
        self.person = Person(url, f"victim/{seed}", Pace(think=(0.5 * think, 1.5 * think)),
                             self._sample)

    def _sample(self, kind: str, *sample: Any) -> None:
        if kind != "ack":  # what the database keeps is soak.py's question
            self.samples.append((kind, *sample))

    async def run(self, http: httpx.AsyncClient, stop: asyncio.Event) -> None:
        made = await self.person.create(http, "expert")
        if made is None:
            return
        table_id: str | None
        table_id, token = made
        while table_id is not None and not stop.is_set():
            table_id = await self.person.play(table_id, token, stop)


def victim_main(args: argparse.Namespace) -> None:
    """``--victim URL``: play ``--tables`` victims for ``--seconds``, then print every
    sample as one JSON line ``[kind, time, value]``."""
    async def play() -> list[tuple[str, float, float | str]]:
        stop = asyncio.Event()
        victims = [Victim(args.victim, n, args.think) for n in range(args.tables)]
        async with httpx.AsyncClient(timeout=60) as http:
            tasks = [asyncio.create_task(v.run(http, stop)) for v in victims]
            await asyncio.sleep(args.seconds)
            stop.set()
            await asyncio.wait(tasks, timeout=10)
            for task in tasks:
                task.cancel()
        return [s for v in victims for s in v.samples]

    for sample in asyncio.run(play()):
        print(json.dumps(sample))


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
    """Everything the other addresses do, phase by phase (see :data:`PHASES`); every
    address has its own HTTP client and sockets."""

    def __init__(self, url: str, stats: Callable[[], VictimStats]) -> None:
        self.url = url
        self.stats = stats
        self.ws_url = url.replace("http", "ws", 1)
        self.records = [_long_record(seed, 600) for seed in range(4)]

    def _count(self, what: str) -> None:
        stats = self.stats()
        stats.count(stats.attack, what)

    @staticmethod
    def _http(address: str) -> httpx.AsyncClient:
        return httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=20),
                                 transport=httpx.AsyncHTTPTransport(local_address=address))

    async def hint_flood(self, stop: asyncio.Event, addresses: int = 10,
                         tables: int = 2) -> None:
        """Four-player tables of each address's own seats (no odds table: costly hints),
        each seat asking for a hint again and again and moving as soon as it gets one."""
        async def address(n: int) -> None:
            async with self._http(f"127.0.0.{HINTERS + n}") as http:
                await asyncio.gather(*(self._hint_table(http, stop, n, t, f"127.0.0."
                                                        f"{HINTERS + n}")
                                       for t in range(tables)))
        await asyncio.gather(*(address(n) for n in range(addresses)))

    async def _hint_table(self, http: httpx.AsyncClient, stop: asyncio.Event,
                          n: int, t: int, address: str) -> None:
        made = (await http.post(f"{self.url}/api/tables", json={
            "rules": {"preset": "standard"}, "hints": True,
            "seats": [{"kind": "hotseat", "name": f"A{s}"} for s in range(4)]})).json()
        tokens = [s["token"] for s in made["seats"]]
        bot = make_bot("greedy", random.Random(f"attacker/{n}/{t}"))
        rules = Rules.preset_named("standard")
        await self._coming_back(stop, lambda: self._flood_hints(
            made["table_id"], tokens, bot, rules, stop, address))

    async def _coming_back(self, stop: asyncio.Event,
                           connection: Callable[[], Awaitable[None]]) -> None:
        """An attacker's ``connection`` again and again until ``stop``: one the server
        closed (a flooder misses its keepalive) comes back, and the close is counted."""
        while not stop.is_set():
            try:
                await connection()
            except ConnectionClosed as exc:
                self._count(f"closed by the server ({exc.rcvd.code if exc.rcvd else None})")

    async def _flood_hints(self, table_id: str, tokens: list[str], bot: Bot, rules: Rules,
                           stop: asyncio.Event, address: str) -> None:
        async with connect(f"{self.ws_url}/ws/{table_id}", max_queue=None,
                           ping_interval=None, compression=None,
                           local_addr=(address, 0)) as ws:
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

    async def review_flood(self, stop: asyncio.Event, addresses: int = 9,
                           parallel: int = 8) -> None:
        async def address(n: int) -> None:
            async with self._http(f"127.0.0.{REVIEWERS + n}") as http:
                await asyncio.gather(*(one(http, n * parallel + p) for p in range(parallel)))

        async def one(http: httpx.AsyncClient, n: int) -> None:
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
        await asyncio.gather(*(address(n) for n in range(addresses)))

    async def watched_tables(self, stop: asyncio.Event, addresses: int = 5,
                             tables: int = 20, bot: str = "greedy", players: int = 4,
                             first: int = WATCHERS) -> None:
        """Tables of bots at live pace, each watched by one socket of its creator's
        address: win chances for every version (four players: played out to the end of
        the match), and expert decisions for expert tables."""
        async def one(http: httpx.AsyncClient, address: str) -> None:
            made = (await http.post(f"{self.url}/api/tables", json={
                "rules": {"preset": "standard"},
                "seats": [{"kind": "bot", "bot": bot} for _ in range(players)]})).json()
            await self._coming_back(stop, lambda: watch(made["table_id"], address))

        async def watch(table_id: str, address: str) -> None:
            async with connect(f"{self.ws_url}/ws/{table_id}", max_queue=None,
                               ping_interval=None, compression=None,
                               local_addr=(address, 0)) as ws:
                await ws.send(json.dumps({"type": "join", "tokens": [], "version": None}))
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), 0.5)
                    except TimeoutError:
                        continue
                    kind = json.loads(text)["type"]
                    if kind in ("chances", "events"):
                        self._count(f"{kind} frames")

        async def address(n: int) -> None:
            async with self._http(f"127.0.0.{first + n}") as http:
                for result in await asyncio.gather(
                        *(one(http, f"127.0.0.{first + n}") for _ in range(tables)),
                        return_exceptions=True):
                    if isinstance(result, Exception):
                        self._count(type(result).__name__)
        await asyncio.gather(*(address(n) for n in range(addresses)))

    async def expert_tables(self, stop: asyncio.Event) -> None:
        await self.watched_tables(stop, addresses=1, tables=20, bot="expert", players=2,
                                  first=EXPERTS)

    async def hints_and_watched(self, stop: asyncio.Event) -> None:
        await asyncio.gather(self.hint_flood(stop), self.watched_tables(stop))


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) of the process ``pid`` so far (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (the server's AI workers)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def _waited(pid: int) -> float:
    """Seconds the main thread of ``pid`` spent runnable but not running, so far
    (``/proc/PID/schedstat``: the machine's CPU was taken)."""
    try:
        return int(Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class CpuMeter:
    """The CPU the server's process and its children (the AI workers) use, and how long
    its event loop waited for a CPU."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.seen: dict[int, float] = {}

    def read(self) -> tuple[float, float, float]:
        """(the server's CPU seconds, its children's, its loop's wait for a CPU) so far;
        a child that ended keeps its last reading."""
        for child in _children(self.pid):
            self.seen[child] = _cpu_seconds(child)
        return _cpu_seconds(self.pid), sum(self.seen.values()), _waited(self.pid)


def attack_main(args: argparse.Namespace) -> None:
    """``--attack``: the victims play through every phase of one run on one server."""
    started_load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        # the server's own limits, but for reviews and the tables and sockets one
        # address may open (lifted by serve()), so that the attackers can flood
        proc, url = serve(Path(tmp) / "attack.sqlite3", "--round-pause", "1",
                          "--review-rate", "100000")
        try:
            wait_until_up(url, 1)
            results = asyncio.run(_attack(args, url, proc.pid))
        finally:
            stop_server(proc)
    _attack_report(args, results, started_load)


def _attack_report(args: argparse.Namespace, results: dict[str, VictimStats],
                   started_load: float) -> None:
    ms = 1000.0
    print(f"command: python3 benchmarks/server.py --attack --tables {args.tables} "
          f"--seconds {args.seconds:g} --think {args.think:g} --phases "
          f"'{','.join(args.phases)}'")
    print(f"server: trashcards serve (one process, SQLite) from {_server_source()}; "
          f"{os.cpu_count()} cores; load average {started_load:.1f} at the start")
    print(f"victims: {args.tables} table(s) of one person at 127.0.0.1 (think "
          f"{args.think:g} s, a hint before every decision) against the expert at its "
          f"live pace (0.7 s + up to 0.5 s), played from a process of their own; "
          f"{args.seconds:g} s per phase; the attackers from other loopback addresses")
    for name in args.phases:
        print(f"  {name}: {PHASES[name]}")
    print("| phase | move p50 / p99 | hint p50 / p99 | expert reply p99 | "
          "p99 ratios to none (move, hint, reply) | victim errors | server CPU / AI "
          "workers' CPU / attackers' CPU | loop waiting for a CPU | load | attackers |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    base = results["none"]

    def p(values: list[float], q: float) -> float:
        return percentile(values, q) * ms

    for name, stats in results.items():
        ratios = (f"{p(stats.moves, 0.99) / p(base.moves, 0.99):.2f} / "
                  f"{p(stats.hints, 0.99) / p(base.hints, 0.99):.2f} / "
                  f"{p(stats.replies, 0.99) / p(base.replies, 0.99):.2f}")
        wall = max(stats.wall, 1e-9)
        print(f"| {name} | {p(stats.moves, 0.5):.1f} / {p(stats.moves, 0.99):.1f} ms "
              f"(n={len(stats.moves)}) | {p(stats.hints, 0.5):.1f} / "
              f"{p(stats.hints, 0.99):.1f} ms (n={len(stats.hints)}) | "
              f"{p(stats.replies, 0.99):.0f} ms (n={len(stats.replies)}) | {ratios} | "
              f"{stats.errors or '-'} | {stats.server_cpu / wall:.0%} / "
              f"{stats.ai_cpu / wall:.0%} / {stats.attackers_cpu / wall:.0%} | "
              f"{stats.loop_waited / wall:.0%} | "
              f"{stats.load:.1f} | {stats.attack or '-'} |")
    if "hints + watched" not in results:
        return
    claim = results["hints + watched"]
    move99, hint99 = percentile(claim.moves, 0.99), percentile(claim.hints, 0.99)
    ratio = move99 / percentile(base.moves, 0.99)
    move_low, move_high = quantile_interval(claim.moves, 0.99)
    hint_low, hint_high = quantile_interval(claim.hints, 0.99)
    base_low, base_high = quantile_interval(base.moves, 0.99)
    ratio_low = move_low / base_high if base_high > 0 else 0.0
    ratio_high = move_high / base_low if base_low > 0 else float("inf")
    print("goal, while 10 addresses flood hints and 5 watch 100 bot tables (p99 with "
          "its distribution-free 95 % interval; inf: too few samples to bound it):")
    print(f"  move p99 {move99 * ms:.1f} ms [{move_low * ms:.1f}, {move_high * ms:.1f}] "
          f"(<= 50 ms: {goal_verdict(move_low, move_high, 0.050)})")
    print(f"  {ratio:.2f} x the no-attack p99 [{ratio_low:.2f}, {ratio_high:.2f}] "
          f"(<= 3: {goal_verdict(ratio_low, ratio_high, 3.0)})")
    print(f"  hint p99 {hint99 * ms:.0f} ms [{hint_low * ms:.0f}, {hint_high * ms:.0f}] "
          f"(<= 250 ms: {goal_verdict(hint_low, hint_high, 0.250)})")


async def ai_ready(url: str) -> None:
    """Until the server answers a hint (its AI workers are up and warm): the phases
    measure a server past its start."""
    async with httpx.AsyncClient(timeout=60) as http:
        made = (await http.post(f"{url}/api/tables", json={
            "hints": True, "seats": [{"kind": "me", "name": "A"},
                                     {"kind": "hotseat", "name": "B"}]})).json()
    tokens = [s["token"] for s in made["seats"]]
    deadline = time.monotonic() + 300
    async with connect(url.replace("http", "ws", 1) + f"/ws/{made['table_id']}",
                       ping_interval=None) as ws:
        await ws.send(json.dumps({"type": "join", "tokens": tokens, "version": None}))
        ask = ""
        while time.monotonic() < deadline:
            message = json.loads(await ws.recv())
            if message["type"] == "state":
                ask = json.dumps({"type": "hint", "version": message["version"],
                                  "token": tokens[message["state"]["to_act"]]})
                await ws.send(ask)
            elif message["type"] == "hint":
                return
            elif message["type"] == "error" and message["code"] == "busy":
                await asyncio.sleep(1)
                await ws.send(ask)


def _server_source() -> str:
    """Where the server's code comes from (this tree, or PYTHONPATH's)."""
    import trashcards
    return str(Path(trashcards.__file__).parent)


async def _attack(args: argparse.Namespace, url: str, pid: int) -> dict[str, VictimStats]:
    results: dict[str, VictimStats] = {}
    meter = CpuMeter(pid)
    current = VictimStats()
    attacker = Attacker(url, lambda: current)
    total = args.warmup + args.seconds * len(args.phases) + 5
    await ai_ready(url)
    victim = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--victim", url, "--tables", str(args.tables),
        "--seconds", str(total), "--think", str(args.think), stdout=subprocess.PIPE)
    await asyncio.sleep(args.warmup)
    spans: dict[str, tuple[float, float]] = {}
    for phase in args.phases:
        current = VictimStats()
        halt = asyncio.Event()
        attack = {"hint flood": attacker.hint_flood, "review flood": attacker.review_flood,
                  "watched tables": attacker.watched_tables,
                  "expert tables": attacker.expert_tables,
                  "hints + watched": attacker.hints_and_watched}.get(phase)
        running = asyncio.create_task(attack(halt)) if attack else None
        print(f"phase: {phase}", file=sys.stderr, flush=True)
        began = time.monotonic()
        server_before, ai_before, waited_before = meter.read()
        attackers_before = time.process_time()
        await asyncio.sleep(args.seconds)
        server_after, ai_after, waited_after = meter.read()
        current.attackers_cpu = time.process_time() - attackers_before
        spans[phase] = (began, time.monotonic())
        current.server_cpu, current.ai_cpu = server_after - server_before, ai_after - ai_before
        current.loop_waited = waited_after - waited_before
        current.wall, current.load = time.monotonic() - began, os.getloadavg()[0]
        results[phase] = current
        halt.set()
        if running is not None:
            await asyncio.wait([running], timeout=15)
            running.cancel()
    out, _err = await victim.communicate()
    for line in out.decode().splitlines():
        kind, when, value = json.loads(line)
        for phase, (began, ended) in spans.items():
            if began <= when < ended:
                stats = results[phase]
                if kind == "error":
                    stats.count(stats.errors, str(value))
                else:
                    {"move": stats.moves, "hint": stats.hints,
                     "reply": stats.replies}[kind].append(float(value))
    return results


def _phases(text: str) -> list[str]:
    """``--phases``: known names, the baseline first."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in PHASES]
    if unknown:
        raise argparse.ArgumentTypeError(f"no phase {unknown[0]!r}; the phases are: "
                                         + ", ".join(PHASES))
    return ["none", *(name for name in names if name != "none")]


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
                             "against expert bots, with hints, through the phases of "
                             "attackers at other loopback addresses (see PHASES), "
                             "--seconds each (default 15)")
    parser.add_argument("--phases", type=_phases, default=list(PHASES),
                        help="with --attack: the phases to run, comma-separated, in order "
                             "(the baseline 'none' is always run first; default: all)")
    parser.add_argument("--victim", default=None, metavar="URL", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.victim:
        victim_main(args)
        return
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
