"""A table's aids: the hint a seat asks for and the win chances everyone watching sees.

Both are computed in the :class:`~trashcards.web.advice.Advisor`'s workers from views
only (a seat's view for its hint, the public view for the chances), never from the
state. A seat's hint is computed once per version (later requests share it; when the
last one waiting goes, so does the job). After every version every seat's win chances
are computed once and sent to the spectators, and to the players where hints are
allowed; an update still running when the table moves on is not sent, and the versions
it missed are skipped (one update at a time per table).
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from ..rules import Rules
from ..state import Phase, State
from ..views import View, view
from .advice import (
    CHANCES_WAIT,
    COARSE,
    COARSE_BUSY,
    COARSE_ODDS,
    HINT_WAIT,
    Advisor,
    BusyError,
    Work,
    chances_message,
    hint_message,
)
from .connection import Connection, dumps
from .moves import started
from .protocol import HintRequest, ProtocolError
from .seats import seat_for
from .settings import Settings
from .store import SeatRow

__all__ = ["AidedTable", "Aids"]

log = logging.getLogger(__name__)

#: The phases in which the seat to act has a decision (and may ask for a hint).
_DECISIONS = (Phase.DRAW, Phase.WILD, Phase.SWAP)


class AidedTable(Protocol):
    """What the aids read of their table (:class:`trashcards.web.table.Table`)."""

    @property
    def rules(self) -> Rules: ...
    @property
    def seats(self) -> Sequence[SeatRow]: ...
    @property
    def settings(self) -> Settings: ...
    @property
    def advisor(self) -> Advisor: ...
    @property
    def hints(self) -> bool:
        """Whether the seats may ask for hints."""
    @property
    def conns(self) -> set[Connection]: ...
    @property
    def state(self) -> State | None: ...
    @property
    def version(self) -> int: ...


class Aids:
    """The hints and win chances of one table."""

    def __init__(self, table: AidedTable) -> None:
        self.table = table
        #: the hint being computed or computed for each seat
        self._hints: dict[int, _HintJob] = {}
        #: the latest ``chances`` frame and its version; the update running
        self._chances: tuple[int, str] | None = None
        self._chances_task: asyncio.Future[None] | None = None

    def moved(self) -> None:
        """The table moved on: the hints computed are out of date."""
        self._hints.clear()

    def reset(self) -> None:
        """The table was rebuilt from the database: forget the hints and chances."""
        self._hints.clear()
        self._chances = None

    def unwatched(self) -> None:
        """The last connection left: the update running is not wanted."""
        if self._chances_task is not None:
            self._chances_task.cancel()

    def joined(self, conn: Connection) -> None:
        """``conn`` joined: send it the current win chances where it sees them, or start
        computing them."""
        if self._chances is not None and self._chances[0] == self.table.version:
            if self._chances[1] and self.sees_chances(conn):
                conn.send(self._chances[1])
        else:
            self.update_chances()

    def sees_chances(self, conn: Connection) -> bool:
        """Spectators always see the win chances; players where hints are allowed."""
        return self.table.hints or not conn.seats

    async def hint(self, conn: Connection, message: HintRequest) -> str:
        """The ``hint`` frame for the seat of the request, computed off the loop from
        that seat's view (once per seat and version; later requests share it). Raises
        :class:`ProtocolError`: ``not_joined``, ``bad_token``, ``hints_off``,
        ``not_started``, ``stale_version``, ``not_your_turn``, ``busy``."""
        table = self.table
        if conn not in table.conns:
            raise ProtocolError("not_joined", "send join first")
        seat = seat_for(table.seats, message.token)
        if not table.hints:
            raise ProtocolError("hints_off", "the creator of this table did not allow hints")
        state = started(table.state)
        if message.version != table.version:
            raise ProtocolError("stale_version", f"the table is at version {table.version}, "
                                                 f"not {message.version}")
        if state.to_act != seat or state.phase not in _DECISIONS:
            raise ProtocolError("not_your_turn", f"seat {seat} has no decision to make now")
        known = self._hints.get(seat)
        if known is None or known.version != table.version:
            known = self._hints[seat] = self._new_hint(state, seat, conn.address)
        known.waiters.add(conn)
        try:
            return await asyncio.shield(known.task)
        except ProtocolError:  # busy: forget it, so the seat may ask again
            if self._hints.get(seat) is known:
                del self._hints[seat]
            raise
        finally:
            known.waiters.discard(conn)
            if not known.waiters and not known.task.done():
                known.task.cancel()  # nobody waits for it any more: out of the queue
                if self._hints.get(seat) is known:
                    del self._hints[seat]

    def _new_hint(self, state: State, seat: int, address: str) -> _HintJob:
        """Ask the scheduler for the hint of ``seat`` at this version."""
        table = self.table
        version = table.version
        seat_view = view(state, seat)  # the AI is handed this view, never the state
        odds = table.advisor.odds.ready(table.rules, len(table.seats))
        samples, coarse = self._budget(table.settings.hint_samples, Work.HINT, odds)
        job = _HintJob(version, set())
        job.task = asyncio.ensure_future(table.advisor.run(
            _hint_frame, seat_view, version, samples, coarse, odds, kind=Work.HINT,
            key=address, wait=HINT_WAIT,
            wanted=lambda: table.version == version and bool(job.waiters)))
        return job

    def _budget(self, samples: int, kind: Work, odds: bool) -> tuple[int, str | None]:
        """The deals for a hint or a win-chance update, and why they are fewer than
        ``samples`` if they are (no match-odds table, work waiting)."""
        if not odds:
            return max(8, samples // COARSE), COARSE_ODDS
        if self.table.settings.coarse_when_busy and self.table.advisor.busy(kind):
            return max(8, samples // COARSE), COARSE_BUSY
        return samples, None

    def update_chances(self) -> None:
        """Compute the win chances of the current version off the loop and send them to
        everyone watching (one update at a time per table; see the module)."""
        table = self.table
        if self._chances_task is not None or not table.conns or table.state is None:
            return
        if self._chances is not None and self._chances[0] == table.version:
            return
        task = self._chances_task = asyncio.ensure_future(self._chances_loop())
        task.add_done_callback(_log_failure)

    def _watched_at(self, version: int) -> bool:
        return self.table.version == version and bool(self.table.conns)

    async def _chances_loop(self) -> None:
        table = self.table
        try:
            while table.conns and table.state is not None and (
                    self._chances is None or self._chances[0] != table.version):
                version = table.version
                public = view(table.state, None)  # the AI is handed this view only
                odds = table.advisor.odds.ready(table.rules, len(table.seats))
                samples, coarse = self._budget(table.settings.chance_samples, Work.CHANCES,
                                               odds)
                # the fair share of the address watching (the first, in a fixed order)
                key = min(c.address for c in table.conns)
                try:
                    text = await table.advisor.run(
                        _chances_frame, public, version, samples, coarse, odds,
                        kind=Work.CHANCES, key=key, wait=CHANCES_WAIT,
                        wanted=functools.partial(self._watched_at, version))
                except BusyError:
                    return  # skipped: the next version tries again
                except ProtocolError:
                    continue  # the table moved on: the new version's turn
                self._chances = (version, text)
                if version == table.version and text:
                    for conn in table.conns:
                        if self.sees_chances(conn):
                            conn.send(text)
        finally:
            self._chances_task = None


@dataclass(eq=False)
class _HintJob:
    """A seat's hint at one version: the task computing it and the connections waiting
    for it (when the last one goes, so does the job)."""

    version: int
    waiters: set[Connection]
    task: asyncio.Future[str] = dataclasses.field(init=False)


def _hint_frame(seat_view: View, version: int, samples: int, coarse: str | None,
                odds: bool) -> str:
    """In a worker: the ``hint`` frame's text."""
    return dumps(hint_message(seat_view, version, samples, coarse, odds))


def _chances_frame(public: View, version: int, samples: int, coarse: str | None,
                   odds: bool) -> str:
    """In a worker: the ``chances`` frame's text, or ``""`` where there is none."""
    message = chances_message(public, version, samples, coarse, odds)
    return "" if message is None else dumps(message)


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("win chances failed", exc_info=task.exception())
