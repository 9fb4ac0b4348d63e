"""One client connection as the tables see it: an outbox of frames, bounded in frames and
in bytes, and the seats it holds."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any

__all__ = ["Close", "Connection", "dumps"]


def dumps(message: dict[str, Any] | list[Any]) -> str:
    """A message as the compact JSON text of one frame."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Close:
    """Queued last: close the socket with this code and reason."""

    code: int
    reason: str


#: The close of a connection that cannot keep up (docs/protocol.md).
TOO_SLOW = Close(4408, "too slow: reconnect and join again")


class Connection:
    """What a table knows of a client: the seats it joined with and a queue of frames.

    Tables call :meth:`send` (never blocks); the websocket endpoint drains :attr:`queue`.
    A client whose queue grows past ``max_queue`` frames or ``max_bytes`` characters is
    cut off: its queue is emptied and :data:`TOO_SLOW` queued (close the socket); it
    reconnects and catches up with ``join``.
    """

    def __init__(self, max_queue: int, max_bytes: int = 1 << 20) -> None:
        self.queue: asyncio.Queue[str | Close] = asyncio.Queue()
        self.seats: tuple[int, ...] = ()
        self.table_id: str | None = None
        #: the client's address (for the fair shares of the AI work)
        self.address = ""
        #: the table version of the last catch-up this connection was sent
        self.caught_up: int | None = None
        #: the first move whose events this connection was sent as history (pages of
        #: the log only go back from there)
        self.history_from: int | None = None
        self._max_queue = max_queue
        self._max_bytes = max_bytes
        #: characters queued and not yet written to the socket
        self.queued = 0
        self.dropped = False

    @property
    def view_seat(self) -> int | None:
        """The seat whose view this connection receives (its first seat), or ``None``."""
        return self.seats[0] if self.seats else None

    def send(self, text: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self._max_queue or self.queued + len(text) > self._max_bytes:
            self.close(TOO_SLOW)
            return
        self.queued += len(text)
        self.queue.put_nowait(text)

    def sent(self, text: str) -> None:
        """The writer wrote ``text`` to the socket."""
        self.queued -= len(text)

    def close(self, close: Close) -> None:
        """Send nothing more and close the socket with ``close`` after the frames queued
        so far; for :data:`TOO_SLOW` those frames are dropped instead (their memory is
        freed at once: the client catches up when it joins again)."""
        if self.dropped:
            return
        self.dropped = True
        if close is TOO_SLOW:
            while not self.queue.empty():
                self.queue.get_nowait()
            self.queued = 0
        self.queue.put_nowait(close)

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    def error(self, code: str, message: str, retry_after: float | None = None) -> None:
        error: dict[str, Any] = {"type": "error", "code": code, "message": message}
        if retry_after is not None:
            error["retry_after"] = round(retry_after, 3)
        self.send_json(error)
