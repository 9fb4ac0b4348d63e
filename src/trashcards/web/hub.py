"""All the tables of one server: create them, find them (loading from the database on
demand), list the open ones, make rematches, resume every table after a restart, leave
out the ones whose record cannot be replayed, and sweep away expired and old ones.

With a shared database the hub also takes part in the cluster of server processes
(:class:`trashcards.web.cluster.Cluster`): it owns some tables and follows the others
that its connections watch."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from ..bots import BOTS
from ..errors import TrashError
from ..names import printable
from ..rules import Rules
from .cluster import Cluster
from .commits import Committer
from .connection import Close, Connection
from .protocol import Act, CreateTable, Join, NextRound, ProtocolError, RematchRequest
from .settings import Settings
from .storage import Storage
from .store import SeatRow, StoreError, WriteError, hash_token
from .table import Table, storage_error, unique_name, valid_name

__all__ = ["Hub"]

log = logging.getLogger(__name__)

#: The close of the connections of a table that expired or was purged.
GONE = Close(4404, "the table is gone (expired)")


class Hub:
    """The tables of one server, backed by one :class:`~trashcards.web.storage.Storage`."""

    def __init__(self, settings: Settings, store: Storage) -> None:
        self.settings = settings
        self.store = store
        self.committer = Committer(store, settings.write_retries, settings.write_backoff)
        self.tables: dict[str, Table] = {}
        #: tables whose stored record cannot be replayed, with the reason: left out
        self.quarantined: dict[str, str] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._loading: dict[str, asyncio.Future[Table | None]] = {}
        self.cluster = Cluster(self) if store.bus is not None else None

    async def get(self, table_id: str, claim: bool = True) -> Table | None:
        """The table, loaded from the database (and its record replayed) if needed;
        ``None`` if there is none or it is quarantined (see :attr:`quarantined`). A
        table loaded is owned by this process if it has no live owner (and ``claim``),
        else followed."""
        table = self.tables.get(table_id)
        if table is not None or table_id in self.quarantined:
            return table
        loading = self._loading.get(table_id)
        if loading is not None:  # another request is loading it: wait for that
            return await asyncio.shield(loading)
        future: asyncio.Future[Table | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = future
        try:
            table = await self._load(table_id, claim)
            if table is not None and table.owned and self.cluster is not None:
                # claimed here (its owner is gone): its bots and timers go on here, however
                # it was asked for (a takeover, or a client's join that came first)
                await self.run(table)
            future.set_result(table)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: the waiters (if any) get it raised
            raise
        finally:
            del self._loading[table_id]
        return table

    async def _load(self, table_id: str, claim: bool) -> Table | None:
        bus = self.store.bus
        if bus is not None:
            await bus.follow(table_id)  # before reading: no notice is missed
        owned = await self.store.claim(table_id) if claim else False
        try:
            row = await self.store.load(table_id)
            if row is None:
                if bus is not None:
                    bus.unfollow(table_id)
                return None
            table = Table.restore(row.id, Rules.from_dict(row.rules), row.seats, row.status,
                                  row.rematch, row.moves, self.settings, self.store,
                                  self.committer, row.ready, owned=owned,
                                  owner=self.store.process_id if owned else row.owner)
        except Exception as exc:  # any bad row: leave this table out, keep the server up
            if isinstance(exc, StoreError) and self.store.shared:
                if owned:  # the database failed, not the row: another may try
                    await self.store.release(table_id)
                raise
            reason = f"{type(exc).__name__}: {exc}"
            self.quarantined[table_id] = reason
            log.error("table %s is quarantined (left out): %s", printable(table_id),
                      printable(reason))
            return None
        table.on_lost = self.lost
        self.tables[table_id] = table
        if owned and bus is not None:
            bus.unfollow(table_id)  # its own writes need no notices
        return table

    async def handle(self, table: Table, conn: Connection,
                     message: Join | Act | NextRound | RematchRequest) -> None:
        """A client's message to ``table``: acted on here, or by the table's owner."""
        if isinstance(message, Join) or self.cluster is None or table.owned:
            await table.handle(conn, message, self.rematch)
        else:
            await self.cluster.forward(table, conn, message)

    async def take_seat(self, table: Table, name: str | None,
                        seat: int | None) -> tuple[int, str, str]:
        """:meth:`Table.take_seat`, by the table's owner."""
        if self.cluster is None or table.owned:
            return await table.take_seat(name, seat)
        return await self.cluster.take_seat(table, name, seat)

    def lost(self, table: Table) -> None:
        """A write found that this process no longer owns ``table``: follow it."""
        if self.cluster is not None:
            self.cluster.disown(table)

    async def resume(self) -> int:
        """At start-up (nothing else runs yet): sweep, then load every unfinished table
        and restart its bots and timers; returns how many run. Tables that cannot be
        replayed are quarantined (logged, left out); the rest start."""
        try:
            await self.sweep()
        except StoreError as exc:  # keeping old tables a little longer harms nobody
            log.warning("sweeping expired tables failed: %s", exc)
        if self.cluster is not None:  # the tables that lost their owner, this one's too
            await self.cluster.start()
            return sum(t.owned for t in self.tables.values())
        ids = await self.store.ids(("waiting", "playing"))
        running = 0
        for table_id in ids:
            table = await self.get(table_id)
            if table is None:
                continue
            running += 1
            await self.run(table)
        if self.quarantined:
            log.error("%d table(s) quarantined; `trashcards serve --check` lists them",
                      len(self.quarantined))
        return running

    async def run(self, table: Table) -> None:
        """Start an owned table's bots and timers (after a restart or a takeover)."""
        if table.state is None and not table.info()["open"]:
            try:  # the last seat was taken just before an old server stopped
                async with table.lock:
                    await table.start()
            except WriteError as exc:
                log.error("table %s cannot start: %s", table.id, exc)
        else:
            table.schedule()

    async def check(self) -> tuple[int, dict[str, str]]:
        """Replay every stored table (for ``serve --check``): how many are fine, and the
        quarantined ones with their reasons. Loads nothing for good."""
        fine = 0
        for table_id in await self.store.ids(("waiting", "playing", "over")):
            if await self.get(table_id, claim=False) is not None:
                fine += 1
                del self.tables[table_id]
        return fine, dict(self.quarantined)

    def release(self, table: Table) -> None:
        """Forget a finished table nobody watches, or one followed that nobody here
        watches any more (it is loaded again if asked for)."""
        if table.conns or table.lock.locked():
            return
        if table.status == "over" or not table.owned:
            self.tables.pop(table.id, None)
            if self.store.bus is not None and not table.owned:
                self.store.bus.unfollow(table.id)

    def start_sweeping(self) -> None:
        """Sweep every ``sweep_interval`` seconds from now on."""
        async def sweeping() -> None:
            while True:
                await asyncio.sleep(self.settings.sweep_interval)
                try:
                    await self.sweep()
                except StoreError as exc:
                    log.warning("sweeping expired tables failed: %s", exc)
        self._sweeper = asyncio.create_task(sweeping())

    async def sweep(self) -> tuple[int, int]:
        """Delete the waiting tables older than ``waiting_ttl`` and the finished ones
        older than ``retention``; returns how many of each."""
        now = self.settings.wall_clock()
        expired = [t for t in await self.store.waiting_before(now - self.settings.waiting_ttl)
                   if not self._busy(t)]
        purged = [t for t in await self.store.finished_before(now - self.settings.retention)
                  if not self._busy(t)]
        if expired or purged:
            await self.committer.write(self.store.delete, expired + purged)
            for table_id in expired + purged:
                self.gone(table_id)
            log.info("expired %d waiting table(s), purged %d finished one(s)",
                     len(expired), len(purged))
        return len(expired), len(purged)

    def gone(self, table_id: str) -> None:
        """The table was deleted: close its connections."""
        table = self.tables.pop(table_id, None)
        if table is not None:
            table.cancel()
            table.close_connections(GONE)

    def _busy(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        return table is not None and table.lock.locked()

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self.cluster is not None:
            self.cluster.stop()
        for table in self.tables.values():
            table.cancel()

    async def create(self, spec: CreateTable) -> tuple[Table, list[dict[str, Any]]]:
        """A new table from ``POST /api/tables``; returns it and the creator's seats with
        their tokens. Raises :class:`ProtocolError` (``bad_rules``, ``bad_request``,
        ``bad_name``, ``name_taken``, ``storage_error``)."""
        try:
            rules = Rules.from_dict(spec.rules)
            rules.check_players(len(spec.seats))
        except TrashError as exc:
            raise ProtocolError("bad_rules", str(exc)) from None
        chosen = [valid_name(seat.name) if seat.name is not None else None
                  for seat in spec.seats]
        for number, name in enumerate(chosen):
            if name is not None and unique_name(name, chosen[:number]) != name:
                raise ProtocolError("name_taken", f"seats.{number}.name: two seats are "
                                                  f"called {name!r}")
        seats: list[SeatRow] = []
        mine: list[dict[str, Any]] = []
        names: list[str | None] = list(chosen)
        for number, seat in enumerate(spec.seats):
            name = chosen[number]
            if seat.kind == "bot":
                bot = (seat.bot or "greedy").strip().lower()
                if bot not in BOTS:
                    raise ProtocolError("bad_request", f"seats.{number}.bot: unknown bot "
                                                       f"{seat.bot!r}; the bots are "
                                                       f"{', '.join(BOTS)}")
                name = name or unique_name(f"Bot ({bot})", names)
                seats.append(SeatRow(number, "bot", name, bot, None))
            elif seat.kind == "open":
                seats.append(SeatRow(number, "open", name, None, None))
            else:
                token = secrets.token_urlsafe(24)
                name = name or unique_name(f"Player {number + 1}", names)
                seats.append(SeatRow(number, seat.kind, name, None, hash_token(token)))
                mine.append({"seat": number, "token": token, "name": name})
            names[number] = name
        table = await self._open(rules, seats)
        return table, mine

    async def rematch(self, old: Table) -> str:
        """A new table with the seats (kinds, names, bots, tokens) and rules of ``old``,
        written together with ``old``'s link to it."""
        seats = [SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in old.seats]
        return (await self._open(old.rules, seats, rematch_of=old.id)).id

    async def _open(self, rules: Rules, seats: list[SeatRow],
                    rematch_of: str | None = None) -> Table:
        table_id = self.settings.new_id()
        while table_id in self.tables or await self.store.load(table_id) is not None:
            table_id = self.settings.new_id()
        table = Table(table_id, rules, seats, "waiting", None, self.settings, self.store,
                      self.committer, owner=self.store.process_id)
        table.on_lost = self.lost
        starts = all(s.kind != "open" for s in seats)
        opening = table.opening_moves() if starts else None
        try:
            await self.committer.write(
                self.store.create_table, table_id, rules.to_dict(), seats,
                "playing" if opening else "waiting", opening.entries if opening else (),
                rematch_of)
        except WriteError as exc:
            raise storage_error(exc) from None
        self.tables[table_id] = table
        if opening is not None:
            async with table.lock:
                table.opened(opening)
        return table

    async def open_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """Waiting tables with an open seat, newest first."""
        out = []
        for table_id in await self.store.ids(("waiting",), limit):
            table = await self.get(table_id)
            if table is not None and table.info()["open"]:
                out.append(table.info())
            if table is not None:
                self.release(table)  # listed, not watched: a followed one is let go
        return out
