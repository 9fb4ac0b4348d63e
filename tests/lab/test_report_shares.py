"""Rounded shares of one whole add up (largest remainder): never 48.2 % + 51.7 %."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from trashcards.lab.report import fmt_shares, rounded_shares


def test_thirds_add_up_to_100():
    assert rounded_shares([1 / 3, 1 / 3, 1 / 3]) == [33.4, 33.3, 33.3]
    assert fmt_shares([1 / 3, 1 / 3, 1 / 3]) == ["33.4 %", "33.3 %", "33.3 %"]


def test_a_pair_that_rounds_each_way_alone_still_adds_up():
    # alone: 48.25 → 48.2 (half to even) and 51.75 → 51.8, or 48.3 + 51.7; either way 100
    shares = rounded_shares([0.48249, 0.51751])
    assert shares == [48.2, 51.8]
    assert round(sum(rounded_shares([0.4826, 0.5174])), 1) == 100.0


@given(st.lists(st.integers(min_value=0, max_value=10**6), min_size=2, max_size=6)
       .filter(lambda counts: sum(counts) > 0), st.integers(min_value=0, max_value=2))
def test_shares_of_counts_always_add_up_and_each_is_within_one_step(counts, digits):
    total = sum(counts)
    values = [c / total for c in counts]
    shares = rounded_shares(values, digits)
    step = 10.0 ** -digits
    assert round(sum(shares), digits) == 100.0
    for share, value in zip(shares, values, strict=True):
        assert abs(share - value * 100) < step + 1e-9
