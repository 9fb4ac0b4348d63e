"""Reading a record for a command, and the one way a command fails: ``Error: message``
on standard error, with the exit status of ``trashcards replay`` (1: a move breaks the
rules; 2: the record cannot be read)."""

from __future__ import annotations

import sys
from typing import NoReturn

import click

from ..errors import RecordError
from ..names import printable
from ..record import MAX_SIZE, Record, load, loads

__all__ = ["CommandFailed", "fail", "read_record"]


class CommandFailed(click.ClickException):
    """A command's clear refusal: click prints ``Error: message`` and exits with
    ``exit_code``; the message is escaped so that no control or text-direction
    character from a record reaches the terminal."""

    def __init__(self, message: str, exit_code: int = 2) -> None:
        super().__init__(printable(message))
        self.exit_code = exit_code


def fail(message: str, status: int = 2) -> NoReturn:
    """Stop the command with ``Error: message`` and exit status ``status``."""
    raise CommandFailed(message, status)


def read_record(file: str, *, check: bool = True) -> Record:
    """The record in ``file`` ('-': standard input, read up to the record size limit),
    with every move checked by a replay unless ``check`` is false."""
    try:
        record = loads(sys.stdin.buffer.read(MAX_SIZE + 1)) if file == "-" else load(file)
        if check:
            record.replay()
    except RecordError as exc:  # RecordFormatError (2) is one
        fail(str(exc), exc.exit_status)
    return record
