"""The Ray backend on a local Ray of 2 CPUs: the same totals as the local backend."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest

from trashcards.rules import Rules
from trashcards.sim.runner import Runner, fast_engine_problem
from trashcards.simulation import SimStats

ray = pytest.importorskip("ray")

ENGINES = ["reference"] + (["fast"] if fast_engine_problem() is None else [])


def totals(stats: SimStats) -> dict[str, Any]:
    data = stats.to_json()
    data.pop("elapsed_s")
    return data


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.usefixtures("local_ray")
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.numba_compile
def test_ray_totals_equal_the_local_backends(engine: str) -> None:
    rules = Rules.preset_named("kids").with_fields({"call_trash": True})
    bots = ("greedy", "counter", "kid")
    matches = 40 if engine == "reference" else 5000
    with Runner(engine, "local", workers=1) as local:
        expected = totals(local.run(rules, bots, matches, 21))
    for chunk_size in (3, matches // 4 + 1):
        seen: list[int] = []
        with Runner(engine, "ray", chunk_size=chunk_size) as remote:
            assert remote.backend == "ray"
            got = remote.run(rules, bots, matches, 21, progress=seen.append)
        assert totals(got) == expected
        assert sum(seen) == matches
    assert ray.is_initialized(), "a runner must not shut down a Ray it did not start"


@pytest.mark.usefixtures("local_ray")
@pytest.mark.numba_compile
def test_ray_tasks_play_a_bot_registered_from_above_the_bots() -> None:
    """A Ray worker does not share this process's bots registry: each task imports the
    module that registered the expert (trashcards.ai.expert) before playing it."""
    import trashcards.ai  # noqa: F401  (registers the expert here)

    rules = Rules.preset_named("kids").with_fields({"rounds_to_win": 1})
    with Runner("reference", "local", workers=1) as local:
        expected = totals(local.run(rules, ("expert", "greedy"), 2, 5))
    with Runner("reference", "ray", chunk_size=1) as remote:
        assert totals(remote.run(rules, ("expert", "greedy"), 2, 5)) == expected


@pytest.mark.usefixtures("local_ray")
@pytest.mark.slow
def test_ray_batches_equal_the_local_batches() -> None:
    rules = Rules.preset_named("classic")
    with Runner("reference", "local", workers=2, chunk_size=2) as local, \
            Runner("reference", "ray", chunk_size=3) as remote:
        here = local.run_batches(rules, ("greedy", "random"), 30, 8, batches=4)
        there = remote.run_batches(rules, ("greedy", "random"), 30, 8, batches=4)
    assert [totals(s) for s in here] == [totals(s) for s in there]


@pytest.mark.slow
def test_simulate_with_a_local_ray_prints_the_local_totals() -> None:
    args = [sys.executable, "-m", "trashcards", "simulate", "--bots", "greedy,kid",
            "--matches", "30", "--seed", "4", "--preset", "kids", "--engine", "reference",
            "--json"]
    local = subprocess.run(args, capture_output=True, text=True, timeout=300, check=True)
    remote = subprocess.run([*args, "--backend", "ray", "--workers", "2"],
                            capture_output=True, text=True, timeout=300, check=True)
    first, second = json.loads(local.stdout), json.loads(remote.stdout)
    first.pop("elapsed_s")
    second.pop("elapsed_s")
    assert first == second
    assert first["matches"] == 30
