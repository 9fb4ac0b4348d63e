"""One storage test suite for both backends (SQLite, PostgreSQL), through the
:class:`~trashcards.web.storage.Storage` interface the server uses; then what only a
shared database does: one owner per table, fencing of a stale owner, notices."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from pgtools import Cluster

from trashcards.web.backends import open_storage
from trashcards.web.storage import Notice, OwnerLostError, Storage
from trashcards.web.store import (
    FinalTakenError,
    MoveWrite,
    NewTable,
    SeatRow,
    SeatTakenError,
    StoreError,
)

T = TypeVar("T")
RULES = {"preset": "classic"}


def run(test: Callable[..., Awaitable[T]], *args: Any) -> T:
    return asyncio.run(test(*args))


def _seats(open_seat: bool = True) -> list[SeatRow]:
    return [SeatRow(0, "me", "Ana", None, "h0"),
            SeatRow(1, "open", None, None, None) if open_seat
            else SeatRow(1, "bot", "Bot", "greedy", None)]


async def _open(db: str | Path, **options: Any) -> Storage:
    return await open_storage(db, clock=lambda: 1000.0, **options)


@pytest.mark.numba_compile
def test_a_table_is_stored_with_its_seats_and_moves(database: str | Path) -> None:
    async def body() -> None:
        store = await _open(database)
        try:
            await store.create_table("a", RULES, _seats(False), "playing", ["m0", "m1"])
            assert store.owns("a")
            assert await store.add_many([MoveWrite("a", 2, ["m2", "m3"])]) == set()
            row = await store.load("a")
            assert row is not None
            assert (row.rules, row.status, row.moves) == (
                RULES, "playing", ["m0", "m1", "m2", "m3"])
            assert [(s.seat, s.kind, s.name, s.bot, s.token_hash) for s in row.seats] == [
                (0, "me", "Ana", None, "h0"), (1, "bot", "Bot", "greedy", None)]
            tail = await store.load("a", since=3)
            assert tail is not None
            assert tail.moves == ["m3"]
            assert await store.version(["a", "nothing"]) == {"a": 4}
            assert await store.load("nothing") is None
            assert await store.integrity() == []
        finally:
            await store.close()
    run(body)


@pytest.mark.numba_compile
def test_taking_the_last_seat_starts_the_match_in_the_same_write(database: str | Path) -> None:
    async def body() -> None:
        store = await _open(database)
        try:
            await store.create_table("w", RULES, _seats(), "waiting")
            await store.take_seat("w", 1, "Bo", "h1", ["cut", "deal"], "playing")
            row = await store.load("w")
            assert row is not None
            assert (row.status, row.moves, row.seats[1].name, row.seats[1].token_hash) == (
                "playing", ["cut", "deal"], "Bo", "h1")
            with pytest.raises(SeatTakenError):  # the seat has its person: nothing written
                await store.take_seat("w", 1, "Cy", "h2")
            row = await store.load("w")
            assert row is not None
            assert row.seats[1].name == "Bo"
            assert len(row.moves) == 2
        finally:
            await store.close()
    run(body)


def test_status_ready_rematch_and_the_end_of_a_match_are_kept(database: str | Path) -> None:
    async def body() -> None:
        store = await _open(database)
        try:
            await store.create_table("a", RULES, _seats(False), "playing", ["m0"])
            await store.set_ready("a", [1, 0])
            row = await store.load("a")
            assert row is not None
            assert row.ready == [0, 1]
            await store.add_many([MoveWrite("a", 1, ["m1"], clear_ready=True)])
            row = await store.load("a")
            assert row is not None
            assert row.ready == []
            await store.add_many([MoveWrite("a", 2, ["m2"], status="over")])
            await store.create_table("b", RULES, _seats(False), "playing", ["m0"],
                                     rematch_of="a")
            row = await store.load("a")
            assert row is not None
            assert (row.status, row.rematch) == ("over", "b")
            assert row.finished == 1000.0
            assert await store.ids(("over",)) == ["a"]
            assert sorted(await store.ids(("over", "playing"))) == ["a", "b"]
            assert await store.finished_before(1001.0) == ["a"]
            assert await store.finished_before(999.0) == []
        finally:
            await store.close()
    run(body)


def test_waiting_tables_expire_and_deleting_removes_everything(database: str | Path) -> None:
    async def body() -> None:
        store = await _open(database)
        try:
            await store.create_table("w", RULES, _seats(), "waiting")
            await store.create_table("p", RULES, _seats(False), "playing", ["m0"])
            assert await store.waiting_before(1001.0) == ["w"]
            assert await store.waiting_before(1000.0) == []
            await store.delete(["w", "p"])
            assert await store.load("w") is None
            assert await store.load("p") is None
            assert await store.ids(("waiting", "playing", "over")) == []
        finally:
            await store.close()
    run(body)


def test_the_cut_for_the_first_dealer_is_kept_with_the_table(database: str | Path) -> None:
    """The record keeps only the dealer's seat; the cards cut are kept beside it, by each
    of the three writes that can start a match."""
    async def body() -> None:
        store = await _open(database)
        try:
            await store.create_table("a", RULES, _seats(False), "playing", ["m0"],
                                     cuts='[[0, "7h"]]')
            await store.create_table("w", RULES, _seats(), "waiting")
            await store.take_seat("w", 1, "Bo", "h1", ["m0"], "playing", '[[1, "Kd"]]')
            await store.create_table("s", RULES, _seats(False), "waiting")
            await store.add_many([MoveWrite("s", 0, ["m0"], "playing", cuts='[[0, "2c"]]')])
            await store.add_many([MoveWrite("s", 1, ["m1"])])  # no cut: the cut stays
            for table_id, cuts in (("a", '[[0, "7h"]]'), ("w", '[[1, "Kd"]]'),
                                   ("s", '[[0, "2c"]]')):
                row = await store.load(table_id)
                assert row is not None
                assert row.cuts == cuts
        finally:
            await store.close()
    run(body)


def test_a_party_is_stored_with_its_tables_and_gets_one_final(database: str | Path) -> None:
    async def body() -> None:
        store = await _open(database)
        try:
            tables = [NewTable(t, RULES, _seats(False), "playing", ["m0"], '[[0, "7h"]]', "p")
                      for t in ("t1", "t2")]
            await store.create_party("p", {"tables": ["t1", "t2"], "final_wanted": True},
                                     tables)
            assert store.owns("t1")
            assert store.owns("t2")
            party = await store.load_party("p")
            assert party is not None
            assert (party.data, party.final) == (
                {"tables": ["t1", "t2"], "final_wanted": True}, None)
            row = await store.load("t2")
            assert row is not None
            assert (row.party, row.cuts, row.moves) == ("p", '[[0, "7h"]]', ["m0"])
            await store.set_party_final("p", NewTable("f", RULES, _seats(False), "waiting",
                                                      party="p"))
            assert store.owns("f")
            with pytest.raises(FinalTakenError):  # a second final: nothing written
                await store.set_party_final("p", NewTable("g", RULES, _seats(False),
                                                          "waiting", party="p"))
            assert await store.load("g") is None
            party = await store.load_party("p")
            assert party is not None
            assert party.final == "f"
            assert await store.load_party("nothing") is None
            await store.delete(["t1", "t2"])
            assert await store.load_party("p") is not None  # its final is still there
            await store.delete(["f"])
            assert await store.load_party("p") is None  # the last table took it along
        finally:
            await store.close()
    run(body)


def test_a_move_index_is_written_once(database: str | Path) -> None:
    """Moves are appended at the table's version only: a second write of an index
    writes nothing (for PostgreSQL it is refused as not owned; SQLite raises)."""
    async def body() -> None:
        store = await _open(database)
        try:
            await store.create_table("a", RULES, _seats(False), "playing", ["m0"])
            try:
                refused = await store.add_many([MoveWrite("a", 0, ["again"])])
            except StoreError:
                refused = {"a"}
            assert refused == {"a"}
            row = await store.load("a")
            assert row is not None
            assert row.moves == ["m0"]
        finally:
            await store.close()
    run(body)


# -- a shared database only -----------------------------------------------------------


def test_one_owner_per_table_and_a_takeover_when_it_dies(pg_url: str) -> None:
    async def body() -> None:
        first, second = await _open(pg_url), await _open(pg_url)
        try:
            await first.create_table("a", RULES, _seats(False), "playing", ["m0"])
            assert not await second.claim("a")  # its owner lives
            assert await second.orphans() == []
            assert await second.add_many([MoveWrite("a", 1, ["x"])]) == {"a"}
            await first.close()  # its connection ends: its lock goes
            assert await second.orphans() == ["a"]
            assert await second.claim("a")
            assert await second.add_many([MoveWrite("a", 1, ["m1"])]) == set()
            row = await second.load("a")
            assert row is not None
            assert row.moves == ["m0", "m1"]
            assert row.owner == second.process_id
        finally:
            await second.close()
    run(body)


def test_a_stale_owner_is_fenced_out(pg_url: str, pg_cluster: Cluster) -> None:
    """The owner's connection is cut (as a partition would); another process takes the
    table; the old owner, reconnected, cannot write with its old token."""
    async def body() -> None:
        old, new = await _open(pg_url), await _open(pg_url)
        try:
            await old.create_table("a", RULES, _seats(False), "playing", ["m0"])
            epoch = old._owned["a"]  # type: ignore[attr-defined]
            pg_cluster.sql(pg_url, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                   "WHERE pid = %s", old._owner.info.backend_pid)  # type: ignore[attr-defined]
            with pytest.raises(StoreError):  # its connection is gone: nothing written
                await old.add_many([MoveWrite("a", 1, ["stale"])])
            assert not old.owns("a")
            assert old.lost()
            assert await new.claim("a")
            assert await new.add_many([MoveWrite("a", 1, ["m1"])]) == set()
            assert not await old.keepalive()  # reconnected, under a new name
            assert await old.keepalive()
            old._owned["a"] = epoch  # type: ignore[attr-defined]  # pretend it still owns it
            assert await old.add_many([MoveWrite("a", 2, ["stale"])]) == {"a"}
            with pytest.raises(OwnerLostError):
                await old.set_ready("a", [0])
            row = await new.load("a")
            assert row is not None
            assert row.moves == ["m0", "m1"]
            assert row.ready == []
        finally:
            await old.close()
            await new.close()
    run(body)


def test_notices_carry_every_change_in_order(pg_url: str) -> None:
    async def body() -> None:
        owner, follower = await _open(pg_url), await _open(pg_url)
        heard: list[Notice] = []
        assert follower.bus is not None
        follower.bus.on_notice(heard.append)
        await follower.bus.follow("a")
        try:
            await owner.create_table("a", RULES, _seats(), "waiting")
            await owner.take_seat("a", 1, "Bo", "h1", ["m0", "m1"], "playing", '[[0, "7h"]]')
            await owner.add_many([MoveWrite("a", 2, ["m2"])])
            await owner.set_ready("a", [0])
            await owner.add_many([MoveWrite("a", 3, ["m3"], status="over")])
            for _ in range(100):
                if len(heard) == 4:
                    break
                await asyncio.sleep(0.02)
            assert [(n.start, n.version, n.moves) for n in heard] == [
                (0, 2, ("m0", "m1")), (2, 3, ("m2",)), (3, 3, ()), (3, 4, ("m3",))]
            assert heard[0].seats
            assert heard[0].cuts == '[[0, "7h"]]'
            assert heard[2].ready == (0,)
            assert heard[3].status == "over"
        finally:
            await owner.close()
            await follower.close()
    run(body)


def test_a_newer_schema_is_refused_and_migrations_run_once(pg_url: str,
                                                          pg_cluster: Cluster) -> None:
    async def body() -> None:
        stores = await asyncio.gather(*(_open(pg_url) for _ in range(3)))  # at once
        for store in stores:
            await store.close()
        from trashcards.web.postgres import MIGRATIONS

        assert pg_cluster.sql(pg_url, "SELECT version FROM schema_migrations "
                                      "ORDER BY version") == [
            (number,) for number in range(1, len(MIGRATIONS) + 1)]
        pg_cluster.sql(pg_url, "INSERT INTO schema_migrations VALUES (99, 0)")
        with pytest.raises(StoreError, match="newer trashcards"):
            await _open(pg_url)
    run(body)


def test_an_unreachable_database_is_a_clear_error(tmp_path: Path) -> None:
    async def body() -> None:
        with pytest.raises(StoreError, match="cannot connect") as raised:
            await _open(f"postgresql://nobody:secret@/none?host={tmp_path}")
        assert "secret" not in str(raised.value)
    run(body)
