"""Rate limits and caps: a token bucket, the same per client address, and a count of
open connections per address (docs/protocol.md, "Limits").

An *address* is the TCP peer's IP address as the ASGI server reports it, or, when that
peer is a trusted reverse proxy (``--trusted-proxy``), the client its ``X-Forwarded-For``
names (:func:`client_address`). Every structure
here is bounded: an address whose bucket is full again is forgotten, and at most
``max_addresses`` are tracked (the idlest are forgotten first).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable, Sequence
from typing import Final

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

__all__ = ["AddressLimiter", "ConnectionCounter", "TokenBucket", "client_address",
           "proxy_networks"]

#: Addresses tracked by one limiter before the idlest are forgotten.
MAX_ADDRESSES: Final = 50_000


class TokenBucket:
    """At most ``rate`` events per second on average, ``burst`` at once."""

    __slots__ = ("_burst", "_clock", "_last", "_rate", "_tokens")

    def __init__(self, rate: float, burst: int, clock: Callable[[], float]) -> None:
        self._rate = rate
        self._burst = float(max(burst, 1))
        self._clock = clock
        self._tokens = self._burst
        self._last = clock()

    def _refill(self) -> float:
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._last) * self._rate)
        self._last = now
        return self._tokens

    def take(self) -> bool:
        return self.wait() == 0.0

    def wait(self, cost: int = 1) -> float:
        """Take ``cost`` tokens (at most the burst: a bigger cost takes a full bucket) and
        return 0.0, or return the seconds until they are there (and take nothing)."""
        need = min(float(cost), self._burst)
        if self._refill() >= need:
            self._tokens -= need
            return 0.0
        return (need - self._tokens) / self._rate if self._rate > 0 else float("inf")

    @property
    def full(self) -> bool:
        return self._refill() >= self._burst


class AddressLimiter:
    """One :class:`TokenBucket` per client address."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float],
                 max_addresses: int = MAX_ADDRESSES) -> None:
        self._rate = rate
        self._burst = burst
        self._clock = clock
        self._max = max_addresses
        self._buckets: dict[str, TokenBucket] = {}

    def wait(self, address: str, cost: int = 1) -> float:
        """0.0 if ``address`` may go on now (``cost`` tokens are taken), else the seconds
        to wait."""
        bucket = self._buckets.pop(address, None)
        if bucket is None:
            if len(self._buckets) >= self._max:
                self._forget()
            bucket = TokenBucket(self._rate, self._burst, self._clock)
        self._buckets[address] = bucket  # most recently used last
        return bucket.wait(cost)

    def _forget(self) -> None:
        for address in [a for a, b in self._buckets.items() if b.full]:
            del self._buckets[address]
        while len(self._buckets) >= self._max:
            del self._buckets[next(iter(self._buckets))]

    def __len__(self) -> int:
        return len(self._buckets)


class ConnectionCounter:
    """Open connections per address, at most ``cap`` each."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self._open: dict[str, int] = {}

    def open(self, address: str) -> bool:
        """Count one more connection from ``address``; ``False`` (and nothing counted) if
        it already has ``cap``."""
        count = self._open.get(address, 0)
        if count >= self.cap:
            return False
        self._open[address] = count + 1
        return True

    def close(self, address: str) -> None:
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)

    def count(self, address: str) -> int:
        return self._open.get(address, 0)


def proxy_networks(cidrs: Sequence[str]) -> tuple[Network, ...]:
    """The networks of ``--trusted-proxy`` values; raises :class:`ValueError` naming a
    bad one."""
    out = []
    for cidr in cidrs:
        try:
            out.append(ipaddress.ip_network(cidr.strip(), strict=False))
        except ValueError:
            raise ValueError(f"not an address or network: {cidr!r} (e.g. 10.0.0.0/8)"
                             ) from None
    return tuple(out)


def _trusted(address: str, proxies: Sequence[Network]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in proxies)


def client_address(peer: str, forwarded_for: str | None,
                   proxies: Sequence[Network]) -> str:
    """The client's address: ``peer``, unless ``peer`` is a trusted proxy and sent an
    ``X-Forwarded-For`` header; then the last address in it that is not a trusted proxy
    (addresses further left were written by the client itself and prove nothing)."""
    if not proxies or not forwarded_for or not _trusted(peer, proxies):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",")[-16:]]
    for hop in reversed(hops):
        try:
            ipaddress.ip_address(hop)
        except ValueError:
            return peer  # a malformed header: count the proxy itself
        if not _trusted(hop, proxies):
            return hop
    return hops[0] if hops and hops[0] else peer
