"""Writes to the storage: group commit, and retries with backoff.

The moves of every table that acted while the previous commit was being written (or in
the same turn of the event loop) are written in one transaction, and each table waits
for that commit before it sends anything. Under load this turns hundreds of small
commits into a few. A failed write is tried again a few times, each table on its own,
waiting a little longer each time; when it still fails the caller gets a
:class:`~trashcards.web.store.WriteError` and nothing was written. A table this process
no longer owns (:class:`~trashcards.web.storage.OwnerLostError`) is not tried again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from .storage import OwnerLostError, Storage
from .store import MoveWrite, WriteError

__all__ = ["Committer"]

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class _Pending:
    write: MoveWrite
    done: asyncio.Future[None]


class Committer:
    """Batches :meth:`Storage.add_many` calls, and retries failed writes ``retries``
    times, after ``backoff``, 2 × ``backoff``, … seconds."""

    def __init__(self, store: Storage, retries: int = 3, backoff: float = 0.05) -> None:
        self.store = store
        self.retries = retries
        self.backoff = backoff
        self._pending: list[_Pending] = []
        self._flushing: asyncio.Task[None] | None = None

    async def add_moves(self, write: MoveWrite) -> None:
        """Return once the moves are committed; raises :class:`WriteError` (nothing
        written) when every try failed, :class:`OwnerLostError` at once when this
        process does not own the table."""
        try:
            await self._batched(write)
            return
        except OwnerLostError:
            raise
        except WriteError as exc:
            log.warning("table %s: writing %d moves failed (%s); trying again",
                        write.table_id, len(write.moves), exc)
        await self.write(self._alone, write, tried=1)

    async def _alone(self, write: MoveWrite) -> None:
        if await self.store.add_many([write]):
            raise OwnerLostError(f"this process does not own table {write.table_id}")

    async def write(self, action: Callable[..., Awaitable[T]], *args: object,
                    tried: int = 0) -> T:
        """``await action(*args)`` (a storage write), tried again with backoff while it
        raises :class:`WriteError` (not :class:`OwnerLostError`); the last error is
        raised."""
        delay = self.backoff * 2 ** max(tried - 1, 0)
        attempt = tried
        while True:
            if attempt:
                await asyncio.sleep(delay)
                delay *= 2
            try:
                return await action(*args)
            except OwnerLostError:
                raise
            except WriteError:
                attempt += 1
                if attempt > self.retries:
                    raise

    async def _batched(self, write: MoveWrite) -> None:
        loop = asyncio.get_running_loop()
        pending = _Pending(write, loop.create_future())
        self._pending.append(pending)
        if self._flushing is None:
            self._flushing = loop.create_task(self._flush())
        await pending.done

    async def _flush(self) -> None:
        """Write what is pending, then what came meanwhile, until nothing is left."""
        await asyncio.sleep(0)  # let the other tables of this turn of the loop join in
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                try:
                    lost = await self.store.add_many([p.write for p in batch])
                except Exception as exc:  # every waiting table hears of it; nothing written
                    for pending in batch:
                        if not pending.done.done():
                            pending.done.set_exception(exc)
                    continue
                for pending in batch:
                    if pending.done.done():
                        continue
                    if pending.write.table_id in lost:
                        pending.done.set_exception(OwnerLostError(
                            f"this process does not own table {pending.write.table_id}"))
                    else:
                        pending.done.set_result(None)
        finally:
            self._flushing = None
