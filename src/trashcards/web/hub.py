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
from collections.abc import Sequence
from typing import Any

from ..bots import BOTS, bot_name
from ..errors import TrashError
from ..names import printable
from ..rules import Rules
from .advice import Advisor
from .cluster import Cluster
from .commits import Committer
from .connection import Close, Connection
from .moves import Advance
from .protocol import ClientMessage, CreateTable, ProtocolError, SeatSpec
from .refusals import storage_error
from .routes import dispatch
from .seats import unique_name, valid_name
from .settings import Settings
from .storage import Storage
from .store import NewTable, SeatRow, StoreError, WriteError, hash_token
from .table import Table

__all__ = ["Hub", "checked_names", "default_hints", "playable_rules", "seat_rows"]

log = logging.getLogger(__name__)

#: The close of the connections of a table that expired or was purged.
GONE = Close(4404, "the table is gone (expired)")
#: Longest table id looked up (ids are 11 characters).
MAX_ID = 64


def default_hints(seats: list[SeatRow]) -> bool:
    """Whether a table allows hints unless its creator says: yes against the computer or
    on one device (no seat open to others), no for a table with open seats."""
    return all(s.kind != "open" for s in seats)


class Hub:
    """The tables of one server, backed by one :class:`~trashcards.web.storage.Storage`."""

    def __init__(self, settings: Settings, store: Storage) -> None:
        self.settings = settings
        self.store = store
        self.committer = Committer(store, settings.write_retries, settings.write_backoff)
        #: the worker processes of hints, win chances, reviews and expert bots
        self.advisor = Advisor(settings.ai_workers, settings.ai_queue,
                               settings.ai_per_address, settings.odds_in_background,
                               processes=settings.ai_processes)
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

    async def find(self, table_id: str) -> Table:
        """The table (:meth:`get`) of a request; raises :class:`ProtocolError`
        ``no_table`` or ``quarantined``."""
        table = await self.get(table_id) if len(table_id) <= MAX_ID else None
        if table is not None:
            return table
        if table_id in self.quarantined:
            raise ProtocolError("quarantined", "this table's record cannot be replayed, so "
                                               "the server left it out (see the server's log)")
        raise ProtocolError("no_table", "there is no such table")

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
            hints = row.hints if row.hints is not None else default_hints(row.seats)
            table = Table.restore(row.id, Rules.from_dict(row.rules), row.seats, row.status,
                                  row.rematch, row.moves, self.settings, self.store,
                                  self.committer, self.advisor, row.ready, row.cuts,
                                  row.party, hints, owned=owned,
                                  owner=self.store.process_id if owned else row.owner,
                                  reactions=row.reactions is not False,
                                  active=row.active)
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
        table.make_rematch = self.rematch
        self.tables[table_id] = table
        if owned and bus is not None:
            bus.unfollow(table_id)  # its own writes need no notices
        return table

    async def handle(self, table: Table, conn: Connection, message: ClientMessage) -> None:
        """A client's message to ``table``, dispatched by its route
        (:data:`~trashcards.web.routes.ROUTES`): here, or at the table's owner."""
        await dispatch(table, conn, message, self.cluster)

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
        abandoned = [t for t in self.abandoned() if t not in expired]
        if expired or purged or abandoned:
            await self.committer.write(self.store.delete, expired + purged + abandoned)
            for table_id in expired + purged + abandoned:
                self.gone(table_id)
            log.info("expired %d waiting table(s) and %d abandoned one(s), purged %d "
                     "finished one(s)", len(expired), len(abandoned), len(purged))
        for table in list(self.tables.values()):  # finished ones nobody watches: let go
            self.release(table)
        return len(expired) + len(abandoned), len(purged)

    def _room(self) -> None:
        """Make room for one more table in memory (letting go of the finished ones
        nobody watches), or raise :class:`ProtocolError` ``busy`` (``max_tables``)."""
        if len(self.tables) < self.settings.max_tables:
            return
        for table in list(self.tables.values()):
            self.release(table)
        if len(self.tables) >= self.settings.max_tables:
            raise ProtocolError("busy", "the server holds as many tables as it may: try "
                                        "again later", retry_after=60.0)

    def abandoned(self) -> list[str]:
        """The tables this process plays that are still playing, with no one connected
        and no move for ``abandoned_ttl`` seconds (since the last one left, at least)."""
        limit = self.settings.wall_clock() - self.settings.abandoned_ttl
        return [t.id for t in self.tables.values()
                if t.owned and t.status == "playing" and not t.conns
                and t.last_active < limit and not t.lock.locked()]

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
        self.advisor.close()

    async def create(self, spec: CreateTable) -> tuple[Table, list[dict[str, Any]]]:
        """A new table from ``POST /api/tables``; returns it and the creator's seats with
        their tokens. Raises :class:`ProtocolError` (``bad_rules``, ``bad_request``,
        ``bad_name``, ``name_taken``, ``storage_error``)."""
        rules = playable_rules(spec.rules, len(spec.seats))
        seats, mine = seat_rows(spec.seats)
        hints = spec.hints if spec.hints is not None else default_hints(seats)
        table = await self._open(rules, seats, hints, reactions=spec.reactions)
        return table, mine

    async def rematch(self, old: Table) -> str:
        """A new table with the seats (kinds, names, bots, tokens) and rules of ``old``,
        written together with ``old``'s link to it."""
        seats = [SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in old.seats]
        table = await self._open(old.rules, seats, old.hints, rematch_of=old.id,
                                 reactions=old.reactions)
        table.creator = old.creator
        return table.id

    async def _open(self, rules: Rules, seats: list[SeatRow], hints: bool,
                    rematch_of: str | None = None, reactions: bool = True) -> Table:
        table, opening, row = await self.prepare(rules, seats, hints=hints, reactions=reactions)
        try:
            await self.committer.write(
                self.store.create_table, row.id, row.rules, row.seats, row.status, row.moves,
                rematch_of, row.cuts, row.party, row.hints, row.reactions)
        except WriteError as exc:
            raise storage_error(exc) from None
        await self.opened(table, opening)
        return table

    async def new_id(self) -> str:
        """An id no table has."""
        table_id = self.settings.new_id()
        while table_id in self.tables or await self.store.load(table_id) is not None:
            table_id = self.settings.new_id()
        return table_id

    async def prepare(self, rules: Rules, seats: list[SeatRow], party: str | None = None,
                      table_id: str | None = None, hints: bool | None = None,
                      reactions: bool = True) -> tuple[Table, Advance | None, NewTable]:
        """A new table in memory only, its opening moves if every seat is taken, and the
        row to write; once it is written, :meth:`opened` puts it in play. ``hints``:
        whether the seats may ask for hints (default: :func:`default_hints`);
        ``reactions``: whether they may send reactions."""
        self._room()
        table_id = table_id or await self.new_id()
        hints = hints if hints is not None else default_hints(seats)
        table = Table(table_id, rules, seats, "waiting", None, self.settings, self.store,
                      self.committer, self.advisor, party=party, hints=hints,
                      owner=self.store.process_id, reactions=reactions)
        table.on_lost = self.lost
        table.make_rematch = self.rematch
        # a seat is taken when it is not open or someone holds its token (a party's final
        # copies the winners' seats, taken by invite link, with their kind "open")
        starts = all(s.kind != "open" or s.token_hash is not None for s in seats)
        opening = table.opening_moves() if starts else None
        row = NewTable(table_id, rules.to_dict(), seats, "playing" if opening else "waiting",
                       opening.entries if opening else (), opening.cuts if opening else None,
                       party, hints, reactions)
        return table, opening, row

    async def opened(self, table: Table, opening: Advance | None) -> None:
        """A prepared table is written: keep it, and start its match if it starts."""
        self.tables[table.id] = table
        if opening is not None:
            async with table.lock:
                table.opened(opening)

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


def playable_rules(spec: dict[str, Any], players: int) -> Rules:
    """The rules of a request, checked for ``players``; raises :class:`ProtocolError`
    ``bad_rules`` naming the field."""
    try:
        rules = Rules.from_dict(spec)
        rules.check_players(players)
    except TrashError as exc:
        raise ProtocolError("bad_rules", str(exc)) from None
    return rules


def seat_rows(specs: Sequence[SeatSpec], numbers: Sequence[int] | None = None
              ) -> tuple[list[SeatRow], list[dict[str, Any]]]:
    """The seats of a request and the creator's seats with their new tokens. People's
    names are checked and unique (ignoring case); a bot is named after its kind,
    ``bot:greedy``, ``bot:greedy:2`` … as in every record. ``numbers`` are the seats'
    numbers in the request (a party numbers its seats across both tables): they name the
    seats in errors and in default names (``Player 3``). Raises :class:`ProtocolError`
    (``bad_request``, ``bad_name``, ``name_taken``)."""
    numbers = list(range(len(specs))) if numbers is None else list(numbers)
    chosen = checked_names(specs, numbers)
    seats: list[SeatRow] = []
    mine: list[dict[str, Any]] = []
    names: list[str | None] = list(chosen)
    copies: dict[str, int] = {}
    for index, seat in enumerate(specs):
        number = numbers[index]
        name = chosen[index]
        if seat.kind == "bot":
            bot = (seat.bot or "greedy").strip().lower()
            if bot not in BOTS:
                raise ProtocolError("bad_request", f"seats.{number}.bot: unknown bot "
                                                   f"{seat.bot!r}; the bots are "
                                                   f"{', '.join(BOTS)}")
            copies[bot] = copies.get(bot, 0) + 1
            name = bot_name(bot, copies[bot])
            seats.append(SeatRow(index, "bot", name, bot, None))
        elif seat.kind == "open":
            seats.append(SeatRow(index, "open", name, None, None))
        else:
            token = secrets.token_urlsafe(24)
            name = name or unique_name(f"Player {number + 1}", names)
            seats.append(SeatRow(index, seat.kind, name, None, hash_token(token)))
            mine.append({"seat": index, "token": token, "name": name})
        names[index] = name
    return seats, mine


def checked_names(specs: Sequence[SeatSpec], numbers: Sequence[int]) -> list[str | None]:
    """The names people chose, checked and unique; ``None`` where none was given."""
    chosen: list[str | None] = []
    for seat, number in zip(specs, numbers, strict=True):
        if seat.kind == "bot" and seat.name is not None:
            raise ProtocolError("bad_request", f"seats.{number}.name: the computer's seats "
                                               "are named by the server (bot:greedy …)")
        chosen.append(valid_name(seat.name) if seat.name is not None else None)
    for index, name in enumerate(chosen):
        if name is not None and unique_name(name, chosen[:index]) != name:
            raise ProtocolError("name_taken", f"seats.{numbers[index]}.name: two seats are "
                                              f"called {name!r}")
    return chosen
