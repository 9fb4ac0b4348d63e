"""SQLite storage of tables: each table is its trash/1 record plus seat info and hashed
tokens, so a restart rebuilds every table by replaying its moves (no state snapshots).

The database runs in WAL mode with ``synchronous=NORMAL``: a committed move survives the
process being killed (``kill -9``); only an operating-system crash may lose the last few.
Every write is one short transaction; the server commits a move before sending it.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no second-process guard
    fcntl = None  # type: ignore[assignment]

__all__ = ["SeatRow", "Store", "StoreBusyError", "TableRow", "hash_token"]


class StoreBusyError(RuntimeError):
    """Another server process already uses this database (one writer per table)."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    rules TEXT NOT NULL,
    status TEXT NOT NULL,
    rematch TEXT
);
CREATE TABLE IF NOT EXISTS seats (
    table_id TEXT NOT NULL REFERENCES tables(id),
    seat INTEGER NOT NULL,
    kind TEXT NOT NULL,
    name TEXT,
    bot TEXT,
    token_hash TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS moves (
    table_id TEXT NOT NULL REFERENCES tables(id),
    idx INTEGER NOT NULL,
    move TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status, created);
CREATE INDEX IF NOT EXISTS seats_token ON seats(token_hash);
"""


def hash_token(token: str) -> str:
    """The stored form of a seat token (tokens are random, so a plain SHA-256 suffices)."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatRow:
    """One seat as stored: ``token_hash`` is ``None`` for bots and untaken open seats."""

    seat: int
    kind: str
    name: str | None
    bot: str | None
    token_hash: str | None


@dataclass
class TableRow:
    """One table as stored, with its seats and its record's moves (text, in order)."""

    id: str
    created: float
    rules: dict[str, Any]
    status: str
    rematch: str | None
    seats: list[SeatRow]
    moves: list[str]


class Store:
    """The tables in one SQLite file. Not thread-safe: one event loop uses it."""

    def __init__(self, path: Path | str) -> None:
        self._lock: IO[bytes] | None = None
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            self._lock = _exclusive(Path(str(path) + ".lock"))
        self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.executescript(_SCHEMA)

    def close(self) -> None:
        self._db.close()
        if self._lock is not None:
            self._lock.close()  # releases the lock
            self._lock = None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # -- writes ---------------------------------------------------------------------------

    def create_table(self, table_id: str, rules: dict[str, Any], seats: Sequence[SeatRow],
                     status: str, moves: Sequence[str] = ()) -> None:
        with self._transaction() as db:
            db.execute("INSERT INTO tables (id, created, rules, status) VALUES (?, ?, ?, ?)",
                       (table_id, time.time(), json.dumps(rules), status))
            db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                           [(table_id, s.seat, s.kind, s.name, s.bot, s.token_hash)
                            for s in seats])
            db.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                           [(table_id, i, m) for i, m in enumerate(moves)])

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE seats SET name = ?, token_hash = ? WHERE table_id = ? AND seat = ?",
                       (name, token_hash, table_id, seat))

    def add_moves(self, table_id: str, start: int, moves: Iterable[str],
                  status: str | None = None) -> None:
        """Append moves from index ``start`` (and set the status) in one transaction."""
        self.add_many([(table_id, start, moves, status)])

    def add_many(self, writes: Iterable[tuple[str, int, Iterable[str], str | None]]) -> None:
        """Several :meth:`add_moves` in one transaction: all are written or none."""
        with self._transaction() as db:
            rows: list[tuple[str, int, str]] = []
            for table_id, start, moves, status in writes:
                rows.extend((table_id, start + i, m) for i, m in enumerate(moves))
                if status is not None:
                    db.execute("UPDATE tables SET status = ? WHERE id = ?", (status, table_id))
            db.executemany("INSERT INTO moves VALUES (?, ?, ?)", rows)

    def set_rematch(self, table_id: str, rematch_id: str) -> None:
        with self._transaction() as db:
            db.execute("UPDATE tables SET rematch = ? WHERE id = ?", (rematch_id, table_id))

    # -- reads ----------------------------------------------------------------------------

    def load(self, table_id: str) -> TableRow | None:
        row = self._db.execute("SELECT id, created, rules, status, rematch FROM tables "
                               "WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        seats = [SeatRow(*r) for r in self._db.execute(
            "SELECT seat, kind, name, bot, token_hash FROM seats WHERE table_id = ? "
            "ORDER BY seat", (table_id,))]
        moves = [r[0] for r in self._db.execute(
            "SELECT move FROM moves WHERE table_id = ? ORDER BY idx", (table_id,))]
        return TableRow(row[0], row[1], json.loads(row[2]), row[3], row[4], seats, moves)

    def ids(self, statuses: Sequence[str], limit: int = -1) -> list[str]:
        """Table ids with one of ``statuses``, newest first."""
        marks = ", ".join("?" * len(statuses))
        return [r[0] for r in self._db.execute(
            f"SELECT id FROM tables WHERE status IN ({marks}) ORDER BY created DESC LIMIT ?",
            (*statuses, limit))]


def _exclusive(path: Path) -> IO[bytes]:
    """Hold an exclusive lock on ``path`` for as long as the file stays open, so that two
    server processes never write the same tables. The OS drops it if the process dies."""
    handle = path.open("ab")
    if fcntl is not None:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StoreBusyError(f"another trashcards server is using {path.with_suffix('')}"
                                 ) from None
    return handle
