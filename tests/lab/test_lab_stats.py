"""Confidence intervals and summaries of the lab."""

from __future__ import annotations

import math

import pytest

from trashcards.estimates import (
    Z95,
    difference,
    hist_summary,
    mean_of_hist,
    proportion,
    ratio_over_batches,
    shifted,
    t975,
)


def test_proportion_is_a_wilson_interval_around_the_share() -> None:
    est = proportion(30, 100)
    assert est.value == pytest.approx(0.3)
    assert est.low is not None
    assert est.high is not None
    assert est.low == pytest.approx(0.2189, abs=1e-4)
    assert est.high == pytest.approx(0.3958, abs=1e-4)
    assert est.n == 100
    assert est.method == "Wilson"


def test_an_empty_sample_has_no_interval() -> None:
    est = proportion(0, 0)
    assert math.isnan(est.value)
    assert est.low is None
    assert est.high is None


def test_ratio_over_batches_is_the_ratio_of_sums_with_a_t_interval() -> None:
    est = ratio_over_batches([10, 12, 14], [5, 6, 7], "rounds")
    assert est.value == pytest.approx(2.0)
    assert est.low == pytest.approx(2.0)
    assert est.high == pytest.approx(2.0)
    est = ratio_over_batches([10, 14], [5, 5], "rounds")
    # batch ratios 2.0 and 2.8: R = 2.4, s.e. = sqrt(((10-12)^2 + (14-12)^2) / 2) / 5 = 0.4
    assert est.value == pytest.approx(2.4)
    assert est.high == pytest.approx(2.4 + 12.7062 * 0.4)
    assert est.n == 10
    assert ratio_over_batches([3], [2], "rounds").low is None


def test_batches_without_a_denominator_are_left_out() -> None:
    est = ratio_over_batches([4, 0, 6], [2, 0, 3], "rounds")
    assert est.value == pytest.approx(2.0)
    assert est.method == "batch means (2 batches)"


def test_mean_of_hist_uses_the_standard_error_of_the_mean() -> None:
    est = mean_of_hist({1: 50, 3: 50}, "matches")
    sd = math.sqrt(100 / 99)
    assert est.value == pytest.approx(2.0)
    assert est.high == pytest.approx(2.0 + Z95 * sd / 10)


def test_hist_summary_quantiles_are_values_seen() -> None:
    summary = hist_summary({2: 1, 5: 8, 9: 1})
    assert (summary.n, summary.minimum, summary.median, summary.maximum) == (10, 2, 5, 9)
    assert summary.p10 == 2
    assert summary.p90 == 5
    assert summary.mean == pytest.approx(5.1)


def test_difference_and_shift() -> None:
    a, b = proportion(60, 100), proportion(50, 100)
    d = difference(a, b)
    assert d.value == pytest.approx(0.1)
    assert d.half_width == pytest.approx(math.hypot(a.half_width or 0, b.half_width or 0))
    edge = shifted(a, -0.5)
    assert edge.value == pytest.approx(0.1)
    assert edge.low == pytest.approx((a.low or 0) - 0.5)


def test_t_quantiles() -> None:
    assert t975(1) == pytest.approx(12.7062)
    assert t975(19) == pytest.approx(2.093)
    assert t975(1000) == pytest.approx(Z95)
    with pytest.raises(ValueError, match="degrees of freedom"):
        t975(0)
