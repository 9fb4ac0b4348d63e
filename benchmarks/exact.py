"""How long an exact answer takes: small two-player boards, positions reached by play.

Run from a checkout::

    python benchmarks/exact.py                  # 240 positions, each in a fresh process
    python benchmarks/exact.py --positions 60   # quicker
    python benchmarks/exact.py --json out.json  # also write the figures
    python benchmarks/exact.py --boundary       # how far exactness reaches on larger boards

It deals rounds of every pair of board sizes up to 3 + 3 under the presets standard,
kings-wild, kids, jokers and all-faces-wild, lets greedy or kid play them (seeded), and
picks a decision with a choice at random. Each position is then answered

* **cold**: in a fresh Python process (the package imported, nothing else loaded: the
  shipped table is read by the call), timing ``exact_solution`` — every legal action's
  exact values — and the hint's whole exact comparison (``compare`` with its defaults:
  the solver, the match-odds table, the standard play);
* **warm**: all in one process, one after the other (the tables loaded once, every
  answer computed afresh).

The values are timed in wall-clock and CPU time (the CPU time of one process moves less
with the machine's load).

With ``--boundary`` it instead plays rounds of larger boards (standard rules, greedy)
and reports, by pair of sizes, the share of decisions answered exactly (no table: at
most ``UNTABLED`` types, whatever the budget) and how long an answer (or a refusal)
takes.

It prints p50, p99 and the maximum of each, the types the solver computed, and, as the
baseline of the same run, the reference solver (``trashcards.ai.solver``) on boards of
2 + 1 from the deal without symmetry (108,028 nodes; the baseline of
benchmarks/solver.py), each figure also as a ratio to it, so the numbers hold on a
machine shared with other work. Note the load (``uptime``) beside the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from quantiles import percentile
from trashcards import Rules, apply, sample_chance, view
from trashcards.ai.compare import compare
from trashcards.ai.exact import BUDGET, clear_cache, exact_solution
from trashcards.ai.exact_calls import solve_position
from trashcards.ai.exact_solver import RoundSolver, position_of
from trashcards.ai.exact_tables import load_table
from trashcards.ai.odds import round_start
from trashcards.ai.solver import Solver
from trashcards.bots import make_bot
from trashcards.state import Phase
from trashcards.views import View

PRESETS = ("standard", "kings-wild", "kids", "jokers", "all-faces-wild")
SIZES = tuple((a, b) for a in (1, 2, 3) for b in (1, 2, 3))


def positions(count: int, seed: int = 0) -> list[View]:
    """``count`` decisions with a choice (two legal actions or more: what a hint is
    asked about) of rounds played by greedy or kid (two-player, boards up to 3 + 3,
    before any reshuffle), one per round, every preset and pair of sizes in turn."""
    rng = random.Random(seed)
    found: list[View] = []
    index = 0
    while len(found) < count:
        preset = PRESETS[index % len(PRESETS)]
        sizes = SIZES[(index // len(PRESETS)) % len(SIZES)]
        index += 1
        rules = Rules.preset_named(preset)
        state = round_start(rules, sizes)
        state = apply(state, sample_chance(state, rng))[0]
        bots = [make_bot(rng.choice(("greedy", "kid")), random.Random(rng.random()))
                for _ in range(2)]
        seen = []
        while state.to_act is not None:
            v = view(state, state.to_act)
            if v.stock_known is None and len(v.legal) > 1:
                seen.append(v)
            state = apply(state, bots[state.to_act].choose(v))[0]
            while state.phase is Phase.CHANCE:
                state = apply(state, sample_chance(state, rng))[0]
        if seen:
            found.append(rng.choice(seen))
    return found


def answer(v: View) -> dict[str, Any]:
    """Time one answer: the exact values, then the hint's exact comparison."""
    clear_cache()
    began, cpu = time.perf_counter(), time.process_time()
    solution = exact_solution(v)
    values = time.perf_counter() - began
    values_cpu = time.process_time() - cpu
    comparison: float | None = None
    hinted = None
    if len(v.legal) > 1:  # a forced move is not compared
        clear_cache()
        began = time.perf_counter()
        hinted = compare(v).exact
        comparison = time.perf_counter() - began
    p = position_of(v)
    table = load_table(p.sizes, p.totals)
    solver = RoundSolver(p.sizes, p.totals, table.get if table else None, BUDGET)
    solve_position(solver, p)
    return {"sizes": list(p.sizes), "preset": v.rules.preset, "exact": solution is not None,
            "hint_exact": hinted, "values_ms": values * 1000,
            "values_cpu_ms": values_cpu * 1000,
            "comparison_ms": None if comparison is None else comparison * 1000,
            "types": solver.computed}


def _child() -> None:
    """A fresh process: answer the pickled view on stdin, print the figures."""
    v = pickle.loads(sys.stdin.buffer.read())
    print(json.dumps(answer(v)))


def baseline() -> float:
    """Seconds of the reference solver on 2 + 1 from the deal, without symmetry."""
    rules = Rules.preset_named("standard")
    state = round_start(rules, (2, 1))
    state = apply(state, sample_chance(state, random.Random(0)))[0]
    v = view(state, state.to_act)
    solver = Solver(rules, (2, 1), symmetry=False)
    began = time.perf_counter()
    solver.solve(solver.key_of(v))
    return time.perf_counter() - began


def quantiles(values: list[float]) -> dict[str, float]:
    return {"p50": percentile(values, 0.5), "p99": percentile(values, 0.99),
            "max": max(values)}


BOUNDARY_SIZES = ((4, 1), (4, 2), (4, 3), (4, 4), (5, 5), (6, 6), (10, 10))


def boundary(rounds: int, seed: int) -> dict[str, Any]:
    """The share of decisions answered exactly on larger boards, by budget."""
    rules = Rules.preset_named("standard")
    figures: dict[str, Any] = {}
    for sizes in BOUNDARY_SIZES:
        rng = random.Random(seed)
        views = []
        for _ in range(rounds):
            state = round_start(rules, sizes)
            state = apply(state, sample_chance(state, rng))[0]
            bots = [make_bot("greedy", random.Random(rng.random())) for _ in range(2)]
            while state.to_act is not None:
                v = view(state, state.to_act)
                if v.stock_known is None:
                    views.append(v)
                state = apply(state, bots[state.to_act].choose(v))[0]
                while state.phase is Phase.CHANCE:
                    state = apply(state, sample_chance(state, rng))[0]
        row: dict[str, Any] = {"positions": len(views)}
        for budget in (BUDGET,):  # the most any answer without a table gets (UNTABLED)
            clear_cache()
            times, exact = [], 0
            for v in views:
                began = time.perf_counter()
                exact += exact_solution(v, budget) is not None
                times.append((time.perf_counter() - began) * 1000)
            row[str(budget)] = {"exact": exact, "ms": quantiles(times)}
            q = row[str(budget)]["ms"]
            print(f"boards {sizes[0]} + {sizes[1]}, budget {budget:,} types: exact "
                  f"{exact} of {len(views)} decisions ({100 * exact / len(views):.0f} %); "
                  f"ms p50 {q['p50']:.1f} p99 {q['p99']:.1f} max {q['max']:.1f}", flush=True)
        figures[f"{sizes[0]}x{sizes[1]}"] = row
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=240)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boundary", action="store_true",
                        help="the share of exact answers on larger boards instead")
    parser.add_argument("--rounds", type=int, default=6,
                        help="rounds per pair of sizes with --boundary")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    if args.boundary:
        print(f"load {os.getloadavg()[0]:.1f}")
        found = boundary(args.rounds, args.seed)
        if args.json:
            args.json.write_text(json.dumps(found, indent=2), encoding="utf-8")
        return
    views = positions(args.positions, args.seed)
    base = baseline()
    print(f"baseline: reference solver, boards 2 + 1 from the deal: {base:.2f} s; "
          f"load {os.getloadavg()[0]:.1f}", flush=True)
    cold = []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)}
    for v in views:
        done = subprocess.run([sys.executable, __file__, "--child"], input=pickle.dumps(v),
                              capture_output=True, check=False, env=env)
        if done.returncode:
            sys.exit(done.stderr.decode())
        cold.append(json.loads(done.stdout))
    warm = [answer(v) for v in views]
    figures: dict[str, Any] = {"positions": len(views), "baseline_s": base,
                               "load": os.getloadavg()[0]}
    for name, rows in (("cold", cold), ("warm", warm)):
        for column in ("values_ms", "values_cpu_ms", "comparison_ms"):
            q = quantiles([r[column] for r in rows if r[column] is not None])
            figures[f"{name}_{column}"] = q
            print(f"{name:4} {column:13}: p50 {q['p50']:6.1f}  p99 {q['p99']:6.1f}  "
                  f"max {q['max']:6.1f} ms  (max/baseline {q['max'] / 1000 / base:.3f})")
    types = quantiles([float(r["types"]) for r in warm])
    figures["types"] = types
    exact = sum(r["exact"] for r in warm)
    hinted = sum(bool(r["hint_exact"]) for r in cold)
    figures["exact"], figures["hint_exact"] = exact, hinted
    print(f"types computed: p50 {types['p50']:.0f}, p99 {types['p99']:.0f}, max "
          f"{types['max']:.0f}; exact {exact} of {len(views)}, hint exact {hinted} of "
          f"{sum(r['hint_exact'] is not None for r in cold)} with a choice; "
          f"load {figures['load']:.1f}")
    if args.json:
        figures["rows"] = {"cold": cold, "warm": warm}
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        _child()
    else:
        main()
