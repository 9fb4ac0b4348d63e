"""The bots: each decides from a view, always legally, as its description says."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trashcards import CALL, DISCARD, STOCK, SWAP, Rules, view, wild
from trashcards.bots import BOTS, CounterBot, GreedyBot, KidBot, RandomBot, make_bot
from trashcards.bots.counter import unseen_by_rank
from trashcards.session import play_match

from support import play, position

FULL = "(2h) (3h) (Qh) (4d) (5d) (6d) (7d) (8d) (9d) (Td)"
OTHER = "(2s) (3s) (4s) (5s) (6s) (7s) (8s) (9s) (Ts) (As)"


class Numbers(random.Random):
    """A generator that returns the given numbers from ``random()``."""

    def __init__(self, *numbers: float) -> None:
        super().__init__(0)
        self.numbers = list(numbers)

    def random(self) -> float:
        return self.numbers.pop(0)


@settings(max_examples=25, deadline=None)
@given(bot=st.sampled_from(sorted(set(BOTS) - {"expert"})), seed=st.integers(0, 10**6),
       preset=st.sampled_from(["standard", "kids", "call-trash", "last-chance", "jokers"]),
       players=st.integers(2, 4))
def test_every_bot_finishes_whole_matches_with_legal_actions(
        bot: str, seed: int, preset: str, players: int) -> None:
    """(The expert searches, so it is checked apart, on fewer matches:
    tests/ai/test_expert.py.)"""
    rules = Rules.preset_named(preset).with_fields({"start_size": 3})
    bots = [make_bot(bot, random.Random(seed + seat)) for seat in range(players)]
    match = play_match(rules, [f"p{s}" for s in range(players)], bots, random.Random(seed))
    assert match.state.match_winner is not None  # apply() refused nothing on the way


def test_greedy_takes_the_top_discard_whenever_it_is_playable() -> None:
    state = position([FULL, OTHER], discard="Kd 5c")
    assert GreedyBot().choose(view(state, 0)) == DISCARD
    state = position([FULL, OTHER], discard="Kd Qc")
    assert GreedyBot().choose(view(state, 0)) == STOCK


def test_greedy_puts_a_wild_on_the_highest_face_down_slot() -> None:
    board = "(2h) (3h) (Qh) (4d) (5d) (6d) (7d) (8d) (9d) Td"
    state = play(position([board, OTHER], stock="Jc"), "stock")
    assert GreedyBot().choose(view(state, 0)) == wild(9)


def test_greedy_always_swaps() -> None:
    board = "Jd (2h) (3h) (4d) (5d) (6d) (7d) (8d) (9d) (Td)"
    state = play(position([board, OTHER], stock="Ac"), "stock")
    assert GreedyBot().choose(view(state, 0)) == SWAP


def test_greedy_calls_trash_when_one_face_down_slot_is_left() -> None:
    rules = Rules(call_trash=True)
    state = position(["(5c) 2h 3h 4h 5h 6h 7h 8h 9h Th", OTHER], rules=rules)
    assert GreedyBot().choose(view(state, 0)) == CALL
    state = position(["(5c) (2h) 3h 4h 5h 6h 7h 8h 9h Th", OTHER], rules=rules)
    assert GreedyBot().choose(view(state, 0)) == STOCK


def test_counter_puts_a_wild_where_the_natural_card_is_least_likely_to_come() -> None:
    # Three 9s are in sight (two on the other board, one discarded): slot 9 is the pick,
    # although greedy would take the higher slot 10.
    board = "Ah 2h 3h 4h 5h 6h 7h 8h (9d) (Td)"
    other = "(2s) 9s 9c (5s) (6s) (7s) (8s) (9s) (Ts) (As)"
    state = play(position([board, other], stock="Jc", discard="9h"), "stock")
    v = view(state, 0)
    assert unseen_by_rank(v)[9] == 1
    assert CounterBot().choose(v) == wild(9)
    assert GreedyBot().choose(v) == wild(10)


def test_kid_sometimes_forgets_the_discard_pile() -> None:
    state = position([FULL, OTHER], discard="Kd 5c")
    assert KidBot(Numbers(0.1)).choose(view(state, 0)) == STOCK
    assert KidBot(Numbers(0.9)).choose(view(state, 0)) == DISCARD


def test_kid_sometimes_forgets_to_call() -> None:
    state = position(["(5c) 2h 3h 4h 5h 6h 7h 8h 9h Th", OTHER], rules=Rules(call_trash=True))
    assert KidBot(Numbers(0.2)).choose(view(state, 0)) == STOCK
    assert KidBot(Numbers(0.7)).choose(view(state, 0)) == CALL


def test_random_bot_picks_by_one_uniform_number() -> None:
    board = "Ah (2h) (3h) 4c (5d) (6d) (7d) (8d) (9d) (Qd)"
    state = play(position([board, OTHER], stock="Jc"), "stock")
    legal = view(state, 0).legal
    assert RandomBot(Numbers(0.0)).choose(view(state, 0)) == legal[0]
    assert RandomBot(Numbers(0.999)).choose(view(state, 0)) == legal[-1]


@pytest.mark.parametrize("name", sorted(BOTS))
@pytest.mark.numba_compile
def test_bots_are_deterministic_for_a_seed(name: str) -> None:
    def game() -> object:
        bots = [make_bot(name, random.Random(7)), make_bot(name, random.Random(8))]
        return play_match(Rules.preset_named("kids"), ["a", "b"], bots,
                          random.Random(3)).record
    assert game() == game()


def test_unknown_bot_names_are_refused_with_the_list() -> None:
    with pytest.raises(ValueError, match="the bots are random, greedy"):
        make_bot("wizard", random.Random(0))


def test_lowwild_puts_a_wild_on_the_lowest_face_down_slot() -> None:
    board = "(2h) (3h) (Qh) (4d) (5d) (6d) (7d) (8d) (9d) Td"
    state = play(position([board, OTHER], stock="Jc"), "stock")
    assert make_bot("lowwild", random.Random(0)).choose(view(state, 0)) == wild(1)


def test_endblind_ignores_the_discard_pile_once_another_player_is_near_the_end() -> None:
    near = "As 2s 3s 4s 5s 6s 7s 8s (9s) (Ts)"
    state = position([FULL, near], discard="Kd 5c")
    assert make_bot("endblind", random.Random(0)).choose(view(state, 0)) == STOCK
    state = position([FULL, OTHER], discard="Kd 5c")
    assert make_bot("endblind", random.Random(0)).choose(view(state, 0)) == DISCARD
