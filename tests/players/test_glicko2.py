"""Glicko-2 as published: the worked example of Glickman's "Example of the Glicko-2
system" (2022), and the properties every rating system must keep."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trashcards.players.glicko2 import SCALE, Rating, idle, update

EXAMPLE_PLAYER = Rating(1500, 200, 0.06)
EXAMPLE_RESULTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_the_papers_worked_example() -> None:
    # The paper: r' = 1464.06, RD' = 151.52, σ' = 0.05999 (μ' = -0.2069, φ' = 0.8722).
    after = update(EXAMPLE_PLAYER, EXAMPLE_RESULTS)
    assert after.rating == pytest.approx(1464.06, abs=0.01)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    after = update(EXAMPLE_PLAYER, [])
    assert after.rating == EXAMPLE_PLAYER.rating
    assert after.volatility == EXAMPLE_PLAYER.volatility
    # step 6: φ* = sqrt(φ² + σ²) on the Glicko-2 scale
    assert after.rd == pytest.approx(((200 / 173.7178) ** 2 + 0.06 ** 2) ** 0.5 * 173.7178)


def test_idle_periods_widen_up_to_the_ceiling() -> None:
    assert idle(EXAMPLE_PLAYER, 0) == EXAMPLE_PLAYER
    assert idle(EXAMPLE_PLAYER, 1) == update(EXAMPLE_PLAYER, [])
    assert idle(EXAMPLE_PLAYER, 10**9).rd == 350.0


ratings = st.builds(Rating, st.floats(800, 2200), st.floats(30, 350), st.floats(0.03, 0.1))


@given(ratings, ratings)
def test_a_win_never_lowers_a_rating_and_a_loss_never_raises_it(me: Rating,
                                                                 them: Rating) -> None:
    assert update(me, [(them, 1.0)]).rating >= me.rating
    assert update(me, [(them, 0.0)]).rating <= me.rating


@given(ratings, ratings)
def test_a_game_narrows_the_deviation_below_the_period_without_games(
        me: Rating, them: Rating) -> None:
    # Step 6 and 7 of the paper: the new deviation is below the period's pre-rating one,
    # sqrt(phi^2 + sigma'^2), with the volatility the game gave (a surprising result
    # raises the volatility, so it can end a hair above a period without games)
    after = update(me, [(them, 0.5)])
    before = math.sqrt((me.rd / SCALE) ** 2 + after.volatility ** 2) * SCALE
    assert after.rd <= before * (1 + 1e-9)
