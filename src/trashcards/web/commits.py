"""Group commit: the moves of every table that acted in the same turn of the event loop
are written in one SQLite transaction, and each table waits for that commit before it
sends anything. Under load this turns hundreds of small commits into a few."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from .store import Store

__all__ = ["Committer"]


@dataclass
class _Write:
    table_id: str
    start: int
    moves: Sequence[str]
    status: str | None
    done: asyncio.Future[None]


class Committer:
    """Batches :meth:`Store.add_moves` calls made in one turn of the loop."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._pending: list[_Write] = []

    async def add_moves(self, table_id: str, start: int, moves: Sequence[str],
                        status: str | None = None) -> None:
        """Return once the moves are committed (raises what the commit raised)."""
        loop = asyncio.get_running_loop()
        write = _Write(table_id, start, moves, status, loop.create_future())
        if not self._pending:
            loop.call_soon(self._flush)
        self._pending.append(write)
        await write.done

    def _flush(self) -> None:
        batch, self._pending = self._pending, []
        try:
            self.store.add_many([(w.table_id, w.start, w.moves, w.status) for w in batch])
        except Exception as exc:  # every waiting table hears of it; nothing was written
            for write in batch:
                if not write.done.done():
                    write.done.set_exception(exc)
            return
        for write in batch:
            if not write.done.done():
                write.done.set_result(None)
