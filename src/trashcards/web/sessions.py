"""What every players' request shares: their settings, their errors, reading a JSON
body, the session cookie and the CSRF check (docs/players.md, "Accounts").

* **Sessions.** Signing in makes a new random token (256 bits), given to the browser
  in the ``trash_session`` cookie (``HttpOnly``, ``SameSite=Lax``, ``Secure`` when
  the page came over TLS) and kept only as its SHA-256 in the database. A token the
  server did not make is never taken, and every sign-in makes a new one (the old one
  ends), so no one can fix a session for someone else.
* **CSRF.** Every state-changing request must carry the header ``X-Trash-CSRF`` equal
  to the ``trash_csrf`` cookie (``HttpOnly``, ``SameSite=Strict``), which only pages of
  this server can learn (``GET /api/account`` answers it, and no other origin may read
  that answer); a request whose ``Origin`` is another site's is refused too, and the
  body must be JSON. Signing in or out gives a new CSRF token.
"""

from __future__ import annotations

import hashlib
import hmac
import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from .limits import AddressLimiter, Network, client_address
from .protocol import ProtocolError, parse_json

__all__ = ["CSRF_COOKIE", "CSRF_HEADER", "SESSION_COOKIE", "PlayerError", "PlayerSettings",
           "address", "body", "check_csrf", "guarded", "hash_secret", "new_secret",
           "set_cookie"]

SESSION_COOKIE: Final = "trash_session"
CSRF_COOKIE: Final = "trash_csrf"
CSRF_HEADER: Final = "x-trash-csrf"
MAX_BODY: Final = 65536


@dataclass(frozen=True)
class PlayerSettings:
    """How accounts, ratings, pairing and leaderboards run (defaults: ``serve``'s)."""

    #: days a session lasts
    session_days: float = 30.0
    #: sign-in attempts (password or passkey) per minute per address, and sign-ups
    login_rate: float = 10.0
    signup_rate: float = 5.0
    #: failed password sign-ins in a row that lock an account's password, and for how
    #: many seconds (passkeys still sign in)
    account_failures: int = 5
    lockout: float = 900.0
    #: seconds a passkey ceremony may take
    challenge_ttl: float = 300.0
    #: the relying party of passkeys: its name, and its id (``None``: the host name the
    #: page was served from)
    rp_name: str = "Trash"
    rp_id: str | None = None
    #: seconds between two looks for finished rated games (the ratings' delay)
    rate_interval: float = 5.0
    #: pairing: seconds between two matchings, the rating window at first and its
    #: widening per second of waiting, the default wait before a bot is offered, and
    #: the seconds after which a request nobody asks about any more is dropped
    pair_interval: float = 0.25
    pair_window: float = 100.0
    pair_widen: float = 10.0
    bot_wait: float = 20.0
    pair_stale: float = 30.0
    #: habits: seconds between two looks for finished games to review, and the deals
    #: per decision of those reviews
    habit_interval: float = 10.0
    habit_samples: int = 60
    #: habits compared with rated players': the width of a rating band, the other
    #: players and reviewed games a band needs to be shown at all, and the seconds
    #: between two readings of the bands from the database
    peer_band: float = 100.0
    peer_min_players: int = 5
    peer_min_games: int = 20
    peer_refresh: float = 60.0
    #: leaderboards: days since the last rated game within which a player is active
    active_days: float = 30.0
    #: the largest profile kept for an account, in bytes
    max_profile: int = 1_000_000
    #: words or phrases a name may not hold as a word, besides the built-in block list
    #: (:mod:`trashcards.players.naming`)
    blocked_names: tuple[str, ...] = ()


class PlayerError(Exception):
    """A refused players' request: ``code`` for programs, ``message`` for people."""

    def __init__(self, status: int, code: str, message: str,
                 retry_after: float | None = None) -> None:
        super().__init__(f"{code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.retry_after = retry_after

    def response(self) -> Response:
        content: dict[str, Any] = {"error": self.code, "message": self.message}
        headers = {}
        if self.retry_after is not None:
            content["retry_after"] = round(self.retry_after, 3)
            headers["Retry-After"] = str(max(1, math.ceil(self.retry_after)))
        return JSONResponse(content, status_code=self.status, headers=headers)


Handler = Callable[[Request], Awaitable[Response]]


def guarded(handler: Handler) -> Handler:
    """``handler`` with its :class:`PlayerError` (and a bad body) answered as JSON."""
    async def run(request: Request) -> Response:
        try:
            return await handler(request)
        except PlayerError as exc:
            return exc.response()
        except ProtocolError as exc:
            status = 413 if exc.code == "too_large" else 400
            return PlayerError(status, exc.code, exc.message, exc.retry_after).response()
    return run


def new_secret() -> str:
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """The stored form of a session token (random: a plain SHA-256 suffices)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def address(request: Request, proxies: tuple[Network, ...]) -> str:
    peer = request.client.host if request.client is not None else "unknown"
    return client_address(peer, request.headers.get("x-forwarded-for"), proxies)


def secure(request: Request) -> bool:
    """Whether the request came over TLS (behind a trusted proxy: as it says)."""
    return request.url.scheme in ("https", "wss")


def set_cookie(response: Response, request: Request, name: str, value: str,
               max_age: float | None, same_site: str = "lax") -> None:
    response.set_cookie(name, value, max_age=None if max_age is None else int(max_age),
                        path="/", httponly=True, secure=secure(request),
                        samesite=same_site)  # type: ignore[arg-type]


async def body(request: Request) -> dict[str, Any]:
    """The JSON object of the request's body (at most :data:`MAX_BODY` bytes)."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise PlayerError(413, "too_large", f"the body is over {MAX_BODY} bytes")
    data = parse_json(raw or b"{}", MAX_BODY, 16)
    if not isinstance(data, dict):
        raise PlayerError(400, "bad_request", "the body must be a JSON object")
    return data


def check_csrf(request: Request) -> None:
    """Refuse a state-changing request without this site's CSRF token, from another
    site's page, or whose body is not JSON; raises :class:`PlayerError`."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise PlayerError(415, "unsupported_media_type", "the body must be JSON, sent with "
                                                         "Content-Type: application/json")
    origin = request.headers.get("origin")
    if origin is not None and not _same_site(origin, request.headers.get("host")):
        raise PlayerError(403, "bad_origin", "pages of another site may not do this")
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get(CSRF_HEADER, "")
    if not cookie or not header or not hmac.compare_digest(cookie.encode(), header.encode()):
        raise PlayerError(403, "csrf", "this request lacks the page's CSRF token: reload "
                                       "the page and try again")


def _same_site(origin: str, host: str | None) -> bool:
    try:
        parts = urlsplit(origin.strip().lower())
    except ValueError:
        return False
    return (parts.scheme in ("http", "https") and host is not None
            and parts.netloc == host.strip().lower())


def limit(limiter: AddressLimiter, key: str, what: str) -> None:
    """Refuse the request when ``key`` (an address) is over its rate."""
    wait = limiter.wait(key)
    if wait > 0:
        raise PlayerError(429, "rate_limited", f"too many {what} from your address: try "
                                               f"again in {math.ceil(wait)} s", wait)
