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

__all__ = ["CommandFailed", "RecordBroken", "fail", "read_record"]


class CommandFailed(click.ClickException):
    """A command's clear refusal: click prints ``Error: message`` and exits with
    status 2 (bad input); the message is escaped so that no control or text-direction
    character from a record reaches the terminal."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(printable(message))


class RecordBroken(CommandFailed):
    """A record that breaks the rules at one of its moves: exit status 1, as
    :class:`~trashcards.errors.RecordError` says."""

    exit_code = 1


def fail(message: str, status: int = 2) -> NoReturn:
    """Stop the command with ``Error: message`` and exit status ``status`` (1 or 2).

    click declares ``exit_code`` a class variable (8.5), so each status is a class."""
    raise (RecordBroken if status == 1 else CommandFailed)(message)


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
