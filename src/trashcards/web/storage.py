"""The storage interface of the server, and its embedded backend (SQLite).

A :class:`Storage` keeps the tables (each table its trash/1 record's moves, its seats and
their hashed tokens) and says which server process *owns* each table: only the owner of
a table writes its moves. Two backends implement it:

* :class:`SqliteStorage` (the default): one SQLite file, one server process, which owns
  every table (:mod:`trashcards.web.store` holds the file and its single-writer lock);
* :class:`trashcards.web.postgres.PostgresStorage` (``--db postgresql://…``): any number
  of server processes share one PostgreSQL database; each table has one owner at a time,
  every write of a table is fenced by its owner's token, and table changes are announced
  to the other processes (``LISTEN``/``NOTIFY``).

Both pass the same storage tests (tests/web/test_backends.py).
:func:`trashcards.web.backends.open_storage`, a module above both, picks the backend from
the database given to ``trashcards serve --db``; this module never imports the PostgreSQL
one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from .store import (
    MoveWrite,
    NewTable,
    PartyRow,
    SeatRow,
    SeatTakenError,
    Store,
    TableRow,
    WriteError,
)

__all__ = ["Bus", "Notice", "OwnerLostError", "SeatTakenError", "SqliteStorage", "Storage",
           "is_postgres"]


class OwnerLostError(WriteError):
    """This process no longer owns the table (another took it over, or this one lost its
    database connection): nothing was written."""


@dataclass(frozen=True)
class Notice:
    """A change of one table, announced to every process that follows the table: moves
    ``moves`` from index ``start`` (``version`` is the table's after them), and the
    table's status, ready seats, rematch and owner after the change (``None``:
    unchanged); ``seats``: the
    seats changed (read them again); ``gone``: the table was deleted. ``moves`` is
    ``None`` when they did not fit in the notice (read them from the database)."""

    table_id: str
    version: int
    start: int = 0
    moves: tuple[str, ...] | None = ()
    status: str | None = None
    ready: tuple[int, ...] | None = None
    rematch: str | None = None
    owner: str | None = None
    seats: bool = False
    gone: bool = False
    #: a rematch was asked for (every connection of the table hears of it)
    rematch_asked: bool = False
    #: the cards cut for the first dealer (JSON), sent with the table's first moves
    cuts: str | None = None
    #: a seat's reaction (seat, emote): every connection of the table sees it
    reaction: tuple[int, str] | None = None


#: What a process does with a request forwarded to it: the answer (a JSON object).
Handler = Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]


class Bus(Protocol):
    """How server processes talk through the database: table notices and requests to a
    table's owner. Only a shared backend has one."""

    async def follow(self, table_id: str) -> None:
        """Receive the notices of ``table_id`` from now on."""

    def unfollow(self, table_id: str) -> None:
        """Stop receiving the notices of ``table_id`` (soon)."""

    async def request(self, process: str, message: dict[str, Any],
                      timeout: float) -> dict[str, Any] | None:
        """Send ``message`` to ``process`` and wait for its answer; ``None`` when no
        answer came within ``timeout`` seconds (the process may be gone)."""

    def on_notice(self, callback: Callable[[Notice], None]) -> None:
        """Call ``callback`` with every notice received (and after the connection that
        receives them was re-established, with a ``Notice`` of version -1 for each table
        followed: it may have missed some)."""

    def on_request(self, handler: Handler) -> None:
        """Answer the requests sent to this process with ``handler``."""


class Storage(Protocol):
    """Where the tables live. Writes of a table are made by its owner only: every write
    of a table this process does not own raises :class:`OwnerLostError` and writes
    nothing. A failed write raises :class:`WriteError` (nothing of it written); a read
    that fails raises :class:`StoreError`."""

    #: shared by several processes (the database announces changes through :attr:`bus`)
    shared: bool
    #: this process's name among the owners (changes when it had to reconnect)
    process_id: str
    bus: Bus | None
    #: where the data is, for messages (a path or a URL without its password)
    where: str

    async def close(self) -> None: ...

    # -- ownership ---------------------------------------------------------------------
    async def claim(self, table_id: str) -> bool:
        """Become the owner of ``table_id`` if it has no live owner; whether this
        process owns it now."""

    def owns(self, table_id: str) -> bool:
        """Whether this process owns ``table_id`` (as far as it knows)."""

    async def release(self, table_id: str) -> None:
        """Stop owning ``table_id`` (another process may claim it)."""

    async def orphans(self) -> list[str]:
        """Unfinished tables whose owner is gone (none for a single-process backend)."""

    def lost(self) -> bool:
        """Whether this process lost every table it owned since the last call (its
        connection to the database broke): the caller stops acting on them."""

    async def alive(self, process: str | None) -> bool:
        """Whether ``process`` is a live owner."""

    async def healthy(self) -> bool:
        """Whether this process can write now (its connection to the database is up)."""

    async def keepalive(self) -> bool:
        """Check the connection (re-established if it broke, and then every table owned
        is lost: see :meth:`lost`); whether it was fine."""

    async def forget_dead(self) -> None:
        """Clean up what dead processes left (their registrations)."""

    # -- writes ------------------------------------------------------------------------
    async def create_table(self, table_id: str, rules: dict[str, Any], seats: Sequence[SeatRow],
                           status: str, moves: Sequence[str] = (),
                           rematch_of: str | None = None, cuts: str | None = None,
                           party: str | None = None, hints: bool = False,
                           reactions: bool = True) -> None:
        """A new table (owned by this process) with its seats and first moves (and the
        cards cut for the first dealer, JSON), its party and whether its seats may ask
        for hints and send reactions; with ``rematch_of``, that table's rematch
        is set to it in the same transaction."""

    async def create_party(self, party_id: str, data: dict[str, Any],
                           tables: Sequence[NewTable]) -> None:
        """A new party and its tables (owned by this process), in one transaction."""

    async def set_party_final(self, party_id: str, final: NewTable) -> None:
        """The final table of a party (owned by this process), made and linked in one
        transaction; raises :class:`~trashcards.web.store.FinalTakenError` (nothing
        written) if the party has one already (another process made it first)."""

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                        moves: Sequence[str] = (), status: str | None = None,
                        cuts: str | None = None) -> None:
        """Give an open seat its person (raises :class:`SeatTakenError` if it has one),
        with the match's first moves (and the cards cut for the dealer) when it was the
        last seat, in one transaction."""

    async def add_many(self, writes: Iterable[MoveWrite]) -> set[str]:
        """Append moves to tables in one transaction; returns the tables left out because
        this process does not own them (or their index was taken): nothing was
        written for those, everything for the others."""

    async def set_ready(self, table_id: str, seats: Iterable[int]) -> None: ...

    async def touch(self, table_id: str, when: float) -> None:
        """Keep ``when`` as the table's last real activity (the last connection left)."""

    async def ask_rematch(self, table_id: str, version: int, rematch: str | None) -> None:
        """Announce that a rematch (``rematch``) was asked for at ``table_id``."""

    async def react(self, table_id: str, version: int, seat: int, emote: str) -> None:
        """Announce ``seat``'s reaction to the other processes that follow ``table_id``
        (nothing is stored)."""

    async def delete(self, table_ids: Sequence[str]) -> None: ...

    # -- reads -------------------------------------------------------------------------
    async def load(self, table_id: str, since: int = 0) -> TableRow | None:
        """The table with its moves from index ``since`` on, or ``None``."""

    async def load_party(self, party_id: str) -> PartyRow | None:
        """The party, or ``None``."""

    async def version(self, table_ids: Sequence[str]) -> dict[str, int]:
        """The number of moves of each table (missing: the table is gone)."""

    async def ids(self, statuses: Sequence[str], limit: int = -1) -> list[str]: ...

    async def waiting_before(self, created: float) -> list[str]: ...

    async def finished_before(self, finished: float) -> list[str]: ...

    async def integrity(self) -> list[str]: ...


def is_postgres(db: Path | str) -> bool:
    """Whether ``--db`` names a PostgreSQL database (a ``postgresql://`` URL)."""
    return str(db).startswith(("postgresql://", "postgres://"))


class SqliteStorage:
    """The embedded backend: one :class:`~trashcards.web.store.Store` (an SQLite file
    whose lock lets one server process in), so this process owns every table."""

    shared = False
    process_id = "local"
    bus: Bus | None = None

    def __init__(self, store: Store) -> None:
        self.store = store
        self.where = str(store.path)

    async def close(self) -> None:
        self.store.close()

    async def claim(self, table_id: str) -> bool:
        return True

    def owns(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        return None

    async def orphans(self) -> list[str]:
        return []

    def lost(self) -> bool:
        return False

    async def alive(self, process: str | None) -> bool:
        return True

    async def healthy(self) -> bool:
        return True

    async def keepalive(self) -> bool:
        return True

    async def forget_dead(self) -> None:
        return None

    async def create_table(self, table_id: str, rules: dict[str, Any], seats: Sequence[SeatRow],
                           status: str, moves: Sequence[str] = (),
                           rematch_of: str | None = None, cuts: str | None = None,
                           party: str | None = None, hints: bool = False,
                           reactions: bool = True) -> None:
        self.store.create_table(table_id, rules, seats, status, moves, rematch_of, cuts, party,
                                hints, reactions)

    async def create_party(self, party_id: str, data: dict[str, Any],
                           tables: Sequence[NewTable]) -> None:
        self.store.create_party(party_id, data, tables)

    async def set_party_final(self, party_id: str, final: NewTable) -> None:
        self.store.set_party_final(party_id, final)

    async def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                        moves: Sequence[str] = (), status: str | None = None,
                        cuts: str | None = None) -> None:
        self.store.take_seat(table_id, seat, name, token_hash, moves, status, cuts)

    async def add_many(self, writes: Iterable[MoveWrite]) -> set[str]:
        self.store.add_many(writes)
        return set()

    async def set_ready(self, table_id: str, seats: Iterable[int]) -> None:
        self.store.set_ready(table_id, seats)

    async def ask_rematch(self, table_id: str, version: int, rematch: str | None) -> None:
        return None

    async def react(self, table_id: str, version: int, seat: int, emote: str) -> None:
        return None

    async def touch(self, table_id: str, when: float) -> None:
        self.store.touch(table_id, when)

    async def delete(self, table_ids: Sequence[str]) -> None:
        self.store.delete(table_ids)

    async def load(self, table_id: str, since: int = 0) -> TableRow | None:
        row = self.store.load(table_id)
        if row is not None and since:
            row.moves = row.moves[since:]
        return row

    async def load_party(self, party_id: str) -> PartyRow | None:
        return self.store.load_party(party_id)

    async def version(self, table_ids: Sequence[str]) -> dict[str, int]:
        out = {}
        for table_id in table_ids:
            row = self.store.load(table_id)
            if row is not None:
                out[table_id] = len(row.moves)
        return out

    async def ids(self, statuses: Sequence[str], limit: int = -1) -> list[str]:
        return self.store.ids(statuses, limit)

    async def waiting_before(self, created: float) -> list[str]:
        return self.store.waiting_before(created)

    async def finished_before(self, finished: float) -> list[str]:
        return self.store.finished_before(finished)

    async def integrity(self) -> list[str]:
        return self.store.integrity()

