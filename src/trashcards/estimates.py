"""Estimates with 95 % confidence intervals, computed from streamed totals (used by the
lab, the AI's evaluations and the command line).

Three kinds of figure and how their intervals are made:

- a share of independent matches (a win rate): the Wilson score interval;
- a mean over independent matches (rounds per match): mean ± 1.96 standard errors, from
  the histogram of match lengths;
- a figure over rounds (turns per round, the round starter's win rate): rounds of one
  match are not independent, so the run is split into equal batches of consecutive
  matches and the interval comes from the spread of the batch ratios (batch means,
  Student's t with batches − 1 degrees of freedom).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from statistics import NormalDist
from typing import Any

from .errors import ArgumentError

__all__ = [
    "Estimate",
    "HistSummary",
    "difference",
    "hist_summary",
    "mean_of_hist",
    "proportion",
    "ratio_over_batches",
    "shifted",
    "t975",
    "t_quantile",
    "wilson_interval",
]

Z95 = 1.959963984540054

# Student's t 0.975 quantiles for 1 … 30 degrees of freedom.
_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
         2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
         2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423)


def wilson_interval(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t (the normal one beyond 30 degrees of freedom)."""
    if df < 1:
        raise ArgumentError("degrees of freedom must be at least 1")
    return _T975[df - 1] if df <= len(_T975) else Z95


@lru_cache(maxsize=4096)
def t_quantile(p: float, df: int) -> float:
    """The ``p`` quantile (``1/2 < p < 1``) of Student's t with ``df`` degrees of freedom.

    Below 100 degrees of freedom it is exact (to 1e-12): the closed-form distribution
    function of integer degrees of freedom (Abramowitz and Stegun 26.7.3–4) solved by
    bisection. From 100 on, the Cornish–Fisher expansion in the normal quantile (A&S
    26.7.5, four terms), within 1e-7 of the exact value (relative) for every ``p`` up to
    ``1 − 10⁻⁶``. The browser's coach (static/js/local/coach.js, ``tQuantile``) computes
    it the same way.
    """
    if not 0.5 < p < 1:
        raise ArgumentError(f"the quantile needs 1/2 < p < 1, got {p}")
    if df < 1:
        raise ArgumentError("degrees of freedom must be at least 1")
    if df >= 100:
        z = NormalDist().inv_cdf(p)
        z2 = z * z
        g1 = (z2 + 1) * z / 4
        g2 = ((5 * z2 + 16) * z2 + 3) * z / 96
        g3 = (((3 * z2 + 19) * z2 + 17) * z2 - 15) * z / 384
        g4 = ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945) * z / 92160
        return z + (g1 + (g2 + (g3 + g4 / df) / df) / df) / df
    inside = 2 * p - 1  # P(|T| ≤ t) at the quantile
    low, high = 0.0, 1.0
    while _t_inside(high, df) < inside:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if _t_inside(mid, df) < inside:
            low = mid
        else:
            high = mid
        if high - low <= 1e-13 * high:
            break
    return (low + high) / 2


def _t_inside(t: float, df: int) -> float:
    """P(|T| ≤ t) for Student's t with an integer ``df`` (A&S 26.7.3–4)."""
    theta = math.atan(t / math.sqrt(df))
    c, s = math.cos(theta), math.sin(theta)
    c2 = c * c
    if df % 2:
        term, total = c, 0.0
        for k in range(1, (df - 1) // 2 + 1):  # cos θ + 2/3 cos³θ + … (df − 1)/2 terms
            total += term
            term *= c2 * (2 * k) / (2 * k + 1)
        return 2 / math.pi * (theta + s * total)
    term, total = 1.0, 0.0
    for k in range(1, df // 2 + 1):  # 1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + … df/2 terms
        total += term
        term *= c2 * (2 * k - 1) / (2 * k)
    return s * total


@dataclass(frozen=True, slots=True)
class Estimate:
    """A figure with its 95 % interval (``low``/``high`` are ``None`` when the sample is
    too small to give one) and the sample it rests on (``n`` units of ``unit``)."""

    value: float
    low: float | None
    high: float | None
    n: int
    unit: str
    method: str

    def to_json(self) -> dict[str, Any]:
        return {"value": self.value, "low": self.low, "high": self.high, "n": self.n,
                "unit": self.unit, "method": self.method}

    @property
    def half_width(self) -> float | None:
        if self.low is None or self.high is None:
            return None
        return (self.high - self.low) / 2


def proportion(successes: int, trials: int, unit: str = "matches") -> Estimate:
    """A share of independent trials, with its Wilson interval."""
    low, high = wilson_interval(successes, trials)
    value = successes / trials if trials else math.nan
    return Estimate(value, low if trials else None, high if trials else None, trials, unit,
                    "Wilson")


def ratio_over_batches(numerators: Sequence[float], denominators: Sequence[float],
                       unit: str) -> Estimate:
    """``Σ numerators / Σ denominators`` with a batch-means interval (ratio estimator).

    The standard error is that of a ratio of batch totals, ``sqrt(Σ (y_b − R x_b)² /
    (B (B − 1))) / mean(x_b)``, over the ``B`` batches with a denominator.
    """
    pairs = [(y, x) for y, x in zip(numerators, denominators, strict=True) if x > 0]
    total_x = sum(x for _, x in pairs)
    n = int(total_x)
    if not pairs:
        return Estimate(math.nan, None, None, 0, unit, "batch means")
    ratio = sum(y for y, _ in pairs) / total_x
    batches = len(pairs)
    if batches < 2:
        return Estimate(ratio, None, None, n, unit, "batch means")
    mean_x = total_x / batches
    spread = sum((y - ratio * x) ** 2 for y, x in pairs) / (batches * (batches - 1))
    half = t975(batches - 1) * math.sqrt(spread) / mean_x
    return Estimate(ratio, ratio - half, ratio + half, n, unit,
                    f"batch means ({batches} batches)")


def mean_of_hist(hist: Mapping[int, int], unit: str) -> Estimate:
    """The mean of independent values given as a histogram, ± 1.96 standard errors."""
    summary = hist_summary(hist)
    if summary.n < 2:
        return Estimate(summary.mean, None, None, summary.n, unit, "normal")
    half = Z95 * summary.sd / math.sqrt(summary.n)
    return Estimate(summary.mean, summary.mean - half, summary.mean + half, summary.n, unit,
                    "normal")


def difference(a: Estimate, b: Estimate) -> Estimate:
    """``a − b`` of two independently estimated figures (normal approximation)."""
    if a.half_width is None or b.half_width is None:
        return Estimate(a.value - b.value, None, None, min(a.n, b.n), a.unit, "difference")
    half = math.hypot(a.half_width, b.half_width)
    value = a.value - b.value
    return Estimate(value, value - half, value + half, min(a.n, b.n), a.unit, "difference")


def shifted(est: Estimate, delta: float) -> Estimate:
    """``est + delta`` (e.g. a win rate minus the fair share: the edge)."""
    return Estimate(est.value + delta, None if est.low is None else est.low + delta,
                    None if est.high is None else est.high + delta, est.n, est.unit,
                    est.method)


@dataclass(frozen=True, slots=True)
class HistSummary:
    """Count, mean, standard deviation and quantiles of a histogram."""

    n: int
    mean: float
    sd: float
    minimum: int
    p10: int
    median: int
    p90: int
    maximum: int

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "mean": self.mean, "sd": self.sd, "min": self.minimum,
                "p10": self.p10, "median": self.median, "p90": self.p90,
                "max": self.maximum}


def hist_summary(hist: Mapping[int, int]) -> HistSummary:
    """Summary of a histogram ``value -> count`` (quantiles are values that occurred)."""
    items = sorted((value, count) for value, count in hist.items() if count > 0)
    n = sum(count for _, count in items)
    if n == 0:
        return HistSummary(0, math.nan, math.nan, 0, 0, 0, 0, 0)
    mean = sum(value * count for value, count in items) / n
    var = sum(count * (value - mean) ** 2 for value, count in items) / max(n - 1, 1)

    def quantile(q: float) -> int:
        rank = q * (n - 1)
        seen = 0
        for value, count in items:
            seen += count
            if seen > rank:
                return value
        return items[-1][0]

    return HistSummary(n, mean, math.sqrt(var), items[0][0], quantile(0.1), quantile(0.5),
                       quantile(0.9), items[-1][0])
