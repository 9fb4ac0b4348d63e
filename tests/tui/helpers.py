"""Shared pieces for the terminal tests: a scripted reader, a console that records, and
a script of keys that always makes progress."""

from __future__ import annotations

import io
import itertools
from collections.abc import Iterable, Iterator

from rich.console import Console

#: Keys that answer any prompt of a 5-slot board within one cycle: ``s`` draws, ``w``
#: swaps, and one of the digits names a face-down slot for a wild; the rest are refused
#: with a message and the prompt comes again.
CYCLE_KIDS = ("s", "w", "1", "2", "3", "4", "5")


def cycle_script(lines: int, keys: Iterable[str] = CYCLE_KIDS) -> list[str]:
    """``lines`` answers repeating ``keys``."""
    return list(itertools.islice(itertools.cycle(keys), lines))


class ScriptReader:
    """Answers prompts from a list; the end of the list is the end of the input. Every
    prompt shown is kept in :attr:`prompts`."""

    def __init__(self, answers: Iterable[str], interrupt_at_end: bool = False) -> None:
        self._answers: Iterator[str] = iter(answers)
        self.prompts: list[str] = []
        self.interrupt_at_end = interrupt_at_end

    def read(self, prompt: str) -> str:
        self.prompts.append(prompt)
        try:
            return next(self._answers)
        except StopIteration:
            if self.interrupt_at_end:
                raise KeyboardInterrupt from None
            raise EOFError from None


def recording_console(width: int = 100) -> Console:
    """A console that writes plain text to memory (read it with ``.file.getvalue()``)."""
    return Console(file=io.StringIO(), width=width, color_system=None, highlight=False,
                   force_terminal=False)


def output(console: Console) -> str:
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()
