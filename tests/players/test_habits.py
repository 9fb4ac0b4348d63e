"""Habits: the coach's judgements of one player's decisions, counted by the kind of the
best move, added up over games with a Wilson interval; and compared with rated players'
of a rating band: a tie when the intervals overlap, no figure for a band with too few
players or games."""

from __future__ import annotations

import pytest

from trashcards.actions import DISCARD, STOCK, SWAP, wild
from trashcards.ai.review import Decision
from trashcards.players.habits import (
    BandGame,
    Habit,
    add_up,
    band_of,
    by_band,
    compare,
    count,
    peer_band,
    peer_interval,
    wilson,
)


def decision(seat: int, taken: object, best: object, kind: str = "ok") -> Decision:
    return Decision(0, seat, 1, taken, best, 2, 0.02 if kind != "ok" else 0.0,  # type: ignore[arg-type]
                    (0.01, 0.03), 0.0, 0.5, 0.5, kind=kind)


def test_a_miss_is_a_confirmed_mistake_of_another_kind_than_the_best() -> None:
    decisions = [
        decision(0, STOCK, DISCARD, "mistake"),  # drew when the discard was better
        decision(0, DISCARD, DISCARD),
        decision(0, DISCARD, STOCK, "mistake"),
        decision(0, wild(2), wild(5), "mistake"),  # a wild on the wrong slot
        decision(0, SWAP, SWAP),
        decision(1, STOCK, DISCARD, "mistake"),  # another seat's: not counted
    ]
    counted = count(decisions, seat=0)
    assert counted == {"discard": [2, 1], "stock": [1, 1], "wild": [1, 1], "swap": [1, 0],
                       "call": [0, 0]}


def test_a_missed_call_is_the_call_habit() -> None:
    counted = count([decision(0, STOCK, STOCK, "missed_call")], seat=0)
    assert counted["call"] == [1, 1]
    assert counted["stock"] == [0, 0]


def test_wilson_interval_holds_the_share_and_narrows_with_chances() -> None:
    assert wilson(0, 0) == (0.0, 1.0)
    low, high = wilson(3, 25)
    assert low < 3 / 25 < high
    assert wilson(30, 250)[1] - wilson(30, 250)[0] < high - low
    assert wilson(3, 25) == pytest.approx((0.0417, 0.2996), abs=0.0005)  # as scipy's


def test_habits_add_up_over_games_most_missed_first() -> None:
    games = [{"discard": [10, 1], "stock": [4, 0]}, {"discard": [10, 3], "call": [2, 2]}, {}]
    habits = [h.to_json() for h in add_up(games)]
    assert [h["kind"] for h in habits] == ["call", "discard", "stock"]
    assert habits[1] == {"kind": "discard", "chances": 20, "misses": 4, "games": 2,
                         "rate": 0.2, "low": pytest.approx(0.0807, abs=0.0005),
                         "high": pytest.approx(0.4160, abs=0.0005)}


# --- compared with rated players (docs/players.md, "Habits") ---------------------------



def test_a_band_is_the_nearest_multiple_of_its_width() -> None:
    assert [band_of(r, 100) for r in (1649.99, 1650.0, 1700.0, 1749.99, 1750.0)] == [
        1600, 1700, 1700, 1700, 1800]
    assert band_of(1535, 50) == 1550


def test_overlapping_intervals_are_the_same_and_only_separate_ones_differ() -> None:
    assert compare((0.10, 0.30), (0.25, 0.40)) == "same"  # overlap: no difference shown
    assert compare((0.10, 0.30), (0.01, 0.04)) == "more"
    assert compare((0.01, 0.04), (0.10, 0.30)) == "less"
    assert compare((0.10, 0.30), (0.30, 0.40)) == "same"  # touching is overlapping


def test_a_twelve_against_two_percent_is_a_tie_on_few_chances_and_a_difference_on_many() -> None:
    # the example: players at 1700 miss it in 2 % (10 of 500: 1.1–3.6 %)
    band = peer_band([game(f"p{i}", {"stock": [100, 2]}) for i in range(5)], "standard",
                     1700, 100, "me", 5, 5)
    assert band.verdict(Habit("stock", 8, 1, 2))["verdict"] == "same"  # 12 % of 8: 2–47 %
    assert band.verdict(Habit("stock", 200, 24, 40))["verdict"] == "more"  # 8–17 %
    assert band.verdict(Habit("stock", 2000, 4, 40))["verdict"] == "less"  # 0.2 %


def test_the_players_interval_is_never_narrower_than_the_pooled_wilson_one() -> None:
    players = [(50, 1), (50, 2), (50, 20), (50, 1), (50, 0)]  # one player unlike the rest
    low, high = peer_interval(players)
    wlow, whigh = wilson(24, 250)
    assert low <= wlow
    assert high >= whigh
    assert high - low > whigh - wlow  # the spread between players widens it
    assert peer_interval([(40, 4)]) == wilson(4, 40)


def game(account: str, counts: dict[str, list[int]], rating: float = 1700.0,
         family: str = "standard") -> BandGame:
    return BandGame(account, family, rating, counts)


def test_a_band_with_fewer_players_than_the_minimum_shows_no_figure() -> None:
    games = [game(f"p{i}", {"discard": [10, 1]}) for i in range(4)] * 10  # 4 players, 40
    band = peer_band(games, "standard", 1700, 100, "me", min_players=5, min_games=20)
    assert not band.enough
    assert band.verdict(Habit("discard", 10, 1, 1)) is None
    shown = band.to_json()
    assert shown["enough"] is False
    assert "players" not in shown
    assert "games" not in shown
    more = peer_band([*games, game("p4", {"discard": [10, 1]})], "standard", 1700, 100, "me",
                     5, 20)
    assert more.enough
    assert more.to_json()["players"] == 5


def test_a_band_with_too_few_games_shows_no_figure() -> None:
    games = [game(f"p{i}", {"discard": [10, 1]}) for i in range(6)]
    assert not peer_band(games, "standard", 1700, 100, "me", 5, 20).enough
    assert peer_band(games * 4, "standard", 1700, 100, "me", 5, 20).enough


def test_the_player_compared_is_left_out_of_their_band() -> None:
    games = [game(f"p{i}", {"discard": [10, 1]}) for i in range(5)] * 4
    mine = [game("me", {"discard": [10, 9]})] * 50
    band = peer_band(games + mine, "standard", 1700, 100, "me", 5, 20)
    assert (band.players, band.games) == (5, 20)
    assert band.habits["discard"][:2] == (200, 20)
    # without its five others the band is the player alone: not shown
    assert not peer_band(mine, "standard", 1700, 100, "me", 1, 1).enough


def test_games_are_grouped_by_family_and_band_of_the_rating_then() -> None:
    games = [game("a", {}, 1640), game("b", {}, 1660), game("c", {}, 1660, "kids")]
    grouped = by_band(games, 100)
    assert sorted(grouped) == [("kids", 1700), ("standard", 1600), ("standard", 1700)]
    assert [g.account for g in grouped[("standard", 1700)]] == ["b"]
