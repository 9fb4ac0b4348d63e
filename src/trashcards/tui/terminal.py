"""Reading the players' keys in the line mode: whole lines (a pipe, a script, any
terminal) or single key presses (a real terminal). Both raise :class:`EOFError` at the
end of the input and let Ctrl-C through as :class:`KeyboardInterrupt`. An arrow or
function key is never echoed as its raw escape code: a line read from a terminal is
edited with readline, and a key press that is not text is answered ``"\x1b"``, which
the keys refuse without echoing it."""

from __future__ import annotations

import contextlib
import sys
from typing import Protocol, TextIO

import click
from rich.console import Console

__all__ = ["KeyPressReader", "LineReader", "Reader"]


class Reader(Protocol):
    """Shows a prompt and returns what the player typed (without the line end)."""

    def read(self, prompt: str) -> str: ...


class LineReader:
    """One answer per line of ``stream``. With ``echo`` (input that is not a terminal)
    the answer is printed after the prompt, so a transcript reads like a session."""

    def __init__(self, stream: TextIO, console: Console, *, echo: bool) -> None:
        self.stream = stream
        self.console = console
        self.echo = echo

    def read(self, prompt: str) -> str:
        if self._interactive():
            return self._read_edited(prompt)
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        line = self.stream.readline()
        if not line:
            self.console.print()
            raise EOFError
        answer = line.rstrip("\r\n")
        if self.echo:
            self.console.print(answer, markup=False, highlight=False)
        return answer

    def _interactive(self) -> bool:
        return (self.stream is sys.stdin and self.stream.isatty()
                and self.console.file is sys.stdout)

    def _read_edited(self, prompt: str) -> str:
        """A line typed at a terminal, with line editing (arrows move in the line)."""
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - importing it gives input() line editing
        return input(prompt)


class KeyPressReader:
    """One key press per answer, no Enter needed (Enter itself answers ``""``)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def read(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        key = click.getchar()  # raises KeyboardInterrupt on Ctrl-C, EOFError on Ctrl-D
        return self.answer(key)

    def answer(self, key: str) -> str:
        """What a key press answers, echoed after the prompt: Enter is ``""``; a key that
        is not text (an arrow, F1: an escape sequence) is ``"\x1b"`` and not echoed."""
        if key in ("\r", "\n"):
            answer = ""
        elif key.startswith("\x1b") or not key.isprintable():
            answer = "\x1b"
        else:
            answer = key
        self.console.print(answer if answer.isprintable() else "", markup=False,
                           highlight=False)
        return answer
