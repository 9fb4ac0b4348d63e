"""One client connection as the tables see it: an outbox of frames and the seats it holds,
plus the token bucket that limits how fast it may send."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

__all__ = ["Connection", "TokenBucket", "dumps"]


def dumps(message: dict[str, Any] | list[Any]) -> str:
    """A message as the compact JSON text of one frame."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


class Connection:
    """What a table knows of a client: the seats it joined with and a queue of frames.

    Tables call :meth:`send` (never blocks); the websocket endpoint drains :attr:`queue`.
    A client whose queue grows past ``max_queue`` frames is cut off (``None`` is queued:
    close the socket); it reconnects and catches up with ``join``.
    """

    def __init__(self, max_queue: int) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.seats: tuple[int, ...] = ()
        self.table_id: str | None = None
        self._max_queue = max_queue
        self.dropped = False

    @property
    def view_seat(self) -> int | None:
        """The seat whose view this connection receives (its first seat), or ``None``."""
        return self.seats[0] if self.seats else None

    def send(self, text: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self._max_queue:
            self.dropped = True
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(text)

    def send_json(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    def error(self, code: str, message: str) -> None:
        self.send_json({"type": "error", "code": code, "message": message})


class TokenBucket:
    """At most ``rate`` messages per second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self._rate = rate
        self._burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._last = clock()

    def take(self) -> bool:
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
