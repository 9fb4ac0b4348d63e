"""The HTTP app's edges: redirects that name no host, and requests whose client hung up.

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
import time
from typing import Final
from urllib.parse import quote

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import Match, Router
from starlette.types import Receive, Scope, Send

from ..names import printable

__all__ = ["LOG_EVERY", "client_gone", "relative_redirects"]

log = logging.getLogger(__name__)

#: Seconds between two log lines about clients that hung up mid-request.
LOG_EVERY: Final = 10.0


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
