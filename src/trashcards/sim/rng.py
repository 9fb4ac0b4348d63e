"""Counter-based random numbers of the fast simulator, in plain Python.

Every number a match of the fast kernel uses is a pure function of ``(seed, match index,
stream, position)``, built from the splitmix64 finalizer :func:`mix64`:

* ``seed_key(seed)``: ``mix64((seed mod 2**64) ^ SALT)``;
* ``match_key(seed, i)``: ``mix64(seed_key + (i + 1)·GAMMA)``;
* ``stream_key(match_key, s)``: ``mix64(match_key ^ (s + 1)·STREAM)``; stream 0 is chance,
  stream ``1 + seat`` is that seat's bot;
* a bot stream's n-th number (n = 1, 2, …) is ``mix64(stream_key + n·GAMMA)``, and
  ``random()`` is its top 53 bits over 2**53, exactly like :meth:`random.Random.random`;
* the chance stream's t-th shuffle (t = 0 is the cut for the dealer, then every deck and
  reshuffle of the match in order) has key ``mix64(chance_key + (t + 1)·GAMMA)``; its
  position p uses ``mix64(shuffle_key + (p + 1)·GAMMA)``.

So results never depend on how matches are split into chunks, threads or machines, and a
shuffle can be done lazily (position by position, as cards are drawn) or all at once with
the same outcome. The numba kernel (:mod:`trashcards.sim.kernel`) computes the same
numbers; :class:`KernelRandom` feeds a seat's stream to the reference bots, which is how
the differential test proves the kernel's bots decide like the engine's.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, TypeVar

__all__ = [
    "GAMMA",
    "MASK",
    "SALT",
    "STREAM",
    "KernelRandom",
    "bounded",
    "fisher_yates",
    "match_key",
    "mix64",
    "seed_key",
    "shuffle_key",
    "shuffle_number",
    "stream_key",
    "stream_number",
    "unit_float",
]

T = TypeVar("T")

MASK: Final = (1 << 64) - 1
#: splitmix64's increment (the golden ratio in 64 bits).
GAMMA: Final = 0x9E3779B97F4A7C15
#: Multiplier that separates the streams of one match.
STREAM: Final = 0xD1B54A32D192ED03
#: Salt of the seed ("trashcar" in ASCII).
SALT: Final = 0x7472617368636172
MUL1: Final = 0xBF58476D1CE4E5B9
MUL2: Final = 0x94D049BB133111EB
_TWO_53: Final = 1.0 / 9007199254740992.0


def mix64(z: int) -> int:
    """The splitmix64 finalizer: a bijection of 64-bit integers that mixes every bit."""
    z &= MASK
    z = ((z ^ (z >> 30)) * MUL1) & MASK
    z = ((z ^ (z >> 27)) * MUL2) & MASK
    return z ^ (z >> 31)


def seed_key(seed: int) -> int:
    """The key of a run's seed (seeds equal modulo 2**64 are the same run)."""
    return mix64((seed & MASK) ^ SALT)


def match_key(seed: int, index: int) -> int:
    """The key of match ``index`` (0, 1, …) of the run with ``seed``."""
    return mix64(seed_key(seed) + (index + 1) * GAMMA)


def stream_key(key_of_match: int, stream: int) -> int:
    """Stream 0 is chance; stream ``1 + seat`` is that seat's bot."""
    return mix64(key_of_match ^ (((stream + 1) * STREAM) & MASK))


def stream_number(key: int, n: int) -> int:
    """The n-th (n ≥ 1) 64-bit number of the stream with ``key``."""
    return mix64(key + n * GAMMA)


def shuffle_key(chance_key: int, t: int) -> int:
    """The key of the t-th shuffle of a match (t = 0: the cut for the dealer)."""
    return mix64(chance_key + (t + 1) * GAMMA)


def shuffle_number(key: int, position: int) -> int:
    """The 64-bit number used at ``position`` (0, 1, …) of a shuffle."""
    return mix64(key + (position + 1) * GAMMA)


def unit_float(x: int) -> float:
    """A float in [0, 1) from the top 53 bits, as :meth:`random.Random.random` does."""
    return (x >> 11) * _TWO_53


def bounded(x: int, m: int) -> int:
    """``floor(x · m / 2**64)``: a number in ``0 … m-1`` (m < 2**32) from a 64-bit ``x``."""
    return (((x >> 32) * m) + (((x & 0xFFFFFFFF) * m) >> 32)) >> 32


def fisher_yates(items: Sequence[T], key: int) -> list[T]:
    """``items`` shuffled as the kernel shuffles with shuffle key ``key``: for each
    position p from the top, swap in the item at ``p + bounded(number(p), n - p)``."""
    out = list(items)
    n = len(out)
    for p in range(n):
        j = p + bounded(shuffle_number(key, p), n - p)
        out[p], out[j] = out[j], out[p]
    return out


class KernelRandom(random.Random):
    """A :class:`random.Random` whose :meth:`random` yields a seat's bot stream of the fast
    kernel: ``KernelRandom(seed, index, seat)`` gives the reference bots of seat ``seat``
    in match ``index`` the very numbers the kernel's bot of that seat uses.

    Only :meth:`random` is a kernel stream (it is all the bots use); the other methods of
    :class:`random.Random` derive from it.
    """

    def __init__(self, seed: int, index: int, seat: int) -> None:
        self._key = stream_key(match_key(seed, index), 1 + seat)
        self._count = 0
        super().__init__(0)

    def seed(self, a: object = None, version: int = 2) -> None:
        """Restart the stream (the argument is ignored: the key fixes the stream)."""
        self._count = 0

    def random(self) -> float:
        self._count += 1
        return unit_float(stream_number(self._key, self._count))

    def getrandbits(self, k: int) -> int:
        """``k`` random bits taken from the stream, 64 at a time."""
        bits, have, out = k, 0, 0
        while have < bits:
            self._count += 1
            out |= stream_number(self._key, self._count) << have
            have += 64
        return out & ((1 << bits) - 1) if bits else 0

    def getstate(self) -> tuple[int, int]:
        return (self._key, self._count)

    def __reduce__(self) -> tuple[Any, tuple[int, int]]:
        # random.Random's own reduce calls the class without arguments.
        return (_kernel_random, (self._key, self._count))

    def setstate(self, state: tuple[int, int]) -> None:  # type: ignore[override]
        self._key, self._count = state

    @property
    def used(self) -> int:
        """How many numbers the stream has given so far."""
        return self._count


def _kernel_random(key: int, count: int) -> KernelRandom:
    """A :class:`KernelRandom` at a given point of its stream (for pickle and copy)."""
    rng = KernelRandom.__new__(KernelRandom)
    random.Random.__init__(rng, 0)
    rng.setstate((key, count))
    return rng
