"""Soak run of ``trashcards serve`` (issue 33, item 8); a benchmark, not a test.

Hundreds of live tables at a human pace, each one person (a websocket playing greedy,
thinking 1.5 to 4.5 s before each decision, asking for a hint before a quarter of them)
against a server bot (one table in five the expert, the others greedy), hints and win
chances on, a spectator at one table in four, a rematch at the end of every match;
the players come from 100 loopback addresses (127.0.1.1 …), so the server runs with its
own limits. Meanwhile the attack mix of ``benchmarks/server.py --attack`` runs from
other addresses: 10 addresses flooding hints, 9 posting reviews, 5 watching 20 bot
tables each, one watching 20 expert tables.

    python3 benchmarks/soak.py --minutes 30                  # one process, SQLite
    python3 benchmarks/soak.py --minutes 10 --workers 3      # three processes, PostgreSQL

Every ``--sample`` seconds it prints the resident memory (RSS) of the server's processes
and of their AI workers, the players' move and hint latencies of that interval (p50,
p99) and the machine's load. At the end: the whole run's move and hint p99 (and after
the warm-up), the RSS growth after the warm-up (the first fifth of the run), and the
moves lost: every move the server acknowledged to a player (its ``events``) is looked up
in the database after the server stopped; one missing or different is lost.

The players and the attackers run in processes of their own (the clients' work is not
the server's); everything shares the machine, whose load is printed beside every
figure.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
import servetools
from pgtools import DURABLE, PostgresMissingError, running_cluster

from players_sim import Pace, Person
from quantiles import percentile
from server import Attacker, VictimStats, ai_ready

#: The players' addresses: 127.0.1.1 … 127.0.1.ADDRESSES (spectators: 127.0.2.x).
ADDRESSES = 100
#: How a person plays: 1.5 to 4.5 s before each decision and before the next round, a
#: hint before a quarter of its decisions.
PACE = Pace(think=(1.5, 4.5), hint_share=0.25, next_round=True)
#: Share of tables with an expert bot; one table in SPECTATED has a spectator.
EXPERT_SHARE, SPECTATED = 0.2, 4


# -- the players (a process of their own: ``--players``) -----------------------------------


class Player:
    """One table: a person against a server bot, playing match after match, joining
    again after a broken connection; a spectator at one table in :data:`SPECTATED`."""

    def __init__(self, url: str, index: int, out: Any) -> None:
        self.url = url
        self.index = index
        self.address = f"127.0.1.{1 + index % ADDRESSES}"
        self.bot = ("expert" if random.Random(f"soak/{index}").random() < EXPERT_SHARE
                    else "greedy")
        self.out = out
        self.person = Person(url, f"soak/{index}", PACE, self.emit, self.address)

    def emit(self, *sample: Any) -> None:
        self.out.write(json.dumps(sample) + "\n")

    async def run(self, stop: asyncio.Event) -> None:
        transport = httpx.AsyncHTTPTransport(local_address=self.address, retries=3)
        made: tuple[str, str] | None = None
        async with httpx.AsyncClient(timeout=60, transport=transport) as http:
            while not stop.is_set() and made is None:
                made = await self.person.create(http, self.bot)
                if made is None:
                    await asyncio.sleep(5)
        if made is None:
            return
        table_id: str | None
        table_id, token = made
        while table_id is not None and not stop.is_set():
            spectator = (asyncio.create_task(self._watch(table_id, stop))
                         if self.index % SPECTATED == 0 else None)
            try:
                table_id = await self.person.play(table_id, token, stop)
            except Exception as exc:  # counted; it joins again
                self.emit("error", time.monotonic(), type(exc).__name__)
                await asyncio.sleep(2)
            finally:
                if spectator is not None:
                    spectator.cancel()

    async def _watch(self, table_id: str, stop: asyncio.Event) -> None:
        address = f"127.0.2.{1 + self.index % ADDRESSES}"
        with contextlib.suppress(Exception):
            async with connect(f"{self.url.replace('http', 'ws', 1)}/ws/{table_id}",
                               ping_interval=None, max_queue=None, compression=None,
                               local_addr=(address, 0)) as ws:
                await ws.send(json.dumps({"type": "join", "tokens": [], "version": None}))
                while not stop.is_set():
                    await ws.recv()


def players_main(args: argparse.Namespace) -> None:
    """``--players URL``: tables ``--first`` … ``--first + --tables - 1`` for
    ``--seconds``; every sample a JSON line on standard output, as it comes."""
    async def play() -> None:
        stop = asyncio.Event()
        out = sys.stdout
        players = [Player(args.players, args.first + n, out) for n in range(args.tables)]
        tasks = []
        for player in players:  # not all at once: as people arrive
            tasks.append(asyncio.create_task(player.run(stop)))
            await asyncio.sleep(0.02)
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        ends = time.monotonic() + args.seconds
        while time.monotonic() < ends and not stop.is_set():
            await asyncio.sleep(1)
            out.flush()
        stop.set()
        await asyncio.wait(tasks, timeout=15)
        out.flush()
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=15)

    asyncio.run(play())


def attackers_main(args: argparse.Namespace) -> None:
    """``--attackers URL``: the attack mix for ``--seconds``."""
    async def attack() -> None:
        stop = asyncio.Event()
        stats = VictimStats()
        attacker = Attacker(args.attackers, lambda: stats)
        tasks = [asyncio.create_task(attacker.hints_and_watched(stop)),
                 asyncio.create_task(attacker.review_flood(stop)),
                 asyncio.create_task(attacker.expert_tables(stop))]
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        ends = time.monotonic() + args.seconds
        while time.monotonic() < ends and not stop.is_set():
            await asyncio.sleep(1)
        stop.set()
        await asyncio.wait(tasks, timeout=15)
        print(json.dumps(stats.attack), flush=True)

    asyncio.run(attack())


# -- the run (the coordinator) ----------------------------------------------------------


def _stat(pid: int) -> list[str] | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _rss_mib(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields is not None and int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def _servers(pid: int, workers: int) -> list[int]:
    """The processes that serve: ``pid``, or with ``workers`` > 1 its children, uvicorn's
    worker processes (multiprocessing children, as the AI workers are: told apart by
    their place in the tree, not their command line), without the resource tracker."""
    if workers == 1:
        return [pid]
    return [c for c in _children(pid) if b"resource_tracker" not in _cmdline(c)]


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def loop_waited(pid: int, workers: int) -> float:
    """Seconds the serving processes' main threads (their event loops) spent runnable
    but not running so far, added up (``/proc/PID/schedstat``: the CPU was taken)."""
    total = 0.0
    for server in _servers(pid, workers):
        with contextlib.suppress(OSError, IndexError, ValueError):
            total += int(Path(f"/proc/{server}/task/{server}/schedstat").read_text()
                         .split()[1]) / 1e9
    return total


def memory(pid: int, workers: int) -> tuple[float, float, int]:
    """(RSS of the server's processes, RSS of their AI workers, how many workers), in
    MiB: ``pid`` and its children that serve (``--workers``: the supervisor's), the
    multiprocessing children of those."""
    servers = _servers(pid, workers)
    ai = [c for s in servers for c in _children(s)
          if b"spawn_main" in _cmdline(c)]  # not the resource tracker
    serving = sum(_rss_mib(s) for s in servers) + (_rss_mib(pid) if servers != [pid] else 0)
    return serving, sum(_rss_mib(w) for w in ai), len(ai)


@dataclass
class Interval:
    moves: list[float] = field(default_factory=list)
    hints: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)


@dataclass
class Collected:
    """The players' samples as they come, by interval."""

    intervals: list[Interval] = field(default_factory=lambda: [Interval()])
    acks: list[tuple[str, int, str]] = field(default_factory=list)
    all_moves: list[tuple[float, float]] = field(default_factory=list)
    all_hints: list[tuple[float, float]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self, stream: Any) -> None:
        for line in stream:
            try:
                sample = json.loads(line)
            except ValueError:
                continue
            with self.lock:
                current = self.intervals[-1]
                if sample[0] == "move":
                    current.moves.append(sample[2])
                    self.all_moves.append((sample[1], sample[2]))
                elif sample[0] == "hint":
                    current.hints.append(sample[2])
                    self.all_hints.append((sample[1], sample[2]))
                elif sample[0] == "error":
                    current.errors[sample[2]] = current.errors.get(sample[2], 0) + 1
                elif sample[0] == "ack":
                    self.acks.append((sample[1], sample[2], sample[3]))

    def next_interval(self) -> Interval:
        with self.lock:
            done = self.intervals[-1]
            self.intervals.append(Interval())
            return done


@contextlib.contextmanager
def database(workers: int) -> Iterator[tuple[str, str]]:
    """(the ``--db`` value, a description): an SQLite file, or a throwaway PostgreSQL
    database for several processes."""
    if workers == 1:
        with tempfile.TemporaryDirectory() as tmp:
            yield str(Path(tmp) / "soak.sqlite3"), "SQLite"
        return
    try:
        with running_cluster(DURABLE) as cluster:
            yield cluster.database(), "PostgreSQL (synchronous_commit off)"
    except PostgresMissingError as exc:
        raise SystemExit(str(exc)) from None


def lost_moves(db: str, acks: list[tuple[str, int, str]]) -> tuple[int, int]:
    """(moves acknowledged to players that the database does not hold as sent, how many
    were looked up)."""
    if db.startswith("postgresql://"):
        import psycopg
        with psycopg.connect(db) as conn:
            rows = conn.execute("SELECT table_id, idx, move FROM moves").fetchall()
    else:
        with contextlib.closing(sqlite3.connect(db)) as conn:
            rows = conn.execute("SELECT table_id, idx, move FROM moves").fetchall()
    stored = {(r[0], int(r[1])): str(r[2]) for r in rows}
    lost = sum(1 for table, idx, move in acks if stored.get((table, idx)) != move)
    return lost, len(acks)


def soak(args: argparse.Namespace) -> None:
    seconds = args.minutes * 60.0
    here = Path(__file__).resolve()
    with database(args.workers) as (db, kind):
        options = ["--host", "127.0.0.1", "--ai-workers", str(args.ai_workers)]
        if args.workers > 1:
            options += ["--workers", str(args.workers)]
        proc, url = servetools.launch(db, options)
        servetools.drain(proc, prefix="[serve] ")
        try:
            servetools.wait_healthy(url, proc, 120)
            asyncio.run(ai_ready(url))  # measure a server past its AI's warm-up
            collected = Collected()
            per = -(-args.tables // args.player_processes)
            players = [subprocess.Popen(
                [sys.executable, str(here), "--players", url, "--first", str(n * per),
                 "--tables", str(min(per, args.tables - n * per)), "--seconds",
                 str(seconds)], stdout=subprocess.PIPE, text=True)
                for n in range(args.player_processes) if n * per < args.tables]
            readers = [threading.Thread(target=collected.read, args=(p.stdout,), daemon=True)
                       for p in players]
            for reader in readers:
                reader.start()
            attackers = None if args.no_attack else subprocess.Popen(
                [sys.executable, str(here), "--attackers", url, "--seconds", str(seconds)],
                stdout=subprocess.PIPE, text=True)
            timeline = _sample(args, proc.pid, collected, seconds)
            for process in players:  # what they sent is read; a client that hangs
                _end(process)         # on its way out is killed
            attack_counts: dict[str, int] = {}
            if attackers is not None:
                try:
                    out, _err = attackers.communicate(timeout=60)
                except subprocess.TimeoutExpired:
                    attackers.kill()
                    out, _err = attackers.communicate()
                with contextlib.suppress(ValueError, IndexError):
                    attack_counts = json.loads(out.strip().splitlines()[-1])
            for reader in readers:
                reader.join(timeout=30)
        finally:
            servetools.stop(proc, grace=30)  # a clean stop, as an operator's
        lost, looked = lost_moves(db, collected.acks)
    _report(args, kind, timeline, collected, lost, looked, attack_counts)


def _end(process: subprocess.Popen[str], timeout: float = 60.0) -> None:
    """Wait for a client process past its time; kill it after ``timeout`` seconds."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _sample(args: argparse.Namespace, pid: int, collected: Collected,
            seconds: float) -> list[tuple[float, float, float, int, Interval, float]]:
    """Every ``--sample`` seconds: (minutes, server RSS, AI workers' RSS, workers, the
    interval's samples, load); printed as they come, with the share of the interval the
    server's event loop(s) waited for a CPU (the machine's other work)."""
    started = time.monotonic()
    rows = []
    print("| minute | server RSS | AI workers' RSS (processes) | move p50 / p99 (n) | "
          "hint p50 / p99 (n) | errors | loop waiting for a CPU | load |", flush=True)
    print("| --- | --- | --- | --- | --- | --- | --- | --- |", flush=True)
    last, waited = started, loop_waited(pid, args.workers)
    while (elapsed := time.monotonic() - started) < seconds:
        time.sleep(min(args.sample, max(0.1, seconds - elapsed)))
        server, ai, count = memory(pid, args.workers)
        interval = collected.next_interval()
        load = os.getloadavg()[0]
        now, now_waited = time.monotonic(), loop_waited(pid, args.workers)
        share = (now_waited - waited) / max(1e-9, now - last) / len(_servers(pid, args.workers))
        last, waited = now, now_waited
        minute = (now - started) / 60
        rows.append((minute, server, ai, count, interval, load))
        ms = 1000.0
        print(f"| {minute:.1f} | {server:.0f} MiB | {ai:.0f} MiB ({count}) | "
              f"{percentile(interval.moves, 0.5) * ms:.0f} / "
              f"{percentile(interval.moves, 0.99) * ms:.0f} ms ({len(interval.moves)}) | "
              f"{percentile(interval.hints, 0.5) * ms:.0f} / "
              f"{percentile(interval.hints, 0.99) * ms:.0f} ms ({len(interval.hints)}) | "
              f"{interval.errors or '-'} | {share:.0%} | {load:.1f} |", flush=True)
    return rows


def _report(args: argparse.Namespace, kind: str,
            timeline: list[tuple[float, float, float, int, Interval, float]],
            collected: Collected, lost: int, looked: int,
            attack: dict[str, int]) -> None:
    ms = 1000.0
    warm = args.minutes / 5  # the first fifth: warm-up
    late = [row for row in timeline if row[0] >= warm]
    first, last = (late[0], late[-1]) if late else (timeline[0], timeline[-1])
    began = min((t for t, _ in collected.all_moves), default=0.0)
    moves = [v for t, v in collected.all_moves if t - began >= warm * 60]
    hints = [v for t, v in collected.all_hints if t - began >= warm * 60]
    loads = [row[5] for row in timeline]
    print()
    print(f"command: python3 benchmarks/soak.py --minutes {args.minutes:g} --tables "
          f"{args.tables} --workers {args.workers} --ai-workers {args.ai_workers}"
          + (" --no-attack" if args.no_attack else ""))
    print(f"server: {args.workers} process(es) on {kind}; {os.cpu_count()} cores; load "
          f"average min {min(loads, default=0):.1f}, mean "
          f"{sum(loads) / max(1, len(loads)):.1f}, max {max(loads, default=0):.1f}")
    print(f"players: {args.tables} tables (a person against a bot, {EXPERT_SHARE:.0%} "
          f"expert), a hint before {PACE.hint_share:.0%} of decisions, a spectator at one in "
          f"{SPECTATED}; attack: {'none' if args.no_attack else attack or 'ran'}")
    print(f"moves answered: {len(collected.all_moves)}; p50 / p99 "
          f"{percentile(moves, 0.5) * ms:.0f} / {percentile(moves, 0.99) * ms:.0f} ms "
          f"after the warm-up ({percentile([v for _, v in collected.all_moves], 0.99) * ms:.0f}"
          " ms over the whole run)")
    print(f"hints answered: {len(collected.all_hints)}; p50 / p99 "
          f"{percentile(hints, 0.5) * ms:.0f} / {percentile(hints, 0.99) * ms:.0f} ms "
          "after the warm-up")
    growth = (last[1] - first[1], last[2] - first[2])
    print(f"RSS after the warm-up (minute {first[0]:.1f} to {last[0]:.1f}): server "
          f"{first[1]:.0f} -> {last[1]:.0f} MiB ({growth[0]:+.0f}), AI workers "
          f"{first[2]:.0f} -> {last[2]:.0f} MiB ({growth[1]:+.0f})")
    errors: dict[str, int] = {}
    for interval in collected.intervals:
        for code, count in interval.errors.items():
            errors[code] = errors.get(code, 0) + count
    print(f"players' errors over the run: {errors or 'none'}")
    print(f"moves lost: {lost} of {looked} acknowledged moves looked up in the database")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--tables", type=int, default=500)
    parser.add_argument("--workers", type=int, default=1,
                        help="server processes (more than 1: on a throwaway PostgreSQL)")
    parser.add_argument("--ai-workers", type=int, default=2,
                        help="the server's --ai-workers (processes: this + 1 per server)")
    parser.add_argument("--sample", type=float, default=30.0,
                        help="seconds between two lines of the timeline")
    parser.add_argument("--player-processes", type=int, default=4)
    parser.add_argument("--no-attack", action="store_true")
    parser.add_argument("--players", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--attackers", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--first", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.players:
        players_main(args)
    elif args.attackers:
        attackers_main(args)
    else:
        soak(args)


if __name__ == "__main__":
    main()
