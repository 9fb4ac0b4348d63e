"""A first start of ``trashcards serve`` with an empty numba cache, as a new user meets
it: how soon the server answers, how soon after that a hint and the expert's moves come,
when the fast engine is ready, and the same start once cached.

    python benchmarks/coldstart.py                # an empty cache, then cached (~1 min idle)
    python benchmarks/coldstart.py --runs 3       # three of each (medians are printed)

Each run starts ``trashcards serve`` (bots without delay, seeded chance) with
``NUMBA_CACHE_DIR`` set to a new temporary folder, creates a table of one person against
the ``expert`` bot with hints on, joins it by websocket and plays the person's side as
fast as it can: the first legal move, or the hint's best move at the first decision with
a choice, where it asks for a hint. It times, from the start of the process:

* the first ``/healthz`` answer (the server answers);
* the hint (request to answer) and the expert's first six moves (each from the person's
  move before it), with the engine and ``coarse`` label the hint came with;
* ``/healthz`` saying ``"ai": "ready"`` (the fast engine compiled and loaded).

Then the same on the cache just written (the cached start). The load average is printed
with every run: on a shared machine compare runs of like load; the idle-machine goal is a
hint and an expert move within 5 s of the first answer.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets.sync.client as websockets_sync

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "web"))
import servetools

EXPERT_MOVES = 6


@dataclass
class Start:
    """One start's figures, seconds from the start of the process."""

    answered: float = 0.0
    hint: float = 0.0  # request to answer
    hint_at: float = 0.0  # the answer's arrival
    hint_engine: str = ""
    hint_coarse: str = ""
    expert: list[float] = field(default_factory=list)  # each from the person's move
    expert_at: float = 0.0  # the expert's first move's arrival
    ready: float = 0.0
    load: float = 0.0


def _frame(ws: Any, *kinds: str) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.recv(timeout=600))
        if message["type"] in kinds:
            return message
        if message["type"] == "error":
            raise RuntimeError(message)


def one_start(cache: Path, folder: Path) -> Start:
    out = Start(load=os.getloadavg()[0])
    began = time.monotonic()
    proc, url = servetools.launch(
        folder / f"t{time.monotonic_ns()}.sqlite3",
        ("--bot-delay", "0", "--round-pause", "3600", "--test-seed", "1"),
        env={"NUMBA_CACHE_DIR": str(cache)})
    try:
        while True:
            try:
                health = httpx.get(f"{url}/healthz", timeout=5)
                if health.status_code == 200:
                    break
            except httpx.TransportError:
                pass
            time.sleep(0.01)
        out.answered = time.monotonic() - began
        made = httpx.post(f"{url}/api/tables", timeout=60, json={
            "seats": [{"kind": "me", "name": "Ana"}, {"kind": "bot", "bot": "expert"}],
            "hints": True}).json()
        token = made["seats"][0]["token"]
        with websockets_sync.connect(url.replace("http", "ws", 1) + f"/ws/{made['table_id']}",
                                     open_timeout=60) as ws:
            ws.send(json.dumps({"type": "join", "tokens": [token], "version": None}))
            _frame(ws, "joined")
            message = _frame(ws, "state", "events")
            moved = time.monotonic()
            while len(out.expert) < EXPERT_MOVES or not out.hint:
                state, version = message["state"], message["version"]
                if message["type"] == "events" and any(
                        e["type"] == "drew" and e["seat"] == 1 for e in message["events"]):
                    out.expert.append(time.monotonic() - moved)
                    out.expert_at = out.expert_at or time.monotonic() - began
                if state["phase"] == "round_over":
                    ws.send(json.dumps({"type": "next_round", "token": token}))
                elif state["to_act"] == 0 and state["legal"]:
                    action = state["legal"][0]
                    if not out.hint and len(state["legal"]) > 1:
                        asked = time.monotonic()
                        ws.send(json.dumps({"type": "hint", "token": token,
                                            "version": version}))
                        hint = _frame(ws, "hint")
                        out.hint = time.monotonic() - asked
                        out.hint_at = time.monotonic() - began
                        out.hint_engine = hint.get("engine", "")
                        out.hint_coarse = hint.get("coarse", "")
                        action = hint["best"]
                    ws.send(json.dumps({"type": "act", "token": token, "action": action,
                                        "version": version}))
                    moved = time.monotonic()
                message = _frame(ws, "events", "state")
        while httpx.get(f"{url}/healthz", timeout=30).json()["ai"] != "ready":
            time.sleep(0.05)
        out.ready = time.monotonic() - began
    finally:
        servetools.stop(proc)
    return out


def _print(kind: str, start: Start) -> None:
    print(f"{kind:>7} cache: answered {start.answered:5.1f} s; then the hint answered "
          f"{start.hint_at - start.answered:5.1f} s after it ({start.hint:.2f} s after asking, "
          f"{start.hint_engine}{', coarse' if start.hint_coarse else ''}), the expert's first "
          f"move {start.expert_at - start.answered:5.1f} s after it (its {len(start.expert)} "
          f"first moves {min(start.expert):.2f}-{max(start.expert):.2f} s after the person's "
          f"move); AI ready {start.ready - start.answered:6.1f} s after it (load "
          f"{start.load:.1f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="starts of each kind")
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
    cold: list[Start] = []
    cached: list[Start] = []
    with tempfile.TemporaryDirectory(prefix="trashcards-coldstart-") as name:
        folder = Path(name)
        for run in range(args.runs):
            cache = folder / f"cache{run}"
            cold.append(one_start(cache, folder))
            _print("empty", cold[-1])
            cached.append(one_start(cache, folder))
            _print("cached", cached[-1])
    for kind, starts in (("empty", cold), ("cached", cached)):
        both = statistics.median(max(s.hint_at, s.expert_at) - s.answered for s in starts)
        print(f"median of {len(starts)} {kind}-cache starts: answered "
              f"{statistics.median(s.answered for s in starts):.1f} s after the start; hint "
              f"and expert move both in by {both:.1f} s after that; AI ready "
              f"{statistics.median(s.ready - s.answered for s in starts):.1f} s after it")
    print(f"load average {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
