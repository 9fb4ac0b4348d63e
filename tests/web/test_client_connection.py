"""The web client's connection (static/js/connection.js) under a server that stops
answering: its own pings have a deadline, so a page whose socket sits on a frozen
process opens another (issue 23, item 9). Run in Node with a fake WebSocket and a
virtual clock: 60 s of client time take milliseconds."""

from __future__ import annotations

import itertools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

JS = Path(__file__).resolve().parents[2] / "src" / "trashcards" / "web" / "static" / "js"
HARNESS = Path(__file__).parent / "js" / "connection_harness.mjs"


def _run(tmp_path: Path, scenario: str) -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    shutil.copytree(JS, tmp_path, dirs_exist_ok=True)  # connection.js and its imports
    (tmp_path / "package.json").write_text('{"type": "module"}')
    result = subprocess.run([node, str(HARNESS), str(tmp_path), scenario],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def test_a_socket_whose_pings_go_unanswered_is_replaced_within_16_s(tmp_path: Path) -> None:
    run = _run(tmp_path, "frozen")
    news = [entry["t"] for entry in run["log"] if entry.get("event") == "new"]
    assert len(news) >= 2, run["log"]
    assert news[1] <= 16_000  # a ping at 10 s, its deadline 5 s later, a 0.5 s backoff
    assert run["closed"][0] is True  # the frozen socket is let go
    first_offline = next(s["t"] for s in run["statuses"] if s["status"] == "offline")
    assert 10_000 < first_offline <= 15_000
    # every later socket (the server still frozen) is given up the same way, with backoff
    assert all(later - earlier >= 10_000 for earlier, later in itertools.pairwise(news))


def test_a_server_that_answers_keeps_its_socket(tmp_path: Path) -> None:
    run = _run(tmp_path, "answering")
    assert run["sockets"] == 1
    pings = [entry for entry in run["log"] if entry.get("sent") == "ping"]
    assert len(pings) >= 5
    assert [s["status"] for s in run["statuses"]] == ["connecting", "online"]
