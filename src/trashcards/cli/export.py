"""``trashcards export``: save the game records of a server's database as files, e.g.
before finished tables are purged (``serve --retention``)."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path
from typing import Any

import click

from .records import fail

__all__ = ["export"]

#: What a table id may look like to become part of a file name.
_SAFE_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


@click.command()
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--db", "db", default=None, metavar="FILE|URL",
              help="The server's database: an SQLite file [default: the one 'trashcards "
                   "serve' uses] or a PostgreSQL URL.")
@click.option("--unfinished", is_flag=True,
              help="Also tables still playing or waiting: their records stop before the "
                   "current round's deal, as the browser's download does.")
@click.option("--table", "tables", multiple=True, metavar="ID",
              help="Only this table (repeatable).")
@click.option("--force", is_flag=True,
              help="Also replace records an earlier export wrote that were changed since "
                   "(never a file an export did not write).")
def export(directory: Path, db: str | None, unfinished: bool, tables: tuple[str, ...],
           force: bool) -> None:
    """Write the record of every finished table to DIRECTORY as trash-ID.trash.json.

    Reads the database only, so it may run while the server does. Exit status 1 if a
    table could not be exported (it is named, with the reason). 'trashcards import'
    puts the finished ones back.

    DIRECTORY must be new (in a folder that exists), empty or one an earlier export
    wrote (it lists its files in DIRECTORY/.trashcards-files.json): an export replaces
    only the records an earlier one wrote, unchanged since, and follows no link.
    """
    from ..web import default_db_path
    from ..web.storage import is_postgres
    where: Path | str = db if db is not None and is_postgres(db) else Path(db or default_db_path())
    sys.exit(asyncio.run(_export(where, directory, unfinished, tables, force)))


def _file_name(table_id: str) -> str:
    return f"trash-{table_id}.trash.json"


async def _export(db: Path | str, directory: Path, unfinished: bool,
                  tables: tuple[str, ...], force: bool) -> int:
    from rich.progress import track

    from ..files import OutputError, OutputFolder
    from ..names import printable
    from ..web import Settings
    from ..web.backends import open_storage
    from ..web.hub import Hub
    from ..web.store import StoreError

    settings = Settings(db_path=db)
    try:
        store = await open_storage(db, readonly=True)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    failed = 0
    written = 0
    folder: OutputFolder | None = None
    try:
        statuses = ("over", "playing", "waiting") if unfinished else ("over",)
        ids = list(tables) or await store.ids(statuses)
        try:
            folder = OutputFolder(directory, "export", force)
            folder.check(_file_name(t) for t in ids if _SAFE_ID.fullmatch(t))
        except OutputError as exc:
            fail(str(exc))
        hub = Hub(settings, store)
        for table_id in track(ids, description="Exporting", transient=True,
                              disable=len(ids) < 50):
            table: Any = (await hub.get(table_id, claim=False)
                          if _SAFE_ID.fullmatch(table_id) else None)
            if table is None:
                failed += 1
                reason = hub.quarantined.get(table_id, "there is no such table")
                click.echo(f"{printable(table_id)}: not exported: {printable(reason)}", err=True)
                continue
            hub.tables.pop(table_id, None)
            if table.status != "over" and not unfinished:
                failed += 1
                click.echo(f"{printable(table_id)}: not exported: not finished "
                           "(--unfinished exports it)", err=True)
                continue
            record, _complete = table.record()
            try:
                folder.write(_file_name(table_id), record.dumps().encode("utf-8"))
            except (OSError, UnicodeError, OutputError) as exc:
                failed += 1
                click.echo(f"{printable(table_id)}: not exported: {exc}", err=True)
                continue
            written += 1
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        if folder is not None:
            folder.close()
        await store.close()
    click.echo(f"exported {written} record(s) to {directory}"
               + (f"; {failed} not exported" if failed else ""))
    return 1 if failed else 0
