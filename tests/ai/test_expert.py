"""The expert bot (trashcards.ai.expert): legal, view-only, deterministic, reachable by
name without the bots package importing the AI."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from trashcards import Rules, apply, new_match, sample_chance, view
from trashcards.actions import CALL
from trashcards.ai.evaluate import fast_problem
from trashcards.ai.expert import DEFAULT_SAMPLES, REFERENCE_SAMPLES, ExpertBot
from trashcards.bots import BOTS, make_bot
from trashcards.deals import sample_state
from trashcards.state import Phase


@pytest.mark.parametrize(("preset", "players"), [
    ("kids", 2), ("call-trash", 2), ("last-chance", 2), ("kids", 3)])
@pytest.mark.numba_compile
def test_10_the_expert_never_plays_an_illegal_action(preset: str, players: int) -> None:
    rules = Rules.preset_named(preset)
    if players > 2:
        rules = rules.with_fields({"rounds_to_win": 1})
    rng = random.Random(11)
    state = new_match(rules, [f"P{s}" for s in range(players)])
    bots = [ExpertBot(random.Random(s), samples=4) for s in range(players)]
    decisions = 0
    while state.phase is not Phase.MATCH_OVER and decisions < 120:
        if state.to_act is None:
            state = apply(state, sample_chance(state, rng))[0]
            continue
        v = view(state, state.to_act)
        action = bots[state.to_act].choose(v)
        assert action in v.legal
        state = apply(state, action)[0]
        decisions += 1
    assert decisions > 20


@pytest.mark.numba_compile
def test_8_the_expert_decides_from_the_view_alone() -> None:
    """The same view with other hidden cards, and the same seed: the same decision, at
    every decision of a game."""
    rules = Rules.preset_named("kids")
    rng = random.Random(2)
    state = new_match(rules, ["A", "B"])
    players = [make_bot("greedy", random.Random(s)) for s in range(2)]
    compared = 0
    while state.phase is not Phase.MATCH_OVER and compared < 25:
        if state.to_act is None:
            state = apply(state, sample_chance(state, rng))[0]
            continue
        mine = view(state, state.to_act)
        if len(mine.legal) > 1:
            other = sample_state(mine, random.Random(compared))
            theirs = view(other, other.to_act)
            assert theirs == mine
            a = ExpertBot(random.Random(7), samples=6).choose(mine)
            b = ExpertBot(random.Random(7), samples=6).choose(theirs)
            assert a == b
            compared += 1
        state = apply(state, players[state.to_act].choose(mine))[0]
    assert compared >= 15


def test_a_decision_with_one_legal_action_costs_nothing() -> None:
    state = new_match(Rules.preset_named("kids"), ["A", "B"])
    rng = random.Random(0)
    while state.to_act is None:
        state = apply(state, sample_chance(state, rng))[0]
    v = view(state, state.to_act)
    assert len(v.legal) == 1
    bot = ExpertBot(random.Random(1))
    before = bot.rng.getstate()
    assert bot.choose(v) == v.legal[0]
    assert bot.rng.getstate() == before
    assert bot.last is None


def test_the_expert_is_a_bot_by_name_and_says_when_it_searches_slowly() -> None:
    assert "expert" in BOTS
    bot = make_bot("expert", random.Random(0))
    assert isinstance(bot, ExpertBot)
    if fast_problem() is None:
        assert bot.notice is None
        assert bot.samples == DEFAULT_SAMPLES
    else:
        assert bot.notice is not None
        assert "reference" in bot.notice
        assert bot.samples == REFERENCE_SAMPLES
    slow = ExpertBot(random.Random(0), engine="reference")
    assert slow.samples == REFERENCE_SAMPLES
    assert slow.notice is None  # asked for: nothing to say


def test_importing_the_bots_does_not_import_the_ai() -> None:
    code = ("import sys, trashcards.bots, trashcards.simulation; "
            "print(any(m.startswith('trashcards.ai') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "False"


@pytest.mark.numba_compile
def test_a_time_budget_searches_in_batches() -> None:
    state = new_match(Rules.preset_named("kids"), ["A", "B"])
    rng = random.Random(5)
    bots = [make_bot("greedy", random.Random(s)) for s in range(2)]
    while True:
        if state.to_act is None:
            state = apply(state, sample_chance(state, rng))[0]
            continue
        v = view(state, state.to_act)
        if len(v.legal) > 1:
            break
        state = apply(state, bots[state.to_act].choose(v))[0]
    bot = ExpertBot(random.Random(1), seconds=0.05)
    assert bot.choose(v) in v.legal
    assert bot.last is not None
    assert bot.last.samples % 8 == 0


@pytest.mark.numba_compile
def test_9_under_call_trash_the_expert_calls_first_every_turn() -> None:
    """RULES.md §9: a call not followed by completing the board costs nothing, so the
    expert calls at the first decision of each of its turns (greedy waits for one
    face-down slot), spending no search on it; once called, it searches as usual."""
    rules = Rules.preset_named("call-trash")
    rng = random.Random(5)
    state = new_match(rules, ["A", "B"])
    bot = ExpertBot(random.Random(3), samples=4)
    other = make_bot("greedy", random.Random(4))
    calls = searched = 0
    while state.phase is not Phase.MATCH_OVER and calls < 12:
        if state.to_act is None:
            state = apply(state, sample_chance(state, rng))[0]
            continue
        v = view(state, state.to_act)
        if state.to_act == 0:
            action = bot.choose(v)
            if CALL in v.legal:
                assert action == CALL
                assert bot.last is None
                calls += 1
            elif len(v.legal) > 1:
                assert bot.last is not None
                searched += 1
        else:
            action = other.choose(v)
        state = apply(state, action)[0]
    assert calls == 12
    assert searched > 0
