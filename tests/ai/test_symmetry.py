"""Wild placements are one move (trashcards.ai.symmetry): identical outcomes deal by deal on
both engines and at any seed, so a hint can never tell them apart; without the pairing
the same rollouts do tell them apart on a finite sample; what the rollouts estimate
really is equal (paired t-statistics of placements sampled one by one look like pure
noise); and every rollout policy the pairing is used for always swaps."""

from __future__ import annotations

import math
import random
import statistics
from functools import lru_cache
from typing import Any

import pytest
from test_coach import positions

import trashcards.ai.evaluate as evaluate_module
from trashcards.actions import SWAP, TRASH, Verb, wild
from trashcards.ai.compare import compare
from trashcards.ai.evaluate import evaluate
from trashcards.ai.symmetry import SWAPPING, representative
from trashcards.bots import make_bot
from trashcards.rules import Rules
from trashcards.state import Phase
from trashcards.views import View

STANDARD = Rules.preset_named("standard")


def wild_decisions(rules: Rules, seeds: range, players: int = 2) -> list[View]:
    """Decisions with two wild placements or more, from greedy matches."""
    return [v for seed in seeds for v in positions(rules, players, seed)
            if v.phase is Phase.WILD and sum(a.verb is Verb.WILD for a in v.legal) > 1]


WILDS = wild_decisions(STANDARD, range(2))


def _same_outcomes(found: Any, actions: list[Any]) -> bool:
    rows = [(found.match_value[i], found.round_won[i]) for i in range(len(actions))]
    return all(row == rows[0] for row in rows)


ENGINES = ["reference", pytest.param("fast", marks=pytest.mark.numba_compile)]


@pytest.mark.parametrize("engine", ENGINES)
def test_every_wild_placement_gets_the_same_outcome_on_every_deal_at_any_seed(
        engine: str) -> None:
    views = [*WILDS[:2], *wild_decisions(Rules.preset_named("kids"), range(3))[:1],
             *wild_decisions(Rules.preset_named("call-trash"), range(3), 3)[:1]]
    assert len(views) == 4
    for index, v in enumerate(views):
        placements = [a for a in v.legal if a.verb is Verb.WILD]
        others = 0
        for seed in range(3):
            found = evaluate(v, [*placements, TRASH], 24, 7 * seed + index,
                             engine=engine)  # type: ignore[arg-type]
            assert _same_outcomes(found, placements)
            others += found.match_value[-1] != found.match_value[0]
        assert others  # throwing the wild away is played out for real


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hint_calls_every_wild_placement_exactly_as_good(engine: str) -> None:
    for index, v in enumerate(WILDS[:3]):
        for seed in range(2):
            found = compare(v, 40, seed=seed * 11 + index, engine=engine)  # type: ignore[arg-type]
            placements = [a for a in found.order if a.verb is Verb.WILD]
            values = {found.values[a].match_win for a in placements}
            assert len(values) == 1, values
            assert all(found.equal_to_best(a) for a in placements)
            assert all(found.vs_best[a].low == found.vs_best[a].high == 0 for a in placements)


def test_sampled_one_by_one_the_placements_are_told_apart_on_some_deals(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pairing is what makes them equal: played one by one (the old sampler), the
    same rollouts give different outcomes to different placements."""
    monkeypatch.setattr(evaluate_module, "representative",
                        lambda _view, action, _policy="greedy": action)
    differ = 0
    for index, v in enumerate(WILDS[:4]):
        placements = [a for a in v.legal if a.verb is Verb.WILD]
        found = evaluate(v, placements, 40, index, engine="reference")
        differ += not _same_outcomes(found, placements)
    assert differ >= 3


@pytest.mark.slow
@pytest.mark.numba_compile
def test_what_the_rollouts_estimate_is_the_same_for_every_placement(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The principle, checked: placements sampled one by one on 2,000 deals each, on 80
    ten-slot positions; if placements were worth different amounts the paired
    t-statistics (lowest slot against highest) would spread out and shift; they look
    like draws from N(0, 1) instead."""
    monkeypatch.setattr(evaluate_module, "representative",
                        lambda _view, action, _policy="greedy": action)
    stats = []
    for index, v in enumerate(wild_decisions(STANDARD, range(2, 12))[:80]):
        placements = [a for a in v.legal if a.verb is Verb.WILD]
        found = evaluate(v, [placements[0], placements[-1]], 2000, index, engine="fast")
        diff = found.difference(placements[0], placements[-1])
        assert diff.low is not None
        assert diff.high is not None
        se = (diff.high - diff.low) / 2 / 1.96
        if se > 0:
            stats.append(diff.value / se)
    assert len(stats) >= 70
    assert abs(statistics.mean(stats)) < 3 / math.sqrt(len(stats))
    assert 0.75 < statistics.stdev(stats) < 1.25
    assert sum(abs(t) > 3.3 for t in stats) <= 2


def test_the_standard_play_is_played_as_itself() -> None:
    for v in WILDS[:10]:
        slots = [a.slot for a in v.legal if a.verb is Verb.WILD]
        greedy = make_bot("greedy", random.Random(0)).choose(v)
        assert representative(v, greedy) == greedy == wild(max(slots))
        assert {representative(v, wild(k)) for k in slots} == {greedy}
        assert representative(v, TRASH) == TRASH


def test_a_policy_that_may_keep_a_wild_plays_every_placement_on_its_own() -> None:
    v = WILDS[0]
    assert "random" not in SWAPPING
    for action in v.legal:
        assert representative(v, action, "random") == action


@lru_cache(maxsize=1)
def swap_decisions() -> list[View]:
    found = []
    for seed in range(12):
        found += [v for v in positions(STANDARD, 2, seed, ("random",))
                  if v.phase is Phase.SWAP and TRASH in v.legal]
    return found


@pytest.mark.parametrize("policy", sorted(SWAPPING))
def test_every_policy_the_pairing_is_used_for_always_swaps(policy: str) -> None:
    """The one choice that tells two placements apart is keeping a wild and throwing its
    natural away; a policy in SWAPPING never makes it."""
    views = swap_decisions()
    assert len(views) >= 20
    for seed, v in enumerate(views):
        assert make_bot(policy, random.Random(seed)).choose(v) == SWAP


def test_the_random_bot_may_keep_a_wild_so_it_is_not_in_the_list() -> None:
    views = swap_decisions()
    picks = {make_bot("random", random.Random(seed)).choose(v) for seed, v in enumerate(views)}
    assert TRASH in picks
