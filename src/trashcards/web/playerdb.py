"""The players' tables in the server's database, through one small interface for both
backends: :class:`Sql` runs a statement written once, with ``%s`` placeholders, on the
SQLite file of the tables (the store's own connection: one file, one lock) or on the
PostgreSQL database (a pool of its own beside the tables' one).

A transaction on SQLite must not wait on anything but its own statements (the store's
writes share the connection): no ``await`` of other work inside one.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import AsyncIterator, Sequence
from typing import Any, Protocol

from .storage import SqliteStorage, Storage
from .store import StoreError, WriteError

__all__ = ["Sql", "open_sql"]

Row = tuple[Any, ...]


class Sql(Protocol):
    """Statements on the players' tables; a failure is a
    :class:`~trashcards.web.store.StoreError` (a write's a ``WriteError``)."""

    postgres: bool

    async def fetch(self, query: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def run(self, query: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; the number of rows it changed."""

    def transaction(self) -> contextlib.AbstractAsyncContextManager[Sql]:
        """One transaction: the statements of the ``Sql`` it gives are committed
        together, or none."""

    async def close(self) -> None: ...


class SqliteSql:
    """The players' tables in the store's SQLite file."""

    postgres = False

    def __init__(self, db: sqlite3.Connection, in_transaction: bool = False) -> None:
        self._db = db
        self._in = in_transaction

    async def fetch(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        try:
            return list(self._db.execute(query.replace("%s", "?"), tuple(params)))
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the players' tables: {exc}") from None

    async def run(self, query: str, params: Sequence[Any] = ()) -> int:
        if not self._in:
            async with self.transaction() as sql:
                return await sql.run(query, params)
        try:
            return self._db.execute(query.replace("%s", "?"), tuple(params)).rowcount
        except sqlite3.IntegrityError:
            raise
        except sqlite3.Error as exc:
            raise WriteError(f"cannot write the players' tables: {exc}") from None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Sql]:
        if self._in:
            yield self
            return
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise WriteError(f"cannot write the players' tables: {exc}") from None
        try:
            yield SqliteSql(self._db, in_transaction=True)
            self._db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            raise

    async def close(self) -> None:
        return None


class PostgresSql:
    """The players' tables in the PostgreSQL database of the tables."""

    postgres = True

    def __init__(self, pool: Any, conn: Any = None) -> None:
        self._pool = pool
        self._conn = conn

    @classmethod
    async def connect(cls, url: str) -> PostgresSql:
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(url, min_size=1, max_size=4, open=False, timeout=10,
                                   kwargs={"autocommit": True})
        await pool.open(wait=True, timeout=10)
        return cls(pool)

    async def fetch(self, query: str, params: Sequence[Any] = ()) -> list[Row]:
        return await self._do(query, params, fetch=True)  # type: ignore[no-any-return]

    async def run(self, query: str, params: Sequence[Any] = ()) -> int:
        return await self._do(query, params, fetch=False)  # type: ignore[no-any-return]

    async def _do(self, query: str, params: Sequence[Any], fetch: bool) -> Any:
        import psycopg

        try:
            if self._conn is not None:
                cursor = await self._conn.execute(query, tuple(params))
                return await cursor.fetchall() if fetch else cursor.rowcount
            async with self._pool.connection() as conn:
                cursor = await conn.execute(query, tuple(params))
                return await cursor.fetchall() if fetch else cursor.rowcount
        except psycopg.errors.UniqueViolation:
            raise
        except psycopg.Error as exc:
            kind = StoreError if fetch else WriteError
            raise kind(f"the players' tables failed: {exc}") from None

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Sql]:
        if self._conn is not None:
            yield self
            return
        import psycopg

        try:
            async with self._pool.connection() as conn, conn.transaction():
                yield PostgresSql(self._pool, conn)
        except psycopg.errors.UniqueViolation:
            raise
        except psycopg.Error as exc:
            raise WriteError(f"the players' tables failed: {exc}") from None

    async def close(self) -> None:
        await self._pool.close()


async def open_sql(storage: Storage) -> Sql:
    """The players' tables of the database ``storage`` keeps the tables in."""
    if isinstance(storage, SqliteStorage):
        return SqliteSql(storage.store.connection())
    url = getattr(storage, "url", None)
    if not isinstance(url, str):
        raise StoreError("the players' tables need an SQLite or a PostgreSQL database")
    try:
        return await PostgresSql.connect(url)
    except Exception as exc:  # the pool's own errors are not psycopg's
        raise StoreError(f"cannot connect to the players' tables: {exc}") from None


def is_unique_violation(exc: BaseException) -> bool:
    """Whether ``exc`` is a uniqueness conflict (a name or an id taken)."""
    if isinstance(exc, sqlite3.IntegrityError):
        return "UNIQUE" in str(exc)
    return type(exc).__name__ == "UniqueViolation"
