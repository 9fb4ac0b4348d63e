"""Rollouts, batch evaluation and vector stepping on the numba kernel, against baselines
measured in the same run.

Run from a checkout with the ``sim`` extra installed::

    python benchmarks/rollouts.py            # about a minute
    python benchmarks/rollouts.py --quick    # a smoke test
    python benchmarks/rollouts.py --json out.json

It prints:

* the first call of each entry point (compile, or load from the cache);
* rollouts of the rest of a round from mid-round two-player standard positions (greedy
  bots, one thread), next to the kernel's whole-round rate of the same table: issue 12
  asks for rollouts per second per core at least that rate;
* the same rollouts from two Python threads at once (the kernel releases the GIL);
* batch evaluation (every legal action over K sampled deals, common random numbers) of
  positions where the player to act has a choice: samples × actions per second, to the
  round's end and to the match's end;
* vector stepping, N = 1024 tables, greedy opponent, a fixed masked policy for the agent,
  autoreset: agent steps per second, next to the kernel's whole-match decisions per
  second and the rules engine's decisions per second (``apply`` with a view per
  decision), both measured here.

Rates are wall clock on one thread unless said; the CPU time is shown too, since this
machine is shared.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

from trashcards.actions import Action
from trashcards.rules import Rules
from trashcards.session import play_match
from trashcards.sim import fast, rollouts
from trashcards.sim.vector import VectorTables
from trashcards.simulation import match_rngs
from trashcards.state import Phase, State
from trashcards.views import view

STANDARD = Rules.preset_named("standard")
#: numba's settings, typed loosely (they are set at import time)
NUMBA_CONFIG: Any = numba.config
BOTS = ["greedy", "greedy"]


def timed(work: Callable[[], Any]) -> tuple[float, float, Any]:
    """Wall and CPU seconds of ``work()``, and its result."""
    wall, cpu = time.perf_counter(), time.process_time()
    result = work()
    return time.perf_counter() - wall, time.process_time() - cpu, result


def mid_round_positions(count: int) -> list[State]:
    """Draw positions halfway through rounds of kernel greedy matches (the engine's
    states, replayed from the records)."""
    found: list[State] = []
    index = 0
    while len(found) < count:
        record = fast.match_record(STANDARD, BOTS, 7, index)
        index += 1
        states = [s for s, _ in record.steps()]
        rounds: dict[int, list[State]] = {}
        for state in states:
            if state.phase is Phase.DRAW and not state.called:
                rounds.setdefault(state.round, []).append(state)
        for draws in rounds.values():
            found.append(draws[len(draws) // 2])
    return found[:count]


def decision_positions(count: int) -> list[State]:
    """Positions of kernel greedy matches where the player to act has a choice (a
    playable discard, a wild to place, a swap), one per round at most."""
    found: list[State] = []
    index = 0
    while len(found) < count:
        record = fast.match_record(STANDARD, BOTS, 8, index)
        index += 1
        taken: set[int] = set()
        for state, _ in record.steps():
            if state.round not in taken and len(view(state).legal) >= 2:
                found.append(state)
                taken.add(state.round)
    return found[:count]


def first_calls(state: State) -> dict[str, float]:
    """Seconds of the first call of each entry point (compile or cache load)."""
    out = {}
    v = view(state, state.to_act)
    for name, work in (
            ("play_chunk", lambda: fast.play_chunk(STANDARD, BOTS, 0, 0, 2)),
            ("rollouts", lambda: rollouts.rollouts(state, BOTS, 2, 0)),
            ("evaluate", lambda: rollouts.evaluate(v, BOTS, 2, 0)),
            ("sample_deals", lambda: rollouts.sample_deals(v, 2, 0)),
            ("vector", lambda: _vector_once())):
        wall, _cpu, _ = timed(work)
        out[name] = wall
    return out


def _vector_once() -> None:
    tables = VectorTables(STANDARD, BOTS, 2)
    tables.reset(range(2), [0, 1])
    tables.step(tables.mask.argmax(axis=1))


def whole_rounds(matches: int) -> dict[str, float]:
    numba.set_num_threads(1)
    wall, cpu, stats = timed(lambda: fast.play_chunk(STANDARD, BOTS, 1, 0, matches))
    numba.set_num_threads(NUMBA_CONFIG.NUMBA_NUM_THREADS)
    decisions = _decisions_per_round()
    return {"rounds_per_s": stats.rounds / wall, "rounds_per_cpu_s": stats.rounds / cpu,
            "decisions_per_s": stats.rounds * decisions / wall}


def _decisions_per_round() -> float:
    record = fast.match_record(STANDARD, BOTS, 1, 0)
    actions = sum(1 for move in record.moves if isinstance(move.move, Action))
    return actions / record.replay().round


def rollout_rate(positions: list[State], per: int) -> dict[str, float]:
    def work() -> int:
        done = 0
        for i, state in enumerate(positions):
            done += len(rollouts.rollouts(state, BOTS, per, i).winners)
        return done

    wall, cpu, done = timed(work)
    return {"rollouts_per_s": done / wall, "rollouts_per_cpu_s": done / cpu}


def threaded_rollouts(positions: list[State], per: int, threads: int) -> dict[str, float]:
    """Rollouts per second (wall) with ``threads`` Python threads sharing the positions,
    and the cores the process kept busy (CPU time over wall time)."""
    def part(k: int) -> None:
        for i, state in enumerate(positions[k::threads]):
            rollouts.rollouts(state, BOTS, per, i)

    workers = [threading.Thread(target=part, args=(k,)) for k in range(threads)]
    wall, cpu = time.perf_counter(), time.process_time()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"rollouts_per_s": len(positions) * per / wall, "cores": cpu / wall}


def evaluation_rate(positions: list[State], samples: int, horizon: str) -> dict[str, float]:
    views = [view(state, state.to_act) for state in positions]

    def work() -> int:
        done = 0
        for i, v in enumerate(views):
            result = rollouts.evaluate(v, BOTS, samples, i, horizon=horizon)  # type: ignore[arg-type]
            done += result.winners.size
        return done

    wall, cpu, done = timed(work)
    return {"sample_actions_per_s": done / wall, "per_cpu_s": done / cpu,
            "ms_per_position": 1000 * wall / len(views),
            "actions_per_position": done / samples / len(views)}


def vector_rate(num_tables: int, steps: int) -> dict[str, float]:
    tables = VectorTables(STANDARD, BOTS, num_tables)
    tables.reset(range(num_tables), range(num_tables))
    priority = np.array([1, 3] + [2] * 10 + [3, 0, 0], dtype=np.int32)
    seed = num_tables

    def work() -> int:
        nonlocal seed
        done = 0
        for _ in range(steps):
            tables.step((tables.mask * priority).argmax(axis=1))
            done += num_tables - int(tables.done.sum())
            if tables.done.any():
                finished = np.flatnonzero(tables.done)
                tables.reset(finished, range(seed, seed + len(finished)))
                seed += len(finished)
        return done

    wall, cpu, done = timed(work)
    return {"agent_steps_per_s": done / wall, "agent_steps_per_cpu_s": done / cpu}


def engine_decisions(seconds: float) -> float:
    """The rules engine's decisions per second: whole greedy matches through ``apply``,
    a view per decision (the baseline of issue 10's environment benchmarks)."""
    from trashcards.bots import make_bot

    decisions = 0
    began = time.perf_counter()
    index = 0
    while time.perf_counter() - began < seconds:
        chance, rngs = match_rngs(1, index, 2)
        index += 1
        players = [make_bot(name, rng) for name, rng in zip(BOTS, rngs, strict=True)]
        result = play_match(STANDARD, ["a", "b"], players, chance)
        decisions += sum(1 for move in result.record.moves if isinstance(move.move, Action))
    return decisions / (time.perf_counter() - began)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small runs, for a smoke test")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    quick = args.quick
    positions = mid_round_positions(40 if quick else 200)
    numba.set_num_threads(1)
    figures: dict[str, Any] = {"first_call_s": first_calls(positions[0])}
    print("first call (compile or cache load), s:",
          ", ".join(f"{k} {v:.2f}" for k, v in figures["first_call_s"].items()))

    whole = whole_rounds(20_000 if quick else 200_000)
    roll = rollout_rate(positions, 500 if quick else 5000)
    figures |= {"whole_round": whole, "rollouts": roll}
    print(f"2p standard greedy, one thread: whole rounds {whole['rounds_per_s']:,.0f}/s "
          f"({whole['rounds_per_cpu_s']:,.0f}/cpu-s)")
    print(f"  rollouts of the rest of a round from {len(positions)} mid-round positions: "
          f"{roll['rollouts_per_s']:,.0f}/s ({roll['rollouts_per_cpu_s']:,.0f}/cpu-s); "
          f"ratio to whole rounds {roll['rollouts_per_s'] / whole['rounds_per_s']:.2f} "
          f"(cpu {roll['rollouts_per_cpu_s'] / whole['rounds_per_cpu_s']:.2f})")
    per = 5000 if quick else 50_000
    one = threaded_rollouts(positions[:20], per, 1)
    two = threaded_rollouts(positions[:20], per, 2)
    figures["threads"] = {"one": one, "two": two}
    print(f"  from Python threads: 1 thread {one['rollouts_per_s']:,.0f}/s "
          f"({one['cores']:.2f} cores busy), 2 threads {two['rollouts_per_s']:,.0f}/s "
          f"({two['cores']:.2f} cores busy: the GIL is released)")

    choices = decision_positions(20 if quick else 100)
    for horizon, samples in (("round", 200 if quick else 1000), ("match", 20 if quick else 100)):
        ev = evaluation_rate(choices, samples, horizon)
        figures[f"evaluate_{horizon}"] = ev
        print(f"evaluate, {samples} samples × every legal action "
              f"({ev['actions_per_position']:.2f} on average), to the {horizon}'s end: "
              f"{ev['sample_actions_per_s']:,.0f} samples×actions/s "
              f"({ev['per_cpu_s']:,.0f}/cpu-s), {ev['ms_per_position']:.1f} ms a position")

    steps = 200 if quick else 2000
    vec = vector_rate(1024, steps)
    ref = engine_decisions(1.0 if quick else 5.0)
    figures |= {"vector": vec, "engine_decisions_per_s": ref}
    print(f"vector stepping, N=1024, greedy opponent, autoreset: "
          f"{vec['agent_steps_per_s']:,.0f} agent steps/s "
          f"({vec['agent_steps_per_cpu_s']:,.0f}/cpu-s)")
    print(f"  baselines in this run: kernel whole matches {whole['decisions_per_s']:,.0f} "
          f"decisions/s ({vec['agent_steps_per_s'] / whole['decisions_per_s']:.2f}×); "
          f"rules engine {ref:,.0f} decisions/s "
          f"({vec['agent_steps_per_s'] / ref:,.0f}×)")
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
