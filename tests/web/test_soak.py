"""The simulated person of the server benchmarks (benchmarks/players_sim.py) and the
soak's checks (benchmarks/soak.py). A person plays through a real server
(``trashcards serve``), every act the server answered is reported as acknowledged, and
each of those is in the database as sent, even after the server was killed (SIGKILL);
the check finds a move that is missing or stored differently. A person sends its act
again when the server says to wait (``unavailable``: a table moving between processes).
The memory of several server processes is told apart from their AI workers', and a
client that hangs past its time is killed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from webtools import run_async, server

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from players_sim import Pace, Person
from soak import _children, _end, lost_moves, memory

pytest.importorskip("websockets.asyncio.client")

#: Acknowledged moves the person plays before it stops.
MOVES = 30


async def _play(url: str) -> list[tuple[Any, ...]]:
    samples: list[tuple[Any, ...]] = []
    person = Person(url, "test", Pace(think=(0.0, 0.0), hint_share=0.0, next_round=True),
                    lambda *sample: samples.append(sample))
    async with httpx.AsyncClient(timeout=60) as http:
        made = await person.create(http, "greedy")
    assert made is not None
    stop = asyncio.Event()
    table_id: str | None = made[0]
    while table_id is not None and not stop.is_set():
        playing = asyncio.create_task(person.play(table_id, made[1], stop))
        while not playing.done():
            if sum(1 for s in samples if s[0] == "ack") >= MOVES:
                stop.set()
            await asyncio.sleep(0.01)
        table_id = playing.result()
    return samples


@pytest.mark.slow
def test_every_acknowledged_move_is_in_the_database_after_a_kill(tmp_path: Path) -> None:
    db = tmp_path / "soak.sqlite3"
    with server(db) as (_proc, url):
        samples = run_async(_play(url))
    # the server was killed (SIGKILL): what it acknowledged was stored before
    acks = [(s[1], s[2], s[3]) for s in samples if s[0] == "ack"]
    moves = [s for s in samples if s[0] == "move"]
    assert len(acks) >= MOVES
    assert len(moves) == len(acks)
    assert all(move.startswith("0: ") for _table, _idx, move in acks)
    assert [s for s in samples if s[0] == "error"] == []
    assert lost_moves(str(db), acks) == (0, len(acks))


def test_lost_moves_finds_a_missing_or_changed_move(tmp_path: Path) -> None:
    db = tmp_path / "moves.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE moves (table_id TEXT, idx INTEGER, move TEXT)")
        conn.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                         [("t0", 0, "0: draw stock"), ("t0", 1, "1: draw stock")])
    conn.close()
    assert lost_moves(str(db), [("t0", 0, "0: draw stock")]) == (0, 1)
    assert lost_moves(str(db), [("t0", 0, "0: draw discard")]) == (1, 1)
    assert lost_moves(str(db), [("t0", 2, "0: draw stock"), ("t1", 0, "0: x")]) == (2, 2)


_TREE = """
import multiprocessing, sys, time

def ai_worker(ready):
    block = bytearray(48 << 20)  # resident: written
    for i in range(0, len(block), 4096):
        block[i] = 1
    ready.put(1)
    time.sleep(120)

def server(ready):
    child = multiprocessing.get_context("spawn").Process(target=ai_worker, args=(ready,))
    child.start()
    time.sleep(120)

if __name__ == "__main__":
    spawn = multiprocessing.get_context("spawn")
    ready = spawn.Queue()
    servers = [spawn.Process(target=server, args=(ready,)) for _ in range(2)]
    for process in servers:
        process.start()
    for _ in servers:
        ready.get()
    print("ready", flush=True)
    time.sleep(120)
"""


@pytest.mark.slow
def test_soak_memory_tells_server_processes_from_their_ai_workers(tmp_path: Path) -> None:
    """With ``--workers``, uvicorn's server processes are multiprocessing children of
    the supervisor, as the AI workers are of each server: the AI workers' memory is the
    grandchildren's (48 MiB each here), not the server processes'."""
    script = tmp_path / "tree.py"
    script.write_text(_TREE)
    tree = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE,
                            text=True)
    try:
        assert tree.stdout is not None
        assert tree.stdout.readline().strip() == "ready"
        servers, ai, count = memory(tree.pid, 2)
        assert count == 2
        assert ai >= 2 * 48
        assert servers < 2 * 48
    finally:
        for child in _descendants(tree.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGKILL)
        tree.kill()
        tree.wait()


def _descendants(pid: int) -> list[int]:
    out = []
    for child in _children(pid):
        out += [child, *_descendants(child)]
    return out


def test_soak_kills_a_client_that_hangs_past_its_time() -> None:
    """The soak's clients are waited for after their time, then killed: a client that
    hung on its way out lost the 30-minute run's summary and lost-moves check."""
    hung = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    try:
        _end(hung, timeout=0.5)
        assert hung.returncode == -signal.SIGKILL
    finally:
        hung.kill()
        hung.wait()


async def _retried(code: str) -> tuple[list[str], list[tuple[Any, ...]]]:
    """A stand-in server: the person's first act is refused with ``code`` (wait 0.05 s),
    the next one answered. (The acts it received, the person's samples.)"""
    from websockets.asyncio.server import ServerConnection, serve

    acts: list[str] = []
    samples: list[tuple[Any, ...]] = []
    view = _first_view()

    async def table(ws: ServerConnection) -> None:
        await ws.recv()  # join
        await ws.send(json.dumps({"type": "state", "version": 3,
                                  "state": view}))
        async for text in ws:
            message = json.loads(text)
            if message["type"] != "act":
                continue
            acts.append(message["action"])
            if len(acts) == 1:
                await ws.send(json.dumps({"type": "error", "code": code, "message": "wait",
                                          "retry_after": 0.05}))
            else:
                await ws.send(json.dumps({"type": "events", "from_version": 3,
                                          "version": 4, "events": [],
                                          "state": {**view, "to_act": 1}}))
                await ws.close()

    async with serve(table, "127.0.0.1", 0) as stand_in:
        port = stand_in.sockets[0].getsockname()[1]
        person = Person(f"http://127.0.0.1:{port}", "retry",
                        Pace(think=(0.0, 0.0), hint_share=0.0),
                        lambda *sample: samples.append(sample))
        await asyncio.wait_for(person.play("t0", "token", asyncio.Event()), 60)
    return acts, samples


def _first_view() -> dict[str, Any]:
    """The view JSON of seat 0 at the first decision of a seeded standard match."""
    from trashcards.rules import Rules
    from trashcards.session import Match
    from trashcards.statejson import view_json
    from trashcards.views import view

    for seed in range(20):  # a deal where seat 0 begins
        match = Match(Rules.preset_named("standard"), ["a", "b"], random.Random(seed))
        match.advance()
        if match.state.to_act == 0:
            break
    assert match.state.to_act == 0
    data: dict[str, Any] = view_json(view(match.state, 0))
    return data


@pytest.mark.parametrize("code", ["unavailable", "storage_error", "rate_limited"])
def test_a_person_sends_its_act_again_when_told_to_wait(code: str) -> None:
    acts, samples = run_async(_retried(code))
    assert len(acts) == 2
    assert acts[0] == acts[1]
    assert [s[0] for s in samples if s[0] in ("move", "ack")] == ["move", "ack"]
