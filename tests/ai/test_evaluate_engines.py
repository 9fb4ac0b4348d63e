"""The two backends of trashcards.ai.evaluate agree: the kernel's batch evaluation and the
reference rollouts (rules engine and reference bots) estimate the same chances."""

from __future__ import annotations

import math
import random

import pytest

from trashcards import Rules, apply, new_match, sample_chance, view
from trashcards.ai.evaluate import evaluate, fast_problem
from trashcards.bots import make_bot
from trashcards.state import Phase
from trashcards.views import View

pytestmark = pytest.mark.skipif(fast_problem() is not None,
                                reason=f"no fast evaluator: {fast_problem()}")

SAMPLES = 600


def _positions(preset: str, count: int, seed: int) -> list[View]:
    rules = Rules.preset_named(preset)
    rng = random.Random(seed)
    bots = [make_bot("greedy", random.Random(s)) for s in range(2)]
    found: list[View] = []
    state = new_match(rules, ["A", "B"])
    while len(found) < count and state.phase is not Phase.MATCH_OVER:
        if state.to_act is None:
            state = apply(state, sample_chance(state, rng))[0]
            continue
        v = view(state, state.to_act)
        if len(v.legal) > 1 and rng.random() < 0.5:
            found.append(v)
        state = apply(state, bots[state.to_act].choose(v))[0]
    return found


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["standard", "kids"])
def test_fast_and_reference_evaluations_agree(preset: str) -> None:
    views = _positions(preset, 6, 4)
    checks = []
    for v in views:
        fast = evaluate(v, samples=SAMPLES, seed=1, engine="fast")
        slow = evaluate(v, samples=SAMPLES, seed=2, engine="reference")
        assert fast.engine == "fast"
        assert slow.engine == "reference"
        assert fast.horizon == slow.horizon
        for a, b in zip(fast.values, slow.values, strict=True):
            assert a.action == b.action
            for x, y in ((a.round_win, b.round_win), (a.match_win, b.match_win)):
                se = math.hypot((x.half_width or 0) / 1.96, (y.half_width or 0) / 1.96)
                checks.append((abs(x.value - y.value), se))
    # every difference within 4 standard errors (a family of a few dozen z tests)
    assert all(diff <= 4 * se + 1e-9 for diff, se in checks), max(
        d / s for d, s in checks if s)
