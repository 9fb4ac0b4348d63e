"""The calibration report's tests (trashcards.lab.calibration_stats) on synthetic
predictions whose miscalibration is known: seeded, so every figure is fixed."""

from __future__ import annotations

import math
import random

import pytest

from trashcards.errors import TrashError
from trashcards.lab.calibration_stats import calibration_tests, detectable

N = 2_000
SAMPLES = 40


def _synthetic(seed: int, n: int = N, shift: float = 0.0, slope: float = 1.0,
               bin_shift: tuple[float, float, float] | None = None,
               ) -> tuple[list[float], list[int]]:
    """Predictions spread over 0–1; each outcome a coin whose true chance is the
    prediction moved by ``shift``, scaled by ``slope`` about 0.5, and by ``bin_shift``
    (low, high, shift) inside one range of predictions."""
    rng = random.Random(f"calibration-stats:{seed}")
    predicted = [rng.random() for _ in range(n)]
    won = []
    for p in predicted:
        true = 0.5 + slope * (p - 0.5) + shift
        if bin_shift is not None and bin_shift[0] <= p < bin_shift[1]:
            true += bin_shift[2]
        won.append(int(rng.random() < min(1.0, max(0.0, true))))
    return predicted, won


def _flagged(**kwargs: object) -> list[tuple[str, ...]]:
    return [calibration_tests(*_synthetic(seed, **kwargs)).flags  # type: ignore[arg-type]
            for seed in range(SAMPLES)]


def test_a_calibrated_predictor_is_rarely_flagged() -> None:
    """At 2,000 predictions the three tests together flag an honest predictor at about
    their 5 % level: at most 4 of 40 samples (2 expected)."""
    flags = _flagged()
    assert sum(bool(f) for f in flags) <= 4


@pytest.mark.parametrize("shift", [0.03, -0.03])
def test_a_3_pp_bias_of_every_prediction_is_detected_at_2000(shift: float) -> None:
    """The power the issue asks for: a 3 pp bias is flagged, by the bias test, in at
    least 30 of 40 samples of 2,000 predictions (about 85 % expected)."""
    flags = _flagged(shift=shift)
    assert sum("bias" in f for f in flags) >= 30


def test_the_detectable_bias_at_2000_predictions_is_under_3_pp() -> None:
    """What the report states as "the bias it could see" for predictions spread over
    0–1 at 2,000: under 3 pp, and it shrinks as 1 / sqrt(n)."""
    predicted, won = _synthetic(0)
    found = calibration_tests(predicted, won)
    assert 0.025 < found.bias.detectable < 0.03
    quarter = calibration_tests(predicted[:500], won[:500])
    assert quarter.bias.detectable == pytest.approx(2 * found.bias.detectable, rel=0.1)
    assert found.bias.power(found.bias.detectable) == pytest.approx(0.8, abs=1e-6)
    assert 0.8 < found.bias.power(0.03) < 0.9
    assert found.bias.power(0.0) == pytest.approx(found.level, rel=1e-6)


def test_over_confidence_is_caught_by_the_spread_test() -> None:
    """True chances 10 % closer to 0.5 than predicted (4 pp off at 10 % and 90 %): the
    spread test flags most samples, with a negative deviation; the bias test rarely."""
    flags = _flagged(slope=0.9)
    assert sum("spread" in f for f in flags) >= 30
    assert sum("bias" in f for f in flags) <= 4
    found = calibration_tests(*_synthetic(0, slope=0.9))
    assert found.spread.estimate < 0


def test_a_bias_in_one_bin_is_caught_by_the_worst_bin_test() -> None:
    """A 15 pp bias confined to predictions 40–50 % (some 200 of 2,000) is found by the
    worst-bin test, which names that bin; 3 pp confined to one bin is below what a bin
    of 200 can show (its detectable bias is stated, about 12 pp)."""
    flags = _flagged(bin_shift=(0.4, 0.5, 0.15))
    assert sum("bin" in f for f in flags) >= 30
    found = calibration_tests(*_synthetic(0, bin_shift=(0.4, 0.5, 0.15)))
    assert found.worst_bin == 4
    test = found.bins[4].test
    assert test is not None
    assert 0.09 < test.detectable < 0.15


def test_the_z_of_the_bias_uses_the_variance_under_calibration() -> None:
    """Four predictions of 0.5, three won: bias 0.25, null sd sqrt(4 × 0.25) / 4 = 0.25,
    so z = 1; the detectable bias is (z at 1 − 0.05/6 + z at 0.8) × 0.25."""
    found = calibration_tests([0.5] * 4, [1, 1, 1, 0], min_bin=1)
    assert found.bias.estimate == pytest.approx(0.25)
    assert found.bias.z == pytest.approx(1.0)
    assert found.bias.p == pytest.approx(0.3173, abs=1e-4)
    assert found.bias.detectable == pytest.approx((2.3940 + 0.8416) * 0.25, abs=1e-3)
    assert detectable(1.0, 0.05) == pytest.approx(1.9600 + 0.8416, abs=1e-3)
    assert found.spread.z == 0
    assert math.isinf(found.spread.detectable)


def test_bins_hold_every_prediction_once() -> None:
    predicted, won = _synthetic(1, n=300)
    predicted[:2] = [0.0, 1.0]
    found = calibration_tests(predicted, won)
    assert sum(b.n for b in found.bins) == 300
    assert sum(b.observed for b in found.bins) == sum(won)
    assert found.bins[0].low == 0
    assert found.bins[-1].high == 1
    with pytest.raises(TrashError, match="one prediction or more"):
        calibration_tests([0.5], [1, 0])
