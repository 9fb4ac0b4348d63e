"""What the server's handlers reach: one typed object, :class:`Services`, kept on the
application's state (``app.state.services``) by :func:`trashcards.web.app.create_app`,
instead of closures over its locals."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from starlette.requests import HTTPConnection
from starlette.templating import Jinja2Templates

from .hub import Hub
from .limits import AddressLimiter, ConnectionCounter, Network, client_address, proxy_networks
from .party import Parties
from .settings import Settings
from .warmup import WarmUp

__all__ = ["Guards", "Services", "address_of", "origin_allowed"]


@dataclass
class Guards:
    """The per-address limits of one server."""

    creates: AddressLimiter
    joins: AddressLimiter
    reviews: AddressLimiter
    connections: ConnectionCounter
    hints: AddressLimiter
    proxies: tuple[Network, ...] = ()
    #: open websockets of the whole server
    sockets: int = 0

    @classmethod
    def of(cls, settings: Settings) -> Guards:
        def per_minute(rate: float) -> AddressLimiter:
            return AddressLimiter(rate / 60.0, math.ceil(rate), settings.clock)
        return cls(per_minute(settings.create_rate), per_minute(settings.join_rate),
                   per_minute(settings.review_rate),
                   ConnectionCounter(settings.max_connections),
                   AddressLimiter(settings.hint_address_rate,
                                  max(1, math.ceil(2 * settings.hint_address_rate)),
                                  settings.clock),
                   proxy_networks(settings.trusted_proxies))


@dataclass
class Services:
    """Everything a request's handler uses. The hub and the parties exist from the
    application's start (its lifespan) to its stop."""

    settings: Settings
    guards: Guards
    templates: Jinja2Templates
    warm: WarmUp = field(default_factory=WarmUp)
    _hub: Hub | None = None
    _parties: Parties | None = None

    @classmethod
    def of(cls, connection: HTTPConnection) -> Services:
        """The services of the application serving ``connection``."""
        services = connection.app.state.services
        assert isinstance(services, cls)
        return services

    @property
    def hub(self) -> Hub:
        assert self._hub is not None, "the application has not started"
        return self._hub

    @property
    def parties(self) -> Parties:
        assert self._parties is not None, "the application has not started"
        return self._parties

    def start(self, hub: Hub) -> None:
        """The application starts with ``hub``."""
        self._hub = hub
        self._parties = Parties(hub)

    @property
    def started(self) -> bool:
        return self._hub is not None


def origin_allowed(origin: str, host: str | None, allowed: tuple[str, ...]) -> bool:
    """Whether a page from ``origin`` may use the server whose ``Host`` is ``host``: its
    own pages (same host and port), the ``allowed`` origins, any with ``"*"``."""
    if "*" in allowed:
        return True
    try:
        parts = urlsplit(origin.strip().lower())
        port = parts.port  # a bad port raises
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False
    if host is not None and parts.netloc == host.strip().lower():
        return True
    shown = f"{parts.scheme}://{parts.hostname}" + (f":{port}" if port is not None else "")
    return shown in {a.strip().lower().rstrip("/") for a in allowed}


def address_of(connection: HTTPConnection, proxies: tuple[Network, ...] = ()) -> str:
    """The client's address (behind a trusted proxy: the one it forwards for)."""
    peer = connection.client.host if connection.client is not None else "unknown"
    return client_address(peer, connection.headers.get("x-forwarded-for"), proxies)
