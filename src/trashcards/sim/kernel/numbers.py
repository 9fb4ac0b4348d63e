"""The kernel's counter-based random numbers: :mod:`trashcards.sim.rng`, compiled."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..rng import GAMMA, MASK, STREAM
from .jit import kjit
from .layout import K_BOT, K_CHANCE, K_SHUFFLE, O_CTR

__all__ = ["G", "bounded", "fy_step", "match_keys", "mix64", "next_key", "stream_numbers",
           "uniform"]

Array = npt.NDArray[Any]

G = np.uint64(GAMMA)
_STREAM = np.uint64(STREAM)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_U11 = np.uint64(11)
_U27 = np.uint64(27)
_U30 = np.uint64(30)
_U31 = np.uint64(31)
_U32 = np.uint64(32)
_TWO_53 = 1.0 / 9007199254740992.0
assert MASK == (1 << 64) - 1


@kjit(inline=True)
def mix64(z: np.uint64) -> np.uint64:
    """The splitmix64 finalizer (:func:`trashcards.sim.rng.mix64`)."""
    z = (z ^ (z >> _U30)) * _M1
    z = (z ^ (z >> _U27)) * _M2
    return z ^ (z >> _U31)


@kjit(inline=True)
def bounded(x: np.uint64, m: int) -> int:
    """``floor(x · m / 2**64)``, as :func:`trashcards.sim.rng.bounded`."""
    mu = np.uint64(m)
    hi = (x >> _U32) * mu
    lo = ((x & _LOW32) * mu) >> _U32
    return int(np.int64((hi + lo) >> _U32))


@kjit()
def next_key(chance: np.uint64, t: int) -> np.uint64:
    """The key of shuffle ``t`` of the chance stream (:func:`~trashcards.sim.rng.shuffle_key`)."""
    return mix64(chance + np.uint64(t + 1) * G)


@kjit(inline=True)
def match_keys(ky: Array, skey: np.uint64, index: int, players: int) -> None:
    """The streams of match (or rollout, or sample) ``index`` of the run with seed key
    ``skey``: the chance stream and one bot stream per seat."""
    mk = mix64(skey + np.uint64(index + 1) * G)
    ky[K_CHANCE] = mix64(mk ^ _STREAM)
    ky[K_SHUFFLE] = 0
    for s in range(players):
        ky[K_BOT + s] = mix64(mk ^ (np.uint64(s + 2) * _STREAM))


@kjit(inline=True)
def uniform(ky: Array, st: Array, seat: int) -> float:
    """The next number of ``seat``'s bot stream, in [0, 1) (:meth:`KernelRandom.random`)."""
    n = st[O_CTR + seat] + 1
    st[O_CTR + seat] = n
    x = mix64(ky[K_BOT + seat] + np.uint64(n) * G)
    return np.float64(x >> _U11) * _TWO_53


@kjit(inline=True)
def fy_step(a: Array, at: int, p: int, end: int, key: np.uint64) -> int:
    """Fisher–Yates at position ``p`` of ``a[at:at + end]`` with shuffle key ``key``: the
    card that lands there (:func:`trashcards.sim.rng.fisher_yates`, one position)."""
    x = mix64(key + np.uint64(p + 1) * G)
    j = at + p + bounded(x, end - p)
    card: int = a[j]
    a[j] = a[at + p]
    a[at + p] = card
    return card


@kjit()
def stream_numbers(skey: np.uint64, index: int, stream: int, count: int) -> Array:
    """The first ``count`` numbers of a stream of the run with seed key ``skey`` (for
    tests against :mod:`trashcards.sim.rng`)."""
    mk = mix64(skey + np.uint64(index + 1) * G)
    key = mix64(mk ^ (np.uint64(stream + 1) * _STREAM))
    out = np.empty(count, dtype=np.uint64)
    for n in range(count):
        out[n] = mix64(key + np.uint64(n + 1) * G)
    return out
