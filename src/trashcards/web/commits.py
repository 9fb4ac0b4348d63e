"""Writes to the store: group commit, and retries with backoff.

The moves of every table that acted in the same turn of the event loop are written in one
SQLite transaction, and each table waits for that commit before it sends anything. Under
load this turns hundreds of small commits into a few. A failed write is tried again a few
times, each table on its own, waiting a little longer each time; when it still fails the
caller gets a :class:`~trashcards.web.store.WriteError` and nothing was written.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from .store import MoveWrite, Store, WriteError

__all__ = ["Committer"]

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class _Pending:
    write: MoveWrite
    done: asyncio.Future[None]


class Committer:
    """Batches :meth:`Store.add_many` calls made in one turn of the loop, and retries
    failed writes ``retries`` times, after ``backoff``, 2 × ``backoff``, … seconds."""

    def __init__(self, store: Store, retries: int = 3, backoff: float = 0.05) -> None:
        self.store = store
        self.retries = retries
        self.backoff = backoff
        self._pending: list[_Pending] = []

    async def add_moves(self, write: MoveWrite) -> None:
        """Return once the moves are committed; raises :class:`WriteError` (nothing
        written) when every try failed."""
        try:
            await self._batched(write)
            return
        except WriteError as exc:
            log.warning("table %s: writing %d moves failed (%s); trying again",
                        write.table_id, len(write.moves), exc)
        await self.write(self.store.add_many, [write], tried=1)

    async def write(self, action: Callable[..., T], *args: object, tried: int = 0) -> T:
        """``action(*args)`` (a store write), tried again with backoff while it raises
        :class:`WriteError`; the last error is raised."""
        delay = self.backoff * 2 ** max(tried - 1, 0)
        attempt = tried
        while True:
            if attempt:
                await asyncio.sleep(delay)
                delay *= 2
            try:
                return action(*args)
            except WriteError:
                attempt += 1
                if attempt > self.retries:
                    raise

    async def _batched(self, write: MoveWrite) -> None:
        loop = asyncio.get_running_loop()
        pending = _Pending(write, loop.create_future())
        if not self._pending:
            loop.call_soon(self._flush)
        self._pending.append(pending)
        await pending.done

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        try:
            self.store.add_many([p.write for p in batch])
        except Exception as exc:  # every waiting table hears of it; nothing was written
            for pending in batch:
                if not pending.done.done():
                    pending.done.set_exception(exc)
            return
        for pending in batch:
            if not pending.done.done():
                pending.done.set_result(None)
