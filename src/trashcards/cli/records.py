"""Reading a record for a command: the record and its state after N moves, or a clear
error and the exit status of ``trashcards replay`` (1: a move breaks the rules; 2: the
record cannot be read)."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from ..errors import RecordError
from ..record import Record, load, loads

__all__ = ["fail", "read_record"]


def fail(command: str, message: str, status: int = 2) -> NoReturn:
    """Print ``trashcards COMMAND: message`` on standard error and exit."""
    click.echo(f"trashcards {command}: {message}", err=True)
    sys.exit(status)


def read_record(command: str, file: str) -> Record:
    """The record in ``file`` ('-': standard input), every move checked by a replay."""
    try:
        record = loads(sys.stdin.read()) if file == "-" else load(file)
        record.replay()
    except RecordError as exc:
        fail(command, str(exc), exc.exit_status)
    return record
