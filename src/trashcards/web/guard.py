"""The HTTP server's guard against slow clients (docs/protocol.md, "Limits").

uvicorn reads a request for as long as the client takes, and counts no connections per
address, so clients that open connections and send their requests a byte at a time
(headers or body) hold file descriptors until the process has none left.
:class:`GuardedProtocol` is uvicorn's own HTTP protocol (httptools or h11, whichever
uvicorn picks) with two limits added:

* **a whole-request deadline**: a connection must send a whole request, its headers and
  its body, within ``request_timeout`` seconds of connecting (or of the previous
  response, on a kept-alive connection), else it is closed. So a client that sends too
  slowly is closed whatever it sends, and an idle kept-alive connection too. A request
  that arrived whole is not limited while the server answers it (the app has its own
  deadlines).
* **a per-address cap**, counting every HTTP connection of the address whatever it is
  doing (connecting, sending, waiting for its answer, idle): one client address may
  hold ``max_per_address`` with that deadline; a connection beyond them gets only
  :data:`CROWDED_DEADLINE` seconds for its whole request (a client that sends its
  request at once, as browsers do, is served; one that dawdles is dropped), and one
  beyond :data:`HARD_FACTOR` times the cap is closed at once, before a byte is read. A
  connection that becomes a websocket leaves this count (websockets have their own
  cap).

uvicorn builds the protocol by name, also in each ``--workers`` process, so the limits
come from the environment variable :data:`ENVIRONMENT` (set by ``trashcards serve``),
read once per process.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from typing import Any, Final

from uvicorn.protocols.http.auto import AutoHTTPProtocol

__all__ = ["ENVIRONMENT", "PROTOCOL", "GuardedProtocol", "HttpLimits", "limits_text"]

#: The environment variable that carries the limits to every server process.
ENVIRONMENT: Final = "TRASHCARDS_HTTP_LIMITS"
#: What to give uvicorn's ``http`` option.
PROTOCOL: Final = "trashcards.web.guard:GuardedProtocol"
#: Seconds a connection beyond the per-address cap has for its whole request.
CROWDED_DEADLINE: Final = 2.0
#: Connections of one address beyond this many times the cap are closed at once.
HARD_FACTOR: Final = 8


@dataclass(frozen=True)
class HttpLimits:
    """The limits of :class:`GuardedProtocol` (the defaults of ``trashcards serve``)."""

    #: seconds a connection may take to send a whole request (headers and body)
    request_timeout: float = 30.0
    #: HTTP connections one client address may hold open at once
    max_per_address: int = 64


def limits_text(limits: HttpLimits) -> str:
    """``limits`` as the value of :data:`ENVIRONMENT`."""
    return json.dumps({"request_timeout": limits.request_timeout,
                       "max_per_address": limits.max_per_address})


_limits: HttpLimits | None = None
#: Open HTTP connections per client address, in this process.
_open: dict[str, int] = {}


def _current() -> HttpLimits:
    global _limits  # read once per process
    if _limits is None:
        text = os.environ.get(ENVIRONMENT)
        _limits = HttpLimits(**json.loads(text)) if text else HttpLimits()
    return _limits


def open_connections(address: str) -> int:
    """HTTP connections ``address`` holds open in this process (for tests)."""
    return _open.get(address, 0)


class GuardedProtocol(AutoHTTPProtocol):  # type: ignore[misc, valid-type]
    """uvicorn's HTTP protocol with a whole-request deadline and a per-address cap."""

    _guard_address: str | None = None
    _guard_timer: asyncio.TimerHandle | None = None
    _guard_deadline: float = 0.0

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        limits = _current()
        address = self.client[0] if self.client else "unknown"
        count = _open.get(address, 0)
        if count >= HARD_FACTOR * limits.max_per_address:
            transport.close()  # before reading a byte: it costs nothing more
            return
        _open[address] = count + 1
        self._guard_address = address
        crowded = count >= limits.max_per_address
        self._guard_deadline = (min(CROWDED_DEADLINE, limits.request_timeout) if crowded
                                else limits.request_timeout)
        self._arm()

    def _arm(self) -> None:
        """Close the connection unless a request after the current one arrives whole
        (headers and body) within the deadline."""
        if self._guard_timer is not None:
            self._guard_timer.cancel()
        self._guard_timer = self.loop.call_later(self._guard_deadline, self._expire,
                                                 self.cycle)

    def _expire(self, cycle: object) -> None:
        self._guard_timer = None
        current = self.cycle
        whole = current is not None and current is not cycle and not current.more_body
        if not whole and not self.transport.is_closing():
            self.transport.close()  # no new request arrived whole: a slow or idle client

    def _release(self) -> None:
        if self._guard_timer is not None:
            self._guard_timer.cancel()
            self._guard_timer = None
        address, self._guard_address = self._guard_address, None
        if address is not None:
            count = _open.get(address, 0) - 1
            if count > 0:
                _open[address] = count
            else:
                _open.pop(address, None)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if self._guard_address is not None and not self.transport.is_closing():
            self._arm()  # the next request, whole, in time

    def handle_websocket_upgrade(self, *args: Any) -> None:
        self._release()  # a websocket now: counted (and capped) as one
        super().handle_websocket_upgrade(*args)

    def connection_lost(self, exc: Exception | None) -> None:
        self._release()
        super().connection_lost(exc)
