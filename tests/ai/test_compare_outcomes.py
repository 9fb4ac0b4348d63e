"""The pure part of the coach (what the browser's port must agree with:
tests/web/test_js_coach.py): for any outcomes, the comparison reports the best first and
its tie group right after it, never calls measurably different moves equal or equal
moves different, the confirmation stops early only on strong evidence, and a verdict
calls a move a mistake only when the fresh interval is above 0 and the cost at least the
threshold (above 0 but under it: a small loss)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trashcards.actions import CALL, Action
from trashcards.ai.compare import (
    INTERIM_Z,
    comparison_of,
    confirm_paired,
    greedy_choice,
    paired_interval,
)
from trashcards.ai.review import THRESHOLD, verdict
from trashcards.bots import make_bot
from trashcards.chance import sample_chance
from trashcards.engine import apply
from trashcards.rules import Rules
from trashcards.state import new_match
from trashcards.views import View, view


def _decisions() -> list[View]:
    """Decisions with a choice, of every phase, call-trash among them."""
    found: list[View] = []
    for seed in range(6):
        rules = Rules.preset_named("call-trash" if seed % 2 else "kids")
        rng = random.Random(seed)
        bot = make_bot("random", random.Random(seed))
        state = new_match(rules, ("a", "b", "c")[:2 + seed % 2])
        for _ in range(300):
            seat = state.to_act
            if seat is None:
                if state.phase.name == "MATCH_OVER":
                    break
                state, _events = apply(state, sample_chance(state, rng))
                continue
            seen = view(state, seat)
            if len(seen.legal) > 1:
                found.append(seen)
            state, _events = apply(state, bot.choose(seen), seat)
    return found


DECISIONS = _decisions()


@st.composite
def tables(draw: Any) -> tuple[View, dict[Action, tuple[list[tuple[float, ...]],
                                                         list[tuple[int, ...]]]]]:
    seen = draw(st.sampled_from(DECISIONS))
    seat = seen.to_act
    assert seat is not None
    players = len(seen.players)
    deals = draw(st.integers(2, 30))
    values = st.sampled_from((0.0, 0.25, 0.5, 1.0))
    out: dict[Action, tuple[list[tuple[float, ...]], list[tuple[int, ...]]]] = {}
    for index, action in enumerate(seen.legal):
        if index and draw(st.booleans()):
            out[action] = out[seen.legal[0]]  # an equal move: the same outcomes
            continue
        mine = draw(st.lists(values, min_size=deals, max_size=deals))
        match = [tuple(m if s == seat else (1 - m) / (players - 1) for s in range(players))
                 for m in mine]
        out[action] = (match, [(seat,) if m == 1.0 else () for m in mine])
    return seen, out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_the_best_leads_its_tie_group_and_ties_are_never_measurably_different(
        case: tuple[View, Any]) -> None:
    seen, outcomes = case
    found = comparison_of(seen, seen.legal, outcomes, greedy_choice(seen))
    assert sorted(map(str, found.order)) == sorted(map(str, seen.legal))
    assert found.best == found.order[0]
    assert found.order[:len(found.tied)] == found.tied
    if CALL in seen.legal:
        assert found.best == CALL
    seat = seen.to_act
    assert seat is not None
    mine = {a: [m[seat] for m in outcomes[a][0]] for a in seen.legal}
    for action in seen.legal:
        if action in found.tied:
            continue
        # measurably worse than the best (and, unless calling leads, than the leader)
        assert found.vs_best[action].high < 0
    for a in seen.legal:
        for b in seen.legal:
            if outcomes[a] is outcomes[b]:  # equal moves are both tied or both not
                assert (a in found.tied) == (b in found.tied)
    assert found.vs_best[found.best].mean == 0
    assert all(paired_interval(mine[a], mine[found.best]).mean == found.vs_best[a].mean
               for a in seen.legal if a != found.best)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from((0.0, 1.0)), min_size=60, max_size=60),
       st.lists(st.sampled_from((0.0, 1.0)), min_size=60, max_size=60),
       st.integers(1, 20))
def test_a_confirmation_stops_early_only_on_strong_evidence(a: list[float], b: list[float],
                                                            batch: int) -> None:
    samples, extra = 12, 48
    diff = confirm_paired(lambda s, c: (a[s:s + c], b[s:s + c]), samples, extra, batch)
    assert samples <= diff.n <= samples + extra
    if diff.n < samples + extra:
        n = diff.n
        assert paired_interval(a[:n], b[:n], INTERIM_Z).significant or diff.equivalent
    assert diff == paired_interval(a[:diff.n], b[:diff.n])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), tables(), st.booleans())
def test_a_mistake_is_confirmed_above_zero_and_at_least_the_threshold(
        case: tuple[View, Any], fresh_case: tuple[View, Any], missed: bool) -> None:
    seen, outcomes = case
    found = comparison_of(seen, seen.legal, outcomes, greedy_choice(seen))
    fresh = fresh_case[1] if fresh_case[0] is seen else outcomes
    seat = seen.to_act
    assert seat is not None
    for taken in seen.legal:
        def check(versus: Action, taken: Action = taken) -> Any:
            return confirm_paired(lambda s, c: ([m[seat] for m in fresh[versus][0][s:s + c]],
                                                [m[seat] for m in fresh[taken][0][s:s + c]]),
                                  2, 4, 2)
        judged = verdict(seen, taken, found, check, missed_call=missed)
        if judged.kind == "mistake":
            assert judged.cost_ci[0] > 0
            assert judged.cost >= THRESHOLD
            assert taken not in judged.tied
        if judged.kind == "small_loss":  # confirmed, but under the threshold
            assert judged.cost_ci[0] > 0
            assert 0 < judged.cost < THRESHOLD
            assert taken not in judged.tied
            assert not judged.mistake
        if judged.kind == "ok":
            assert judged.cost == 0
        assert (judged.kind == "missed_call") == missed
        assert judged.best == found.best
