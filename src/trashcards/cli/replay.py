"""``trashcards replay``: replay a record and print the position."""

from __future__ import annotations

import dataclasses
import json

import click

from ..errors import RecordError
from ..names import printable
from ..record import Record
from ..state import State
from ..statejson import revealed_json, view_json
from ..views import view
from .records import fail, read_record

__all__ = ["replay"]


@click.command()
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True, help="Print the state as JSON (RECORDS.md).")
@click.option("--reveal", is_flag=True,
              help="Show face-down cards and the stock order (otherwise: a spectator's view).")
@click.option("--upto", type=click.IntRange(min=0), default=None, metavar="N",
              help="Apply only the first N moves (move 0 is the dealer move).")
def replay(file: str, as_json: bool, reveal: bool, upto: int | None) -> None:
    """Replay the trash/1 record FILE ('-' for standard input) and print the position.

    Exit status: 0 when every move applied; 1 when a move breaks the rules; 2 when the
    record cannot be read. Names and texts from the record are printed with control,
    line-break and text-direction characters escaped.
    """
    record = read_record(file, check=False)
    if not as_json:  # names for people: escaped (the JSON keeps them exact)
        record = dataclasses.replace(record, players=tuple(map(printable, record.players)))
    try:
        state = record.replay(upto)
    except RecordError as exc:
        fail(str(exc), exc.exit_status)
    if as_json:
        data = revealed_json(state) if reveal else view_json(view(state))
        click.echo(json_for_terminal(data))
    else:
        _print_position(record, state, reveal, upto)


def json_for_terminal(data: object) -> str:
    """``data`` as one line of JSON whose every unsafe character (control, surrogate,
    line-break, text-direction) is a ``\\uXXXX`` escape: the same JSON value, safe to
    print."""
    text = json.dumps(data, ensure_ascii=False)
    if printable(text) == text:
        return text
    return "".join(char if printable(char) == char else f"\\u{ord(char):04x}"
                   for char in text)


def _print_position(record: Record, state: State, reveal: bool, upto: int | None) -> None:
    from .position import render_position  # rich is loaded only for people

    applied = len(record.moves) if upto is None else min(upto, len(record.moves))
    render_position(state, reveal=reveal, title=f"after {applied} of {len(record.moves)} moves")
