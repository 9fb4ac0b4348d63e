"""The fast exact path (trashcards.ai.exact_solver, .exact_tables, .exact) against the
reference solver (trashcards.ai.solver), the shipped tables, and the hint's exact
answers."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from trashcards import Rules, apply, sample_chance, view
from trashcards.actions import CALL, STOCK, Action, wild
from trashcards.ai import exact_tables
from trashcards.ai.exact import BUDGET, UNTABLED, estimate, exact_solution
from trashcards.ai.exact_calls import solve_position
from trashcards.ai.exact_solver import (
    POOL,
    RoundSolver,
    Vec,
    class_totals,
    position_of,
)
from trashcards.ai.exact_tables import GAMES, load_table, table_name, write_table
from trashcards.ai.hints import hint
from trashcards.ai.odds import round_start
from trashcards.ai.solver import Solution, Solver
from trashcards.bots import make_bot
from trashcards.deals import sample_state
from trashcards.estimates import wilson_interval
from trashcards.state import Phase, State
from trashcards.views import View


def _positions(preset: str, sizes: tuple[int, int], seeds: range,
               face_down: int = 20) -> Iterator[View]:
    """Every decision of rounds dealt with ``sizes`` and played by greedy (even seeds)
    or kid (odd seeds), once at most ``face_down`` cards are face down, before any
    reshuffle."""
    rules = Rules.preset_named(preset)
    for seed in seeds:
        rng = random.Random(seed)
        state = round_start(rules, sizes)
        state = apply(state, sample_chance(state, rng))[0]
        bots = [make_bot("kid" if seed % 2 else "greedy", random.Random(seed * 10 + s))
                for s in range(2)]
        while state.to_act is not None:
            v = view(state, state.to_act)
            if v.stock_known is None and sum(b.face_down for b in state.boards) <= face_down:
                yield v
            state = apply(state, bots[state.to_act].choose(v))[0]
            while state.phase is Phase.CHANCE:
                state = apply(state, sample_chance(state, rng))[0]


def _assert_same(reference: Solution, fast: Solution) -> None:
    assert [a.action for a in fast.actions] == [a.action for a in reference.actions]
    assert fast.seat == reference.seat
    assert fast.exact == reference.exact
    for a, b in zip(reference.actions, fast.actions, strict=True):
        assert sum(b.bounds, ()) == pytest.approx(sum(a.bounds, ()), abs=1e-9)


def _compare(preset: str, sizes: tuple[int, int], seeds: range, face_down: int = 20,
             at_least: int = 10) -> None:
    """The fast path, with the shipped tables and without, against the reference on
    every position of the rounds (once at most ``face_down`` cards are face down)."""
    rules = Rules.preset_named(preset)
    reference = Solver(rules, sizes)
    count = 0
    for v in _positions(preset, sizes, seeds, face_down):
        expected = reference.solve(reference.key_of(v))
        p = position_of(v)
        table = load_table(p.sizes, p.totals)
        for lookup in (table.get if table is not None else None, None):
            _assert_same(expected, solve_position(RoundSolver(p.sizes, p.totals, lookup), p))
        count += 1
    assert count >= at_least


def test_fast_solver_gives_the_reference_values_on_one_slot_boards() -> None:
    """Every decision of whole rounds of 1 + 1: the same actions, bounds within 10⁻⁹
    and the same exactness."""
    for preset in ("standard", "all-faces-wild", "jokers"):
        _compare(preset, (1, 1), range(8))


@pytest.mark.parametrize(("preset", "sizes", "face_down", "seeds"), [
    ("standard", (2, 1), 2, 8), ("kings-wild", (1, 2), 2, 8), ("jokers", (2, 1), 2, 8),
    ("kids", (1, 2), 2, 8), ("standard", (2, 2), 2, 4), ("standard", (2, 3), 2, 10),
    pytest.param("jokers", (3, 2), 2, 4, marks=pytest.mark.slow),
    pytest.param("kings-wild", (3, 3), 2, 4, marks=pytest.mark.slow),
    pytest.param("all-faces-wild", (3, 2), 2, 3, marks=pytest.mark.slow)])
def test_fast_solver_gives_the_reference_values_late_in_rounds(
        preset: str, sizes: tuple[int, int], face_down: int, seeds: int) -> None:
    """Positions with few face-down cards left, where the reference solver is quickest:
    2 + 1, 2 + 2, 3 + 2 and 3 + 3 (slow: the reference takes tens of seconds), either
    seat the larger, several presets."""
    _compare(preset, sizes, range(seeds), face_down, at_least=5)


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "sizes", "face_down"), [
    ("jokers", (2, 1), 3), ("standard", (2, 2), 4), ("jokers", (2, 2), 4),
    ("standard", (3, 2), 3)])
def test_fast_solver_gives_the_reference_values_early_in_rounds(
        preset: str, sizes: tuple[int, int], face_down: int) -> None:
    """Whole rounds from the deal (2 + 1, 2 + 2) and 3 + 2 from three face-down cards on:
    the reference solver takes seconds to minutes (3 + 3 is compared late in rounds)."""
    _compare(preset, sizes, range(2), face_down, at_least=5)


def _short_stock(stock_unseen: str) -> View:
    """test_solver's positions: boards of one slot (2♠, 3♠ face down), a stock of two
    cards drawn from ``stock_unseen``, every other card on the discard pile (top 4♣)."""
    from collections import Counter

    from trashcards.cards import parse_cards

    from support import position

    rules = Rules.preset_named("standard")
    rest = Counter(rules.match_cards(2)) - Counter(parse_cards(stock_unseen)) \
        - Counter(parse_cards("2s 3s 4c"))
    state = position(["(2s)", "(3s)"], stock=stock_unseen,
                     discard=" ".join(str(c) for c in (*sorted(rest.elements()),
                                                        *parse_cards("4c"))))
    return view(state, 0)


def test_the_reshuffle_bounds_are_those_of_the_reference() -> None:
    """Two draws before a reshuffle (the positions of test_solver's bounds test): the
    same intervals, not exact."""
    for stock in ("5s 6s", "Ah 6s", "Ah Jh"):
        v = _short_stock(stock)
        reference = Solver(v.rules, (1, 1))
        expected = reference.solve(reference.key_of(v))
        p = position_of(v)
        fast = solve_position(RoundSolver(p.sizes, p.totals), p)
        _assert_same(expected, fast)
        assert not fast.exact
        assert exact_solution(v) is None


def test_every_preset_table_ships_and_keeps_answers_within_the_budget() -> None:
    """One table per game of GAMES, each made so that no answer needs more than
    WORST types (its header says how many at most), below the hint's budget."""
    for preset, sizes in GAMES:
        totals = class_totals(Rules.preset_named(preset), sizes[0])
        path = exact_tables.DATA_DIR / table_name(sizes, totals)
        header = json.loads(path.read_bytes().partition(b"\n")[0])
        assert header["format"] == exact_tables.FORMAT
        assert header["worst_cost"] <= exact_tables.WORST < BUDGET
        table = load_table(sizes, totals)
        assert table is not None
        assert len(table) == header["keys"]


def test_a_table_round_trip_keeps_values_and_widens_bounds_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Chances come back within 2.4·10⁻¹⁰; an entry that is a bound comes back as an
    interval that contains the original one."""
    sizes, totals = (1, 1), class_totals(Rules.preset_named("standard"), 1)
    solver = RoundSolver(sizes, totals)
    solver.draw(0, (0,), (0,), totals[:-1], -1)
    bounded = Vec([0.0, 0.25, 0.5], [0.0, 0.125, 0.25], [0.0, 0.3, 0.0], [0.0, 0.2, 0.0])
    entries = {k: v for k, v in solver.memo.items() if k[0] == POOL}
    entries[(POOL, 1, (0,), (0,), (3, 1))] = bounded
    monkeypatch.setattr(exact_tables, "DATA_DIR", tmp_path)
    write_table(tmp_path / table_name(sizes, totals), sizes, totals, entries, {})
    load_table.cache_clear()
    try:
        table = load_table(sizes, totals)
        assert table is not None
        for key, v in entries.items():
            got = table.get(key)
            assert got is not None
            for x in range(exact_tables._first(key), len(v.a0)):
                l0, w0, l1, w1 = v.at(x)
                g0, gw0, g1, gw1 = got.at(x)
                if w0 or w1:
                    assert g0 <= l0
                    assert g0 + gw0 >= l0 + w0
                    assert g1 <= l1
                    assert g1 + gw1 >= l1 + w1
                else:
                    assert gw0 == gw1 == 0.0
                    assert abs(g0 - l0) <= 2.4e-10
                    assert abs(g1 - l1) <= 2.4e-10
        assert table.get((POOL, 0, (1,), (0,), (0, 0))) is None
    finally:
        load_table.cache_clear()


def _dealt(preset: str, sizes: tuple[int, int], seed: int = 0) -> State:
    rules = Rules.preset_named(preset)
    state = round_start(rules, sizes)
    return apply(state, sample_chance(state, random.Random(seed)))[0]


def test_positions_out_of_reach_get_no_exact_answer() -> None:
    """Last chance, three players, and work over the budget: ``None``, never a value
    that is not exact."""
    state = _dealt("last-chance", (2, 2))
    assert exact_solution(view(state, state.to_act)) is None
    three = Rules.preset_named("standard")
    state = round_start(three, (2, 2, 2))
    state = apply(state, sample_chance(state, random.Random(0)))[0]
    assert exact_solution(view(state, state.to_act)) is None
    state = _dealt("standard", (5, 5))
    assert exact_solution(view(state, state.to_act), budget=50) is None


def test_boards_without_a_table_get_a_bounded_attempt_whatever_the_budget() -> None:
    """4 + 1 positions of three face-down cards: those whose estimate exceeds UNTABLED
    are refused even with a budget of a million types; those within it are solved the
    same whatever the budget."""
    refused = solved = 0
    for v in _positions("standard", (4, 1), range(6), face_down=3):
        p = position_of(v)
        assert load_table(p.sizes, p.totals) is None
        found = exact_solution(v, budget=10**6)
        if estimate(p) > UNTABLED:
            assert found is None
            refused += 1
        elif found is not None:
            assert found == exact_solution(v, budget=UNTABLED)
            solved += 1
    assert refused > 0
    assert solved > 0


def test_boards_of_three_from_the_deal_are_answered_within_the_budget() -> None:
    """The largest small boards, just dealt: exact, and within the worst cost the tables
    promise (the solver counts what it computes)."""
    for preset in ("standard", "jokers", "all-faces-wild"):
        for sizes in ((3, 3), (3, 2), (2, 3)):
            state = _dealt(preset, sizes)
            p = position_of(view(state, state.to_act))
            table = load_table(p.sizes, p.totals)
            assert table is not None
            solver = RoundSolver(p.sizes, p.totals, table.get, exact_tables.WORST)
            solution = solve_position(solver, p)
            assert solution.exact
            assert solution.actions[0].action == STOCK
            assert solver.computed <= exact_tables.WORST


def _tied_wilds() -> View:
    """test_solver's position: seat 0 holds J♣ with slots 1 and 2 face down, all four
    2s on the pile, seat 1 needing a wild: wild 1 and wild 2 are worth exactly the
    same, trashing the wild loses at once."""
    from collections import Counter

    from trashcards.cards import parse_cards

    from support import position

    state = position(["(3s) (4s)", "Ad (5s)"], discard="2c 2h 2s 2d")
    rules = Rules.preset_named("standard")
    used = Counter(c for b in state.boards for c in b.cards) + Counter(state.discard)
    jack = parse_cards("Jc")[0]
    rest = Counter(rules.match_cards(2)) - used - Counter([jack])
    state = state._replace(stock=(jack, *sorted(rest.elements())))
    state = apply(state, STOCK)[0]
    assert state.phase is Phase.WILD
    return view(state, 0)


def test_the_hint_reports_an_exact_tie_as_equal() -> None:
    """Exact values: ``exact`` true, no samples, both wild placements in the tie group
    with a point difference of 0, trashing measurably worse."""
    result = hint(_tied_wilds())
    data = result.to_json()
    assert data["exact"] is True
    assert data["samples"] == 0
    assert set(data["tied"]) == {str(wild(1)), str(wild(2))}
    by_action = {line["action"]: line for line in data["actions"]}
    for action in (wild(1), wild(2)):
        assert by_action[str(action)]["equal_to_best"]
        assert by_action[str(action)]["vs_best"] == [0, 0]
    assert not by_action["trash"]["equal_to_best"]
    assert by_action["trash"]["round_win"] == 0.0
    assert by_action["trash"]["vs_best"][0] == by_action["trash"]["vs_best"][1] < 0


def test_the_hint_is_exact_on_small_boards_by_play() -> None:
    """Every decision with a choice in a few 2 + 2 and 3 + 2 rounds: the hint says exact,
    with the exact solver's values."""
    checked = 0
    for preset, sizes in (("standard", (2, 2)), ("jokers", (2, 3))):
        for v in _positions(preset, sizes, range(2)):
            if len(v.legal) < 2:
                continue
            result = hint(v)
            solution = exact_solution(v)
            assert solution is not None
            assert result.exact
            seat = v.to_act
            assert seat is not None
            for line in result.lines:
                assert line.value.round_win.value == pytest.approx(
                    solution.value_of(line.action), abs=1e-9)
            checked += 1
    assert checked > 5


# -- call-trash ---------------------------------------------------------------------------


def _solver_move(v: View) -> Action:
    """Optimal play under call-trash: call first (it is free), then the solver's best."""
    if CALL in v.legal:
        return CALL
    solution = exact_solution(v)
    assert solution is not None
    return solution.best.action


def _played_out(v: View, action: Action, plays: int) -> tuple[float, float]:
    """The 95 % interval of the player to act's round wins after ``action``, both
    players then moving as the solver says, from deals consistent with ``v``."""
    seat = v.to_act
    wins = 0
    for k in range(plays):
        rng = random.Random(k)
        state = apply(sample_state(v, rng), action)[0]
        while state.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            if state.to_act is None:
                state = apply(state, sample_chance(state, rng))[0]
            else:
                state = apply(state, _solver_move(view(state, state.to_act)))[0]
        wins += seat in state.round_winners
    return wilson_interval(wins, plays)


def _call_trash_position(pending: bool) -> View:
    """A 2 + 2 call-trash decision found by play: the draw, not yet called, where
    drawing before calling loses more than 5 points (a completion in the chain would go
    unclaimed); or (``pending``) the other player's turn while seat 0, who never calls,
    waits to claim its board."""
    rules = Rules.preset_named("call-trash")
    for seed in range(400):
        rng = random.Random(seed)
        state = round_start(rules, (2, 2))
        state = apply(state, sample_chance(state, rng))[0]
        bots = [make_bot("greedy", random.Random(s)) for s in range(2)]
        while state.to_act is not None:
            v = view(state, state.to_act)
            if v.stock_known is None and pending and v.unclaimed:
                return v
            if not pending and v.phase is Phase.DRAW and not v.called \
                    and not v.unclaimed and v.stock_known is None:
                solution = exact_solution(v)
                assert solution is not None
                if solution.value_of(CALL) - solution.value_of(STOCK) > 0.05:
                    return v
            action = bots[state.to_act].choose(v)
            if pending and action == CALL and state.to_act == 0:
                action = next(a for a in v.legal if a != CALL)
            state = apply(state, action)[0]
            while state.phase is Phase.CHANCE:
                state = apply(state, sample_chance(state, rng))[0]
    raise AssertionError("no position found")


@pytest.mark.slow
@pytest.mark.parametrize("pending", [False, True])
def test_call_trash_values_agree_with_the_rules_engine_played_out(pending: bool) -> None:
    """Call-trash (RULES.md §9): drawing before calling forfeits a completion in the
    chain (it waits to be claimed while the other player has a turn), and a player whose
    opponent waits to claim has one turn to complete, having called. 1,000 play-outs by
    the rules engine for each action, both players then calling and moving as the
    solver says, land on the solver's values."""
    v = _call_trash_position(pending)
    solution = exact_solution(v)
    assert solution is not None
    assert CALL in v.legal
    for action in v.legal:
        low, high = _played_out(v, action, 1000)
        assert low <= solution.value_of(action) <= high


def test_calling_is_worth_the_plain_turn_and_nothing_is_worth_more() -> None:
    """Once called, a call-trash position has the plain turn's values (the standard
    rules' solver on the same cards); before, "call" is worth the best of them and every
    other action at most that."""
    v = _call_trash_position(False)
    standard = v._replace(rules=Rules.preset_named("standard"),
                          legal=tuple(a for a in v.legal if a != CALL))
    plain = exact_solution(standard)
    found = exact_solution(v)
    assert plain is not None
    assert found is not None
    assert found.value_of(CALL) == pytest.approx(plain.best.values[v.to_act], abs=1e-12)
    for entry in found.actions:
        assert entry.values[v.to_act] <= found.value_of(CALL) + 1e-12
    called = exact_solution(v._replace(called=True,
                                       legal=tuple(a for a in v.legal if a != CALL)))
    assert called is not None
    for a, b in zip(called.actions, plain.actions, strict=True):
        assert a.action == b.action
        assert a.values == pytest.approx(b.values, abs=1e-12)


# -- the corpora ------------------------------------------------------------------------------


def test_the_exact_corpora_hold_what_the_solver_says() -> None:
    """tests/data/exact-corpus.json.gz (scripts/exact_corpus.py): at least 200 tied and
    200 leading positions, boards of 2 or 3 slots (at most 3), several presets; in the
    tie corpus two or more actions share the best match-win chance within 10⁻⁹, in the
    leads corpus the best is ahead by 2 points or more; and a sample re-solved now gives
    the stored values and tie groups."""
    from trashcards.ai.compare import exact_comparison, greedy_choice

    from support import exact_corpus

    ties, leads = exact_corpus("ties"), exact_corpus("leads")
    assert len(ties) >= 200
    assert len(leads) >= 200
    for position in (*ties, *leads):
        assert 2 <= max(position.sizes) <= 3
        assert set(position.values) == {str(a) for a in position.view.legal}
        ranked = sorted((m for _r, m in position.values.values()), reverse=True)
        if position.kind == "ties":
            assert len(position.tied) >= 2
            assert ranked[0] - ranked[len(position.tied) - 1] <= 1e-9
        else:
            assert position.tied == (position.best,)
            assert ranked[0] - ranked[1] >= 0.02
    assert len({p.preset for p in ties}) >= 4
    assert len({p.preset for p in leads}) >= 4
    for position in (*ties[::24], *leads[::24]):
        v = position.view
        found = exact_comparison(v, v.legal, greedy_choice(v))
        assert found is not None
        assert {str(a) for a in found.tied} == set(position.tied)
        for action in v.legal:
            assert found.values[action].match_win.value == pytest.approx(
                position.values[str(action)][1], abs=1e-9)
