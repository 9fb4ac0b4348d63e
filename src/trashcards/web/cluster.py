"""One server process among several that share a PostgreSQL database.

Each table has one owner process; the others follow it. This module keeps a hub's part
of that arrangement:

* **takeover** — every ``claim_interval`` seconds (give or take a fifth, so processes
  do not all look at once) the process checks its owner connection and claims the
  unfinished tables whose owner is gone (killed, or its connection cut) or silent for
  longer than its lease (frozen: its owner connection said nothing for three claim
  intervals, at least 2.5 s; the epoch fences off whatever it writes when it wakes); it
  runs their bots and timers from where the database has them;
* **following** — the database's notices of the tables it follows (those its
  connections watch) are taken in order; a notice that does not follow on, a
  reconnected listener, or a table still short at one tick of the version the database
  had at the tick before (its notice was lost) makes it read the missing moves, so no
  move is ever skipped;
* **forwarding** — a player's move, "next round", rematch or seat taken at a table this
  process does not own is sent to the owner, whose answer (errors) comes back; when the
  owner does not answer in time this process takes the table over if it can, else the
  client hears ``unavailable`` and tries again. A move carries the version it was made
  at, so a move that is tried again is never applied twice (``stale_version``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from typing import Annotated, Any, Final, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from ..errors import TrashError
from .connection import Connection
from .protocol import ClientMessage, ProtocolError
from .refusals import unavailable
from .routes import Where, route_of
from .settings import Settings
from .storage import Bus, Notice, Storage
from .store import StoreError, TableRow
from .table import Table

__all__ = ["Cluster", "TableHost"]

log = logging.getLogger(__name__)

#: Ticks between two clean-ups of dead processes' registrations.
_FORGET_EVERY = 30


class _Collector(Connection):
    """The connection a forwarded message is handled for: it keeps the errors (and
    whether a fresh state was sent) to answer the asking process with."""

    def __init__(self, seats: tuple[int, ...]) -> None:
        super().__init__(max_queue=100)
        self.seats = seats
        self.errors: list[tuple[str, str, float | None]] = []
        self.stale = False

    def error(self, code: str, message: str, retry_after: float | None = None) -> None:
        self.errors.append((code, message, retry_after))
        if code == "stale_version":
            self.stale = True

    def send(self, text: str) -> None:
        return None  # frames for the asking connection come from its own process


class TableHost(Protocol):
    """What the cluster needs of the process's tables: the part of
    :class:`~trashcards.web.hub.Hub` it calls back into (the hub passes itself, so this
    module never imports the hub)."""

    settings: Settings
    store: Storage
    #: the tables this process holds (owned or followed), by id
    tables: dict[str, Table]

    async def get(self, table_id: str, claim: bool = True) -> Table | None:
        """The table, loaded (owned if ``claim`` and it has no live owner) if needed."""
        ...

    async def run(self, table: Table) -> None:
        """Start an owned table's bots and timers."""
        ...

    def gone(self, table_id: str) -> None:
        """The table was deleted: close its connections."""
        ...

    async def rematch(self, old: Table) -> str:
        """A new table for a rematch of ``old``; its id."""
        ...


class Cluster:
    """The cluster part of a :class:`~trashcards.web.hub.Hub` on a shared storage."""

    def __init__(self, hub: TableHost) -> None:
        self.hub = hub
        self.store = hub.store
        bus = self.store.bus
        assert bus is not None
        self.bus: Bus = bus
        bus.on_notice(self.notice)
        bus.on_request(self.answer)
        self.settings = hub.settings
        if hasattr(self.store, "lease"):  # a keepalive comes every claim interval or so
            self.store.lease = max(self.store.lease, 3.0 * self.settings.claim_interval)
        self._task: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._ticks = 0
        #: the followed tables' versions in the database at the last tick
        self._checked: dict[str, int] = {}
        #: tables this process could not take over or bring up to date since the last
        #: tick began (cleared at each tick, which tries them again)
        self.failing: set[str] = set()
        #: whether the last tick went through (its database reads and writes worked)
        self._ticked = True

    # -- the loop ------------------------------------------------------------------------

    async def start(self) -> None:
        await self.tick()
        self._task = asyncio.create_task(self._loop())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for task in list(self._tasks):
            task.cancel()

    async def _loop(self) -> None:
        jitter = random.SystemRandom()
        while True:
            await asyncio.sleep(self.settings.claim_interval * jitter.uniform(0.8, 1.2))
            try:
                await self.tick()
                self._ticked = True
            except StoreError as exc:
                self._ticked = False
                log.warning("the cluster check failed: %s", exc)
            except Exception:  # a bug must not stop the takeovers
                self._ticked = False
                log.exception("the cluster check failed")

    def healthy(self) -> bool:
        """Whether this process's tables can move: the last tick went through and no
        table failed to be taken over or brought up to date since."""
        return self._ticked and not self.failing

    async def tick(self) -> None:
        """Check the owner connection, take over orphaned tables, and check the tables
        followed for moves not heard of."""
        await self.store.keepalive()
        if self.store.lost():
            for table in list(self.hub.tables.values()):
                if table.owned:
                    self.disown(table)
        if not await self.store.healthy():  # the database is away: wait for no reads
            raise StoreError("no connection to the database (reconnecting)")
        self.failing.clear()  # each tick finds again what still fails
        orphans = await self.store.orphans()
        # a table this process gave up (a write found the database behind it) while the
        # database still names it the owner is no one else's to take: take it again
        orphans += [t.id for t in self.hub.tables.values()
                    if not t.owned and t.owner == self.store.process_id]
        for table_id in orphans:
            try:
                await self.take_over(table_id)
            except StoreError as exc:  # the next table may still be taken over
                self.failing.add(table_id)
                log.warning("table %s: cannot take it over yet (%s)", table_id, exc)
        followed = [t.id for t in self.hub.tables.values() if not t.owned]
        versions = await self.store.version(followed) if followed else {}
        for table_id in followed:
            behind = self.hub.tables.get(table_id)
            if behind is None or behind.owned:
                continue
            if table_id not in versions:
                self.hub.gone(table_id)
            elif behind.version < self._checked.get(table_id, -1) \
                    or behind.version > versions[table_id]:
                # still short of what the database had a tick ago: a notice was lost
                # (one merely on its way has arrived by now), read the moves; or ahead
                # of the database, which lost moves in a crash: go on from what it has
                await self.sync(behind)
        self._checked = versions
        self._ticks += 1
        if self._ticks % _FORGET_EVERY == 0:
            await self.store.forget_dead()

    # -- ownership -----------------------------------------------------------------------

    async def take_over(self, table_id: str) -> Table | None:
        """Own ``table_id`` if it has no live owner: brought up to date from the
        database, its bots and timers started. The table (owned or not), or ``None``."""
        table = self.hub.tables.get(table_id)
        if table is None:
            loaded = await self.hub.get(table_id)  # claimed and run there if it can be
            if loaded is not None and loaded.owned:
                log.info("took over table %s", table_id)
            return loaded
        if table.owned:
            return table
        async with table.lock:
            if table.owned or not await self.store.claim(table_id):
                return table
            try:  # all of it: what it has may be more than, or not, what was kept
                row = await self._read(table, whole=True)
            except StoreError:
                await self.store.release(table_id)
                raise
            if row is None:
                self.hub.gone(table_id)
                return None
            table.owned = True
            table.owner = self.store.process_id
        log.info("took over table %s at version %d", table_id, table.version)
        self.bus.unfollow(table_id)
        await self.hub.run(table)
        return table

    def disown(self, table: Table) -> None:
        """This process lost ``table``: follow it from now on."""
        if not table.owned:
            return
        log.warning("table %s: this process no longer owns it; following its new owner",
                    table.id)
        table.disown()
        self._spawn(self._refollow(table))

    async def _refollow(self, table: Table) -> None:
        await self.bus.follow(table.id)
        # all of it: moves this process wrote may be lost (a database crash), and a new
        # owner may have made others at the same indexes since
        await self.sync(table, whole=True)

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # -- following -----------------------------------------------------------------------

    def notice(self, notice: Notice) -> None:
        """A notice of the database about a table (see :class:`Notice`)."""
        table = self.hub.tables.get(notice.table_id)
        if table is None:
            return
        if notice.gone:
            self.hub.gone(notice.table_id)
            return
        if notice.version < 0 or not table.follow(notice):
            # a notice behind this table: the database may have lost moves it has
            self._spawn(self.sync(table, whole=0 <= notice.version < table.version))

    async def sync(self, table: Table, whole: bool = False) -> None:
        """Read what a followed table lacks from the database (with ``whole``: all of
        it, to check the moves it has too)."""
        async with table.lock:
            if table.owned or self.hub.tables.get(table.id) is not table:
                return
            try:
                row = await self._read(table, whole)
            except StoreError as exc:
                log.warning("table %s: cannot read it to follow it (%s)", table.id, exc)
                self.failing.add(table.id)
                return
            if row is None:
                self.hub.gone(table.id)

    async def _read(self, table: Table, whole: bool = False) -> TableRow | None:
        """Bring ``table`` (its lock held) up to the database: read the moves it lacks;
        or, with ``whole`` or when those do not follow on, the whole stored table. When
        the database holds fewer or other moves than the table (acknowledged moves lost
        in a database crash, and maybe others made since by a new owner), the table
        goes on from what the database has (:meth:`Table.rewind`). The row read, or
        ``None`` if the table is gone. Raises :class:`StoreError`."""
        since = table.version
        if not whole:
            try:
                row = await self.store.load(table.id, since)
            except StoreError:
                stored = (await self.store.version([table.id])).get(table.id)
                if stored is None or stored >= since:
                    raise  # not behind: the database failed
                whole = True  # the database has fewer moves than this table
            else:
                if row is None:
                    return None
                try:
                    table.catch_up(row, since)
                except TrashError:  # they do not follow on from this table's moves
                    whole = True
                else:
                    self.failing.discard(table.id)
                    return row
        row = await self.store.load(table.id)
        if row is None:
            return None
        if len(row.moves) >= since and row.moves[:since] == table.moves:
            table.catch_up(row, 0)
        else:
            table.rewind(row)
        self.failing.discard(table.id)
        return row

    # -- forwarding ----------------------------------------------------------------------

    async def forward(self, table: Table, conn: Connection, message: ClientMessage) -> None:
        """Have the table's owner act on a client's message; its errors go to ``conn``."""
        if conn not in table.conns:
            conn.error("not_joined", "send join first")
            return
        answer = await self._ask(table, MessageRequest(
            kind="message", table=table.id, seats=list(conn.seats), message=message))
        if answer is None:
            if table.owned:  # taken over meanwhile: act here
                await route_of(message).handler(table, conn, message, False)
                return
            error = unavailable()
            conn.error(error.code, error.message, error.retry_after)
            return
        for refusal in answer.errors:
            conn.error(refusal.code, refusal.message, refusal.retry_after)
        if answer.stale and table.state is not None:
            conn.send(table.state_frame(conn.view_seat))

    async def take_seat(self, table: Table, name: str | None,
                        seat: int | None) -> tuple[int, str, str]:
        """:meth:`Table.take_seat` at the table's owner."""
        answer = await self._ask(table, SeatRequest(kind="seat", table=table.id, name=name,
                                                    seat=seat))
        if answer is None:
            if table.owned:
                return await table.take_seat(name, seat)
            raise unavailable()
        if answer.errors:
            refusal = answer.errors[0]
            raise ProtocolError(refusal.code, refusal.message, refusal.retry_after)
        if answer.taken is None:
            raise unavailable("the table's owner answered without a seat")
        return answer.taken.seat, answer.taken.token, answer.taken.name

    async def _ask(self, table: Table, request: MessageRequest | SeatRequest) -> Answer | None:
        """The owner's answer to ``request``; ``None`` when there is none (and then the
        table may have been taken over by this process)."""
        body = request.model_dump(mode="json")
        for _attempt in range(2):
            owner = table.owner
            if table.owned:
                return None
            if owner is not None and owner != self.store.process_id:
                reply = await self.bus.request(owner, body, self.settings.forward_timeout)
                answer = _answer(reply) if reply is not None else None
                if answer is not None and not answer.moved:
                    return answer
            await self.take_over(table.id)
            if not table.owned:
                await self.sync(table)  # learn who owns it now
        return None

    async def answer(self, body: dict[str, Any]) -> dict[str, Any]:
        """Act on a request forwarded by another process (this one owns the table)."""
        return (await self._answer(body)).model_dump(mode="json")

    async def _answer(self, body: dict[str, Any]) -> Answer:
        try:
            request = _REQUEST.validate_python(body)
        except ValidationError as exc:
            return Answer(errors=[Refusal(code="bad_request", message=_first(exc))])
        table = self.hub.tables.get(request.table)
        if table is None or not table.owned:
            return Answer(moved=True)
        if isinstance(request, SeatRequest):
            try:
                seat, token, name = await table.take_seat(request.name, request.seat)
            except ProtocolError as exc:
                return Answer(errors=[Refusal(code=exc.code, message=exc.message,
                                              retry_after=exc.retry_after)])
            return Answer(taken=SeatTaken(seat=seat, token=token, name=name))
        route = route_of(request.message)
        if route.where is not Where.OWNER:
            return Answer(errors=[Refusal(code="bad_request",
                                          message="only moves are forwarded")])
        collector = _Collector(tuple(request.seats))
        with contextlib.suppress(asyncio.CancelledError):
            await route.handler(table, collector, request.message, True)
        return Answer(errors=[Refusal(code=code, message=text, retry_after=retry_after)
                              for code, text, retry_after in collector.errors],
                      stale=collector.stale)


# -- what processes send each other (over the database's bus, as JSON) -----------------

class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class MessageRequest(_Body):
    """A client's message to a table, forwarded to its owner: the validated model."""

    kind: Literal["message"]
    table: str
    #: the seats the client's connection joined with (in the asking process)
    seats: list[Annotated[int, Field(ge=0, le=3)]]
    message: Annotated[ClientMessage, Field(discriminator="type")]


class SeatRequest(_Body):
    """``POST /api/tables/{id}/join`` at a table another process owns."""

    kind: Literal["seat"]
    table: str
    name: str | None
    seat: int | None


_REQUEST: Final[TypeAdapter[MessageRequest | SeatRequest]] = TypeAdapter(
    Annotated[MessageRequest | SeatRequest, Field(discriminator="kind")])


class Refusal(_Body):
    """An error the owner sent the connection a message was handled for."""

    code: str
    message: str
    retry_after: float | None = None


class SeatTaken(_Body):
    seat: int
    token: str
    name: str


class Answer(_Body):
    """The owner's answer to a :class:`MessageRequest` or a :class:`SeatRequest`."""

    #: the table is not (or no longer) this process's: ask its owner
    moved: bool = False
    errors: list[Refusal] = Field(default_factory=list)
    #: a ``stale_version`` was among the errors: send the client a fresh state
    stale: bool = False
    #: the seat taken, for a :class:`SeatRequest`
    taken: SeatTaken | None = None


def _answer(reply: dict[str, Any]) -> Answer | None:
    """The owner's reply as an :class:`Answer`; ``None`` (no answer) if it is not one."""
    try:
        return Answer.model_validate(reply)
    except ValidationError as exc:
        log.warning("a forwarded request's answer is not one: %s", _first(exc))
        return None


def _first(exc: ValidationError) -> str:
    err = exc.errors()[0]
    return f"{'.'.join(str(p) for p in err['loc']) or 'body'}: {err['msg']}"
