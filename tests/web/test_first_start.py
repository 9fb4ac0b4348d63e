"""An honest first start: ``trashcards serve`` on a machine with no numba kernel cache
answers its URL at once (how soon: benchmarks/coldstart.py), says that the AI is warming
up (on the terminal and in ``/healthz``), answers hints and plays its expert bots at once
on the slower path (the reference engine, fewer deals, labelled so) instead of waiting
for the kernels, and says when it is ready, after which hints come from the fast engine.
The compilation runs in the background, in a process of its own."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("websockets")

from webtools import Client

from trashcards.web.advice import COARSE_WARMING

#: Seconds the compilation may take on a busy test machine (a failure guard, not a
#: measure: nothing asserts how long it took).
WARM_UP_S = 900.0
#: Seconds a frame may take on a busy machine before the test gives up.
FRAME_S = 300.0

#: ``trashcards serve`` with the kernels held back until the file ``argv[1]`` exists:
#: until then, compiling them (the warm-up's process) and the fast engine's evaluation
#: (what hints, win chances and expert bots call on the fast engine) wait.
HELD = textwrap.dedent("""
    import runpy, sys, time
    from pathlib import Path

    import trashcards.ai.evaluate as fast
    import trashcards.web.advice as advice

    release = Path(sys.argv[1])

    def held(real):
        def wait_then(*args, **kwargs):
            while not release.exists():
                time.sleep(0.05)
            return real(*args, **kwargs)
        return wait_then

    advice.compile_apart = held(advice.compile_apart)
    fast._fast = held(fast._fast)
    sys.argv = ["trashcards", *sys.argv[2:]]
    runpy.run_module("trashcards", run_name="__main__")
    """)


def _lines(proc: subprocess.Popen[str], into: list[str]) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        into.append(line.rstrip("\n"))


def _frame(client: Client, *kinds: str) -> dict[str, Any]:
    """The next frame of one of ``kinds`` (win chances and other frames passed over)."""
    deadline = time.monotonic() + FRAME_S
    while time.monotonic() < deadline:
        text = client.ws.recv(timeout=FRAME_S)
        message: dict[str, Any] = json.loads(text)
        if message["type"] in kinds:
            return message
        assert message["type"] != "error", message
    raise AssertionError(f"no {kinds} frame in {FRAME_S} s")


class _Table:
    """Ana's side of a table against the expert: she plays the best move of her hint
    where she has a choice, the first legal move elsewhere, and is ready for every next
    round."""

    def __init__(self, client: Client, token: str, message: dict[str, Any]) -> None:
        self.client = client
        self.token = token
        self.message = message
        self.expert_turns = 0
        self.asked = -1

    def play(self, expert_turns: int) -> dict[str, Any]:
        """Play on until the expert has had ``expert_turns`` turns and Ana has asked for
        a hint at a decision with a choice; that hint."""
        hinted: dict[str, Any] | None = None
        while True:
            message = self.message
            state, version = message["state"], message["version"]
            if message["type"] == "events":
                self.expert_turns += sum(1 for e in message["events"]
                                         if e["type"] == "drew" and e["seat"] == 1)
            assert state["phase"] != "match_over"
            if state["phase"] == "round_over":
                self.client.send({"type": "next_round", "token": self.token})
            elif state["to_act"] == 0 and state["legal"]:
                action = state["legal"][0]
                if hinted is None and len(state["legal"]) > 1 and version > self.asked:
                    self.asked = version
                    self.client.send({"type": "hint", "token": self.token,
                                      "version": version})
                    hinted = _frame(self.client, "hint")
                    action = hinted["best"]
                if hinted is not None and self.expert_turns >= expert_turns:
                    return hinted
                self.client.send({"type": "act", "token": self.token, "action": action,
                                  "version": version})
            self.message = _frame(self.client, "events", "state")


@pytest.mark.slow
@pytest.mark.numba_compile
def test_a_first_start_answers_at_once_and_hints_and_bots_never_wait_for_the_kernels(
        tmp_path: Path) -> None:
    cache = tmp_path / "numba-cache"  # empty: everything the kernel needs is compiled
    release = tmp_path / "release"
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "NUMBA_CACHE_DIR": str(cache)}
    start = time.monotonic()
    proc = subprocess.Popen(
        [sys.executable, "-c", HELD, str(release), "serve", "--port", "0",
         "--db", str(tmp_path / "tables.sqlite3"), "--bot-delay", "0",
         "--round-pause", "3600", "--test-seed", "1"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    threading.Thread(target=_lines, args=(proc, lines), daemon=True).start()
    client: Client | None = None
    try:
        answered = None
        url = None
        while time.monotonic() - start < FRAME_S and answered is None:
            assert proc.poll() is None, "\n".join(lines)
            if url is None and lines and "http://" in lines[0]:
                url = lines[0].split()[lines[0].split().index("at") + 1].rstrip("/")
            if url is not None:
                try:
                    health = httpx.get(f"{url}/healthz", timeout=1)
                    if health.status_code == 200:
                        answered = time.monotonic() - start
                        break
                except httpx.TransportError:
                    pass
            time.sleep(0.02)
        assert answered is not None, "\n".join(lines)
        assert url is not None
        print(f"first answer after {answered:.2f} s")  # benchmarks/coldstart.py measures it
        assert health.json()["ai"] == "warming_up"
        assert httpx.get(f"{url}/", timeout=5).status_code == 200  # the lobby is served

        # the kernels are held back: a hint and the expert's moves come all the same
        made = httpx.post(f"{url}/api/tables", timeout=30, json={
            "seats": [{"kind": "me", "name": "Ana"}, {"kind": "bot", "bot": "expert"}],
            "hints": True}).json()
        token = made["seats"][0]["token"]
        client = Client(url, made["table_id"])
        client.send({"type": "join", "tokens": [token], "version": None})
        _frame(client, "joined")
        table = _Table(client, token, _frame(client, "state", "events"))
        first = table.play(expert_turns=6)
        assert not release.exists()  # all of it while the kernels were held back
        assert first["engine"] == "reference"
        assert first["coarse"] == COARSE_WARMING
        assert table.expert_turns >= 6
        assert httpx.get(f"{url}/healthz", timeout=5).json()["ai"] == "warming_up"

        release.touch()  # the kernels compile (in a process of their own) and load
        deadline = time.monotonic() + WARM_UP_S
        while httpx.get(f"{url}/healthz", timeout=5).json()["ai"] != "ready":
            assert time.monotonic() < deadline, "\n".join(lines)
            assert proc.poll() is None, "\n".join(lines)
            time.sleep(0.5)
        time.sleep(0.2)  # the line after the flag
        said = "\n".join(lines)
        assert "warming up the AI" in said
        assert "the AI is ready (fast engine" in said, said
        assert "Traceback" not in said
        assert any(cache.rglob("*.nbi")), "the kernel was compiled into the given cache"
        ready = table.play(expert_turns=table.expert_turns + 1)  # a hint of a new version
        assert ready["engine"] == "fast"
        assert ready.get("coarse") != COARSE_WARMING
    finally:
        if client is not None:
            client.close()
        proc.terminate()
        proc.wait(timeout=30)
