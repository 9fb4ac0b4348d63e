"""The HTTP app's edges: a request rate per address, redirects that name no host, and
requests whose client hung up.

* **Request rate.** :class:`RequestRate` answers an address's HTTP requests beyond
  ``http_rate`` a second (a burst of ``http_burst``) with 429 ``rate_limited`` and
  ``Retry-After`` before anything else reads them, so one address's flood of cheap
  requests costs the others little (docs/protocol.md, "Limits"). Websockets have
  their own limits.

* **Trailing slashes.** Starlette redirects ``/rules/`` to ``/rules`` with an absolute
  address built from the request's ``Host`` header, so a forged header chose where the
  redirect went. :func:`relative_redirects` answers such a request with a redirect to
  the path alone (never ``//…``, which a browser reads as another host).
* **Cut bodies.** A client that hangs up while its request's body is being read makes
  Starlette raise ``ClientDisconnect``, which the ASGI server logged as a traceback.
  :func:`client_gone` answers it (nobody reads the answer) and logs one line, at most
  one every :data:`LOG_EVERY` seconds with the number of others since, so a flood of cut
  bodies cannot flood the log.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable
from typing import Final
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import Match, Router
from starlette.types import ASGIApp, Receive, Scope, Send

from ..names import printable
from .limits import AddressLimiter, Network, client_address

__all__ = ["LOG_EVERY", "RequestRate", "client_gone", "relative_redirects"]

log = logging.getLogger(__name__)

#: Seconds between two log lines about clients that hung up mid-request.
LOG_EVERY: Final = 10.0


class RequestRate:
    """ASGI middleware: at most ``rate`` HTTP requests a second per client address (a
    burst of ``burst``); beyond, 429 ``rate_limited`` with ``Retry-After``."""

    def __init__(self, app: ASGIApp, rate: float, burst: int, clock: Callable[[], float],
                 proxies: tuple[Network, ...] = ()) -> None:
        self.app = app
        self.limiter = AddressLimiter(rate, burst, clock)
        self.rate = rate
        self.proxies = proxies

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            client = scope.get("client")
            peer = client[0] if client else "unknown"
            forwarded = next((v.decode("latin-1") for k, v in scope.get("headers", ())
                              if k == b"x-forwarded-for"), None)
            wait = self.limiter.wait(client_address(peer, forwarded, self.proxies))
            if wait > 0:
                response = JSONResponse(
                    {"error": "rate_limited", "message": f"at most {self.rate:g} requests a "
                     "second from your address: try again in a moment",
                     "retry_after": round(wait, 3)},
                    status_code=429, headers={"Retry-After": str(max(1, math.ceil(wait)))})
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def relative_redirects(router: Router) -> None:
    """Make ``router`` redirect a path to its twin with or without a trailing slash (when
    only the twin has a route) with a ``Location`` that is a path only."""
    router.redirect_slashes = False
    not_found = router.not_found

    async def default(scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if scope["type"] == "http" and path not in ("", "/"):
            twin = "/" + (path.rstrip("/") if path.endswith("/") else path + "/").lstrip("/")
            probe = {**scope, "path": twin}
            if twin != path and any(route.matches(probe)[0] is not Match.NONE
                                    for route in router.routes):
                query = scope.get("query_string", b"").decode("latin-1")
                location = quote(twin, safe="/:@!$&'()*+,;=-._~%")
                response = RedirectResponse(location + (f"?{query}" if query else ""),
                                            status_code=307)
                await response(scope, receive, send)
                return
        await not_found(scope, receive, send)

    router.default = default


class _Throttle:
    """One log line per :data:`LOG_EVERY` seconds at most."""

    def __init__(self) -> None:
        self.last = float("-inf")
        self.skipped = 0

    def line(self, text: str) -> None:
        now = time.monotonic()
        if now - self.last < LOG_EVERY:
            self.skipped += 1
            return
        more = f" ({self.skipped} more since the last line)" if self.skipped else ""
        self.last, self.skipped = now, 0
        log.warning("%s%s", text, more)


_gone = _Throttle()


async def client_gone(request: Request, _exc: Exception) -> Response:
    """The exception handler of ``ClientDisconnect``: one log line, an answer nobody
    reads."""
    _gone.line(f"a client hung up before its request was read whole: {request.method} "
               f"{printable(request.url.path[:80])}")
    return Response(status_code=400)
