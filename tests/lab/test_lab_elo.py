"""Elo ratings from head-to-head wins (Bradley–Terry)."""

from __future__ import annotations

import itertools

import pytest

from trashcards.lab.elo import elo_win_probability, fit_elo


def expected_wins(ratings: list[float], games: int) -> list[list[int]]:
    wins = [[0] * len(ratings) for _ in ratings]
    for i, j in itertools.permutations(range(len(ratings)), 2):
        wins[i][j] = round(games * elo_win_probability(ratings[i] - ratings[j]))
    return wins


def test_elo_probability() -> None:
    assert elo_win_probability(0) == pytest.approx(0.5)
    assert elo_win_probability(400) == pytest.approx(10 / 11)
    assert elo_win_probability(-400) == pytest.approx(1 / 11)


def test_the_fit_recovers_the_ratings_that_made_the_results() -> None:
    truth = [1700.0, 1550.0, 1450.0, 1300.0]
    fit = fit_elo(["a", "b", "c", "d"], expected_wins(truth, 100_000))
    for got, want, low, high in zip(fit.ratings, truth, fit.lows, fit.highs, strict=True):
        assert got == pytest.approx(want, abs=2)
        assert low < want < high
        assert high - low < 10
    assert sum(fit.ratings) / 4 == pytest.approx(1500)


def test_fewer_games_give_wider_intervals() -> None:
    truth = [1600.0, 1500.0, 1400.0]
    many = fit_elo(["a", "b", "c"], expected_wins(truth, 10_000))
    few = fit_elo(["a", "b", "c"], expected_wins(truth, 100))
    assert few.highs[0] - few.lows[0] > 5 * (many.highs[0] - many.lows[0])


def test_a_bot_that_never_wins_still_gets_a_finite_rating() -> None:
    fit = fit_elo(["strong", "weak"], [[0, 50], [0, 0]])
    assert fit.ratings[0] > fit.ratings[1]
    assert all(abs(r) < 10_000 for r in fit.ratings)
    assert fit.lows[1] < fit.ratings[1] < fit.highs[1]


def test_the_wins_table_must_be_square() -> None:
    with pytest.raises(ValueError, match="square"):
        fit_elo(["a", "b"], [[0, 1, 2], [1, 0, 2]])
