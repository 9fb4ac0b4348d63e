"""Habits: the coach's judgements of one player's decisions, counted by the kind of the
best move, added up over games with a Wilson interval."""

from __future__ import annotations

import pytest

from trashcards.actions import DISCARD, STOCK, SWAP, wild
from trashcards.ai.review import Decision
from trashcards.players.habits import add_up, count, wilson


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
