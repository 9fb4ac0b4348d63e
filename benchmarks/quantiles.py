"""Quantiles of benchmark samples, and what an interval says about a goal: one
implementation for every benchmark (``from quantiles import percentile``: the benchmarks
run as scripts from this folder)."""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = ["goal_verdict", "percentile", "quantile_interval"]


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile of ``values`` (0 ≤ q ≤ 1): the value at rank ``⌊q·n⌋`` of the
    sorted sample, the largest for ``q`` = 1; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def quantile_interval(values: Sequence[float], q: float, level: float = 0.95
                      ) -> tuple[float, float]:
    """A distribution-free ``level`` interval for the ``q`` quantile: the order
    statistics that the binomial(n, q) count of samples below it brackets. Its upper end
    is infinite when the sample is too small to bound it (n = 100 cannot bound a p99)."""
    n = len(values)
    if n == 0:
        return float("-inf"), float("inf")
    ordered = sorted(values)
    tail = (1.0 - level) / 2.0
    log_q, log_r = math.log(q), math.log1p(-q)
    cdf, below = [], 0.0  # cdf[k] = P(count <= k)
    for k in range(n + 1):
        below += math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)
                          + k * log_q + (n - k) * log_r)
        cdf.append(below)
    # [X_(r), X_(s)] (1-based) covers the quantile with P(r <= count <= s - 1)
    r = max((k + 1 for k in range(n) if cdf[k] <= tail), default=0)
    s = min((k + 1 for k in range(n) if cdf[k] >= 1.0 - tail), default=n + 1)
    low = ordered[r - 1] if r >= 1 else float("-inf")
    high = ordered[s - 1] if s <= n else float("inf")
    return low, high


def goal_verdict(low: float, high: float, goal: float) -> str:
    """``yes`` if the whole interval is within ``goal``, ``NO`` if none of it is, and
    ``a tie`` (the numbers cannot say) otherwise."""
    if high <= goal:
        return "yes"
    if low > goal:
        return "NO"
    return "a tie: the interval holds the goal"
