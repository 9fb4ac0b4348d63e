"""The runner: seeded chunks add up to the same totals however the work is split."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from trashcards.rules import Rules
from trashcards.sim import runner
from trashcards.sim.runner import Chunk, Runner, batch_bounds, choose_engine, plan_chunks, run
from trashcards.simulation import SimStats, play_chunk

KIDS = Rules.preset_named("kids")
BOTS = ("greedy", "kid", "counter")
FAST = runner.fast_engine_problem() is None
needs_fast = pytest.mark.skipif(not FAST, reason="the fast engine (sim extra) is not installed")


def totals(stats: SimStats) -> dict[str, Any]:
    data = stats.to_json()
    data.pop("elapsed_s")
    return data


def test_plan_chunks_covers_every_match_once_and_never_straddles_a_batch() -> None:
    chunks = list(plan_chunks(103, 10, batches=4))
    indices = [i for c in chunks for i in range(c.start, c.start + c.count)]
    assert indices == list(range(103))
    bounds = batch_bounds(103, 4)
    assert [count for _, count in bounds] == [25, 26, 26, 26]
    for chunk in chunks:
        first, count = bounds[chunk.batch]
        assert first <= chunk.start
        assert chunk.start + chunk.count <= first + count
    assert all(1 <= c.count <= 10 for c in chunks)
    assert list(plan_chunks(5, 10)) == [Chunk(0, 0, 5)]


def test_plan_chunks_refuses_empty_chunks() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        list(plan_chunks(5, 0))


def test_reference_totals_do_not_depend_on_chunks_or_workers() -> None:
    expected = totals(play_chunk(KIDS, BOTS, 11, 0, 12))
    assert expected["matches"] == 12
    for workers, chunk_size in ((1, 1), (1, 5), (2, 1), (2, 7), (2, None)):
        stats = run(KIDS, BOTS, 12, 11, engine="reference", workers=workers,
                    chunk_size=chunk_size)
        assert totals(stats) == expected, (workers, chunk_size)


def test_a_different_seed_gives_different_totals() -> None:
    one = run(KIDS, BOTS, 12, 1, engine="reference", workers=1)
    two = run(KIDS, BOTS, 12, 2, engine="reference", workers=1)
    assert totals(one) != totals(two)


@needs_fast
@pytest.mark.numba_compile
def test_fast_totals_do_not_depend_on_chunks_or_threads() -> None:
    rules = Rules.preset_named("standard")
    expected = totals(run(rules, ("greedy", "kid"), 3000, 5, engine="fast", chunk_size=3000))
    for workers, chunk_size in ((1, 1), (1, 701), (2, 1000), (None, None)):
        stats = run(rules, ("greedy", "kid"), 3000, 5, engine="fast", workers=workers,
                    chunk_size=chunk_size)
        assert totals(stats) == expected, (workers, chunk_size)


def test_batches_add_up_to_the_run_and_follow_the_match_indices() -> None:
    with Runner("reference", workers=2, chunk_size=2) as pool:
        batches = pool.run_batches(KIDS, BOTS, 10, 4, batches=3)
        whole = pool.run(KIDS, BOTS, 10, 4)
    assert [b.matches for b in batches] == [3, 3, 4]
    merged = batches[0] + batches[1] + batches[2]
    assert totals(merged) == totals(whole)
    assert totals(batches[2]) == totals(play_chunk(KIDS, BOTS, 4, 6, 4))


def test_progress_reports_every_match_exactly_once() -> None:
    for workers in (1, 2):
        seen: list[int] = []
        run(KIDS, BOTS, 9, 0, engine="reference", workers=workers, chunk_size=4,
            progress=seen.append)
        assert sum(seen) == 9
        assert all(n > 0 for n in seen)


def test_records_are_written_by_the_worker_processes(tmp_path: Path) -> None:
    run(KIDS, ("greedy", "random"), 5, 3, engine="reference", workers=2, chunk_size=2,
        records=tmp_path)
    names = sorted(p.name for p in tmp_path.glob("*.trash.json"))
    assert names == [f"match-3-{i:07d}.trash.json" for i in range(5)]


def test_engine_choice() -> None:
    assert choose_engine("reference").name == "reference"
    assert choose_engine(None).name == ("fast" if FAST else "reference")
    assert choose_engine(None).notice is None
    with pytest.raises(ValueError, match="unknown engine"):
        choose_engine("warp")


def test_fast_falls_back_to_the_reference_engine_when_numba_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.delitem(sys.modules, "trashcards.sim.fast", raising=False)
    choice = choose_engine("fast")
    assert choice.name == "reference"
    assert choice.notice is not None
    assert "numba" in choice.notice
    assert "pip install 'trashcards[sim]'" in choice.notice
    assert choose_engine(None) == choice
    assert choose_engine("reference").notice is None
    with pytest.warns(RuntimeWarning, match="fast engine is not available"):
        stats = run(KIDS, BOTS, 3, 0, engine="fast", workers=1)
    assert totals(stats) == totals(play_chunk(KIDS, BOTS, 0, 0, 3))


def test_runner_refuses_bad_settings() -> None:
    with pytest.raises(ValueError, match="backend"):
        Runner("reference", backend="cloud")
    with pytest.raises(ValueError, match="workers"):
        Runner("reference", workers=0)
    with pytest.raises(ValueError, match="chunk_size"):
        Runner("reference", chunk_size=0)


def test_runner_refuses_a_table_the_rules_cannot_deal() -> None:
    with Runner("reference", workers=1) as pool, pytest.raises(ValueError, match="players"):
        pool.run(KIDS, ("greedy",) * 5, 3, 0)


def test_default_chunks_keep_every_worker_busy() -> None:
    matches = 10_000_000
    for engine, backend, workers in (("reference", "local", 2), ("fast", "ray", 64),
                                     ("reference", "ray", 64)):
        size = runner.default_chunk_size(engine, backend, matches, workers)
        assert matches / size >= 4 * workers, (engine, backend)
    # the local fast engine spreads a chunk over the cores itself: few, big chunks
    assert runner.default_chunk_size("fast", "local", matches, 2) == 200_000
    assert runner.default_chunk_size("fast", "local", 10, 2) == 2_000
    assert runner.default_chunk_size("reference", "local", 10, 2) == 1
