"""``trashcards replay``: replay a record and print the position."""

from __future__ import annotations

import json
import sys

import click

from ..errors import RecordError, TrashError
from ..record import Record, load, loads
from ..state import State
from ..statejson import revealed_json, view_json
from ..views import view

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
    record cannot be read.
    """
    try:
        record = loads(sys.stdin.read()) if file == "-" else load(file)
        state = record.replay(upto)
    except RecordError as exc:
        click.echo(f"trashcards replay: {exc}", err=True)
        sys.exit(exc.exit_status)
    except TrashError as exc:  # pragma: no cover - every record error is a RecordError
        click.echo(f"trashcards replay: {exc}", err=True)
        sys.exit(2)
    if as_json:
        data = revealed_json(state) if reveal else view_json(view(state))
        click.echo(json.dumps(data, ensure_ascii=False))
    else:
        _print_position(record, state, reveal, upto)


def _print_position(record: Record, state: State, reveal: bool, upto: int | None) -> None:
    from .position import render_position  # rich is loaded only for people

    applied = len(record.moves) if upto is None else min(upto, len(record.moves))
    render_position(state, reveal=reveal, title=f"after {applied} of {len(record.moves)} moves")
