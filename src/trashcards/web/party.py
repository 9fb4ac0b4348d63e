"""Parties: five to eight people play at two tables (RULES.md §2: "5 or more people: split
into two tables"), each its own match, and if they want a final table brings the two
winners together.

A party is a row of its own (:meth:`~trashcards.web.storage.Storage.create_party`) and two
ordinary tables that know their party (``TableInfo.party``): seats, invite links,
spectating, reconnecting and restarts work exactly as for any table. The party adds only
the split, the page that shows both tables (``/p/{id}``) and the final. The final is
made the first time the party is looked at (``GET /api/parties/{id}``) after both tables
are over, so it needs no timer and survives any restart; its seats are the two winners'
seats, with the same tokens, as a rematch copies them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, Final

from ..rules import Rules
from .hub import Hub, checked_names, playable_rules, seat_rows
from .moves import Advance
from .protocol import CreateParty, ProtocolError
from .refusals import storage_error
from .seats import unique_name
from .store import FinalTakenError, NewTable, PartyRow, SeatRow, WriteError
from .table import Table

__all__ = ["MAX_PARTY", "MIN_PARTY", "PARTY_TABLES", "Parties", "split_seats"]

#: Seats of a party (fewer play at one table; more than 8 would need three tables).
MIN_PARTY: Final = 5
MAX_PARTY: Final = 8
#: Tables a party makes when it is created (the final comes later, like a rematch): what
#: it costs of its address's table creations.
PARTY_TABLES: Final = 2


def split_seats(kinds: Sequence[str]) -> tuple[list[int], list[int]]:
    """The seats (indices into ``kinds``) of the two tables: their sizes differ by at most
    one (5 → 3 + 2, 8 → 4 + 4), and the people are spread over both before the bots
    fill them up, so neither table is all computers while the other has two people."""
    sizes = ((len(kinds) + 1) // 2, len(kinds) // 2)
    tables: tuple[list[int], list[int]] = ([], [])
    people = [i for i, kind in enumerate(kinds) if kind != "bot"]
    bots = [i for i, kind in enumerate(kinds) if kind == "bot"]
    for number, seat in enumerate(people):
        side = number % 2
        if len(tables[side]) >= sizes[side]:
            side = 1 - side
        tables[side].append(seat)
    for seat in bots:
        side = 0 if sizes[0] - len(tables[0]) >= sizes[1] - len(tables[1]) else 1
        tables[side].append(seat)
    return sorted(tables[0]), sorted(tables[1])


class Parties:
    """The parties of one server, on top of its :class:`~trashcards.web.hub.Hub`."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self._locks: dict[str, asyncio.Lock] = {}

    async def create(self, spec: CreateParty) -> dict[str, Any]:
        """A new party from ``POST /api/parties``: its two tables written in one
        transaction with the party. Returns the answer (the creator's seats with their
        tokens). Raises :class:`ProtocolError` (``bad_rules``, ``bad_request``,
        ``bad_name``, ``name_taken``, ``storage_error``)."""
        kinds = [seat.kind for seat in spec.seats]
        sides = split_seats(kinds)
        rules = playable_rules(spec.rules, len(sides[0]))
        playable_rules(spec.rules, len(sides[1]))
        checked_names(spec.seats, range(len(spec.seats)))  # unique across the party
        party_id = await self.hub.new_id()
        prepared: list[tuple[Table, Advance | None, NewTable]] = []
        mine: list[dict[str, Any]] = []
        for side in sides:
            seats, tokens = seat_rows([spec.seats[i] for i in side], side)
            table, opening, row = await self.hub.prepare(rules, seats, party=party_id,
                                                          hints=spec.hints,
                                                          reactions=spec.reactions)
            while row.id in (p[0].id for p in prepared):  # two new ids, both unused
                table, opening, row = await self.hub.prepare(rules, seats, party=party_id,
                                                              hints=spec.hints,
                                                              reactions=spec.reactions)
            prepared.append((table, opening, row))
            mine.extend({"table_id": table.id, **seat} for seat in tokens)
        data = {"rules": rules.to_dict(), "final_wanted": spec.final,
                "tables": [p[0].id for p in prepared], "hints": spec.hints,
                "reactions": spec.reactions}
        try:
            await self.hub.committer.write(self.hub.store.create_party, party_id, data,
                                           [p[2] for p in prepared])
        except WriteError as exc:
            raise storage_error(exc) from None
        for table, opening, _row in prepared:
            await self.hub.opened(table, opening)
        return {"party_id": party_id, "tables": data["tables"], "seats": mine,
                "invite": f"/p/{party_id}", "spectate": f"/p/{party_id}?watch=1"}

    async def info(self, party_id: str) -> dict[str, Any]:
        """The party as ``GET /api/parties/{id}`` shows it; makes the final table first
        if it is due. Raises :class:`ProtocolError` ``no_party``."""
        row = await self.hub.store.load_party(party_id) if len(party_id) <= 64 else None
        if row is None:
            raise ProtocolError("no_party", "there is no such party")
        tables = [await self.hub.get(table_id) for table_id in row.data.get("tables", [])]
        winners = [_winner(table) for table in tables]
        wanted = bool(row.data.get("final_wanted"))
        if wanted and row.final is None and len(tables) == 2 and None not in winners:
            row = await self._final(row, tables)
        final = await self.hub.get(row.final) if row.final is not None else None
        rules = Rules.from_dict(row.data["rules"])
        return {"party_id": party_id, "rules": rules.to_dict(), "summary": rules.describe(),
                "status": _status(tables, wanted, row.final, final),
                "final_wanted": wanted,
                "tables": [table.info() if table is not None else None for table in tables],
                "final": final.info() if final is not None else None,
                "winners": winners}

    async def _final(self, row: PartyRow, tables: list[Table | None]) -> PartyRow:
        """Make the final table of two finished tables (once: under the party's lock)."""
        lock = self._locks.setdefault(row.id, asyncio.Lock())
        async with lock:
            fresh = await self.hub.store.load_party(row.id)
            if fresh is None or fresh.final is not None:
                return fresh or row
            seats: list[SeatRow] = []
            for number, table in enumerate(tables):
                assert table is not None
                winner = _winner(table)
                assert winner is not None
                won = table.seats[winner]
                name = unique_name(won.name or f"Player {number + 1}", [s.name for s in seats])
                seats.append(SeatRow(number, won.kind, name, won.bot, won.token_hash))
            rules = Rules.from_dict(row.data["rules"])
            hints = row.data.get("hints")
            table, opening, new = await self.hub.prepare(
                rules, seats, party=row.id, hints=hints if isinstance(hints, bool) else None,
                reactions=row.data.get("reactions") is not False)
            try:
                await self.hub.committer.write(self.hub.store.set_party_final, row.id, new)
            except FinalTakenError:  # another server process made it first: show that one
                table.cancel()
                self._locks.pop(row.id, None)
                return await self.hub.store.load_party(row.id) or row
            except WriteError as exc:
                raise storage_error(exc) from None
            await self.hub.opened(table, opening)
            self._locks.pop(row.id, None)
            return PartyRow(row.id, row.created, row.data, new.id)


def _winner(table: Table | None) -> int | None:
    if table is None or table.state is None:
        return None
    return table.state.match_winner


def _status(tables: list[Table | None], wanted: bool, final_id: str | None,
            final: Table | None) -> str:
    if final_id is not None:
        return "over" if final is None or final.status == "over" else "final"
    if any(table is None for table in tables):
        return "over"  # a table expired: the party cannot go on
    if any(table is not None and table.status == "waiting" for table in tables):
        return "waiting"
    if all(table is not None and table.status == "over" for table in tables) and not wanted:
        return "over"
    return "playing"

