"""Following the owner: with a shared database a table in memory that this process does
not own takes the owner's committed moves in order, from the database's notices
(:func:`follow`) or by reading the database (:func:`catch_up`, :func:`rewind`), and sends
them to its connections exactly as the owner does."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Protocol

from ..engine import apply
from ..rules import Rules
from ..state import State, new_match
from .aids import Aids
from .connection import Connection
from .eventjson import events_text
from .frames import broadcast_reaction
from .moves import Advance, entry, replay, with_cuts
from .rematch import send_rematch
from .storage import Notice
from .store import SeatRow, TableRow

__all__ = ["FollowingTable", "catch_up", "follow", "rewind"]

log = logging.getLogger(__name__)


class FollowingTable(Protocol):
    """What following needs of its table (:class:`trashcards.web.table.Table`)."""

    owner: str | None
    status: str
    ready: set[int]
    rematch_id: str | None
    seats: list[SeatRow]
    state: State | None
    moves: list[str]
    move_events: list[str]

    @property
    def id(self) -> str: ...
    @property
    def rules(self) -> Rules: ...
    @property
    def owned(self) -> bool: ...
    @property
    def version(self) -> int: ...
    @property
    def conns(self) -> set[Connection]: ...
    @property
    def aids(self) -> Aids: ...

    def publish(self, advance: Advance) -> None:
        """Committed moves: the table takes them and every connection hears of them."""

    def send_table(self) -> None:
        """Send the ``table`` message to every connection."""

    def state_frame(self, seat: int | None) -> str:
        """A ``state`` message with the view of ``seat``."""


def follow(table: FollowingTable, notice: Notice) -> bool:
    """Take a notice of the owner; returns ``False`` when the moves in it do not follow
    on from the table's version (read them: :func:`catch_up`)."""
    if notice.owner is not None:
        table.owner = notice.owner
    if table.owned:
        return True
    if notice.reaction is not None:  # of the moment, whatever this table lacks
        broadcast_reaction(table.conns, *notice.reaction)
    if notice.version < table.version:  # behind this table: the database lost moves?
        return False  # (or only a late notice): read the table
    if notice.version > table.version:
        if notice.moves is None or notice.start > table.version or notice.seats:
            return False
        _take_moves(table, notice.start, notice.moves, notice.cuts)
    changed = False
    if notice.status is not None and notice.status != table.status:
        table.status, changed = notice.status, True
    if notice.ready is not None and set(notice.ready) != table.ready:
        table.ready, changed = set(notice.ready), True
    if notice.rematch is not None and notice.rematch != table.rematch_id:
        table.rematch_id, changed = notice.rematch, True
    if changed:
        table.send_table()
    if notice.rematch_asked and table.rematch_id is not None:
        send_rematch(table.conns, table.rematch_id)
    return True


def catch_up(table: FollowingTable, row: TableRow, since: int) -> None:
    """Take the stored table ``row`` (its moves from index ``since``)."""
    table.owner = row.owner
    seats_changed = [(s.name, s.token_hash) for s in table.seats] != \
        [(s.name, s.token_hash) for s in row.seats]
    table.seats = row.seats
    if since <= table.version < since + len(row.moves):
        _take_moves(table, table.version, row.moves[table.version - since:], row.cuts)
    meta = (row.status, set(row.ready), row.rematch)
    if seats_changed or meta != (table.status, table.ready, table.rematch_id):
        table.status, table.ready, table.rematch_id = meta
        table.send_table()


def rewind(table: FollowingTable, row: TableRow) -> None:
    """Take the stored table ``row`` (all its moves) as the truth although it has fewer
    moves than the table: moves acknowledged just before a database crash were lost
    with it (``synchronous_commit=off``). The match is rebuilt from the row and every
    connection gets a whole ``state`` (and the table)."""
    state, texts = replay(table.rules, tuple(s.name or "" for s in row.seats),
                          row.moves, row.cuts)
    log.warning("table %s: the database kept %d of its %d moves (a crash lost the "
                "last ones); going on from there", table.id, len(row.moves), table.version)
    table.state, table.moves, table.move_events = state, list(row.moves), texts
    table.seats, table.owner = row.seats, row.owner
    table.status, table.ready, table.rematch_id = row.status, set(row.ready), row.rematch
    table.aids.reset()
    for conn in table.conns:
        conn.caught_up = None
        if state is not None:
            conn.send(table.state_frame(conn.view_seat))
    table.send_table()


def _take_moves(table: FollowingTable, start: int, moves: Sequence[str],
                cuts: str | None = None) -> None:
    """Apply the owner's committed moves from ``start`` (moves the table has already
    are skipped; ``cuts``: the cards cut for the first dealer, when they start at the
    first move) and send them, as the owner does (``Table.publish``)."""
    moves = moves[table.version - start:]
    if not moves:
        return
    state = table.state or new_match(table.rules, tuple(s.name or "" for s in table.seats))
    texts = []
    for index, text in enumerate(moves, start=table.version):
        item = with_cuts(entry(index, text), cuts) if index == 0 else entry(index, text)
        state, events = apply(state, item.move, item.seat)
        texts.append(events_text(events, state))
    table.publish(Advance(state, list(moves), texts))
