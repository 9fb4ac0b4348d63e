"""``trashcards play`` on a real (pseudo) terminal: single key presses, Ctrl-C saves."""

from __future__ import annotations

import os
import sys

import pytest

from trashcards.record import load

pexpect = pytest.importorskip("pexpect")


def test_single_keys_and_ctrl_c_on_a_terminal(tmp_path):
    save = tmp_path / "pty.trash.json"
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm", "PYTHONIOENCODING": "utf-8"}
    child = pexpect.spawn(sys.executable, ["-m", "trashcards", "play", "--seed", "3",
                                           "--bots", "greedy", "--name", "Ana", "--preset",
                                           "kids", "--save", str(save), "--bot-delay", "0"],
                          env=env, encoding="utf-8", timeout=20, cwd=str(tmp_path))
    try:
        child.expect_exact("Ana> ")
        child.send("x")  # one key, no Enter
        child.expect_exact("not a key here")
        child.expect_exact("Ana> ")
        child.send("s")
        child.expect_exact("Ana drew ")
        child.expect_exact("Ana> ")
        child.sendcontrol("c")
        child.expect_exact(f"Saved to {save}")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
    assert "0: stock" in [str(m) for m in load(save).moves]
