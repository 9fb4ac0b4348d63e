"""The match-odds table (trashcards.ai.odds): each seat's chance of winning the match
from a standing, by simulated rounds and dynamic programming."""

from __future__ import annotations

import random

import pytest

from trashcards import Rules
from trashcards.actions import Dealer
from trashcards.ai.odds import OddsUnavailableError, compute_odds, match_odds
from trashcards.bots import make_bot
from trashcards.engine import apply
from trashcards.estimates import wilson_interval
from trashcards.session import Match

KIDS = Rules.preset_named("kids")


def test_chances_add_up_and_a_seat_one_round_from_the_match_is_ahead() -> None:
    odds = match_odds(KIDS)
    target = KIDS.target_rounds
    for (won, _dealer), chances in odds.values.items():
        assert sum(chances) == pytest.approx(1.0)
        assert all(0.0 <= c <= 1.0 for c in chances)
        if won[0] == target - 1 and won[1] < target - 1:
            assert chances[0] > 0.5
    # the chances of (a, b) are those of (b, a) with the seats and the dealer swapped
    for (won, dealer), chances in odds.values.items():
        mirror = odds.values[((won[1], won[0]), 1 - dealer)]
        assert chances[0] == pytest.approx(mirror[1])


@pytest.mark.slow
def test_7_the_table_agrees_with_whole_matches_played_out() -> None:
    """The table's chance for seat 0 at the start (dealer 1: seat 0 plays first) against
    the share of 3,000 whole greedy matches seat 0 won from that start."""
    odds = compute_odds(KIDS, rounds=1500, seed=9)
    predicted = odds.win_chances((0, 0), 1)[0]
    wins = 0
    matches = 3000
    for index in range(matches):
        rng = random.Random(f"odds-check:{index}")
        match = Match(KIDS, ["A", "B"], rng)
        match._state = apply(match.state, Dealer(1))[0]
        bots = [make_bot("greedy", random.Random(index)), make_bot("greedy", random.Random(0))]
        match.advance()
        while not match.over:
            seat = match.state.to_act
            assert seat is not None
            match.play(bots[seat].choose(match.view(seat)))
            match.advance()
        wins += match.state.match_winner == 0
    low, high = wilson_interval(wins, matches)
    assert low - 0.02 <= predicted <= high + 0.02


def test_three_players_have_no_table() -> None:
    with pytest.raises(OddsUnavailableError):
        match_odds(KIDS, 3)
