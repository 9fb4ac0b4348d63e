"""The simulated person of the server benchmarks (benchmarks/players_sim.py) and the
soak's lost-moves check (benchmarks/soak.py): a person plays through a real server
(``trashcards serve``), every act the server answered is reported as acknowledged, and
each of those is in the database as sent, even after the server was killed (SIGKILL);
the check finds a move that is missing or stored differently."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from webtools import run_async, server

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from players_sim import Pace, Person
from soak import lost_moves

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
