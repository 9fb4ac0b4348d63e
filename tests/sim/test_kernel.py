"""The fast kernel's contract: its random numbers, determinism however work is split,
its statistics and records (the games themselves: test_differential.py)."""

from __future__ import annotations

import math
import random
from collections import Counter
from pathlib import Path

import pytest

numba = pytest.importorskip("numba")
np = pytest.importorskip("numpy")

from trashcards.actions import STOCK, Dealer, Deck, Reshuffle  # noqa: E402
from trashcards.cards import parse_cards  # noqa: E402
from trashcards.errors import RulesError  # noqa: E402
from trashcards.events import Dealt, RoundVoid  # noqa: E402
from trashcards.record import load  # noqa: E402
from trashcards.rules import Rules  # noqa: E402
from trashcards.sim import fast  # noqa: E402
from trashcards.sim import rng as krng  # noqa: E402
from trashcards.sim.kernel import game, layout, numbers  # noqa: E402
from trashcards.sim.tables import Table  # noqa: E402
from trashcards.simulation import SimStats  # noqa: E402
from trashcards.simulation import play_chunk as reference_chunk  # noqa: E402

STANDARD = Rules.preset_named("standard")
HEAVY = Rules.preset_named("kings-wild").with_fields(
    {"jokers_per_deck": 2, "call_trash": True, "last_chance": True})


def _plain(stats: SimStats) -> dict[str, object]:
    return stats.to_json() | {"elapsed_s": 0}


# -- random numbers ---------------------------------------------------------------------------

@pytest.mark.parametrize("seed", [0, 1, 2**63 + 5, -7])
@pytest.mark.numba_compile
def test_kernel_streams_are_the_documented_counter_based_numbers(seed: int) -> None:
    key = krng.seed_key(seed)
    for index, stream in [(0, 0), (0, 1), (12345, 3), (10**9, 2)]:
        drawn = numbers.stream_numbers(np.uint64(key), index, stream, 5).tolist()
        own = krng.stream_key(krng.match_key(seed, index), stream)
        assert drawn == [krng.stream_number(own, n) for n in range(1, 6)]


def test_kernel_random_is_a_seat_stream_as_random_floats() -> None:
    a = krng.KernelRandom(3, 17, 1)
    stream = krng.stream_key(krng.match_key(3, 17), 2)
    assert [a.random() for _ in range(4)] == [
        (krng.stream_number(stream, n) >> 11) / 2**53 for n in range(1, 5)]
    assert a.used == 4
    state = a.getstate()
    after = [a.random() for _ in range(3)]
    a.setstate(state)
    assert [a.random() for _ in range(3)] == after
    assert all(0.0 <= krng.KernelRandom(3, 17, s).random() < 1.0 for s in range(4))
    assert krng.KernelRandom(3, 17, 0).random() != krng.KernelRandom(3, 17, 1).random()
    assert krng.KernelRandom(3, 17, 0).random() != krng.KernelRandom(3, 18, 0).random()
    assert isinstance(a, random.Random)
    assert 0 <= a.randrange(10) < 10


def test_bounded_is_floor_of_the_scaled_number() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        x, m = rng.getrandbits(64), rng.randrange(1, 500)
        assert krng.bounded(x, m) == (x * m) >> 64
    assert krng.bounded(krng.MASK, 7) == 6
    assert krng.bounded(0, 7) == 0


def test_fisher_yates_is_uniform() -> None:
    """Every order of 4 items comes up equally often (chi-square, 23 degrees of freedom)."""
    counts: Counter[tuple[int, ...]] = Counter()
    trials = 48_000
    for t in range(trials):
        counts[tuple(krng.fisher_yates(range(4), krng.mix64(t)))] += 1
    assert len(counts) == 24
    expected = trials / 24
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 60  # p ≈ 5e-5 for 23 degrees of freedom


@pytest.mark.parametrize(("rules", "bots"), [
    (STANDARD, ["random", "kid"]),
    (HEAVY, ["greedy", "random", "sometimes"]),
    (STANDARD.with_fields({"decks": 1}), ["random"] * 4),  # 12 spare cards: reshuffles
])
@pytest.mark.numba_compile
def test_every_chance_move_follows_from_seed_and_index(rules: Rules, bots: list[str]) -> None:
    """The dealer is shuffle 0, position 0; then each deck and reshuffle, in order, is
    the next shuffle of the chance stream (RNG scheme of trashcards.sim.rng)."""
    seen_reshuffle = False
    for index in (0, 1, 2):
        record = fast.match_record(rules, bots, 11, index)
        chance = krng.stream_key(krng.match_key(11, index), 0)
        t = 0
        state = None
        for number, (after, _events) in enumerate(record.steps()):
            move = record.moves[number].move
            key = krng.shuffle_key(chance, t)
            if isinstance(move, Dealer):
                assert move.seat == krng.bounded(krng.shuffle_number(key, 0), len(bots))
                t += 1
            elif isinstance(move, Deck):
                assert list(move.cards) == krng.fisher_yates(rules.match_cards(len(bots)), key)
                t += 1
            elif isinstance(move, Reshuffle):
                assert state is not None
                assert list(move.cards) == krng.fisher_yates(state.discard[:-1], key)
                seen_reshuffle = True
                t += 1
            state = after
    assert seen_reshuffle or bots != ["random"] * 4


# -- determinism and splitting ----------------------------------------------------------------

@pytest.mark.numba_compile
def test_results_do_not_depend_on_how_matches_are_split() -> None:
    bots = ["counter", "kid", "random"]
    whole = fast.play_chunk(HEAVY, bots, 99, 0, 300)
    parts = (fast.play_chunk(HEAVY, bots, 99, 0, 1) + fast.play_chunk(HEAVY, bots, 99, 1, 122)
             + fast.play_chunk(HEAVY, bots, 99, 123, 177))
    assert _plain(whole) == _plain(parts)
    assert whole.matches == 300


@pytest.mark.numba_compile
def test_results_do_not_depend_on_the_number_of_threads() -> None:
    bots = ["greedy", "sometimes"]
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = fast.play_chunk(STANDARD, bots, 5, 1000, 400)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        every = fast.play_chunk(STANDARD, bots, 5, 1000, 400)
    finally:
        numba.set_num_threads(before)
    assert _plain(one) == _plain(every)


@pytest.mark.numba_compile
def test_seeds_and_indices_make_different_games() -> None:
    a = fast.match_record(STANDARD, ["greedy", "greedy"], 1, 0)
    b = fast.match_record(STANDARD, ["greedy", "greedy"], 2, 0)
    c = fast.match_record(STANDARD, ["greedy", "greedy"], 1, 1)
    assert a.moves[1] != b.moves[1]
    assert a.moves[1] != c.moves[1]
    assert fast.match_record(STANDARD, ["greedy", "greedy"], 1, 0) == a


# -- statistics -------------------------------------------------------------------------------

@pytest.mark.numba_compile
def test_statistics_are_consistent_totals() -> None:
    stats = fast.play_chunk(HEAVY, ["random", "greedy", "counter", "kid"], 3, 0, 500)
    assert stats.matches == 500 == sum(stats.wins) == sum(stats.rounds_hist.values())
    assert stats.rounds == sum(stats.turns_hist.values())
    assert stats.rounds == sum(r * n for r, n in stats.rounds_hist.items())
    assert stats.turns == sum(t * n for t, n in stats.turns_hist.items())
    # last chance: a decided round may have several winners
    assert sum(stats.round_wins) >= stats.decided_rounds
    assert stats.round_starter_wins <= stats.decided_rounds <= stats.rounds
    assert 0 < stats.first_player_wins < stats.matches
    assert stats.elapsed_s > 0


def test_no_matches_is_empty_statistics() -> None:
    stats = fast.play_chunk(STANDARD, ["greedy", "greedy"], 0, 0, 0)
    assert _plain(stats) == _plain(SimStats(2))


@pytest.mark.numba_compile
def test_progress_reports_every_match() -> None:
    done: list[int] = []
    fast.play_chunk(STANDARD, ["greedy", "greedy"], 0, 0, fast.SLICE + 5, progress=done.append)
    assert sum(done) == fast.SLICE + 5
    assert len(done) == 2


@pytest.mark.numba_compile
def test_statistics_agree_with_the_reference_engine_in_distribution() -> None:
    """Same rules, same bots, uniform shuffles: the mean round length and the round
    starter's win rate must agree within sampling error (6 standard errors)."""
    bots = ["greedy", "kid"]
    ref = reference_chunk(STANDARD, bots, 0, 0, 60)
    kern = fast.play_chunk(STANDARD, bots, 0, 0, 20_000)

    def mean_sd(stats: SimStats) -> tuple[float, float]:
        mean = stats.turns / stats.rounds
        var = sum(n * (t - mean) ** 2 for t, n in stats.turns_hist.items()) / stats.rounds
        return mean, math.sqrt(var)

    (m_ref, sd_ref), (m_k, sd_k) = mean_sd(ref), mean_sd(kern)
    se = math.sqrt(sd_ref**2 / ref.rounds + sd_k**2 / kern.rounds)
    assert abs(m_ref - m_k) < 6 * se
    p_ref = ref.round_starter_wins / ref.rounds
    p_k = kern.round_starter_wins / kern.rounds
    se_p = math.sqrt(p_k * (1 - p_k) * (1 / ref.rounds + 1 / kern.rounds))
    assert abs(p_ref - p_k) < 6 * se_p


# -- records ----------------------------------------------------------------------------------

@pytest.mark.numba_compile
def test_records_are_written_per_match_and_the_totals_stay_the_same(tmp_path: Path) -> None:
    bots = ["kid", "counter"]
    stats = fast.play_chunk(HEAVY, bots, 4, 20, 5, records=tmp_path)
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [f"match-4-{i:07d}.trash.json" for i in range(20, 25)]
    record = load(tmp_path / "match-4-0000022.trash.json")
    assert record == fast.match_record(HEAVY, bots, 4, 22)
    assert record.players == ("bot:kid", "bot:counter")
    assert record.replay().match_winner is not None
    assert _plain(stats) == _plain(fast.play_chunk(HEAVY, bots, 4, 20, 5))


@pytest.mark.numba_compile
def test_traced_match_tells_its_statistics() -> None:
    match = fast.play_traced(STANDARD, ["greedy", "greedy"], 8, 3)
    assert match.stats.matches == 1
    assert match.stats.rounds == match.rounds == sum(match.rounds_won)
    assert match.stats.wins[match.winner] == 1
    assert match.rounds_won[match.winner] == STANDARD.target_rounds


def test_values_beyond_the_histograms_are_counted_exactly() -> None:
    acc = fast.Accumulators(2, 2)
    acc.acc[:, layout.A_ROUNDS] = 1
    acc.overflow[0, 0] = (0, 5000)
    acc.overflow[1, 0] = (0, 5000)
    acc.overflow[1, 1] = (1, 400)
    acc.acc[0, layout.A_OVERFLOW] = 1
    acc.acc[1, layout.A_OVERFLOW] = 2
    acc.turns[0, 7] = 1
    acc.drain()
    assert acc.acc[:, layout.A_OVERFLOW].tolist() == [0, 0]
    acc.overflow[0, 0] = (0, 6000)
    acc.acc[0, layout.A_OVERFLOW] = 1
    stats = acc.stats()
    assert stats.turns_hist == {7: 1, 5000: 2, 6000: 1}
    assert stats.rounds_hist == {400: 1}
    acc.acc[1, layout.A_ERROR] = 1
    with pytest.raises(RuntimeError, match="out-of-range"):
        acc.stats()


# -- stuck rounds -----------------------------------------------------------------------------

NO_WILDS_ONE_PACK = STANDARD.with_fields({"wild_ranks": [], "decks": 1})


def _stuck(rules: Rules, boards: list[tuple[int, int]], discard: str) -> bool:
    """The kernel's stuck test; a board is (face-down slots, slots holding a wild)."""
    table = Table.of(rules, len(boards))
    st = np.zeros(table.width, dtype=np.int32)
    ids = [table.cards.index(card) for card in parse_cards(discard)]
    at = layout.discard_at(len(table.cards))
    st[at: at + len(ids)] = ids
    for seat, (down, wilds) in enumerate(boards):
        st[layout.O_DOWN + seat] = down
        st[layout.O_WILD + seat] = wilds
    return bool(game.stuck(table.tab, st, at, len(ids), len(boards)))


@pytest.mark.numba_compile
def test_stuck_means_no_card_of_the_discard_pile_fits_any_board() -> None:
    """As the engine's example (tests/core, §5.4): slot 10 face down on both boards."""
    rules = Rules(wild_ranks=())
    slot_10 = [(1 << 9, 0), (1 << 9, 0)]
    assert _stuck(rules, slot_10, "As 2s Jd Qd Kd")
    assert not _stuck(rules, slot_10, "As 2s Td Qd Kd")  # Td fits both boards
    assert not _stuck(rules, [(0, 0), (1 << 1, 0)], "Kd 2d")  # 2d fits the second board
    jokers = Rules(wild_ranks=(), jokers_per_deck=1)
    assert not _stuck(jokers, slot_10, "As Jd X1")  # a wild fits a face-down slot
    assert _stuck(jokers, [(0, 0), (0, 0)], "X1")  # … and only one
    assert not _stuck(jokers, [(0, 1), (1 << 9, 0)], "Kd As")  # As takes slot 1's wild


@pytest.mark.numba_compile
def test_a_stuck_round_ends_with_no_winner_and_no_reshuffle() -> None:
    """Four boards, one pack, no wild card: a needed card can lie face down where only
    another needed card could free it. When the stock runs out and nothing in the discard
    pile fits any board, the round ends with no winner: the record's next move is the
    next round's deck (dealt by the next seat, boards as before), and the round counts
    as a round with its turns but no winner, in bulk as traced."""
    bots = ["greedy", "random", "kid", "stockonly"]
    bulk = fast.play_chunk(NO_WILDS_ONE_PACK, bots, 0, 0, 200)
    assert bulk.matches == 200 == sum(bulk.wins)
    assert bulk.rounds == sum(bulk.turns_hist.values())
    assert bulk.decided_rounds == sum(bulk.round_wins) < bulk.rounds
    traced = [fast.play_traced(NO_WILDS_ONE_PACK, bots, 0, index) for index in range(200)]
    assert _plain(sum((match.stats for match in traced), SimStats(4))) == _plain(bulk)

    match = next(match for match in traced if match.stats.decided_rounds < match.rounds)
    record = match.record
    voids = 0
    dealt: list[Dealt] = []
    for number, (_state, events) in enumerate(record.steps()):
        dealt += [event for event in events if isinstance(event, Dealt)]
        if any(isinstance(event, RoundVoid) for event in events):
            voids += 1
            assert record.moves[number].move == STOCK
            assert isinstance(record.moves[number + 1].move, Deck)
            void_dealt = dealt[-1]
    assert voids == match.rounds - match.stats.decided_rounds
    after = dealt[dealt.index(void_dealt) + 1]
    assert after.dealer == (void_dealt.dealer + 1) % 4
    assert after.sizes == void_dealt.sizes


# -- refusals ---------------------------------------------------------------------------------

def test_unknown_bots_and_bad_tables_are_refused() -> None:
    with pytest.raises(ValueError, match="no bot 'nobody'"):
        fast.play_chunk(STANDARD, ["greedy", "nobody"], 0, 0, 1)
    with pytest.raises(RulesError, match="players"):
        fast.play_chunk(STANDARD, ["greedy"] * 5, 0, 0, 1)
    with pytest.raises(ValueError, match="count"):
        fast.play_chunk(STANDARD, ["greedy"] * 2, 0, 0, -1)
