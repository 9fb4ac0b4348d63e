"""Whole matches between bots: many at once on every core, or one with its moves logged.

Both are :func:`~trashcards.sim.kernel.game.run` from :func:`~trashcards.sim.kernel.game.
new_match` to the end of the match, every seat a bot. Match ``i`` of a run with seed key
``skey`` takes its streams from ``(skey, i)`` alone, so totals never depend on how the
matches are split.
"""

from __future__ import annotations

from typing import Any

import numba
import numpy as np
import numpy.typing as npt

from .game import new_match, run
from .jit import kjit, unowned
from .layout import H_MATCH, KEYS, O_DECK, T_CARDS

__all__ = ["play_many", "play_traced", "scratch"]

Array = npt.NDArray[Any]


@kjit(inline=True)
def scratch(tab: Array) -> tuple[Array, Array, Array]:
    """A state, its keys and scratch space for a table."""
    st = np.zeros(O_DECK + 2 * tab[T_CARDS], dtype=np.int32)
    ky = np.zeros(KEYS, dtype=np.uint64)
    tmp = np.zeros(16, dtype=np.int64)
    return st, ky, tmp


@kjit(parallel=True)
def play_many(tab: Array, bots: Array, skey: np.uint64, start: int, count: int,
              acc: Array, thist: Array, rhist: Array, ovf: Array) -> None:
    """Matches ``start`` … ``start + count - 1``, split into ``acc.shape[0]`` contiguous
    blocks run in parallel; block b adds its totals into row b of the accumulators.

    The game gets its arrays :func:`~.jit.unowned`: each block's state, keys and scratch
    are rows of arrays allocated before the blocks and held by the parallel loop until
    every block has ended."""
    blocks = acc.shape[0]
    sts = np.zeros((blocks, O_DECK + 2 * tab[T_CARDS]), dtype=np.int32)
    kys = np.zeros((blocks, KEYS), dtype=np.uint64)
    tmps = np.zeros((blocks, 16), dtype=np.int64)
    log = np.zeros(1, dtype=np.int32)
    lp = np.zeros(1, dtype=np.int64)
    for b in numba.prange(blocks):
        lo = start + count * b // blocks
        hi = start + count * (b + 1) // blocks
        t, bt = unowned(tab), unowned(bots)
        st, ky, tmp = unowned(sts[b]), unowned(kys[b]), unowned(tmps[b])
        a, th, rh, ov = unowned(acc[b]), unowned(thist[b]), unowned(rhist[b]), unowned(ovf[b])
        lg, n = unowned(log), unowned(lp)
        for index in range(lo, hi):
            new_match(t, st, ky, skey, index)
            run(t, st, ky, bt, -1, -1, H_MATCH, a, th, rh, ov, tmp, False, lg, n)


@kjit()
def play_traced(tab: Array, bots: Array, skey: np.uint64, index: int, acc: Array,
                thist: Array, rhist: Array, ovf: Array, log: Array, lp: Array, st: Array,
                ky: Array) -> None:
    """Match ``index`` with its moves written to ``log`` (``lp[0]``: entries needed; the
    caller grows the log and plays again when it was too short); its end state is left
    in ``st``/``ky``."""
    tmp = np.zeros(16, dtype=np.int64)
    lp[0] = 0
    new_match(tab, st, ky, skey, index)
    run(tab, st, ky, bots, -1, -1, H_MATCH, acc, thist, rhist, ovf, tmp, True, log, lp)
