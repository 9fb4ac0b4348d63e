"""PostgreSQL storage: any number of server processes share one database.

Ownership. Every server process registers in ``processes`` and holds a session advisory
lock on its own key for as long as its *owner connection* lives; PostgreSQL drops the
lock when that connection dies (the process was killed, or its connection was cut).
Each table names its owner and a fencing token (``tables.owner``, ``tables.epoch``). A
process takes a table only when the table's owner holds no lock any more, and taking it
adds one to the token. Every write of a table goes through the owner connection and is
one statement that updates the table's row only if ``owner``, ``epoch`` and ``version``
(the index of the first new move) are what the writer expects, so a stale owner, or a
second writer of the same index, writes nothing. The row lock that update takes also
orders a write against a takeover: one of them waits for the other to commit.

Fan-out. Every write announces the change on the table's channel (``NOTIFY``, sent at
commit and only then) with the new moves when they fit; processes with connections on
a table they do not own ``LISTEN`` there and follow the table in memory, always move by
move from their own version (a notice that does not follow on is answered by reading
the database), so a follower never skips a move. Requests for the owner (moves, seats
taken, rematches) go to the owner's own channel and are answered on the asker's.

The schema is created and upgraded by the numbered migrations below, recorded in
``schema_migrations``; servers of several versions starting at once take turns.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import os
import secrets
import socket
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import psycopg
from psycopg import sql
from psycopg.conninfo import conninfo_to_dict, make_conninfo
from psycopg_pool import AsyncConnectionPool

from .playerschema import player_tables
from .storage import Bus, Handler, Notice, OwnerLostError, SeatTakenError
from .store import (
    FinalTakenError,
    MoveWrite,
    NewTable,
    PartyRow,
    SeatRow,
    StoreError,
    TableRow,
    WriteError,
)

__all__ = ["MIGRATIONS", "PostgresStorage", "hide_password"]

log = logging.getLogger(__name__)

#: The schema, one migration per version; never edit a released one, add the next.
MIGRATIONS: Final[tuple[str, ...]] = (
    """
    CREATE TABLE processes (
        id TEXT PRIMARY KEY,
        lock_key BIGSERIAL UNIQUE NOT NULL,
        started DOUBLE PRECISION NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL
    );
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        rules TEXT NOT NULL,
        status TEXT NOT NULL,
        rematch TEXT,
        ready TEXT NOT NULL DEFAULT '[]',
        finished DOUBLE PRECISION,
        version INTEGER NOT NULL DEFAULT 0,
        owner TEXT,
        epoch BIGINT NOT NULL DEFAULT 0
    );
    CREATE TABLE seats (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        name TEXT,
        bot TEXT,
        token_hash TEXT,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE moves (
        table_id TEXT NOT NULL REFERENCES tables(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        move TEXT NOT NULL,
        PRIMARY KEY (table_id, idx)
    );
    CREATE INDEX tables_status ON tables(status, created);
    CREATE INDEX tables_unfinished_owner ON tables(owner) WHERE status <> 'over';
    CREATE INDEX seats_token ON seats(token_hash);
    -- the processes whose owner connection is alive (holds its advisory lock)
    CREATE VIEW live_processes AS
        SELECT p.id FROM processes p JOIN pg_locks l
          ON l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
         AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
         AND l.classid::bigint = (p.lock_key >> 32)
         AND l.objid::bigint = (p.lock_key & 4294967295);
    """,
    # 2: the cards cut for the first dealer, kept with the table; whether its seats may
    # ask for hints (NULL: stored before the option); parties of two tables
    """
    ALTER TABLE tables ADD COLUMN cuts TEXT, ADD COLUMN party TEXT, ADD COLUMN hints BOOLEAN;
    CREATE INDEX tables_party ON tables(party);
    CREATE TABLE parties (
        id TEXT PRIMARY KEY,
        created DOUBLE PRECISION NOT NULL,
        data TEXT NOT NULL,
        final TEXT
    );
    """,
    # 3: the players' tables (trashcards.web.playerschema)
    ";\n".join(player_tables(postgres=True)) + ";",
    # 4: the time of each table's last real activity (a person's move, the last person
    # leaving), so that a restart keeps the clock of abandoned tables; the tables stored
    # before it count from now
    """
    ALTER TABLE tables ADD COLUMN active DOUBLE PRECISION;
    UPDATE tables SET active = extract(epoch FROM now());
    """,
    # 5: whether a table's seats may send reactions (NULL: stored before the option)
    """
    ALTER TABLE tables ADD COLUMN reactions BOOLEAN;
    """,
)
#: The columns of each table this version reads or writes: a database missing one
#: (dropped by hand) is refused at start.
_COLUMNS: Final = {
    "processes": {"id", "lock_key", "started", "host", "pid"},
    "tables": {"id", "created", "rules", "status", "rematch", "ready", "finished", "version",
               "owner", "epoch", "cuts", "party", "hints", "active", "reactions"},
    "seats": {"table_id", "seat", "kind", "name", "bot", "token_hash"},
    "moves": {"table_id", "idx", "move"},
    "parties": {"id", "created", "data", "final"},
}

#: Advisory lock taken while migrating (other keys are processes' lock_key, from 1 up).
_MIGRATION_LOCK: Final = 0x54525348_00000000
#: Seconds of silence of a process's owner connection after which it loses its tables
#: (the default of :attr:`PostgresStorage.lease`).
LEASE: Final = 2.5
#: Longest notice payload sent (PostgreSQL's limit is 8000 bytes).
_MAX_PAYLOAD: Final = 7900

_APPEND = """
WITH fence AS (
    UPDATE tables SET version = %(end)s,
        status = COALESCE(%(status)s::text, status),
        finished = CASE WHEN %(status)s::text IS NULL THEN finished
                        WHEN %(status)s::text = 'over' THEN %(now)s::float8 ELSE NULL END,
        ready = CASE WHEN %(clear)s::boolean THEN '[]' ELSE ready END,
        cuts = COALESCE(%(cuts)s::text, cuts),
        active = COALESCE(%(active)s::float8, active)
    WHERE id = %(id)s AND owner = %(owner)s AND epoch = %(epoch)s AND version = %(start)s
    RETURNING id),
ins AS (
    INSERT INTO moves (table_id, idx, move)
    SELECT f.id, %(start)s + u.i - 1, u.m
    FROM fence f, unnest(%(moves)s::text[]) WITH ORDINALITY AS u(m, i))
SELECT pg_notify(%(channel)s, %(payload)s) FROM fence
"""

_FENCE = """
UPDATE tables SET {changes} WHERE id = %(id)s AND owner = %(owner)s AND epoch = %(epoch)s
RETURNING version
"""


def table_channel(table_id: str) -> str:
    """The notice channel of a table (PostgreSQL channel names are at most 63 bytes)."""
    return f"t:{table_id}"[:63]


def _process_channel(process_id: str) -> str:
    return f"p:{process_id}"


def hide_password(url: str) -> str:
    """``url`` as shown in messages: without its password."""
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "the PostgreSQL database"
    parts.pop("password", None)
    return "postgresql: " + make_conninfo("", **{k: v for k, v in parts.items() if v is not None})


def notice_payload(notice: Notice) -> str:
    """The JSON text of a notice (without the moves if they do not fit)."""
    body: dict[str, Any] = {"v": notice.version, "f": notice.start}
    if notice.moves:
        body["m"] = list(notice.moves)
    for key, value in (("s", notice.status), ("x", notice.rematch), ("o", notice.owner),
                       ("c", notice.cuts)):
        if value is not None:
            body[key] = value
    if notice.reaction is not None:
        body["e"] = list(notice.reaction)
    if notice.ready is not None:
        body["r"] = list(notice.ready)
    for key, flag in (("seats", notice.seats), ("gone", notice.gone),
                      ("ask", notice.rematch_asked)):
        if flag:
            body[key] = True
    text = json.dumps(body, separators=(",", ":"))
    if len(text.encode()) > _MAX_PAYLOAD:
        body.pop("m", None)
        body["nm"] = True  # moves not included: read them
        text = json.dumps(body, separators=(",", ":"))
    return text


def parse_notice(table_id: str, payload: str) -> Notice:
    body = json.loads(payload)
    moves = None if body.get("nm") else tuple(body.get("m", ()))
    ready = body.get("r")
    reaction = body.get("e")
    return Notice(table_id, int(body["v"]), int(body.get("f", body["v"])), moves,
                  body.get("s"), None if ready is None else tuple(ready), body.get("x"),
                  body.get("o"), bool(body.get("seats")), bool(body.get("gone")),
                  bool(body.get("ask")), body.get("c"),
                  None if reaction is None else (int(reaction[0]), str(reaction[1])))


class PostgresStorage:
    """The tables in a PostgreSQL database shared by several server processes (see the
    module's documentation). Build with :meth:`connect`."""

    shared = True

    def __init__(self, url: str, pool: AsyncConnectionPool, readonly: bool,
                 clock: Callable[[], float]) -> None:
        self.url = url
        self.where = hide_password(url)
        self.clock = clock
        self.readonly = readonly
        self.bus: Bus | None = None
        self._bus: PostgresBus | None = None
        self.process_id = ""
        self._pool = pool
        self._owner: psycopg.AsyncConnection[Any] | None = None
        self._write_lock = asyncio.Lock()
        #: the tables this process owns, with its fencing token of each
        self._owned: dict[str, int] = {}
        self._lost = False
        self._closed = False
        #: pools given up (after a reconnect) while they close
        self._closing: set[asyncio.Task[None]] = set()
        #: seconds after its owner connection's last statement (a keepalive every
        #: ``claim_interval`` at most) a process counts as gone even while it holds its
        #: lock: a frozen process (SIGSTOP, a stalled machine) loses its tables then;
        #: its writes are fenced off by the epoch (set by the hub from its settings)
        self.lease = LEASE

    def _live(self) -> str:
        """The query of the processes alive: holding their lock, and their owner
        connection heard from within the lease (or busy in a statement, or not visible
        to this role: then the lock alone counts)."""
        return (
            "SELECT p.id FROM processes p JOIN pg_locks l ON l.locktype = 'advisory' "
            "AND l.granted AND l.objsubid = 1 AND l.database = (SELECT oid FROM "
            "pg_database WHERE datname = current_database()) AND l.classid::bigint = "
            "(p.lock_key >> 32) AND l.objid::bigint = (p.lock_key & 4294967295) "
            "LEFT JOIN pg_stat_activity a ON a.pid = l.pid WHERE a.state_change IS NULL "
            "OR a.state = 'active' OR a.state_change > clock_timestamp() - "
            f"make_interval(secs => {float(self.lease)!r})")

    @classmethod
    async def connect(cls, url: str, *, readonly: bool = False,
                      clock: Callable[[], float] | None = None) -> PostgresStorage:
        """Connect, bring the schema up to date (unless ``readonly``) and, unless
        ``readonly``, register this process as an owner. Raises :class:`StoreError`."""
        where = hide_password(url)
        try:
            first = await psycopg.AsyncConnection.connect(url, autocommit=True,
                                                          **_connection_options())
        except psycopg.Error as exc:
            raise StoreError(f"cannot connect to {where}: {_reason(exc)}") from None
        try:
            if readonly:
                await _check_schema(first, where)
            else:
                await _migrate(first, where)
        finally:
            await first.close()
        try:
            pool = await _open_pool(url)
        except Exception as exc:  # the pool's own errors are not psycopg.Error
            raise StoreError(f"cannot connect to {where}: {exc}") from None
        storage = cls(url, pool, readonly, clock or time.time)
        if not readonly:
            try:
                await storage._register()
            except psycopg.Error as exc:
                await pool.close()
                raise StoreError(f"cannot register with {where}: {_reason(exc)}") from None
            storage._bus = PostgresBus(storage)
            storage.bus = storage._bus
            await storage._bus.start()
        return storage

    async def _register(self) -> None:
        """A new owner connection, a new process id, its lock held."""
        conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True,
                                                     **_connection_options())
        process_id = secrets.token_hex(6)
        cursor = await conn.execute(
            "INSERT INTO processes (id, started, host, pid) VALUES (%s, %s, %s, %s) "
            "RETURNING lock_key", (process_id, self.clock(), socket.gethostname(), os.getpid()))
        row = await cursor.fetchone()
        assert row is not None
        await conn.execute("SELECT pg_advisory_lock(%s)", (row[0],))
        self._owner, self.process_id = conn, process_id

    async def close(self) -> None:
        self._closed = True
        if self._bus is not None:
            await self._bus.stop()
        if self._owner is not None:
            with contextlib.suppress(psycopg.Error):
                # unlocked before the connection closes (the lock would go with it, but
                # only once the database's side has noticed): the tables are free now
                await self._owner.execute("SELECT pg_advisory_unlock_all()")
            with contextlib.suppress(psycopg.Error):
                await self._owner.close()
        await self._pool.close()

    # -- ownership -----------------------------------------------------------------------

    def owns(self, table_id: str) -> bool:
        return table_id in self._owned

    def lost(self) -> bool:
        lost, self._lost = self._lost, False
        return lost

    async def healthy(self) -> bool:
        return self._owner is not None and not self._owner.closed

    async def keepalive(self) -> bool:
        """Check the owner connection (reconnecting under a new process id if it broke:
        every table owned is then lost); whether it was fine."""
        if self.readonly or self._closed:
            return True
        async with self._write_lock:
            conn = self._owner
            try:
                if conn is None or conn.closed:
                    raise psycopg.OperationalError("the owner connection is closed")
                await conn.execute("SELECT 1")
                return True
            except psycopg.Error as exc:
                log.warning("the owner connection to the database broke (%s): every table "
                            "this process owned is given up", _reason(exc))
                await self._broken()
        try:
            async with self._write_lock:
                await self._register()
            if self._bus is not None:
                self._bus.renamed()
        except psycopg.Error as exc:
            log.warning("cannot reconnect to the database yet: %s", _reason(exc))
            return False
        # The database is back (after a restart, say): a new pool for the reads, now,
        # rather than the old one's next try, which backs off ever longer while it is down
        try:
            pool = await _open_pool(self.url)
        except Exception as exc:
            log.warning("cannot reconnect to the database yet: %s", exc)
            return False
        old, self._pool = self._pool, pool
        task = asyncio.create_task(old.close(timeout=5))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)
        return False

    async def _broken(self) -> None:
        """The owner connection is gone (write lock held): so is every table."""
        conn, self._owner = self._owner, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.close()
        if self._owned:
            self._lost = True
        self._owned.clear()

    async def claim(self, table_id: str) -> bool:
        if table_id in self._owned:
            return True
        if self.readonly or "\x00" in table_id:  # no table has a NUL in its id
            return False
        row = await self._write_one(
            "UPDATE tables t SET owner = %(me)s, epoch = t.epoch + 1 WHERE t.id = %(id)s "
            "AND (t.owner IS NULL OR t.owner = %(me)s "  # or one this process gave up
            f"OR t.owner NOT IN ({self._live()})) "
            "RETURNING t.epoch, t.version, pg_notify(%(channel)s, "
            "json_build_object('v', t.version, 'f', t.version, 'o', %(me)s::text)::text)",
            {"me": self.process_id, "id": table_id, "channel": table_channel(table_id)})
        if row is None:
            return False
        self._owned[table_id] = int(row[0])
        return True

    async def release(self, table_id: str) -> None:
        epoch = self._owned.pop(table_id, None)
        if epoch is None or self.readonly:
            return
        with contextlib.suppress(WriteError):
            await self._write_one("UPDATE tables SET owner = NULL WHERE id = %s AND owner = %s "
                                  "AND epoch = %s RETURNING 1",
                                  (table_id, self.process_id, epoch))

    async def orphans(self) -> list[str]:
        return await self._read_ids(
            "SELECT id FROM tables WHERE status IN ('waiting', 'playing') AND (owner IS NULL "
            f"OR owner NOT IN ({self._live()})) ORDER BY random() LIMIT 200", ())

    async def alive(self, process: str | None) -> bool:
        if process is None:
            return False
        rows = await self._read(f"SELECT 1 FROM ({self._live()}) live WHERE id = %s",
                                (process,))
        return bool(rows)

    async def forget_dead(self) -> None:
        """Delete the registrations of dead processes that own no unfinished table."""
        with contextlib.suppress(WriteError):
            await self._write_one(
                "WITH gone AS (DELETE FROM processes p WHERE p.id NOT IN "
                "(SELECT id FROM live_processes) AND NOT EXISTS (SELECT 1 FROM tables t "
                "WHERE t.owner = p.id AND t.status <> 'over') RETURNING 1) "
                "SELECT count(*) FROM gone", ())

    # -- writes --------------------------------------------------------------------------

    async def _write_one(self, query: str, params: Any) -> tuple[Any, ...] | None:
        """One statement on the owner connection; its first row."""
        async with self._write_lock:
            conn = self._writer()
            try:
                cursor = await conn.execute(query, params)
                return await cursor.fetchone() if cursor.description else None
            except psycopg.Error as exc:
                await self._failed(exc)
                raise AssertionError("unreachable") from None

    def _writer(self) -> psycopg.AsyncConnection[Any]:
        if self.readonly:
            raise WriteError("the database is open for reading only")
        if self._owner is None or self._owner.closed:
            raise WriteError("no connection to the database (reconnecting)")
        return self._owner

    async def _failed(self, exc: psycopg.Error) -> None:
        """A write failed (write lock held): raise :class:`WriteError`, after giving up
        every table if the owner connection broke."""
        conn = self._owner
        if conn is None or conn.closed or conn.broken or isinstance(exc, psycopg.OperationalError):
            await self._broken()
        raise WriteError(f"cannot write the database: {_reason(exc)}") from None

    def _epoch(self, table_id: str) -> int:
        epoch = self._owned.get(table_id)
        if epoch is None:
            raise OwnerLostError(f"this process does not own table {table_id}")
        return epoch

    async def create_table(self, table_id: str, rules: dict[str, Any], seats: Sequence[SeatRow],
                           status: str, moves: Sequence[str] = (),
                           rematch_of: str | None = None, cuts: str | None = None,
                           party: str | None = None, hints: bool = False,
                           reactions: bool = True) -> None:
        old_epoch = self._epoch(rematch_of) if rematch_of is not None else None
        table = NewTable(table_id, rules, seats, status, moves, cuts, party, hints, reactions)
        async with self._write_lock:
            conn = self._writer()
            try:
                async with conn.transaction():
                    await self._insert(conn, table)
                    if rematch_of is not None:
                        cursor = await conn.execute(
                            _FENCE.format(changes="rematch = %(rematch)s"),
                            {"rematch": table_id, "id": rematch_of, "owner": self.process_id,
                             "epoch": old_epoch})
                        row = await cursor.fetchone()
                        if row is None:
                            raise OwnerLostError(f"this process lost table {rematch_of}")
                        await self._notify(conn, Notice(rematch_of, int(row[0]), int(row[0]),
                                                        (), rematch=table_id))
            except psycopg.Error as exc:
                await self._failed(exc)
        self._owned[table_id] = 1

    async def _insert(self, conn: psycopg.AsyncConnection[Any], table: NewTable) -> None:
        """Write a new table owned by this process (in the caller's transaction)."""
        now = self.clock()
        await conn.execute(
            "INSERT INTO tables (id, created, rules, status, version, owner, epoch, cuts, "
            "party, hints, active, reactions) VALUES (%s, %s, %s, %s, %s, %s, 1, %s, %s, %s, "
            "%s, %s)",
            (table.id, now, json.dumps(table.rules), table.status, len(table.moves),
             self.process_id, table.cuts, table.party, table.hints, now, table.reactions))
        async with conn.cursor() as cursor:
            await cursor.executemany(
                "INSERT INTO seats VALUES (%s, %s, %s, %s, %s, %s)",
                [(table.id, s.seat, s.kind, s.name, s.bot, s.token_hash) for s in table.seats])
        await conn.execute(
            "INSERT INTO moves SELECT %s, u.i - 1, u.m FROM "
            "unnest(%s::text[]) WITH ORDINALITY AS u(m, i)", (table.id, list(table.moves)))

    async def create_party(self, party_id: str, data: dict[str, Any],
                           tables: Sequence[NewTable]) -> None:
        async with self._write_lock:
            conn = self._writer()
            try:
                async with conn.transaction():
                    await conn.execute(
                        "INSERT INTO parties (id, created, data) VALUES (%s, %s, %s)",
                        (party_id, self.clock(), json.dumps(data)))
                    for table in tables:
                        await self._insert(conn, table)
            except psycopg.Error as exc:
                await self._failed(exc)
        for table in tables:
            self._owned[table.id] = 1

    async def set_party_final(self, party_id: str, final: NewTable) -> None:
        async with self._write_lock:
            conn = self._writer()
            try:
                async with conn.transaction():
                    await self._insert(conn, final)
                    # once: the final another process made first wins, this one is undone
                    cursor = await conn.execute(
                        "UPDATE parties SET final = %s WHERE id = %s AND final IS NULL "
                        "RETURNING 1", (final.id, party_id))
                    if await cursor.fetchone() is None:
                        raise FinalTakenError(f"party {party_id} has its final table already")
            except psycopg.Error as exc:
                await self._failed(exc)
        self._owned[final.id] = 1

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                        moves: Sequence[str] = (), status: str | None = None,
                        cuts: str | None = None) -> None:
        epoch = self._epoch(table_id)
        async with self._write_lock:
            conn = self._writer()
            try:
                async with conn.transaction():
                    cursor = await conn.execute(
                        _FENCE.format(changes="version = version + %(n)s, "
                                              "status = COALESCE(%(status)s::text, status), "
                                              "cuts = COALESCE(%(cuts)s::text, cuts)"),
                        {"n": len(moves), "status": status, "cuts": cuts, "id": table_id,
                         "owner": self.process_id, "epoch": epoch})
                    if await cursor.fetchone() is None:
                        raise OwnerLostError(f"this process lost table {table_id}")
                    cursor = await conn.execute(
                        "UPDATE seats SET name = %s, token_hash = %s WHERE table_id = %s "
                        "AND seat = %s AND kind = 'open' AND token_hash IS NULL RETURNING 1",
                        (name, token_hash, table_id, seat))
                    if await cursor.fetchone() is None:
                        raise SeatTakenError(f"seat {seat} is taken")
                    await conn.execute(
                        "INSERT INTO moves SELECT %s, u.i - 1, u.m FROM "
                        "unnest(%s::text[]) WITH ORDINALITY AS u(m, i)", (table_id, list(moves)))
                    await self._notify(conn, Notice(table_id, len(moves), 0, tuple(moves),
                                                    status, seats=True, cuts=cuts))
            except psycopg.Error as exc:
                await self._failed(exc)

    async def add_many(self, writes: Iterable[MoveWrite]) -> set[str]:
        writes = list(writes)
        lost = {w.table_id for w in writes if w.table_id not in self._owned}
        writes = [w for w in writes if w.table_id not in lost]
        if not writes:
            return lost
        now = self.clock()
        async with self._write_lock:
            conn = self._writer()
            try:
                async with conn.transaction():
                    cursors = []
                    async with conn.pipeline():
                        for write in writes:
                            end = write.start + len(write.moves)
                            notice = Notice(write.table_id, end, write.start,
                                            tuple(write.moves), write.status,
                                            () if write.clear_ready else None,
                                            cuts=write.cuts)
                            cursor = conn.cursor()
                            await cursor.execute(_APPEND, {
                                "end": end, "status": write.status, "now": now,
                                "clear": write.clear_ready, "cuts": write.cuts,
                                "active": write.active,
                                "id": write.table_id,
                                "owner": self.process_id,
                                "epoch": self._owned[write.table_id], "start": write.start,
                                "moves": list(write.moves),
                                "channel": table_channel(write.table_id),
                                "payload": notice_payload(notice)})
                            cursors.append((write, cursor))
                    for write, cursor in cursors:
                        if await cursor.fetchone() is None:
                            lost.add(write.table_id)
            except psycopg.Error as exc:
                await self._failed(exc)
        for table_id in lost:
            self._owned.pop(table_id, None)
        return lost

    async def set_ready(self, table_id: str, seats: Iterable[int]) -> None:
        ready = sorted(seats)
        epoch = self._epoch(table_id)
        async with self._write_lock:
            conn = self._writer()
            try:
                async with conn.transaction():
                    cursor = await conn.execute(_FENCE.format(changes="ready = %(ready)s"), {
                        "ready": json.dumps(ready), "id": table_id, "owner": self.process_id,
                        "epoch": epoch})
                    row = await cursor.fetchone()
                    if row is None:
                        raise OwnerLostError(f"this process lost table {table_id}")
                    await self._notify(conn, Notice(table_id, int(row[0]), int(row[0]), (),
                                                    ready=tuple(ready)))
            except psycopg.Error as exc:
                await self._failed(exc)

    async def touch(self, table_id: str, when: float) -> None:
        epoch = self._epoch(table_id)
        async with self._write_lock:
            conn = self._writer()
            try:
                cursor = await conn.execute(_FENCE.format(changes="active = %(active)s"), {
                    "active": when, "id": table_id, "owner": self.process_id,
                    "epoch": epoch})
                if await cursor.fetchone() is None:
                    raise OwnerLostError(f"this process lost table {table_id}")
            except psycopg.Error as exc:
                await self._failed(exc)

    async def ask_rematch(self, table_id: str, version: int, rematch: str | None) -> None:
        async with self._write_lock:
            conn = self._writer()
            try:
                await self._notify(conn, Notice(table_id, version, version, (),
                                                rematch=rematch, rematch_asked=True))
            except psycopg.Error as exc:
                await self._failed(exc)

    async def react(self, table_id: str, version: int, seat: int, emote: str) -> None:
        async with self._write_lock:
            conn = self._writer()
            try:
                await self._notify(conn, Notice(table_id, version, version, (),
                                                reaction=(seat, emote)))
            except psycopg.Error as exc:
                await self._failed(exc)

    async def delete(self, table_ids: Sequence[str]) -> None:
        if not table_ids:
            return
        async with self._write_lock:
            conn = self._writer()
            try:
                async with conn.transaction():
                    await conn.execute("DELETE FROM tables WHERE id = ANY(%s)", (list(table_ids),))
                    await conn.execute("DELETE FROM parties WHERE NOT EXISTS "
                                       "(SELECT 1 FROM tables WHERE tables.party = parties.id)")
                    for table_id in table_ids:
                        await self._notify(conn, Notice(table_id, -1, -1, (), gone=True))
            except psycopg.Error as exc:
                await self._failed(exc)
        for table_id in table_ids:
            self._owned.pop(table_id, None)

    async def _notify(self, conn: psycopg.AsyncConnection[Any], notice: Notice) -> None:
        await conn.execute("SELECT pg_notify(%s, %s)",
                           (table_channel(notice.table_id), notice_payload(notice)))

    # -- reads ---------------------------------------------------------------------------

    async def _read(self, query: str, params: Any) -> list[tuple[Any, ...]]:
        try:
            async with self._pool.connection() as conn:
                cursor = await conn.execute(query, params)
                return await cursor.fetchall()
        except psycopg.Error as exc:
            raise StoreError(f"cannot read {self.where}: {_reason(exc)}") from None
        except Exception as exc:  # the pool timed out waiting for a connection
            raise StoreError(f"cannot read {self.where}: {exc}") from None

    async def _read_ids(self, query: str, params: Any) -> list[str]:
        return [r[0] for r in await self._read(query, params)]

    async def load(self, table_id: str, since: int = 0) -> TableRow | None:
        if "\x00" in table_id:  # PostgreSQL text cannot hold NUL: no table has this id
            return None
        try:
            async with self._pool.connection() as conn, conn.transaction():
                # One snapshot for the table, its seats and its moves: under the default
                # READ COMMITTED each statement would see the commits made since the one
                # before, so a join that starts the table between the two reads gave
                # "2 moves stored, not 0".
                await conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                cursor = await conn.execute(
                    "SELECT id, created, rules, status, rematch, ready, finished, owner, "
                    "version, cuts, party, hints, active, reactions FROM tables "
                    "WHERE id = %s",
                    (table_id,))
                row = await cursor.fetchone()
                if row is None:
                    return None
                cursor = await conn.execute(
                    "SELECT seat, kind, name, bot, token_hash FROM seats WHERE table_id = %s "
                    "ORDER BY seat", (table_id,))
                seats = [SeatRow(*r) for r in await cursor.fetchall()]
                cursor = await conn.execute(
                    "SELECT move FROM moves WHERE table_id = %s AND idx >= %s ORDER BY idx",
                    (table_id, since))
                moves = [r[0] for r in await cursor.fetchall()]
        except psycopg.Error as exc:
            raise StoreError(f"table {table_id} cannot be read: {_reason(exc)}") from None
        except Exception as exc:
            raise StoreError(f"cannot read {self.where}: {exc}") from None
        if since + len(moves) != row[8]:
            raise StoreError(f"table {table_id} has {since + len(moves)} moves stored, "
                             f"not {row[8]}")
        try:
            rules, ready = json.loads(row[2]), json.loads(row[5])
        except ValueError as exc:
            raise StoreError(f"table {table_id} cannot be read: {exc}") from None
        return TableRow(row[0], row[1], rules, row[3], row[4], seats, moves, ready, row[6],
                        cuts=row[9], party=row[10], hints=row[11], reactions=row[13],
                        owner=row[7], active=row[12])

    async def load_party(self, party_id: str) -> PartyRow | None:
        if "\x00" in party_id:  # PostgreSQL text cannot hold NUL: no party has this id
            return None
        rows = await self._read("SELECT id, created, data, final FROM parties WHERE id = %s",
                                (party_id,))
        if not rows:
            return None
        row = rows[0]
        try:
            data = json.loads(row[2])
        except ValueError as exc:
            raise StoreError(f"party {party_id} cannot be read: {exc}") from None
        if not isinstance(data, dict):
            raise StoreError(f"party {party_id} cannot be read: not an object")
        return PartyRow(row[0], row[1], data, row[3])

    async def version(self, table_ids: Sequence[str]) -> dict[str, int]:
        rows = await self._read("SELECT id, version FROM tables WHERE id = ANY(%s)",
                                (list(table_ids),))
        return {r[0]: int(r[1]) for r in rows}

    async def ids(self, statuses: Sequence[str], limit: int = -1) -> list[str]:
        return await self._read_ids(
            "SELECT id FROM tables WHERE status = ANY(%s) ORDER BY created DESC LIMIT %s",
            (list(statuses), None if limit < 0 else limit))

    async def waiting_before(self, created: float) -> list[str]:
        return await self._read_ids(
            "SELECT id FROM tables WHERE status = 'waiting' AND created < %s", (created,))

    async def finished_before(self, finished: float) -> list[str]:
        return await self._read_ids(
            "SELECT id FROM tables WHERE status = 'over' AND COALESCE(finished, created) < %s",
            (finished,))

    async def integrity(self) -> list[str]:
        rows = await self._read(
            "SELECT t.id FROM tables t WHERE t.version <> (SELECT count(*) FROM moves m "
            "WHERE m.table_id = t.id) OR EXISTS (SELECT 1 FROM moves m WHERE m.table_id = t.id "
            "AND m.idx >= t.version)", ())
        return [f"table {r[0]}: its moves do not match its version" for r in rows]


class PostgresBus:
    """Notices and requests between processes, over one listening connection."""

    def __init__(self, storage: PostgresStorage) -> None:
        self.storage = storage
        self._channels: set[str] = set()
        self._commands: list[tuple[str, str, asyncio.Future[None]]] = []
        self._notice: Callable[[Notice], None] = lambda _n: None
        self._handler: Handler | None = None
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ids = itertools.count()
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._own = _process_channel(storage.process_id)
        self._ready = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._listen())
        async with asyncio.timeout(15):
            await self._ready.wait()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        for task in list(self._tasks):
            task.cancel()

    def renamed(self) -> None:
        """The process id changed (the owner connection was re-established)."""
        old, self._own = self._own, _process_channel(self.storage.process_id)
        loop = asyncio.get_running_loop()
        self._commands.append(("UNLISTEN", old, loop.create_future()))
        self._commands.append(("LISTEN", self._own, loop.create_future()))

    def on_notice(self, callback: Callable[[Notice], None]) -> None:
        self._notice = callback

    def on_request(self, handler: Handler) -> None:
        self._handler = handler

    async def follow(self, table_id: str) -> None:
        channel = table_channel(table_id)
        if channel in self._channels or "\x00" in channel:  # no table has a NUL in its id
            return
        self._channels.add(channel)
        await self._command("LISTEN", channel)

    def unfollow(self, table_id: str) -> None:
        channel = table_channel(table_id)
        if channel in self._channels:
            self._channels.discard(channel)
            future = asyncio.get_running_loop().create_future()
            self._commands.append(("UNLISTEN", channel, future))

    async def _command(self, verb: str, channel: str) -> None:
        future = asyncio.get_running_loop().create_future()
        self._commands.append((verb, channel, future))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await asyncio.shield(future)

    async def request(self, process: str, message: dict[str, Any],
                      timeout: float) -> dict[str, Any] | None:
        number = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[number] = future
        try:
            await self._send(_process_channel(process),
                             {"q": number, "from": self.storage.process_id, "body": message})
            async with asyncio.timeout(timeout):
                return await future
        except (TimeoutError, StoreError):
            return None
        finally:
            self._waiting.pop(number, None)

    async def _send(self, channel: str, body: dict[str, Any]) -> None:
        text = json.dumps(body, separators=(",", ":"))
        if len(text.encode()) > _MAX_PAYLOAD:
            raise StoreError("a request to another process is too long")
        await self.storage._read("SELECT pg_notify(%s, %s)", (channel, text))

    async def _listen(self) -> None:
        """Receive notices and requests for ever, reconnecting after a failure (and then
        telling every followed table to read what it may have missed)."""
        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    self.storage.url, autocommit=True, **_connection_options())
            except psycopg.Error as exc:
                log.warning("cannot listen to the database yet: %s", _reason(exc))
                await asyncio.sleep(1.0)
                continue
            try:
                async with conn:
                    for channel in (self._own, *self._channels):
                        await conn.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel)))
                    self._ready.set()
                    if not first:
                        for channel in list(self._channels):
                            self._notice(Notice(channel[2:], -1, -1, None))
                    first = False
                    while True:
                        await self._run_commands(conn)
                        async for item in conn.notifies(timeout=0.05):
                            self._dispatch(item.channel, item.payload)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the connection broke: listen again
                log.warning("listening to the database failed (%s); listening again", exc)
                await asyncio.sleep(0.5)

    async def _run_commands(self, conn: psycopg.AsyncConnection[Any]) -> None:
        commands, self._commands = self._commands, []
        for verb, channel, future in commands:
            try:
                await conn.execute(sql.SQL(verb + " {}").format(sql.Identifier(channel)))
            except BaseException:
                self._commands.append((verb, channel, future))
                raise
            if not future.done():
                future.set_result(None)

    def _dispatch(self, channel: str, payload: str) -> None:
        try:
            if channel.startswith("t:"):
                self._notice(parse_notice(channel[2:], payload))
                return
            body = json.loads(payload)
        except (ValueError, KeyError, TypeError) as exc:
            log.warning("a bad notice on %s: %s", channel, exc)
            return
        if "re" in body:
            future = self._waiting.get(body["re"])
            if future is not None and not future.done():
                future.set_result(body["body"])
        elif self._handler is not None and "q" in body:
            task = asyncio.create_task(self._answer(body))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _answer(self, request: dict[str, Any]) -> None:
        assert self._handler is not None
        try:
            answer = await self._handler(request["body"])
        except Exception:
            log.exception("a request from process %s failed", request.get("from"))
            answer = {"error": ["internal", "the server failed on this message; nothing "
                                            "changed", None]}
        with contextlib.suppress(StoreError):
            await self._send(_process_channel(str(request["from"])),
                             {"re": request["q"], "body": answer})


async def _check_schema(conn: psycopg.AsyncConnection[Any], where: str) -> None:
    try:
        cursor = await conn.execute("SELECT max(version) FROM schema_migrations")
        row = await cursor.fetchone()
    except psycopg.Error:
        raise StoreError(f"{where} has no trashcards tables (start `trashcards serve "
                         "--db` on it once to create them)") from None
    if row is None or row[0] is None or row[0] > len(MIGRATIONS):
        raise StoreError(f"{where} has a schema this version of trashcards does not know")
    if row[0] == len(MIGRATIONS):
        await _check_columns(conn, where)


async def _check_columns(conn: psycopg.AsyncConnection[Any], where: str) -> None:
    """Refuse a database missing a table or a column of this version (dropped by hand):
    every read or write of it would fail."""
    try:
        cursor = await conn.execute(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = ANY(%s)",
            (list(_COLUMNS),))
        found = await cursor.fetchall()
    except psycopg.Error as exc:
        raise StoreError(f"cannot read the tables of {where}: {_reason(exc)}") from None
    for table, known in _COLUMNS.items():
        columns = {str(r[1]) for r in found if r[0] == table}
        missing = sorted(known - columns)
        if not columns or missing:
            what = f"no table {table}" if not columns else \
                f"no column {', '.join(f'{table}.{m}' for m in missing)}"
            raise StoreError(f"{where} has {what} (damaged, or changed by hand): restore it "
                             "from a backup")


async def _migrate(conn: psycopg.AsyncConnection[Any], where: str) -> None:
    """Apply the migrations not applied yet, one transaction each, one server at a time."""
    try:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s)", (_MIGRATION_LOCK,))
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER "
                               "PRIMARY KEY, applied DOUBLE PRECISION NOT NULL)")
            cursor = await conn.execute("SELECT coalesce(max(version), 0) FROM schema_migrations")
            row = await cursor.fetchone()
            done = int(row[0]) if row else 0
            if done > len(MIGRATIONS):
                raise StoreError(f"{where} was set up by a newer trashcards (schema version "
                                 f"{done}; this one knows {len(MIGRATIONS)})")
            for number, script in enumerate(MIGRATIONS[done:], start=done + 1):
                await conn.execute(script)
                await conn.execute("INSERT INTO schema_migrations VALUES (%s, %s)",
                                   (number, time.time()))
    except psycopg.Error as exc:
        raise StoreError(f"cannot set up the tables in {where}: {_reason(exc)}") from None
    await _check_columns(conn, where)


#: The database server's side of every connection over TCP: keepalives after 2 s idle,
#: dead after 2 unanswered probes 1 s apart or 3 s of unacknowledged data. So when a
#: server process's machine vanishes, PostgreSQL ends that process's connections (and
#: drops its advisory lock: its tables are taken over) within about 4 s, not the
#: operating system's two hours. Unix-socket connections ignore these.
_SERVER_SIDE: Final = ("-c tcp_keepalives_idle=2 -c tcp_keepalives_interval=1 "
                       "-c tcp_keepalives_count=2 -c tcp_user_timeout=3000")


async def _open_pool(url: str) -> AsyncConnectionPool:
    """The pool of connections for reads (and the rest), open."""
    pool = AsyncConnectionPool(url, min_size=1, max_size=4, open=False, timeout=10,
                               kwargs={"autocommit": True, **_connection_options()})
    try:
        await pool.open(wait=True, timeout=10)
    except BaseException:
        await pool.close()
        raise
    return pool


def _connection_options() -> dict[str, Any]:
    """Every connection: named after this process (``pg_stat_activity`` shows which
    server it is), and with TCP keepalives at both ends, so that a connection to a
    machine that vanished is found dead in seconds by this process (its writes fail) and
    by the database (the owner's lock goes, its tables are taken over)."""
    return {"connect_timeout": 10, "application_name": f"trashcards {os.getpid()}",
            "keepalives": 1, "keepalives_idle": 2, "keepalives_interval": 1,
            "keepalives_count": 2, "tcp_user_timeout": 3000, "options": _SERVER_SIDE}


def _reason(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
