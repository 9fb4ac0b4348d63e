"""Ratings on the levels' scale: families, anchors, pairwise tables, and 1,000 games of
bots of known strength that must land within their intervals of the levels' Elo."""

from __future__ import annotations

import pytest

from trashcards.ai.levels import LEVELS, level_named
from trashcards.players.calibration import simulate
from trashcards.players.glicko2 import Rating
from trashcards.players.ratings import (
    NEWCOMER,
    Seat,
    bot_rating,
    family_of,
    interval,
    is_provisional,
    rate_table,
    shown,
    standings,
    with_idle_days,
)
from trashcards.rules import Rules


@pytest.mark.parametrize(("preset", "family"), [
    ("standard", "standard"), ("kings-wild", "standard"), ("all-faces-wild", "standard"),
    ("jokers", "standard"), ("last-chance", "standard"), ("first-to-5", "standard"),
    ("call-trash", "call-trash"), ("kids", "kids"), ("classic", "short"),
    ("first-to-7", "short")])
def test_family_follows_the_fields_that_change_the_play(preset: str, family: str) -> None:
    assert family_of(Rules.preset_named(preset)) == family


def test_a_levels_bot_is_rated_at_the_levels_elo_and_other_bots_not_at_all() -> None:
    for level in LEVELS:
        anchored = bot_rating(f"bot:{level.bot}")
        assert anchored is not None
        assert anchored.rating == level.elo
        low, high = interval(anchored)
        assert abs(low - level.low) <= 1
        assert abs(high - level.high) <= 1
    assert bot_rating("bot:greedy:2") == bot_rating("greedy")
    assert bot_rating("bot:random") is None
    assert bot_rating("Ana") is None


def test_games_against_a_bot_move_the_person_only() -> None:
    casual = bot_rating("kid")
    assert casual is not None
    after = rate_table([Seat(NEWCOMER), Seat(casual, fixed=True)], [0, 1])
    assert after[1] == casual
    assert after[0].rating > NEWCOMER.rating


def test_standings_put_the_winner_first_then_rounds_won() -> None:
    assert standings([3, 10, 3, 7], winner=1) == [2, 0, 2, 1]
    # with last chance two players can reach the target; the winner still comes first
    assert standings([10, 10], winner=1) == [1, 0]


def test_a_table_of_four_is_three_pairwise_results_for_each() -> None:
    seats = [Seat(NEWCOMER)] * 4
    after = rate_table(seats, [0, 1, 1, 3])
    assert after[0].rating > after[1].rating == after[2].rating > after[3].rating
    # the two who tied scored ½ against each other, 0 against the winner and 1 against the
    # last: the same as one draw against an equal player, so they do not move
    assert after[1].rating == pytest.approx(NEWCOMER.rating)


def test_provisional_until_the_deviation_is_110_or_less() -> None:
    assert is_provisional(NEWCOMER)
    assert not is_provisional(Rating(1600, 110))
    assert shown(Rating(1612, 61)) == "1612 (1490–1734)"
    assert shown(NEWCOMER) == "1500? (800–2200)"


def test_idle_weeks_widen_the_deviation() -> None:
    settled = Rating(1600, 60, 0.06)
    assert with_idle_days(settled, 0) == settled
    assert with_idle_days(settled, 7).rd > settled.rd
    assert with_idle_days(settled, 10_000).rd == NEWCOMER.rd


@pytest.mark.numba_compile
@pytest.mark.slow
def test_1000_games_of_bots_land_within_their_intervals_of_the_levels_elo() -> None:
    ratings = simulate(1000, seed=1)
    for name, rating in ratings.items():
        low, high = rating.interval()
        assert low <= level_named(name).elo <= high, (name, rating)
        assert not is_provisional(rating)
    assert ratings["beginner"].rating < ratings["good"].rating
