"""Reading the players' keys: whole lines (a pipe, a script, any terminal) or single key
presses (a real terminal). Both raise :class:`EOFError` at the end of the input and let
Ctrl-C through as :class:`KeyboardInterrupt`."""

from __future__ import annotations

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


class KeyPressReader:
    """One key press per answer, no Enter needed (Enter itself answers ``""``)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    def read(self, prompt: str) -> str:
        self.console.print(prompt, end="", markup=False, highlight=False)
        self.console.file.flush()
        key = click.getchar()  # raises KeyboardInterrupt on Ctrl-C, EOFError on Ctrl-D
        answer = "" if key in ("\r", "\n") else key
        self.console.print(answer if answer.isprintable() else "", markup=False,
                           highlight=False)
        return answer
