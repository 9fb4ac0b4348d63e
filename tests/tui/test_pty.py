"""``trashcards play`` on a real (pseudo) terminal: the full-screen game at 80×24 with four
players, read back through a terminal emulator (pyte); and the line mode's single keys."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from trashcards.record import load

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")

ENV = {**os.environ, "TERM": "xterm-256color", "PYTHONIOENCODING": "utf-8",
       "COLUMNS": "80", "LINES": "24"}


class Terminal:
    """A program on a pty of ``columns``×``lines``, its output kept on an emulated screen."""

    def __init__(self, args: list[str], cwd: Path, columns: int = 80, lines: int = 24) -> None:
        self.screen = pyte.Screen(columns, lines)
        self.stream = pyte.ByteStream(self.screen)
        self.child = pexpect.spawn(sys.executable, ["-m", "trashcards", *args], env=ENV,
                                   cwd=str(cwd), dimensions=(lines, columns), timeout=30)
        self.tail = b""

    def pump(self, seconds: float = 0.2) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            try:
                data = self.child.read_nonblocking(65536, timeout=0.05)
            except pexpect.TIMEOUT:
                continue
            except pexpect.EOF:
                return
            self.stream.feed(data)
            self.tail = (self.tail + data)[-20000:]

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait(self, until: Callable[[str], bool], timeout: float = 30.0) -> str:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.pump(0.2)
            if until(self.text()):
                return self.text()
        raise AssertionError(f"the screen never showed what was awaited:\n{self.text()}")

    def press(self, keys: str | bytes) -> None:
        self.child.send(keys)


def stock_count(screen: str) -> int:
    match = re.search(r"Stock ░░░ (\d+)", screen)
    assert match, screen
    return int(match.group(1))


def test_the_full_screen_game_fits_four_players_in_80x24(tmp_path):
    save = tmp_path / "four.trash.json"
    term = Terminal(["play", "--seed", "3", "--name", "Ana", "--bots", "greedy,counter,kid",
                     "--save", str(save), "--bot-delay", "0"], tmp_path)
    try:
        screen = term.wait(lambda text: "[s] draw from the stock" in text)
        rows = screen.splitlines()
        assert len(rows) == 24
        assert rows[0].startswith(" Round 1 · standard: J wild, boards of 10")
        for name in ("Ana (you)", "bot:greedy", "bot:counter", "bot:kid"):
            assert name in screen  # every board's title is on the one screen
        assert screen.count(" 1 ") >= 4
        assert screen.count("10 ") >= 4
        assert "Your turn" in screen
        assert "Stock ░░░" in screen

        term.press("x")  # a refused key says why, on the message line
        screen = term.wait(lambda text: "'x' is not a key here" in text)
        stock = stock_count(screen)
        term.press("\x1b[A")  # an arrow key: no raw escape code anywhere on the screen
        term.pump(0.3)
        term.press("s")  # you draw, the bots play: the same screen, redrawn in place
        screen = term.wait(lambda text: stock_count(text) < stock and "Your turn" in text)
        assert "[A" not in screen
        assert "^[" not in screen
        assert len(screen.splitlines()) == 24
        assert screen.splitlines()[0] == rows[0]

        term.press("q")  # quitting asks first
        term.wait(lambda text: "Leave the game?" in text)
        term.press("n")
        term.wait(lambda text: "Leave the game?" not in text)
        term.press("q")
        term.wait(lambda text: "Leave the game?" in text)
        term.press("y")
        term.child.expect(pexpect.EOF)
        farewell = term.child.before.decode("utf-8", "replace").replace("\r\n", "")
    finally:
        term.child.close()
    assert term.child.exitstatus == 0
    assert f"Saved to {save} — continue with: trashcards play --resume {save}" in farewell
    record = load(save)
    assert record.players == ("Ana", "bot:greedy", "bot:counter", "bot:kid")
    assert any(str(move).startswith("0: ") for move in record.moves)


def test_ctrl_c_in_the_full_screen_game_saves_and_exits_130(tmp_path):
    save = tmp_path / "c.trash.json"
    term = Terminal(["play", "--seed", "4", "--bots", "kid", "--preset", "kids",
                     "--save", str(save), "--bot-delay", "0"], tmp_path)
    try:
        term.wait(lambda text: "[s] draw from the stock" in text)
        term.child.sendcontrol("c")
        term.child.expect(pexpect.EOF)
    finally:
        term.child.close()
    assert term.child.exitstatus == 130
    assert load(save).players == ("You", "bot:kid")


def test_single_keys_in_the_line_mode_and_ctrl_c_on_a_terminal(tmp_path):
    save = tmp_path / "pty.trash.json"
    env = {**ENV, "COLUMNS": "100", "TERM": "xterm"}
    child = pexpect.spawn(sys.executable, ["-m", "trashcards", "play", "--keys", "--seed", "3",
                                           "--bots", "greedy", "--name", "Ana", "--preset",
                                           "kids", "--save", str(save), "--bot-delay", "0"],
                          env=env, encoding="utf-8", timeout=20, cwd=str(tmp_path))
    try:
        child.expect_exact("Ana> ")
        child.send("x")  # one key, no Enter
        child.expect_exact("not a key here")
        child.expect_exact("Ana> ")
        child.send("\x1b[A")  # an arrow key is refused and never echoed as ^[[A
        child.expect_exact("that key is not used here")
        assert "[A" not in child.before
        child.expect_exact("Ana> ")
        child.send("s")
        child.expect_exact("You drew ")
        child.expect_exact("Ana> ")
        child.sendcontrol("c")
        child.expect_exact(f"Saved to {save}")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
    assert "0: stock" in [str(m) for m in load(save).moves]


@pytest.mark.numba_compile
def test_h_shows_the_hint_on_the_full_screen_and_o_the_win_chances(tmp_path):
    save = tmp_path / "hint.trash.json"
    term = Terminal(["play", "--seed", "3", "--name", "Ana", "--level", "casual", "--save",
                     str(save), "--bot-delay", "0"], tmp_path)
    try:
        screen = term.wait(lambda text: "[s] draw from the stock" in text)
        assert "casual, Elo 1596" in screen  # the opponent's level beside its board
        assert "Best:" not in screen  # no hint until asked for
        assert "Win chances" not in screen
        term.press("h")
        screen = term.wait(lambda text: "Best: [s] draw from the stock" in text)
        assert re.search(r"\[s\] \d+\.\d % ±\d+\.\d match · \d+\.\d % round", screen)
        assert "The only legal move." in screen  # the reason
        term.press("o")
        screen = term.wait(lambda text: "Win chances: You " in text)
        assert re.search(r"Win chances: You \d+ % · bot:kid \d+ %", screen)
        assert len(screen.splitlines()) == 24
        term.child.sendcontrol("c")
        term.child.expect(pexpect.EOF)
    finally:
        term.child.close()
    assert term.child.exitstatus == 130


def _styled(*parts: str) -> str:
    """A pattern for ``parts`` with any colour or bold codes between them."""
    return r"(?:\x1b\[[0-9;]*m)*".join(parts)


@pytest.mark.numba_compile
def test_h_and_o_in_the_line_mode_by_single_keys(tmp_path):
    env = {**ENV, "COLUMNS": "100", "TERM": "xterm"}
    child = pexpect.spawn(sys.executable, ["-m", "trashcards", "play", "--keys", "--seed", "3",
                                           "--level", "good", "--name", "Ana", "--preset",
                                           "kids", "--bot-delay", "0", "--save",
                                           str(tmp_path / "k.trash.json")],
                          env=env, encoding="utf-8", timeout=30, cwd=str(tmp_path))
    try:
        child.expect_exact("bot:greedy (good, Elo 1670)")
        child.expect_exact("Ana> ")
        child.send("h")  # one key, no Enter
        child.expect(_styled(r"Best: ", r"\[s\] ", r"draw from the stock"))
        child.expect(_styled(r"\[s\] ", r"\d+\.\d % ±\d+\.\d match", r" · \d+\.\d % round"))
        child.expect_exact("sampled deals")
        child.expect_exact("Ana> ")
        child.send("o")
        child.expect(_styled("Win chances: ", "You", " ", r"\d+ %", " · ", "bot:greedy", " ",
                             r"\d+ %"))
        child.expect_exact("Ana> ")
        child.send("o")
        child.expect_exact("Win chances hidden (o shows them).")
        child.expect_exact("Ana> ")
        child.sendcontrol("c")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 130
