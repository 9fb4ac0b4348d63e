"""Open the server's storage: the factory above both backends.

:func:`open_storage` picks :class:`~trashcards.web.storage.SqliteStorage` or
:class:`~trashcards.web.postgres.PostgresStorage` from the database given to
``trashcards serve --db``. It lives here, above :mod:`trashcards.web.storage` (the
interface and the SQLite backend) and :mod:`trashcards.web.postgres`, so that the
interface never imports a backend. The PostgreSQL backend (and psycopg) is imported only
when a ``postgresql://`` URL is opened.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from .storage import SqliteStorage, Storage, is_postgres
from .store import Store

__all__ = ["is_postgres", "open_storage"]


async def open_storage(db: Path | str, *, readonly: bool = False,
                       store: Callable[..., Store] = Store,
                       clock: Callable[[], float] | None = None,
                       **options: Any) -> Storage:
    """The storage of ``db``: a PostgreSQL URL or an SQLite file (opened with ``store``,
    which tests replace). Raises :class:`StoreError` with what is wrong."""
    if is_postgres(db):
        # imported only when asked for: psycopg need not be installed for SQLite
        from .postgres import PostgresStorage

        return await PostgresStorage.connect(str(db), readonly=readonly, clock=clock,
                                             **options)
    extra: dict[str, Any] = {"readonly": readonly} if readonly else {}
    if clock is not None:
        extra["clock"] = clock
    return SqliteStorage(store(db, **extra))
