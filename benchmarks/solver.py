"""The exact solvers: how long a round from the deal takes, by board sizes.

Run from a checkout::

    python benchmarks/solver.py                    # 1+1, 2+1, 2+2 from the deal (~10 s)
    python benchmarks/solver.py --sizes 3x3        # the largest: 3+3 (~5 min, 1.6 GB)
    python benchmarks/solver.py --fast-only --sizes 3x3 3x2   # the fast solver alone
    python benchmarks/solver.py --json out.json    # also write the figures

For each pair of board sizes it deals a two-player standard round (seed 0) and solves
the first decision from scratch: with the reference solver (``trashcards.ai.solver``, a
fresh one, bounds after reshuffles) — the nodes solved, the post-reshuffle positions
bounded, the time, whether the value came out exact — and with the fast solver
(``trashcards.ai.exact_solver``, no table): the types it computed, the time, and the
reference's nodes per second of its time (the speed-up, in the reference's units). The
baseline, in the same run, is the plain reference solver (no symmetry) on boards of
2 + 1 from the same deal; each time is also given as a ratio to it, so the figures hold
on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from trashcards import Rules, apply, sample_chance, view
from trashcards.ai.exact_solver import RoundSolver, position_of, solve_position
from trashcards.ai.odds import round_start
from trashcards.ai.solver import Solver

STANDARD = Rules.preset_named("standard")


def solve_from_deal(sizes: tuple[int, int], symmetry: bool = True) -> dict[str, Any]:
    v = _dealt(sizes)
    solver = Solver(STANDARD, sizes, symmetry=symmetry)
    began = time.perf_counter()
    solution = solver.solve(solver.key_of(v))
    seconds = time.perf_counter() - began
    return {"sizes": list(sizes), "nodes": solver.stats.nodes,
            "bounded": solver.stats.bounded, "seconds": seconds,
            "exact": solution.exact, "error": solution.error,
            "value": solution.best.values[solution.seat]}


def _dealt(sizes: tuple[int, int]) -> Any:
    state = round_start(STANDARD, sizes)
    state = apply(state, sample_chance(state, random.Random(0)))[0]
    return view(state, state.to_act)


def fast_from_deal(sizes: tuple[int, int]) -> dict[str, Any]:
    """The fast solver, no shipped table, on the same first decision."""
    p = position_of(_dealt(sizes))
    solver = RoundSolver(p.sizes, p.totals)
    began = time.perf_counter()
    solution = solve_position(solver, p)
    seconds = time.perf_counter() - began
    return {"sizes": list(sizes), "types": solver.computed, "seconds": seconds,
            "exact": solution.exact, "value": solution.best.values[solution.seat]}


def _sizes(text: str) -> tuple[int, int]:
    a, _, b = text.partition("x")
    return int(a), int(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["1x1", "2x1", "2x2"],
                        help="board sizes as AxB (default: 1x1 2x1 2x2)")
    parser.add_argument("--fast-only", action="store_true",
                        help="skip the reference solver (minutes on boards of 3 + 3)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    baseline = solve_from_deal((2, 1), symmetry=False)
    print(f"baseline: plain solver, boards 2 + 1 from the deal: {baseline['nodes']:,} "
          f"nodes in {baseline['seconds']:.2f} s")
    rows = []
    for text in args.sizes:
        a, b = _sizes(text)
        row: dict[str, Any] = {"sizes": [a, b]}
        if not args.fast_only:
            row = solve_from_deal((a, b))
            row["ratio"] = row["seconds"] / baseline["seconds"]
            print(f"boards {a} + {b} from the deal: {row['nodes']:,} nodes "
                  f"({row['bounded']:,} post-reshuffle positions bounded), "
                  f"{row['seconds']:.2f} s ({row['ratio']:.1f}x baseline), "
                  + ("exact" if row["exact"] else f"error {row['error']:.2g}")
                  + f", value {row['value']:.6f}, {row['nodes'] / row['seconds']:,.0f} "
                  "nodes/s", flush=True)
        fast = fast_from_deal((a, b))
        fast["ratio"] = fast["seconds"] / baseline["seconds"]
        row["fast"] = fast
        rows.append(row)
        speed = (f", {row['nodes'] / fast['seconds']:,.0f} reference nodes/s "
                 f"({row['seconds'] / fast['seconds']:.0f}x)") if "nodes" in row else ""
        print(f"  fast solver: {fast['types']:,} types, {fast['seconds']:.2f} s "
              f"({fast['ratio']:.2f}x baseline), "
              + ("exact" if fast["exact"] else "not exact")
              + f", value {fast['value']:.6f}{speed}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"baseline": baseline, "rows": rows}, indent=2),
                             encoding="utf-8")


if __name__ == "__main__":
    main()
