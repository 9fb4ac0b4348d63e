"""The exact solver (trashcards.ai.solver) on hand-computed positions and against the
rules engine."""

from __future__ import annotations

import random
from math import prod

import pytest

from trashcards import Rules, apply, sample_chance, view
from trashcards.actions import DISCARD, STOCK, TRASH, Action, wild
from trashcards.ai.odds import round_start
from trashcards.ai.solver import OutOfReachError, Solver, solve_view
from trashcards.bots import make_bot
from trashcards.cards import parse_cards
from trashcards.deals import sample_state
from trashcards.estimates import wilson_interval
from trashcards.state import Phase, State
from trashcards.views import View

STANDARD = Rules.preset_named("standard")


def _dealt(sizes: tuple[int, int], seed: int) -> State:
    state = round_start(STANDARD, sizes)
    return apply(state, sample_chance(state, random.Random(seed)))[0]


def first_good_on_odd_draw(unseen: int, good: int, stock: int) -> float:
    """P(the first good card of a random stock of ``stock`` cards, drawn from ``unseen``
    cards of which ``good`` are good, comes at draw 1, 3, 5, …)."""
    total = 0.0
    for i in range(1, stock + 1, 2):
        none_before = prod((unseen - good - j) / (unseen - j) for j in range(i - 1))
        total += none_before * good / (unseen - i + 1)
    return total


def test_one_slot_boards_have_a_closed_form() -> None:
    """Two one-slot boards, standard rules, just dealt (RULES.md §3–§6).

    Each board wants an Ace or a Jack (wild) in slot 1: 8 good cards among the 52, none in
    sight. Whoever draws a good card completes the board at once (a natural Ace goes on
    slot 1; a wild is best put there too) and wins. Any other card fits no board and is
    discarded, so the top discard is never playable and both players always draw from
    the stock; a wild is never trashed. The stock is a uniformly random 50 of the 52
    unseen cards (the other two lie face down), and at least 6 good cards are in it, so
    the round ends before a reshuffle. The player to act wins exactly when the first good
    card of the stock comes at an odd draw:

        P = Σ_{i odd} [Π_{j<i-1} (44 − j)/(52 − j)] · 8/(52 − i + 1).

    The solver's value of ``stock`` must equal it (to rounding), and be exact.
    """
    state = _dealt((1, 1), 0)
    v = view(state, state.to_act)
    solution = solve_view(v)
    assert solution.exact
    assert [a.action for a in solution.actions] == [STOCK]
    expected = first_good_on_odd_draw(52, 8, 50)
    assert solution.value_of(STOCK) == pytest.approx(expected, abs=1e-12)
    assert solution.actions[0].values[1 - v.to_act] == pytest.approx(1 - expected, abs=1e-12)


def test_one_slot_boards_after_cards_are_seen() -> None:
    """The same closed form with cards in sight: two dead cards moved from the stock to
    the discard pile leave 50 unseen cards, 8 of them good, and a stock of 48."""
    state = _dealt((1, 1), 0)
    seat = state.to_act
    assert seat is not None
    dead = [c for c in state.stock if c.rank not in (1, 11)][:2]
    stock = list(state.stock)
    for card in dead:
        stock.remove(card)
    state = state._replace(stock=tuple(stock), discard=tuple(dead))
    solution = solve_view(view(state, seat))
    assert solution.value_of(STOCK) == pytest.approx(first_good_on_odd_draw(50, 8, 48),
                                                     abs=1e-12)


def test_a_playable_discard_that_completes_the_board_wins_for_sure() -> None:
    state = _dealt((1, 1), 3)
    seat = state.to_act
    assert seat is not None
    ace = next(c for c in state.stock if c.rank == 1)
    stock = list(state.stock)
    stock.remove(ace)
    state = state._replace(stock=tuple(stock), discard=(ace,))
    solution = solve_view(view(state, seat))
    assert solution.value_of(DISCARD) == 1.0
    assert solution.best.action == DISCARD
    assert solution.regret(STOCK) > 0.3


@pytest.mark.slow
def test_trashing_a_wild_the_other_player_needs_loses_at_once() -> None:
    """Seat 0 draws J♣ with slots 1 and 2 face down; all four 2s are on the discard pile
    and seat 1 (Ace up, slot 2 face down) can fill its board with a wild only.

    Trashing J♣ hands it to seat 1, who takes it and completes: value exactly 0. Placing
    it on slot 2 leaves slot 1 for any Ace or Jack; placing it on slot 1 leaves slot 2 for
    a Jack only — but an Ace then swaps the wild out of slot 1 onto slot 2, so the same six
    cards (three Aces, three Jacks) complete the board either way, and every other card is
    dead to both: the two placements are worth exactly the same."""
    from collections import Counter

    from support import position

    state = position(["(3s) (4s)", "Ad (5s)"], discard="2c 2h 2s 2d")
    used = Counter(c for b in state.boards for c in b.cards) + Counter(state.discard)
    jack = parse_cards("Jc")[0]
    rest = Counter(STANDARD.match_cards(2)) - used - Counter([jack])
    state = state._replace(stock=(jack, *sorted(rest.elements())))
    state = apply(state, STOCK)[0]
    assert state.phase is Phase.WILD
    v = view(state, 0)
    solver = Solver(v.rules, (2, 2))
    solution = solver.solve(solver.key_of(v))
    assert solution.value_of(TRASH) == 0.0
    assert solution.value_of(wild(1)) == pytest.approx(solution.value_of(wild(2)), abs=1e-12)
    assert solution.value_of(wild(1)) > 0.5
    assert solution.regret(TRASH) == pytest.approx(solution.value_of(wild(2)))


def _solver_move(solver: Solver, v: View) -> Action:
    return solver.solve(solver.key_of(v)).best.action


def test_the_solver_agrees_with_the_rules_engine_played_out() -> None:
    """A (2, 2) position with two face-down cards left in all: 3,000 play-outs by the rules
    engine from deals consistent with the view, both players moving as the solver says;
    seat to act's share of round wins must match the solver's value."""
    for seed in range(100):
        state = _dealt((2, 2), seed)
        rng = random.Random(seed)
        bots = [make_bot("greedy", random.Random(s)) for s in range(2)]
        while state.to_act is not None and sum(b.face_down for b in state.boards) > 2:
            state = apply(state, bots[state.to_act].choose(view(state, state.to_act)))[0]
            while state.phase is Phase.CHANCE:
                state = apply(state, sample_chance(state, rng))[0]
        if state.to_act is not None and state.phase is Phase.DRAW:
            break
    v = view(state, state.to_act)
    solver = Solver(STANDARD, (2, 2))
    value = solver.solve(solver.key_of(v)).best.values[v.to_act]
    wins = 0
    plays = 3000
    for k in range(plays):
        rng = random.Random(k)
        s = sample_state(v, rng)
        while s.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            if s.to_act is None:
                s = apply(s, sample_chance(s, rng))[0]
            else:
                s = apply(s, _solver_move(solver, view(s, s.to_act)))[0]
        wins += v.to_act in s.round_winners
    low, high = wilson_interval(wins, plays)
    assert low <= value <= high


def test_the_solver_refuses_what_it_does_not_solve() -> None:
    with pytest.raises(OutOfReachError, match="call-trash"):
        Solver(Rules.preset_named("call-trash"), (2, 2))
    state = _dealt((2, 2), 0)
    with pytest.raises(ValueError, match="boards of"):
        Solver(STANDARD, (3, 3)).key_of(view(state, state.to_act))


def _late(sizes: tuple[int, int], face_down: int, seed: int) -> View:
    """A draw-phase view of a round dealt with ``sizes``, played by greedy until at most
    ``face_down`` cards are face down in all."""
    for attempt in range(100):
        state = _dealt(sizes, seed * 1000 + attempt)
        rng = random.Random(seed * 1000 + attempt)
        bots = [make_bot("greedy", random.Random(s)) for s in range(2)]
        while state.to_act is not None and sum(b.face_down for b in state.boards) > face_down:
            state = apply(state, bots[state.to_act].choose(view(state, state.to_act)))[0]
            while state.phase is Phase.CHANCE:
                state = apply(state, sample_chance(state, rng))[0]
        if state.to_act is not None and state.phase is Phase.DRAW:
            return view(state, state.to_act)
    raise AssertionError("no position found")


@pytest.mark.parametrize(("sizes", "face_down", "seed"),
                         [((2, 2), 2, 1), ((2, 2), 3, 2), ((3, 3), 2, 3), ((3, 2), 2, 4)])
def test_relabelling_symmetric_ranks_changes_no_value(sizes: tuple[int, int],
                                                      face_down: int, seed: int) -> None:
    """Ranks that both boards have (one pack: four cards each) can be relabelled together
    with their slots: the game is the same move for move. The solver with the symmetry
    must give every action the same values as the plain solver, on no more nodes."""
    v = _late(sizes, face_down, seed)
    plain = Solver(STANDARD, sizes, symmetry=False)
    fast = Solver(STANDARD, sizes)
    a, b = plain.solve(plain.key_of(v)), fast.solve(fast.key_of(v))
    assert [x.action for x in a.actions] == [x.action for x in b.actions]
    for x, y in zip(a.actions, b.actions, strict=True):
        assert x.values == pytest.approx(y.values, abs=1e-12)
        assert sum(x.bounds, ()) == pytest.approx(sum(y.bounds, ()), abs=1e-12)
    assert fast.stats.nodes <= plain.stats.nodes


def test_canonical_form_is_the_same_for_relabelled_nodes() -> None:
    """Swapping ranks 1 and 2 everywhere in a node (slots on both boards, the pile, the
    card on top) gives the same canonical node; a node that differs in substance does
    not."""
    solver = Solver(STANDARD, (2, 2))
    x, w = solver.x, solver.w
    below = [0] * solver.classes
    below[0], below[x] = 1, 5
    node = (0, 0, (1, 0), (0, 2), tuple(below), 1, -1, False, None)
    swapped_below = list(below)
    swapped_below[0], swapped_below[1] = below[1], below[0]
    swapped = (0, 0, (0, 1), (2, 0), tuple(swapped_below), 0, -1, False, None)
    assert solver.canonical(node) == solver.canonical(swapped)
    other = (0, 0, (0, 1), (0, 2), tuple(swapped_below), 0, -1, False, None)
    assert solver.canonical(other) != solver.canonical(node)
    assert solver.canonical((1, 0, (0, 0), (0, 0), tuple(below), w, w, False, None)) \
        == solver.canonical((1, 0, (0, 0), (0, 0), tuple(swapped_below), w, w, False, None))


def _short_stock(stock_unseen: str) -> View:
    """Boards of one slot (face down: 2♠, 3♠), a stock of two cards drawn from
    ``stock_unseen`` less the face-down ones, and every other card on the discard pile
    (top: 4♣): the stock runs out soon and the pile, with its Aces and Jacks, comes back."""
    from collections import Counter

    from support import position

    hidden = parse_cards(stock_unseen)
    down = parse_cards("2s 3s")
    top = parse_cards("4c")
    rest = Counter(STANDARD.match_cards(2)) - Counter(hidden) - Counter(down) - Counter(top)
    state = position(["(2s)", "(3s)"], stock=stock_unseen,
                     discard=" ".join(str(c) for c in (*sorted(rest.elements()), *top)))
    return view(state, 0)


@pytest.mark.parametrize("stock", ["5s 6s", "Ah 6s", "Ah Jh"])
def test_bounds_on_reshuffles_contain_the_values_solved_by_iteration(stock: str) -> None:
    """Positions two draws from a reshuffle: bounding every position after it ([0, 1]
    for each seat) must give intervals that contain the values value iteration finds,
    and a width that says how much is unknown."""
    v = _short_stock(stock)
    solved = Solver(STANDARD, (1, 1), reshuffles="solve")
    bounded = Solver(STANDARD, (1, 1), reshuffles="bound")
    a = solved.solve(solved.key_of(v))
    b = bounded.solve(bounded.key_of(v))
    assert not a.exact
    assert solved.stats.regions > 0
    for x, y in zip(a.actions, b.actions, strict=True):
        assert x.error == 0.0
        for seat in range(2):
            low, width = y.bounds[seat]
            assert low - 1e-12 <= x.values[seat] <= low + width + 1e-12
    # the stock may hold an Ace or a Jack, and the first draw after a reshuffle is known
    # to be good with the pile's share of them: part of the value is settled either way
    assert 0.0 < b.error < 0.5
    assert not b.exact


@pytest.mark.slow
def test_two_slot_boards_from_the_deal_are_exact_without_solving_reshuffles() -> None:
    """From the deal with boards of 2 + 2, a reshuffle is reachable only through moves
    that are worse for sure (trashing a wild the board needs...), so bounding the
    positions after one costs nothing: the value is exact, the same as value iteration
    gives (docs/ai.md: 0.5266708 for the seat to act in this deal). The symmetry between
    ranks 1 and 2 halves the nodes and changes nothing."""
    state = _dealt((2, 2), 0)
    v = view(state, state.to_act)
    solver = Solver(STANDARD, (2, 2))
    solution = solver.solve(solver.key_of(v))
    assert solution.exact
    assert solution.error == 0.0
    assert solver.stats.bounded > 0
    assert solution.value_of(STOCK) == pytest.approx(0.526670811309097, abs=1e-12)
    plain = Solver(STANDARD, (2, 2), symmetry=False)
    assert plain.solve(plain.key_of(v)).value_of(STOCK) == pytest.approx(
        solution.value_of(STOCK), abs=1e-12)
    assert solver.stats.nodes < 0.6 * plain.stats.nodes
