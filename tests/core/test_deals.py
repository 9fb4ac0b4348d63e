"""Deals consistent with a view (trashcards.deals): a sample never changes anything public."""

from __future__ import annotations

import random

import pytest

from trashcards import Rules, apply, new_match, sample_chance, view
from trashcards.bots import make_bot
from trashcards.deals import deal_state, sample_state, split_unseen
from trashcards.state import Phase, State


@pytest.mark.parametrize("preset", ["standard", "kids", "jokers", "call-trash", "last-chance",
                                    "all-faces-wild"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_8_a_sampled_deal_agrees_with_every_seats_view(preset: str, players: int) -> None:
    rng = random.Random(players)
    state = new_match(Rules.preset_named(preset), [f"P{s}" for s in range(players)])
    bots = [make_bot("greedy", random.Random(s)) for s in range(players)]
    decisions = reshuffled = 0
    while state.phase is not Phase.MATCH_OVER and decisions < 1500:
        if state.to_act is None:
            state = apply(state, sample_chance(state, rng))[0]
            continue
        mine = view(state, state.to_act)
        sample = sample_state(mine, rng)
        reshuffled += mine.stock_known is not None
        for seat in range(players):
            assert view(sample, seat) == view(state, seat)
        state = apply(state, bots[state.to_act].choose(mine))[0]
        decisions += 1
    assert decisions > 100


def _a_position_after_a_reshuffle() -> State:
    """A decision of a real game (random bots: long rounds) after a reshuffle."""
    rules = Rules.preset_named("standard")
    rng = random.Random(3)
    bots = [make_bot("random", random.Random(s)) for s in range(2)]
    while True:
        state = new_match(rules, ["A", "B"])
        while state.phase is not Phase.MATCH_OVER:
            if state.to_act is None:
                state = apply(state, sample_chance(state, rng))[0]
                continue
            if state.stock_public:
                return state
            state = apply(state, bots[state.to_act].choose(view(state, state.to_act)))[0]


def test_8_after_a_reshuffle_only_the_order_of_the_known_stock_is_drawn() -> None:
    state = _a_position_after_a_reshuffle()
    mine = view(state, state.to_act)
    down, stock = split_unseen(mine)
    assert list(stock) == sorted(state.stock)
    assert sorted(down) == sorted(c for b in state.boards
                                  for c, up in zip(b.cards, b.up, strict=True) if not up)
    for seed in range(20):
        assert sorted(sample_state(mine, random.Random(seed)).stock) == list(stock)
    if down and stock:  # a stock that is not the known one is refused
        swapped_down = [stock[0], *down[1:]]
        swapped_stock = [down[0], *stock[1:]]
        with pytest.raises(ValueError, match="known stock"):
            deal_state(mine, swapped_down, swapped_stock)
