"""``trashcards import``: put game records (as ``trashcards export`` writes them) back
into a server's database as finished tables, e.g. to restore a backup of records or to
move them from SQLite to PostgreSQL."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import click

__all__ = ["import_records"]

#: ``trash-ID.trash.json``: the table id a file exported by ``trashcards export`` had.
_EXPORTED = re.compile(r"trash-([A-Za-z0-9_-]{1,64})\.trash\.json")


@click.command("import")
@click.argument("files", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--db", "db", default=None, metavar="FILE|URL",
              help="The server's database: an SQLite file [default: the one 'trashcards "
                   "serve' uses] or a PostgreSQL URL.")
def import_records(files: tuple[Path, ...], db: str | None) -> None:
    """Add each finished game record in FILES (files, or folders of *.trash.json) to the
    database as a finished table, under the id in its file name (trash-ID.trash.json)
    when that id is free, else under a new one.

    Each record is replayed first: a record that breaks the rules, with a player name
    the server would refuse (1 to 24 characters, no control, line-break or
    text-direction character), or that is not finished (an export of a table still
    playing stops before the current deal, so it cannot be resumed), is named with the
    reason and left out; exit status 1 then.
    With SQLite, stop the server first (one process writes the file); with PostgreSQL
    it may run beside the servers.
    """
    from ..web import default_db_path
    from ..web.storage import is_postgres
    where: Path | str = db if db is not None and is_postgres(db) else Path(db or default_db_path())
    paths: list[Path] = []
    for item in files:
        paths += sorted(item.glob("*.trash.json")) if item.is_dir() else [item]
    sys.exit(asyncio.run(_import(where, paths)))


async def _import(db: Path | str, paths: list[Path]) -> int:
    from rich.progress import track

    from ..errors import TrashError
    from ..names import printable
    from ..record import loads
    from ..state import Phase
    from ..web.backends import open_storage
    from ..web.settings import _new_id
    from ..web.store import SeatRow, StoreError

    try:
        store = await open_storage(db)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    imported = failed = 0
    try:
        for path in track(paths, description="Importing", transient=True,
                          disable=len(paths) < 50):
            try:
                record = loads(path.read_bytes())
                names = [_name(seat, name) for seat, name in enumerate(record.players)]
                final = record.replay()
            except (OSError, TrashError) as exc:
                failed += 1
                click.echo(f"{printable(str(path))}: not imported: {exc}", err=True)
                continue
            if final.phase is not Phase.MATCH_OVER:
                failed += 1
                click.echo(f"{printable(str(path))}: not imported: the match is not "
                           "finished (a partial record cannot be resumed)", err=True)
                continue
            named = _EXPORTED.fullmatch(path.name)
            table_id = named.group(1) if named else _new_id()
            while await store.load(table_id) is not None:
                table_id = _new_id()
            seats = [SeatRow(n, "me", name, None, None) for n, name in enumerate(names)]
            await store.create_table(table_id, record.rules.to_dict(), seats, "over",
                                     [str(m) for m in record.moves])
            await store.release(table_id)
            imported += 1
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        await store.close()
    click.echo(f"imported {imported} record(s)" + (f"; {failed} not imported" if failed else ""))
    return 1 if failed else 0


def _name(seat: int, name: str) -> str:
    """The name of ``seat`` by the server's rules (trimmed); raises
    :class:`~trashcards.names.NameRefusedError` saying which seat's name and why."""
    from ..names import NameRefusedError, check_name

    try:
        return check_name(name)
    except NameRefusedError as exc:
        raise NameRefusedError(f"the name of seat {seat}: {exc}") from None
