"""Rollouts, deal samples and evaluations on the kernel (trashcards.sim.rollouts): their
contract beyond equality with the reference (test_positions.py)."""

from __future__ import annotations

import threading
import time

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from trashcards.actions import DISCARD, STOCK  # noqa: E402
from trashcards.rules import Rules  # noqa: E402
from trashcards.sim import fast, rollouts  # noqa: E402
from trashcards.sim.arrays import load_state, load_view, to_state  # noqa: E402
from trashcards.sim.kernel import layout  # noqa: E402
from trashcards.sim.kernel import rollouts as kernel  # noqa: E402
from trashcards.sim.rng import seed_key  # noqa: E402
from trashcards.sim.tables import Table  # noqa: E402
from trashcards.state import Due, Phase, State  # noqa: E402
from trashcards.views import view  # noqa: E402

STANDARD = Rules.preset_named("standard")
BOTS = ["greedy", "greedy"]


def _states(rules: Rules, bots: list[str], index: int = 0) -> list[State]:
    return [s for s, _ in fast.match_record(rules, bots, 4, index).steps()]


def _decision(rules: Rules = STANDARD, bots: list[str] = BOTS) -> State:
    """A position where the player to act may take the discard."""
    return next(s for s in _states(rules, bots) if DISCARD in view(s).legal)


@pytest.mark.numba_compile
def test_a_state_loads_and_comes_back_unchanged() -> None:
    rules = Rules.preset_named("kings-wild").with_fields({"call_trash": True,
                                                          "last_chance": True})
    table = Table.of(rules, 3)
    for state in _states(rules, ["random", "kid", "counter"]):
        st, ky = load_state(table, state)
        assert to_state(table, st, ky, state.names) == state


@pytest.mark.numba_compile
def test_a_deal_does_not_depend_on_the_hidden_cards() -> None:
    """The sampler reads nothing hidden: from the full state's row or from the view's
    (-1 where cards are hidden), the same seed deals the same cards."""
    state = _decision()
    table = Table.of(STANDARD, 2)
    full, _ = load_state(table, state)
    public = load_view(table, view(state, 0))
    assert (public[layout.O_DECK: layout.O_DECK + len(state.stock)] == -1).all()
    deals = []
    for row in (full, public):
        out = np.zeros((3, table.width), dtype=np.int32)
        assert kernel.deal_states(table.tab, row, np.uint64(seed_key(5)), 0, out)
        keys = np.zeros(layout.KEYS, dtype=np.uint64)
        deals.append([to_state(table, r, keys, state.names) for r in out])
    assert deals[0] == deals[1]
    assert deals[0][0] != deals[0][1]


def _places(states: list[State], card: object) -> list[int]:
    """Where ``card`` lies in each state: face-down slots in (seat, slot) order, then the
    stock from the top."""
    out = []
    for s in states:
        hidden = [c for b in s.boards for c, up in zip(b.cards, b.up, strict=True) if not up]
        out.append((hidden + list(s.stock)).index(card))
    return out


def _chi2(places: list[int], n: int) -> float:
    counts = np.bincount(places, minlength=n)
    expected = len(places) / n
    return float(((counts - expected) ** 2 / expected).sum())


@pytest.mark.numba_compile
def test_an_unseen_card_lands_in_every_hidden_place_equally_often() -> None:
    """Chi-square over the hidden places of one unseen card (kids boards just dealt:
    10 face-down slots and a stock of 42)."""
    kids = Rules.preset_named("kids")
    state = next(s for s in _states(kids, BOTS) if s.phase is Phase.DRAW)
    v = view(state, 0)
    samples = rollouts.sample_deals(v, 21_000, 3)
    hidden = 10 + v.stock_count - sum(p.board_size - p.face_down for p in v.players)
    card = next(c for c in state.stock)
    chi2 = _chi2(_places(samples, card), hidden)
    assert chi2 < 110  # p ≈ 1e-5 for 51 degrees of freedom
    assert all(view(s, 0) == v for s in samples[:200])


@pytest.mark.numba_compile
def test_a_public_stock_stays_the_same_cards_in_a_uniform_order() -> None:
    """After a reshuffle the stock's cards are known: every deal keeps exactly them in the
    stock, in an order where each lands in each place equally often."""
    one_pack = Rules.preset_named("standard").with_fields({"decks": 1})
    state = next(s for i in range(20) for s in _states(one_pack, ["random"] * 4, i)
                 if s.stock_public and s.phase is Phase.DRAW and len(s.stock) >= 8)
    v = view(state, 1)
    assert v.stock_known is not None
    samples = rollouts.sample_deals(v, 16_000, 9)
    assert all(tuple(sorted(s.stock)) == v.stock_known for s in samples)
    card = v.stock_known[0]
    places = [s.stock.index(card) for s in samples]
    dof = len(state.stock) - 1
    assert _chi2(places, len(state.stock)) < dof + 6 * (2 * dof) ** 0.5


@pytest.mark.numba_compile
def test_evaluate_uses_common_random_numbers() -> None:
    """The same action twice gets the same outcomes sample by sample; sample k of an
    evaluation is rollout k of sample k's deal."""
    v = view(_decision(), None)
    result = rollouts.evaluate(v, BOTS, 30, 2, actions=[STOCK, DISCARD, STOCK],
                               horizon="match")
    assert (result.winners[0] == result.winners[2]).all()
    assert (result.match_winner[0] == result.match_winner[2]).all()
    assert result.round_won.shape == (3, 30)
    deals = rollouts.sample_deals(v, 30, 2)
    for k in (0, 17):
        out = rollouts.rollout(deals[k], BOTS, 2, k, "match", first=DISCARD)
        assert (out.winners, out.match_winner, out.rounds) == (
            result.winners[1, k], result.match_winner[1, k], result.rounds[1, k])
    assert set(result.match_winner.ravel().tolist()) <= {0, 1}
    assert result.match_won.mean() > 0


@pytest.mark.numba_compile
def test_rollouts_of_a_full_state_vary_only_with_the_bots_and_later_shuffles() -> None:
    """A full state fixes the stock's order: greedy bots, which draw no numbers, play
    every rollout of its round alike; random bots differ from rollout to rollout."""
    state = _decision()
    greedy = rollouts.rollouts(state, BOTS, 50, 1, "round")
    assert (greedy.rounds == 1).all()
    assert len(set(greedy.winners.tolist())) == 1
    assert (greedy.match_winner == -1).all() or state.rules.target_rounds - max(
        state.rounds_won) <= 1
    rand = rollouts.rollouts(state, ["random", "random"], 200, 1, "round")
    assert set(rand.winners.tolist()) <= {0, 1, 2}
    assert 0 < rand.round_won(0).mean() < 1


@pytest.mark.numba_compile
def test_bad_requests_are_refused() -> None:
    state = _decision()
    v = view(state, 0)
    with pytest.raises(ValueError, match="2 bots"):
        rollouts.rollouts(state, ["greedy"], 3, 0)
    with pytest.raises(ValueError, match="no bot"):
        rollouts.evaluate(v, ["greedy", "nobody"], 3, 0)
    with pytest.raises(ValueError, match="horizon"):
        rollouts.rollouts(state, BOTS, 3, 0, "game")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not legal"):
        rollouts.evaluate(v, BOTS, 3, 0, actions=[STOCK, DISCARD, DISCARD._replace(slot=3)])
    with pytest.raises(ValueError, match="at least 0"):
        rollouts.evaluate(v, BOTS, -1, 0)
    over = _states(STANDARD, BOTS)[-1]
    with pytest.raises(ValueError, match="no one is to act"):
        rollouts.evaluate(view(over, 0), BOTS, 3, 0)
    with pytest.raises(ValueError, match="not legal"):
        rollouts.rollout(over, BOTS, 0, 0, first=STOCK)
    due = next(s for i in range(10) for s in _states(STANDARD.with_fields({"decks": 1}),
                                                     ["random"] * 4, i)
               if s.due is Due.RESHUFFLE)
    with pytest.raises(ValueError, match="whose turn"):
        rollouts.sample_deals(view(due, 0), 1, 0)
    other = Table.of(Rules.preset_named("kids"), 2)
    with pytest.raises(ValueError, match="rules or table size"):
        load_state(other, state)


@pytest.mark.numba_compile
def test_the_kernel_releases_the_gil() -> None:
    """While a thread runs a long rollout call, the main thread runs Python."""
    state = _decision()
    rollouts.rollouts(state, BOTS, 10, 0)  # compiled or loaded before timing
    began = time.perf_counter()
    rollouts.rollouts(state, BOTS, 20_000, 0)
    took = max(time.perf_counter() - began, 1e-4)
    count = min(int(20_000 * 0.5 / took), 50_000_000)  # about half a second's work
    inside: list[float] = []

    def work() -> None:
        began = time.perf_counter()
        rollouts.rollouts(state, BOTS, count, 1)
        inside.extend((began, time.perf_counter()))

    worker = threading.Thread(target=work)
    ticks: list[float] = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    worker.join()
    began, ended = inside
    assert ended - began > 0.05
    during = [t for t in ticks if began + 0.01 < t < ended - 0.01]
    assert len(during) >= 0.25 * (ended - began - 0.02) / 0.0015
