"""All the tables of one server: create them, find them (loading from the database on
demand), list the open ones, make rematches, and resume every table after a restart."""

from __future__ import annotations

import secrets
from typing import Any

from ..bots import BOTS
from ..errors import TrashError
from ..rules import Rules
from .commits import Committer
from .protocol import CreateTable, ProtocolError
from .settings import Settings
from .store import SeatRow, Store, hash_token
from .table import Table

__all__ = ["Hub"]


class Hub:
    """The tables of one server, backed by one :class:`~trashcards.web.store.Store`."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.committer = Committer(store)
        self.tables: dict[str, Table] = {}

    def get(self, table_id: str) -> Table | None:
        """The table, loaded from the database (and its record replayed) if needed."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = self.store.load(table_id)
        if row is None:
            return None
        table = Table.restore(row.id, Rules.from_dict(row.rules), row.seats, row.status,
                              row.rematch, row.moves, self.settings, self.store,
                              self.committer)
        self.tables[table_id] = table
        return table

    async def resume(self) -> int:
        """At start-up (nothing else runs yet): load every unfinished table and restart its
        bots and timers; returns how many."""
        ids = self.store.ids(("waiting", "playing"))
        for table_id in ids:
            table = self.get(table_id)
            if table is None:
                continue
            if table.state is None and not table.info()["open"]:
                await table.start()  # the last seat was taken just before the server stopped
            else:
                table.schedule()
        return len(ids)

    def release(self, table: Table) -> None:
        """Forget a finished table nobody watches (it is loaded again if asked for)."""
        if table.status == "over" and not table.conns and not table.lock.locked():
            self.tables.pop(table.id, None)

    def close(self) -> None:
        for table in self.tables.values():
            table.cancel()

    async def create(self, spec: CreateTable) -> tuple[Table, list[dict[str, Any]]]:
        """A new table from ``POST /api/tables``; returns it and the creator's seats with
        their tokens. Raises :class:`ProtocolError` (``bad_rules``, ``bad_request``)."""
        try:
            rules = Rules.from_dict(spec.rules)
            rules.check_players(len(spec.seats))
        except TrashError as exc:
            raise ProtocolError("bad_rules", str(exc)) from None
        seats: list[SeatRow] = []
        mine: list[dict[str, Any]] = []
        for number, seat in enumerate(spec.seats):
            if seat.kind == "bot":
                bot = (seat.bot or "greedy").strip().lower()
                if bot not in BOTS:
                    raise ProtocolError("bad_request", f"seats.{number}.bot: unknown bot "
                                                       f"{seat.bot!r}; the bots are "
                                                       f"{', '.join(BOTS)}")
                seats.append(SeatRow(number, "bot", seat.name or f"Bot ({bot})", bot, None))
            elif seat.kind == "open":
                seats.append(SeatRow(number, "open", seat.name, None, None))
            else:
                token = secrets.token_urlsafe(24)
                name = seat.name or f"Player {number + 1}"
                seats.append(SeatRow(number, seat.kind, name, None, hash_token(token)))
                mine.append({"seat": number, "token": token, "name": name})
        table = await self._open(rules, seats)
        return table, mine

    async def rematch(self, old: Table) -> str:
        """A new table with the seats (kinds, names, bots, tokens) and rules of ``old``."""
        seats = [SeatRow(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in old.seats]
        return (await self._open(old.rules, seats)).id

    async def _open(self, rules: Rules, seats: list[SeatRow]) -> Table:
        table_id = self.settings.new_id()
        while table_id in self.tables or self.store.load(table_id) is not None:
            table_id = self.settings.new_id()
        self.store.create_table(table_id, rules.to_dict(), seats, "waiting")
        table = Table(table_id, rules, seats, "waiting", None, self.settings, self.store,
                      self.committer)
        self.tables[table_id] = table
        if all(s.kind != "open" for s in seats):
            async with table.lock:
                await table.start()
        return table

    def open_tables(self, limit: int = 50) -> list[dict[str, Any]]:
        """Waiting tables with an open seat, newest first."""
        out = []
        for table_id in self.store.ids(("waiting",), limit):
            table = self.get(table_id)
            if table is not None and table.info()["open"]:
                out.append(table.info())
        return out
