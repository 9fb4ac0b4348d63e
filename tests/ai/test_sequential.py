"""The coach's test stays valid under its adaptive spending: moves of exactly equal value
are told apart at most ALPHA of the time however the sampling stops (a plain 95 %
interval re-checked after every batch, the rule before issue 28, told two of them apart
10.5 % of the time here), a lead of 2 points is still found, the intervals are the
corrected ones, and the t quantiles behind them are right."""

from __future__ import annotations

import math
import random
from types import SimpleNamespace
from typing import Any

import pytest
from test_coach import positions

import trashcards.ai.compare as compare_module
from trashcards.actions import Action, Verb
from trashcards.ai.compare import (
    ALPHA,
    ROLLOUTS,
    compare,
    extra_deals,
    paired_interval,
    planned_looks,
)
from trashcards.ai.hints import hint
from trashcards.estimates import t975, t_quantile
from trashcards.rules import Rules
from trashcards.state import Phase
from trashcards.views import View

STANDARD = Rules.preset_named("standard")
VIEWS = positions(STANDARD, 2, 1)
#: a draw with two moves (the stock, a discard that fits), and a wild with eleven
DRAW = next(v for v in VIEWS if len(v.legal) == 2)
WILD = max((v for v in VIEWS if v.phase is Phase.WILD), key=lambda v: len(v.legal))


def outcome_table(view: View, seed: int, deals: int, own: float,
                  lead: dict[Action, float]) -> dict[Action, list[tuple[float, ...]]]:
    """Each action's match-win chances (two seats) on ``deals`` common deals: the deal's
    luck is common to all actions, a share ``own`` of each action's deals is its own
    noise, and every action has the same distribution of outcomes — exactly equal
    values — except the ``lead`` some are given (added to their chance)."""
    rng = random.Random(seed)
    luck = [rng.random() for _ in range(deals)]
    out = {}
    for action in view.legal:
        row = []
        for k in range(deals):
            u = rng.random() if rng.random() < own else luck[k]
            mine = 0.8 if u < 0.25 else 0.55 if u < 0.5 else 0.25
            mine = min(1.0, mine + lead.get(action, 0.0))
            row.append((mine, 1 - mine) if view.to_act == 0 else (1 - mine, mine))
        out[action] = row
    return out


def install(monkeypatch: pytest.MonkeyPatch, tables: dict[int, Any]) -> None:
    """``compare`` reads the tables instead of playing deals (deal ``k`` of seed ``s`` is
    ``tables[s][action][k]``), every action on its own."""

    def evaluate(view: View, actions: Any, samples: int, seed: int, horizon: Any = "auto",
                 engine: Any = "auto", policy: str = "greedy",
                 first_sample: int = 0) -> SimpleNamespace:
        match = tuple(tuple(tables[seed][a][first_sample:first_sample + samples])
                      for a in actions)
        rounds = tuple(tuple((0,) if m[0] > 0.5 else (1,) for m in row) for row in match)
        return SimpleNamespace(match_value=match, round_won=rounds, engine="table",
                               horizon="round", notice=None)

    monkeypatch.setattr(compare_module, "evaluate", evaluate)
    # every wild placement sampled on its own: this tests the test, not the pairing
    monkeypatch.setattr(compare_module, "representative",
                        lambda _view, action, _policy="greedy": action, raising=False)


def hints(monkeypatch: pytest.MonkeyPatch, view: View, trials: int, own: float,
          lead: dict[Action, float] | None = None) -> list[Any]:
    tables = {s: outcome_table(view, 1000 + s, 1500, own, lead or {})
              for s in range(trials)}
    install(monkeypatch, tables)
    return [compare(view, 300, seed, exact=False) for seed in range(trials)]


def test_two_moves_of_exactly_equal_value_are_rarely_told_apart(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """200 comparisons of two exactly equal moves, 300 deals each then up to 1,500 more on
    the pair (:func:`extra_deals` of two moves, 9 looks): a strict best in 0 of 200 (the
    rule before issue 28, a 95 % interval after every batch of a 900-deal budget: 21 of
    200, 10.5 %)."""
    found = hints(monkeypatch, DRAW, 200, 0.3)
    strict = sum(f.decided for f in found)
    assert strict <= 10  # 5 %
    assert max(f.samples for f in found) > 300  # the adaptive sampling did look again


def test_eleven_moves_of_exactly_equal_value_are_never_called_worse(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A wild with every placement and the trash exactly equal (the pairing switched
    off): some move was called measurably worse in 1 of 80 comparisons (before issue 28:
    11 of 80)."""
    found = hints(monkeypatch, WILD, 80, 0.3)
    assert len(WILD.legal) >= 8
    worse = sum(len(f.tied) < len(f.order) for f in found)
    assert worse <= 4  # 5 %
    assert not any(f.decided for f in found)


def test_a_lead_of_two_points_is_still_named_best(monkeypatch: pytest.MonkeyPatch) -> None:
    """The correction costs power only at the margin: with the spread of real paired
    differences (about 10 points per deal; docs/ai.md), a lead of 2 points of match-win
    chance over an otherwise equal move is named best in 98 of 100 comparisons (100
    before issue 28)."""
    found = hints(monkeypatch, DRAW, 100, 0.05, {DRAW.legal[0]: 0.02})
    named = sum(f.decided and f.best == DRAW.legal[0] for f in found)
    assert named >= 98


def test_the_intervals_are_corrected_for_the_planned_looks(
        monkeypatch: pytest.MonkeyPatch) -> None:
    found = hints(monkeypatch, DRAW, 1, 0.3)[0]
    assert planned_looks(1500) == 9 == found.looks  # two moves: 5 × 300 extra deals
    assert planned_looks(900) == 6
    assert planned_looks(0) == 1
    assert planned_looks(1, 200) == 2
    table = outcome_table(DRAW, 1000, 1500, 0.3, {})
    other = next(a for a in DRAW.legal if a != found.best)
    diff = found.vs_best[other]
    seat = DRAW.to_act
    assert seat is not None
    mine = {a: [m[seat] for m in table[a][:diff.n]] for a in DRAW.legal}
    expected = paired_interval(mine[other], mine[found.best], alpha=ALPHA / 9)
    assert (diff.low, diff.high) == pytest.approx((expected.low, expected.high), abs=1e-12)
    half = (diff.high - diff.low) / 2
    plain = paired_interval(mine[other], mine[found.best])
    assert half / ((plain.high - plain.low) / 2) == pytest.approx(
        t_quantile(1 - ALPHA / 18, diff.n - 1) / t975(diff.n - 1))


def test_the_budget_is_counted_in_rollouts() -> None:
    """``ROLLOUTS × samples`` rollouts in all, at least ``3 × samples`` extra deals: two
    moves get 5 × samples extra, three 4 ×, four or more 3 × (the budget before)."""
    assert ROLLOUTS == 7
    assert [extra_deals(300, moves) for moves in (1, 2, 3, 4, 5, 11)] == [
        1800, 1500, 1200, 900, 900, 900]
    assert extra_deals(16, 2) == 80


def test_the_correction_follows_the_budget_of_the_decision(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A decision of two moves spends up to 1,500 extra deals and its intervals are
    corrected for 9 looks; one of eleven moves spends up to 900, corrected for 6; an
    explicit budget is kept."""
    tables = {0: outcome_table(WILD, 1000, 1500, 0.3, {}) | outcome_table(DRAW, 1000, 1500,
                                                                          0.3, {})}
    install(monkeypatch, tables)
    two = compare(DRAW, 300, 0, exact=False)
    assert two.looks == planned_looks(1500) == 9
    assert two.samples == 1100  # the pair's four batches of 200 after the first 300
    eleven = compare(WILD, 300, 0, exact=False)
    assert len(WILD.legal) >= 8
    assert eleven.looks == planned_looks(900) == 6
    assert compare(DRAW, 300, 0, exact=False, extra=900).looks == 6


@pytest.mark.parametrize(("p", "df", "expected"), [
    (0.975, 5, 2.5705818356363146), (0.9995, 10, 4.586893858702708),
    (0.9995, 30, 3.6459586350420627), (1 - 0.01 / 12, 299, 3.1728326723810425),
    (1 - 0.01 / 12, 99, 3.232609850788997), (1 - 0.01 / 28, 15, 4.239078836671685),
    (0.99, 1, 31.820515953773935), (0.99, 2, 6.9645567342832715),
    (0.9999, 3, 22.203742273205)])
def test_t_quantiles_match_the_reference_values(p: float, df: int, expected: float) -> None:
    """Reference values from scipy.stats.t.ppf."""
    assert t_quantile(p, df) == pytest.approx(expected, rel=1e-7)


def test_the_t_quantile_tends_to_the_normal_one() -> None:
    assert t_quantile(0.975, 1_000_000) == pytest.approx(1.959963984540054, rel=1e-5)
    assert t_quantile(0.975, 100) == pytest.approx(1.9839715185235556, rel=1e-9)
    with pytest.raises(ValueError, match="1/2 < p < 1"):
        t_quantile(0.4, 10)


def test_a_single_wild_view_in_the_module_has_many_placements() -> None:
    """The fixtures are what the tests say they are."""
    assert sum(a.verb is Verb.WILD for a in WILD.legal) >= 7
    assert DRAW.phase is Phase.DRAW
    assert math.isclose(ALPHA, 0.01)


def _wild_decisions(matches: range) -> list[View]:
    return [v for seed in matches for v in positions(STANDARD, 2, seed)
            if v.phase is Phase.WILD and sum(a.verb is Verb.WILD for a in v.legal) > 1]


@pytest.mark.slow
@pytest.mark.numba_compile
def test_the_same_position_gets_the_same_verdicts_at_every_seed() -> None:
    """Hints of the same position at three seeds (fast engine, the default budget), on 60
    ten-slot wild decisions and the first 60 decisions of a greedy match: every two hints
    that name a strict best name the same one, and no move reported best at one seed is
    called worse at another (before issue 28: 15 of these 120 positions had a move
    reported best at one seed and called worse at another)."""
    views = _wild_decisions(range(10, 16))[:60] + positions(STANDARD, 2, 20)[:60]
    assert len(views) == 120
    contradicted = pairs = agree = 0
    for v in views:
        found = [hint(v, seed=seed).comparison for seed in range(3)]
        named = [f.best for f in found if f.decided]
        pairs += len(named) * (len(named) - 1) // 2
        agree += sum(a == b for i, a in enumerate(named) for b in named[i + 1:])
        worse = {a for f in found for a in f.order if a not in f.tied}
        contradicted += bool(worse & {f.best for f in found})
    assert pairs >= 30
    assert agree >= 0.99 * pairs
    assert contradicted == 0
