"""All the tables of one server: create them, find them (loading from the database on
demand), list the open ones, make rematches, resume every table after a restart, leave
out the ones whose record cannot be replayed, and sweep away expired and old ones."""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from ..bots import BOTS
from ..errors import TrashError
from ..names import printable
from ..rules import Rules
from .advice import Advisor
from .commits import Committer
from .connection import Close
from .protocol import CreateTable, ProtocolError
from .settings import Settings
from .store import SeatRow, Store, StoreError, WriteError, hash_token
from .table import Table, storage_error, unique_name, valid_name

__all__ = ["Hub", "default_hints"]

log = logging.getLogger(__name__)

#: The close of the connections of a table that expired or was purged.
GONE = Close(4404, "the table is gone (expired)")


def default_hints(seats: list[SeatRow]) -> bool:
    """Whether a table allows hints unless its creator says: yes against the computer or
    on one device (no seat open to others), no for a table with open seats."""
    return all(s.kind != "open" for s in seats)


class Hub:
    """The tables of one server, backed by one :class:`~trashcards.web.store.Store`."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.committer = Committer(store, settings.write_retries, settings.write_backoff)
        #: the worker threads of hints, win chances, reviews and expert bots
        self.advisor = Advisor(settings.ai_workers, settings.ai_queue)
        self.tables: dict[str, Table] = {}
        #: tables whose stored record cannot be replayed, with the reason: left out
        self.quarantined: dict[str, str] = {}
        self._sweeper: asyncio.Task[None] | None = None

    def get(self, table_id: str) -> Table | None:
        """The table, loaded from the database (and its record replayed) if needed;
        ``None`` if there is none or it is quarantined (see :attr:`quarantined`)."""
        table = self.tables.get(table_id)
        if table is not None or table_id in self.quarantined:
            return table
        try:
            row = self.store.load(table_id)
            if row is None:
                return None
            hints = row.hints if row.hints is not None else default_hints(row.seats)
            table = Table.restore(row.id, Rules.from_dict(row.rules), row.seats, row.status,
                                  row.rematch, row.moves, self.settings, self.store,
                                  self.committer, self.advisor, row.ready, hints)
        except Exception as exc:  # any bad row: leave this table out, keep the server up
            reason = f"{type(exc).__name__}: {exc}"
            self.quarantined[table_id] = reason
            log.error("table %s is quarantined (left out): %s", printable(table_id),
                      printable(reason))
            return None
        self.tables[table_id] = table
        return table

    async def resume(self) -> int:
        """At start-up (nothing else runs yet): sweep, then load every unfinished table
        and restart its bots and timers; returns how many run. Tables that cannot be
        replayed are quarantined (logged, left out); the rest start."""
        try:
            await self.sweep()
        except StoreError as exc:  # keeping old tables a little longer harms nobody
            log.warning("sweeping expired tables failed: %s", exc)
        ids = self.store.ids(("waiting", "playing"))
        running = 0
        for table_id in ids:
            table = self.get(table_id)
            if table is None:
                continue
            running += 1
            if table.state is None and not table.info()["open"]:
                try:  # the last seat was taken just before an old server stopped
                    async with table.lock:
                        await table.start()
                except WriteError as exc:
                    log.error("table %s cannot start: %s", table_id, exc)
            else:
                table.schedule()
        if self.quarantined:
            log.error("%d table(s) quarantined; `trashcards serve --check` lists them",
                      len(self.quarantined))
        return running

    def check(self) -> tuple[int, dict[str, str]]:
        """Replay every stored table (for ``serve --check``): how many are fine, and the
        quarantined ones with their reasons. Loads nothing for good."""
        fine = 0
        for table_id in self.store.ids(("waiting", "playing", "over")):
            if self.get(table_id) is not None:
                fine += 1
                del self.tables[table_id]
        return fine, dict(self.quarantined)

    def release(self, table: Table) -> None:
        """Forget a finished table nobody watches (it is loaded again if asked for)."""
        if table.status == "over" and not table.conns and not table.lock.locked():
            self.tables.pop(table.id, None)

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
        expired = [t for t in self.store.waiting_before(now - self.settings.waiting_ttl)
                   if not self._busy(t)]
        purged = [t for t in self.store.finished_before(now - self.settings.retention)
                  if not self._busy(t)]
        if expired or purged:
            await self.committer.write(self.store.delete, expired + purged)
            for table_id in expired + purged:
                table = self.tables.pop(table_id, None)
                if table is not None:
                    table.cancel()
                    table.close_connections(GONE)
            log.info("expired %d waiting table(s), purged %d finished one(s)",
                     len(expired), len(purged))
        return len(expired), len(purged)

    def _busy(self, table_id: str) -> bool:
        table = self.tables.get(table_id)
        return table is not None and table.lock.locked()

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.tables.values():
            table.cancel()
        self.advisor.close()

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
        hints = spec.hints if spec.hints is not None else default_hints(seats)
        table = await self._open(rules, seats, hints)
        return table, mine

    async def rematch(self, old: Table) -> str:
        """A new table with the seats (kinds, names, bots, tokens) and rules of ``old``,
        written together with ``old``'s link to it."""
        seats = [SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in old.seats]
        return (await self._open(old.rules, seats, old.hints, rematch_of=old.id)).id

    async def _open(self, rules: Rules, seats: list[SeatRow], hints: bool,
                    rematch_of: str | None = None) -> Table:
        table_id = self.settings.new_id()
        while table_id in self.tables or self.store.load(table_id) is not None:
            table_id = self.settings.new_id()
        table = Table(table_id, rules, seats, "waiting", None, self.settings, self.store,
                      self.committer, self.advisor, hints=hints)
        starts = all(s.kind != "open" for s in seats)
        opening = table.opening_moves() if starts else None
        try:
            await self.committer.write(
                self.store.create_table, table_id, rules.to_dict(), seats,
                "playing" if opening else "waiting", opening.entries if opening else (),
                rematch_of, hints)
        except WriteError as exc:
            raise storage_error(exc) from None
        self.tables[table_id] = table
        if opening is not None:
            async with table.lock:
                table.opened(opening)
        return table

    def open_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """Waiting tables with an open seat, newest first."""
        out = []
        for table_id in self.store.ids(("waiting",), limit):
            table = self.get(table_id)
            if table is not None and table.info()["open"]:
                out.append(table.info())
        return out
