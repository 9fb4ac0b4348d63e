"""Tests of calibration for predicted chances against 0/1 outcomes, with their power.

Under perfect calibration each outcome ``won`` is a coin with chance ``p``, its
prediction, so the variance of ``won - p`` is ``p (1 - p)`` exactly: every test below
uses that null variance, needs no fitted model and no resampling. Three ways a
prediction can be wrong, each with a z test:

* **bias** (calibration in the large): the mean of ``won - p``; every prediction too
  high or too low by the same amount;
* **spread** (the calibration slope): the least-squares slope of ``won - p`` on
  ``p - mean(p)``; over-confidence (predictions too far from the mean: a negative slope)
  or under-confidence;
* **worst bin**: in each bin of predictions (of at least ``min_bin``), the sum of
  ``won - p`` over its variance; a bias confined to one range of predictions. The
  smallest p-value over the bins is corrected for their number (Šidák).

The three share the family level ``alpha`` (each at ``alpha / 3``, Bonferroni), so an
honest predictor is flagged in at most ``alpha`` of the samples. Each test also gives
its *detectable* size: the smallest bias (in chance, for a bin its own) that the test
finds with probability ``power`` at its level, given these predictions — what the data
could see, stated beside what they saw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from ..errors import ArgumentError

__all__ = ["BinTest", "Calibration", "ZTest", "calibration_tests", "detectable"]

ALPHA = 0.05
POWER = 0.8
TESTS = 3
#: The spread is reported as the deviation it makes this far from the mean prediction.
SPREAD_AT = 0.4

_NORMAL = NormalDist()


def _two_sided(z: float) -> float:
    return 2 * (1 - _NORMAL.cdf(abs(z)))


def detectable(sd: float, level: float, power: float = POWER) -> float:
    """The smallest effect a two-sided z test at ``level`` finds with probability
    ``power`` when its estimate has standard deviation ``sd``."""
    return (_NORMAL.inv_cdf(1 - level / 2) + _NORMAL.inv_cdf(power)) * sd


@dataclass(frozen=True)
class ZTest:
    """An estimate, its 95 % interval, its z under perfect calibration, the two-sided
    p-value, and the smallest effect the test would detect."""

    estimate: float
    low: float
    high: float
    z: float
    p: float
    detectable: float
    #: The estimate's standard deviation under calibration and the test's level.
    sd: float
    level: float

    def power(self, effect: float) -> float:
        """The chance that the test finds a deviation of size ``effect`` (in the units
        of :attr:`estimate`)."""
        if self.sd <= 0 or math.isinf(self.sd):
            return 0.0
        crit = _NORMAL.inv_cdf(1 - self.level / 2)
        shift = abs(effect) / self.sd
        return _NORMAL.cdf(shift - crit) + _NORMAL.cdf(-shift - crit)


@dataclass(frozen=True)
class BinTest:
    """One bin: its range, size, sum of predictions and of outcomes, and its z test of
    the deviation (observed share minus mean prediction)."""

    low: float
    high: float
    n: int
    expected: float
    observed: int
    test: ZTest | None


@dataclass(frozen=True)
class Calibration:
    """The three tests of one set of predictions, and the verdict at ``alpha``."""

    n: int
    bias: ZTest
    spread: ZTest
    bins: tuple[BinTest, ...]
    #: The Šidák-corrected p-value of the bin whose deviation is least likely.
    worst_bin_p: float
    worst_bin: int | None
    alpha: float

    @property
    def level(self) -> float:
        """Each test's level (the family's ``alpha`` shared by the three)."""
        return self.alpha / TESTS

    @property
    def flags(self) -> tuple[str, ...]:
        """The tests that reject perfect calibration (``bias``, ``spread``, ``bin``)."""
        found = []
        if self.bias.p < self.level:
            found.append("bias")
        if self.spread.p < self.level:
            found.append("spread")
        if self.worst_bin_p < self.level:
            found.append("bin")
        return tuple(found)

    @property
    def calibrated(self) -> bool:
        """No test rejects: no miscalibration the data could see."""
        return not self.flags


def _z_test(estimate: float, sd_null: float, level: float, scale: float = 1.0) -> ZTest:
    """``estimate`` with null standard deviation ``sd_null``; interval, effect sizes
    multiplied by ``scale``."""
    z = estimate / sd_null if sd_null > 0 else 0.0
    half = 1.96 * sd_null
    return ZTest(estimate * scale, (estimate - half) * scale, (estimate + half) * scale, z,
                 _two_sided(z) if sd_null > 0 else 1.0,
                 detectable(sd_null, level) * scale, sd_null * scale, level)


def calibration_tests(predicted: Sequence[float], won: Sequence[int], bins: int = 10,
                      min_bin: int = 50, alpha: float = ALPHA) -> Calibration:
    """The bias, spread and worst-bin tests of ``predicted`` chances against ``won``
    (1 or 0), in ``bins`` equal bins of predicted chance."""
    n = len(predicted)
    if n != len(won) or n < 1:
        raise ArgumentError("calibration_tests needs one prediction or more, one per outcome")
    level = alpha / TESTS
    variances = [p * (1 - p) for p in predicted]
    residuals = [w - p for p, w in zip(predicted, won, strict=True)]
    bias = _z_test(sum(residuals) / n, math.sqrt(sum(variances)) / n, level)
    mean = sum(predicted) / n
    centred = [p - mean for p in predicted]
    spread_sum = sum(c * c for c in centred)
    if spread_sum > 0:
        slope = sum(r * c for r, c in zip(residuals, centred, strict=True)) / spread_sum
        sd = math.sqrt(sum(v * c * c for v, c in zip(variances, centred, strict=True)))
        spread = _z_test(slope, sd / spread_sum, level, SPREAD_AT)
    else:
        spread = ZTest(0.0, 0.0, 0.0, 0.0, 1.0, math.inf, math.inf, level)
    members: list[list[int]] = [[] for _ in range(bins)]
    for i, p in enumerate(predicted):
        members[min(int(p * bins), bins - 1)].append(i)
    tested = sum(1 for m in members
                 if len(m) >= min_bin and sum(variances[i] for i in m) > 0)
    bin_level = 1 - (1 - level) ** (1 / tested) if tested else level
    found = []
    for b, m in enumerate(members):
        size = len(m)
        expected = sum(predicted[i] for i in m)
        observed = sum(won[i] for i in m)
        variance = sum(variances[i] for i in m)
        test = (_z_test((observed - expected) / size, math.sqrt(variance) / size, bin_level)
                if size >= min_bin and variance > 0 else None)
        found.append(BinTest(b / bins, (b + 1) / bins, size, expected, observed, test))
    ps = [(t.test.p, b) for b, t in enumerate(found) if t.test is not None]
    worst_p, worst = min(ps) if ps else (1.0, None)
    return Calibration(n, bias, spread, tuple(found),
                       1 - (1 - worst_p) ** tested if tested else 1.0, worst, alpha)
