"""Evaluating a position from a view (trashcards.ai.evaluate): sampled deals, rollouts with
common random numbers, win chances with intervals, decided by the view alone."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from trashcards import Rules, apply, new_match, sample_chance, view
from trashcards.actions import TRASH, Verb, wild
from trashcards.ai.evaluate import evaluate
from trashcards.bots import make_bot
from trashcards.deals import deal_state, split_unseen
from trashcards.record import load
from trashcards.state import Phase, State
from trashcards.views import View

DATA = Path(__file__).parents[1] / "data"


def _decision(preset: str, seed: int, want: int = 2) -> State:
    """A decision with at least ``want`` legal actions from a game of greedy bots."""
    rules = Rules.preset_named(preset)
    rng = random.Random(seed)
    state = new_match(rules, ["A", "B"])
    bots = [make_bot("greedy", random.Random(s)) for s in range(2)]
    while True:
        if state.to_act is None:
            state = apply(state, sample_chance(state, rng))[0]
            continue
        v = view(state, state.to_act)
        if len(v.legal) >= want:
            return state
        state = apply(state, bots[state.to_act].choose(v))[0]


def _same_view_other_cards(state: State) -> State:
    """Another state with the same view for every seat: the hidden cards dealt otherwise."""
    v = view(state, state.to_act)
    down, stock = split_unseen(v)
    cards = sorted(down, reverse=True)
    if v.stock_known is None:
        places = sum(p.face_down for p in v.players)
        return deal_state(v, cards[:places], cards[places:])
    return deal_state(v, cards, sorted(stock, reverse=True))


@pytest.mark.numba_compile
def test_8_an_evaluation_depends_on_the_view_and_the_seed_only() -> None:
    state = _decision("kids", 3, want=3)
    other = _same_view_other_cards(state)
    assert other.boards != state.boards or other.stock != state.stock
    a = evaluate(view(state, state.to_act), samples=30, seed=5)
    b = evaluate(view(other, other.to_act), samples=30, seed=5)
    assert a == b
    c = evaluate(view(state, state.to_act), samples=30, seed=6)
    assert c.round_won != a.round_won or c.match_value != a.match_value


@pytest.mark.numba_compile
def test_chances_are_shares_with_intervals_around_them() -> None:
    state = _decision("kids", 4, want=3)
    ev = evaluate(view(state, state.to_act), samples=40, seed=1)
    assert [v.action for v in ev.values] == list(view(state, state.to_act).legal)
    for value in ev.values:
        for est in (value.round_win, value.match_win):
            assert 0.0 <= est.value <= 1.0
            assert est.low is not None
            assert est.high is not None
            assert est.low <= est.value <= est.high
        assert sum(value.match_wins) == pytest.approx(1.0)
        assert sum(value.round_wins) <= 1.0 + 1e-9
    assert ev.ranked()[0] == ev.best


@pytest.mark.numba_compile
def test_common_random_numbers_make_paired_differences_sharper() -> None:
    """Sample k deals the same cards and feeds the same streams to every action, so the
    interval of the difference between placing a wild and throwing it away is narrower
    than the two separate intervals combined (without CRN the two would be about equal).
    (Two placements are one move and get identical outcomes: tests/ai/test_symmetry.py.)"""
    state = _decision("standard", 2, want=4)
    v = view(state, state.to_act)
    slots = [a for a in v.legal if a.verb is Verb.WILD]
    assert len(slots) >= 2
    assert TRASH in v.legal
    ev = evaluate(v, [slots[0], TRASH], samples=120, seed=3)
    one, two = ev.values
    paired = ev.difference(one.action, two.action)
    assert paired.half_width is not None
    separate = (one.match_win.half_width or 0) ** 2 + (two.match_win.half_width or 0) ** 2
    assert paired.half_width < 0.9 * separate ** 0.5  # 0.82 here


@pytest.mark.numba_compile
def test_completing_the_board_wins_the_round_for_sure() -> None:
    """Golden record, move 16: Ana holds J♣ with slot 4 her last face-down slot."""
    record = load(DATA / "standard-2p-match.trash.json")
    state = record.replay(16)
    v = view(state, state.to_act)
    assert v.legal == (wild(4), TRASH)
    ev = evaluate(v, samples=30, seed=0)
    placed = ev.values[ev.index(wild(4))]
    assert placed.round_win.value == 1.0
    assert ev.best.action == wild(4)
    assert ev.difference(wild(4), TRASH).low > 0  # type: ignore[operator]


@pytest.mark.parametrize("bad", ["no decision", "illegal"])
def test_evaluate_refuses_positions_without_a_decision_and_illegal_actions(bad: str) -> None:
    state = _decision("kids", 1)
    v: View = view(state, state.to_act)
    if bad == "no decision":
        over = state._replace(phase=Phase.ROUND_OVER)
        with pytest.raises(ValueError, match="no decision"):
            evaluate(view(over, 0), samples=2)
    else:
        with pytest.raises(ValueError, match="not legal"):
            evaluate(v, [wild(1) if wild(1) not in v.legal else wild(5)], samples=2)
