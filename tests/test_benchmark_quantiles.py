"""The benchmarks' quantiles (benchmarks/quantiles.py): the sample quantile, its
distribution-free interval, and the verdict it gives on a goal."""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from quantiles import goal_verdict, percentile, quantile_interval


def test_the_percentile_is_the_sorted_samples_value_at_rank_q_times_n() -> None:
    values = [float(v) for v in range(100, 0, -1)]  # 100 … 1
    assert percentile(values, 0.5) == 51.0  # rank 50 of 1 … 100
    assert percentile(values, 0.99) == 100.0
    assert percentile(values, 1.0) == 100.0
    assert percentile(values, 0.0) == 1.0
    assert math.isnan(percentile([], 0.5))


def test_a_95_percent_interval_covers_the_true_p99_about_95_percent_of_the_time() -> None:
    rng = random.Random(5)
    true_p99 = math.log(100.0)  # of the exponential distribution with mean 1
    trials, covered = 200, 0
    for _ in range(trials):
        low, high = quantile_interval([rng.expovariate(1.0) for _ in range(1000)], 0.99)
        assert low <= high
        covered += low <= true_p99 <= high
    assert 0.90 * trials <= covered <= 0.99 * trials


def test_a_sample_too_small_to_bound_a_p99_has_no_upper_end() -> None:
    low, high = quantile_interval([float(v) for v in range(100)], 0.99)
    assert math.isinf(high)
    assert low < 99.0
    assert quantile_interval([], 0.5) == (float("-inf"), float("inf"))


def test_a_goal_is_met_missed_or_tied_by_where_the_interval_lies() -> None:
    assert goal_verdict(10.0, 20.0, 50.0) == "yes"
    assert goal_verdict(60.0, 80.0, 50.0) == "NO"
    assert goal_verdict(40.0, 60.0, 50.0).startswith("a tie")
