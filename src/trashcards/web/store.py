"""SQLite storage of tables: each table is its trash/1 record plus seat info and hashed
tokens, so a restart rebuilds every table by replaying its moves (no state snapshots).

The database runs in WAL mode with ``synchronous=NORMAL``: a committed move survives the
process being killed (``kill -9``); only an operating-system crash may lose the last few.
Every write is one short transaction; the server commits a move before sending it.

One server owns a database: :class:`Store` holds an exclusive ``flock`` on the database
file itself, so the lock follows the file (its device and inode), not a path: a symlink,
a hard link or a deleted side file cannot let a second server in. Every problem with the
file is a :class:`StoreError` whose message says what is wrong, for a clear error at
start; a failed write is a :class:`WriteError` and nothing of it was written.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from .playerschema import PLAYER_COLUMNS, player_tables

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: no second-process guard
    fcntl = None  # type: ignore[assignment]

__all__ = ["MIGRATIONS", "FinalTakenError", "MoveWrite", "NewTable", "PartyRow", "SeatRow",
           "SeatTakenError", "Store", "StoreBusyError", "StoreError", "TableRow", "WriteError",
           "hash_token"]

#: ``PRAGMA application_id`` of a trashcards database ("TRSH").
APPLICATION_ID: Final = 0x54525348


class StoreError(RuntimeError):
    """The database cannot be used as it is; the message says why and what to do."""


class StoreBusyError(StoreError):
    """Another server process already uses this database (one writer per database)."""


class WriteError(StoreError):
    """A write failed (disk full, read-only, I/O error, the file replaced): nothing of
    it was written."""


class SeatTakenError(WriteError):
    """The seat was taken by someone else first: nothing was written."""


class FinalTakenError(StoreError):
    """The party got its final table from another writer first: nothing was written."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    rules TEXT NOT NULL,
    status TEXT NOT NULL,
    rematch TEXT,
    ready TEXT NOT NULL DEFAULT '[]',
    finished REAL,
    cuts TEXT,
    party TEXT,
    hints INTEGER
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
CREATE TABLE IF NOT EXISTS parties (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    data TEXT NOT NULL,
    final TEXT
);
CREATE INDEX IF NOT EXISTS tables_status ON tables(status, created);
CREATE INDEX IF NOT EXISTS seats_token ON seats(token_hash)
"""
#: Columns added before the schema had versions, with their definitions.
_ADDED_COLUMNS: Final = {"ready": "TEXT NOT NULL DEFAULT '[]'", "finished": "REAL",
                          "cuts": "TEXT", "party": "TEXT",
                         "hints": "INTEGER"}


def _version_1(db: sqlite3.Connection) -> None:
    """The schema as it was when versions began: whatever a database made before then
    lacks (tables, indexes, the columns added since the first release) is added."""
    for statement in _SCHEMA.split(";"):
        db.execute(statement)
    columns = {r[1] for r in db.execute("PRAGMA table_info(tables)")}
    for column, definition in _ADDED_COLUMNS.items():
        if column not in columns:
            db.execute(f"ALTER TABLE tables ADD COLUMN {column} {definition}")
    db.execute("CREATE INDEX IF NOT EXISTS tables_party ON tables(party)")


def _version_2(db: sqlite3.Connection) -> None:
    """The players' tables: accounts, passkeys, sessions, ratings, the games of players
    and the pairing pool (:mod:`trashcards.web.playerschema`)."""
    for statement in player_tables(postgres=False):
        db.execute(statement)


def _version_3(db: sqlite3.Connection) -> None:
    """The time of each table's last real activity (a person's move, the last person
    leaving), so that a restart keeps the clock of abandoned tables; the tables stored
    before it count from now."""
    db.execute("ALTER TABLE tables ADD COLUMN active REAL")
    db.execute("UPDATE tables SET active = ?", (time.time(),))


def _version_4(db: sqlite3.Connection) -> None:
    """Whether a table's seats may send reactions (NULL: stored before the option)."""
    db.execute("ALTER TABLE tables ADD COLUMN reactions INTEGER")


#: The schema, one migration per version (``PRAGMA user_version``, 0 for a new file or
#: one made before versions were kept), each applied in its own transaction with the
#: version it reaches: like the PostgreSQL backend's numbered migrations. Never edit a
#: released one; add the next.
MIGRATIONS: Final[tuple[Callable[[sqlite3.Connection], None], ...]] = (
    _version_1, _version_2, _version_3, _version_4)
#: The columns of each table that this version writes (any other column must have a
#: default or allow NULL, or every insert would fail).
_COLUMNS: Final = {
    "tables": {"id", "created", "rules", "status", "rematch", "ready", "finished", "cuts",
               "party", "hints", "active", "reactions"},
    "seats": {"table_id", "seat", "kind", "name", "bot", "token_hash"},
    "moves": {"table_id", "idx", "move"},
    "parties": {"id", "created", "data", "final"},
    **PLAYER_COLUMNS,
}


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
    #: seats that asked for the next round during the current pause
    ready: list[int] = field(default_factory=list)
    finished: float | None = None
    #: the cards cut for the first dealer, as JSON ``[[seat, "7h"], ...]`` (the record
    #: keeps only the dealer's seat)
    cuts: str | None = None
    #: the party the table belongs to, if any
    party: str | None = None
    #: whether the seats may ask for hints (``None``: a table stored before the option)
    hints: bool | None = None
    #: whether the seats may send reactions (``None``: a table stored before the option)
    reactions: bool | None = None
    #: the process that owns the table (a shared database only)
    owner: str | None = None
    #: when a person last moved at the table or the last connection left it (seconds
    #: since the epoch; ``None``: not known)
    active: float | None = None


@dataclass
class PartyRow:
    """One party as stored: its description (JSON, kept by :mod:`~trashcards.web.party`)
    and its final table, once made."""

    id: str
    created: float
    data: dict[str, Any]
    final: str | None


@dataclass(frozen=True)
class NewTable:
    """A table to write: its seats, its first moves (if it starts at once) and the cards
    cut for the first dealer (JSON), and the party it belongs to."""

    id: str
    rules: dict[str, Any]
    seats: Sequence[SeatRow]
    status: str
    moves: Sequence[str] = ()
    cuts: str | None = None
    party: str | None = None
    hints: bool = False
    reactions: bool = True


@dataclass(frozen=True)
class MoveWrite:
    """Moves to append to one table from index ``start``; ``status`` (if given) becomes
    the table's; ``clear_ready`` forgets who asked for the next round (a deal)."""

    table_id: str
    start: int
    moves: Sequence[str]
    status: str | None = None
    clear_ready: bool = False
    #: the cards cut for the first dealer (JSON), written with the first moves
    cuts: str | None = None
    #: a person made these moves at this time (seconds since the epoch): the table's
    #: last real activity
    active: float | None = None


class Store:
    """The tables in one SQLite file. Not thread-safe: one event loop uses it.

    ``readonly`` opens an existing database for reading only and takes no lock (for
    ``serve --check`` and ``export``, which may run beside the server). ``clock`` gives
    the times kept (creation, end of the match), in seconds since the epoch.
    """

    def __init__(self, path: Path | str, *, readonly: bool = False,
                 clock: Callable[[], float] = time.time) -> None:
        self.path = path
        self.clock = clock
        self._lock: int | None = None
        self._identity: tuple[int, int] | None = None
        memory = str(path) == ":memory:"
        if not memory:
            self._lock, self._identity = _claim(Path(path), readonly)
        try:
            self._db = _connect(str(path), readonly)
        except StoreError:
            self._unlock()
            raise
        #: the activity and reactions columns, or NULL in a file from before them (opened
        #: read-only)
        columns = {r[1] for r in self._db.execute("PRAGMA table_info(tables)")}
        self._active = "active" if "active" in columns else "NULL"
        self._reactions = "reactions" if "reactions" in columns else "NULL"
        if not readonly:
            self._probe_write()

    # -- opening --------------------------------------------------------------------------

    def _probe_write(self) -> None:
        """Fail now, not at the first move, if the database cannot be written."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            self.close()
            raise StoreError(f"cannot write the database {self.path}: {exc} (is the file or "
                             "its directory read-only, or the disk full?)") from None

    def connection(self) -> sqlite3.Connection:
        """The open connection, for the players' tables (:mod:`trashcards.web.playerdb`),
        which share the file and its lock. Used on the event loop only, like the store."""
        return self._db

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._unlock()

    def _unlock(self) -> None:
        if self._lock is not None:
            os.close(self._lock)  # releases the lock
            self._lock = None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One write transaction; any failure is a :class:`WriteError` and rolls back."""
        self._check_identity()
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as exc:
            raise WriteError(f"cannot write the database: {exc}") from None
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise WriteError(f"cannot write the database: {exc}") from None
            raise

    def _check_identity(self) -> None:
        """Refuse to write if the database file was deleted or replaced under us: the
        writes would go to a file nobody will read again."""
        if self._identity is None:
            return
        try:
            info = os.stat(self.path)
        except OSError:
            raise WriteError(f"the database file {self.path} was deleted") from None
        if (info.st_dev, info.st_ino) != self._identity:
            raise WriteError(f"the database file {self.path} was replaced by another file")

    # -- writes ---------------------------------------------------------------------------

    def create_table(self, table_id: str, rules: dict[str, Any], seats: Sequence[SeatRow],
                     status: str, moves: Sequence[str] = (),
                     rematch_of: str | None = None, cuts: str | None = None,
                     party: str | None = None, hints: bool = False,
                     reactions: bool = True) -> None:
        """A new table with its seats (and its first moves if it starts at once, with the
        cards cut for the dealer); with ``rematch_of``, that table's rematch is set to it
        in the same transaction."""
        table = NewTable(table_id, rules, seats, status, moves, cuts, party, hints, reactions)
        with self._transaction() as db:
            self._insert(db, table)
            if rematch_of is not None:
                db.execute("UPDATE tables SET rematch = ? WHERE id = ?", (table_id, rematch_of))

    def _insert(self, db: sqlite3.Connection, table: NewTable) -> None:
        now = self.clock()
        db.execute("INSERT INTO tables (id, created, rules, status, cuts, party, hints, "
                   "active, reactions) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   (table.id, now, json.dumps(table.rules), table.status, table.cuts,
                    table.party, int(table.hints), now, int(table.reactions)))
        db.executemany("INSERT INTO seats VALUES (?, ?, ?, ?, ?, ?)",
                       [(table.id, s.seat, s.kind, s.name, s.bot, s.token_hash)
                        for s in table.seats])
        db.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                       [(table.id, i, m) for i, m in enumerate(table.moves)])

    def create_party(self, party_id: str, data: dict[str, Any],
                     tables: Sequence[NewTable]) -> None:
        """A new party and its tables, in one transaction."""
        with self._transaction() as db:
            db.execute("INSERT INTO parties (id, created, data) VALUES (?, ?, ?)",
                       (party_id, self.clock(), json.dumps(data)))
            for table in tables:
                self._insert(db, table)

    def set_party_final(self, party_id: str, final: NewTable) -> None:
        """The final table of a party, made and linked in one transaction; raises
        :class:`FinalTakenError` (nothing written) if it has one already."""
        with self._transaction() as db:
            self._insert(db, final)
            linked = db.execute("UPDATE parties SET final = ? WHERE id = ? AND final IS NULL",
                                (final.id, party_id))
            if linked.rowcount != 1:
                raise FinalTakenError(f"party {party_id} has its final table already")

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                  moves: Sequence[str] = (), status: str | None = None,
                  cuts: str | None = None) -> None:
        """Give an open seat its person; with ``moves`` (the last seat: the cut and the
        deal) the match starts in the same transaction."""
        with self._transaction() as db:
            taken = db.execute("UPDATE seats SET name = ?, token_hash = ? WHERE table_id = ? "
                               "AND seat = ? AND kind = 'open' AND token_hash IS NULL",
                               (name, token_hash, table_id, seat))
            if taken.rowcount != 1:
                raise SeatTakenError(f"seat {seat} is taken")
            self._append(db, MoveWrite(table_id, 0, moves, status, cuts=cuts))

    def add_moves(self, table_id: str, start: int, moves: Iterable[str],
                  status: str | None = None) -> None:
        """Append moves from index ``start`` (and set the status) in one transaction."""
        self.add_many([MoveWrite(table_id, start, tuple(moves), status)])

    def add_many(self, writes: Iterable[MoveWrite]) -> None:
        """Several :class:`MoveWrite` in one transaction: all are written or none."""
        with self._transaction() as db:
            for write in writes:
                self._append(db, write)

    def _append(self, db: sqlite3.Connection, write: MoveWrite) -> None:
        db.executemany("INSERT INTO moves VALUES (?, ?, ?)",
                       [(write.table_id, write.start + i, m) for i, m in enumerate(write.moves)])
        if write.status is not None:
            finished = self.clock() if write.status == "over" else None
            db.execute("UPDATE tables SET status = ?, finished = ? WHERE id = ?",
                       (write.status, finished, write.table_id))
        if write.clear_ready:
            db.execute("UPDATE tables SET ready = '[]' WHERE id = ?", (write.table_id,))
        if write.cuts is not None:
            db.execute("UPDATE tables SET cuts = ? WHERE id = ?", (write.cuts, write.table_id))
        if write.active is not None:
            db.execute("UPDATE tables SET active = ? WHERE id = ?",
                       (write.active, write.table_id))

    def touch(self, table_id: str, when: float) -> None:
        """Keep ``when`` as the table's last real activity (the last connection left)."""
        with self._transaction() as db:
            db.execute("UPDATE tables SET active = ? WHERE id = ?", (when, table_id))

    def set_ready(self, table_id: str, seats: Iterable[int]) -> None:
        """The seats that asked for the next round (kept across a restart)."""
        with self._transaction() as db:
            db.execute("UPDATE tables SET ready = ? WHERE id = ?",
                       (json.dumps(sorted(seats)), table_id))

    def delete(self, table_ids: Sequence[str]) -> None:
        """Remove tables with their seats and moves."""
        if not table_ids:
            return
        with self._transaction() as db:
            for table in ("moves", "seats"):
                db.executemany(f"DELETE FROM {table} WHERE table_id = ?",
                               [(t,) for t in table_ids])
            db.executemany("DELETE FROM tables WHERE id = ?", [(t,) for t in table_ids])
            db.execute("DELETE FROM parties WHERE NOT EXISTS "
                       "(SELECT 1 FROM tables WHERE tables.party = parties.id)")

    # -- reads ----------------------------------------------------------------------------

    def load(self, table_id: str) -> TableRow | None:
        """The table, or ``None``; a row that cannot be read raises :class:`StoreError`."""
        try:
            row = self._db.execute("SELECT id, created, rules, status, rematch, ready, "
                                   f"finished, cuts, party, hints, {self._active}, "
                                   f"{self._reactions} FROM tables WHERE id = ?",
                                   (table_id,)).fetchone()
            if row is None:
                return None
            seats = [SeatRow(*r) for r in self._db.execute(
                "SELECT seat, kind, name, bot, token_hash FROM seats WHERE table_id = ? "
                "ORDER BY seat", (table_id,))]
            moves = [r[0] for r in self._db.execute(
                "SELECT move FROM moves WHERE table_id = ? ORDER BY idx", (table_id,))]
            rules, ready = json.loads(row[2]), json.loads(row[5])
        except (sqlite3.Error, ValueError, TypeError) as exc:
            raise StoreError(f"table {table_id} cannot be read: {exc}") from None
        return TableRow(row[0], row[1], rules, row[3], row[4], seats, moves, ready, row[6],
                        row[7], row[8], None if row[9] is None else bool(row[9]),
                        None if row[11] is None else bool(row[11]), active=row[10])

    def load_party(self, party_id: str) -> PartyRow | None:
        """The party, or ``None``; a row that cannot be read raises :class:`StoreError`."""
        try:
            row = self._db.execute("SELECT id, created, data, final FROM parties WHERE id = ?",
                                   (party_id,)).fetchone()
            if row is None:
                return None
            data = json.loads(row[2])
        except (sqlite3.Error, ValueError, TypeError) as exc:
            raise StoreError(f"party {party_id} cannot be read: {exc}") from None
        if not isinstance(data, dict):
            raise StoreError(f"party {party_id} cannot be read: not an object")
        return PartyRow(row[0], row[1], data, row[3])

    def ids(self, statuses: Sequence[str], limit: int = -1) -> list[str]:
        """Table ids with one of ``statuses``, newest first."""
        marks = ", ".join("?" * len(statuses))
        return self._read_ids(f"SELECT id FROM tables WHERE status IN ({marks}) "
                              "ORDER BY created DESC LIMIT ?", (*statuses, limit))

    def waiting_before(self, created: float) -> list[str]:
        """Waiting tables created before ``created`` (a time as from ``time.time()``)."""
        return self._read_ids("SELECT id FROM tables WHERE status = 'waiting' AND created < ?",
                              (created,))

    def finished_before(self, finished: float) -> list[str]:
        """Finished tables whose match ended before ``finished`` (tables finished before
        the time was kept count from their creation)."""
        return self._read_ids("SELECT id FROM tables WHERE status = 'over' "
                              "AND COALESCE(finished, created) < ?", (finished,))

    def _read_ids(self, query: str, parameters: Sequence[Any]) -> list[str]:
        try:
            return [r[0] for r in self._db.execute(query, parameters)]
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read the database {self.path}: {exc}") from None

    def integrity(self) -> list[str]:
        """What SQLite's ``quick_check`` finds wrong with the file (empty: nothing)."""
        try:
            found = [r[0] for r in self._db.execute("PRAGMA quick_check")]
        except sqlite3.Error as exc:
            return [str(exc)]
        return [] if found == ["ok"] else found


def _claim(path: Path, readonly: bool) -> tuple[int | None, tuple[int, int]]:
    """Check the file before SQLite sees it, and (unless ``readonly``) hold an exclusive
    lock on it for as long as the store is open; returns the lock's descriptor and the
    file's (device, inode)."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise StoreError(f"cannot use {path} as the database: {exc.strerror}") from None
    if info is None and readonly:
        raise StoreError(f"there is no database at {path}")
    if info is not None and not os.path.isfile(path):
        raise StoreError(f"{path} is not a file, so it cannot be the database")
    if info is not None and info.st_size == 0:
        raise StoreError(f"the database {path} is empty (0 bytes): its tables are gone. "
                         "Restore it from a backup, or delete it to start with no tables")
    if readonly:
        assert info is not None
        return None, (info.st_dev, info.st_ino)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise StoreError(f"cannot open the database {path}: {exc.strerror} "
                         "(read-only file or directory?)") from None
    if fcntl is not None:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            raise StoreBusyError(f"another trashcards server is using the database {path} "
                                 f"(as {os.path.realpath(path)})") from None
    info = os.fstat(descriptor)
    return descriptor, (info.st_dev, info.st_ino)


def _check_version(db: sqlite3.Connection, path: str) -> None:
    """Refuse a database that a newer trashcards set up: this one would not know how to
    write it."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > len(MIGRATIONS):
        raise StoreError(f"{path} was set up by a newer trashcards (schema version {version}; "
                         f"this one knows up to {len(MIGRATIONS)}): upgrade trashcards, or "
                         "restore the database from a backup made with this version")


def _migrate(db: sqlite3.Connection) -> None:
    """Apply the migrations not applied yet, each with its version in one transaction."""
    while (done := db.execute("PRAGMA user_version").fetchone()[0]) < len(MIGRATIONS):
        db.execute("BEGIN IMMEDIATE")
        try:
            MIGRATIONS[done](db)
            db.execute(f"PRAGMA user_version = {done + 1}")
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise


def _check_missing(db: sqlite3.Connection, path: str) -> None:
    """Refuse a schema missing a table or a column of this version (dropped by hand, a
    damaged file): every read or write of it would fail."""
    for table, known in _COLUMNS.items():
        found = {row[1] for row in db.execute(f"PRAGMA table_info({table})")}
        missing = sorted(known - found)
        if not found or missing:
            what = f"no table {table}" if not found else \
                f"no column {', '.join(f'{table}.{m}' for m in missing)}"
            raise StoreError(f"the database {path} has {what} (damaged, or changed by hand): "
                             "restore it from a backup")


def _check_columns(db: sqlite3.Connection, path: str) -> None:
    """Refuse a schema this version cannot write: one missing a table or a column of its
    own (:func:`_check_missing`), or with a column it does not know that must be given
    a value (NOT NULL without a default), which would make every insert fail."""
    _check_missing(db, path)
    for table, known in _COLUMNS.items():
        for _cid, name, _type, notnull, default, _pk in db.execute(
                f"PRAGMA table_info({table})"):
            if name not in known and notnull and default is None:
                raise StoreError(f"{path} has a column {table}.{name} that this version of "
                                 "trashcards does not know and cannot fill (set up by a "
                                 "newer trashcards?): upgrade trashcards")


def _connect(path: str, readonly: bool) -> sqlite3.Connection:
    """Open the database, check that it is a trashcards database and bring its schema up
    to date; raises :class:`StoreError` with the reason."""
    try:
        if readonly:
            db = sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True,
                                 isolation_level=None, check_same_thread=False)
        else:
            db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the database {path}: {exc}") from None
    try:
        names = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        application = db.execute("PRAGMA application_id").fetchone()[0]
        if (names and "tables" not in names) or application not in (0, APPLICATION_ID):
            raise StoreError(f"{path} is a database of another program, not of trashcards")
        _check_version(db, path)
        if readonly:
            if names and db.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS):
                _check_missing(db, path)  # an up-to-date file has every table
            return db
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute("PRAGMA foreign_keys=ON")
        _migrate(db)
        _check_columns(db, path)
    except sqlite3.OperationalError as exc:  # cannot write, cannot lock, cannot open
        db.close()
        raise StoreError(f"cannot use the database {path}: {exc} (is the file or its "
                         "directory read-only, or the disk full?)") from None
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StoreError(f"the database {path} cannot be read: {exc} (a damaged or "
                         "truncated file, or not a database: restore it from a backup)"
                         ) from None
    except StoreError:
        db.close()
        raise
    return db
