"""The exact solver: how long a round from the deal takes, by board sizes.

Run from a checkout::

    python benchmarks/solver.py                    # 1+1, 2+1, 2+2 from the deal (~10 s)
    python benchmarks/solver.py --sizes 3x3        # the largest: 3+3 (~5 min, 1.6 GB)
    python benchmarks/solver.py --json out.json    # also write the figures

For each pair of board sizes it deals a two-player standard round (seed 0), solves the
first decision from scratch with a fresh solver (bounds after reshuffles, the default),
and prints the nodes solved, the post-reshuffle positions bounded, the time, and whether
the value came out exact. The baseline, in the same run, is the plain solver (no
symmetry) on boards of 2 + 1 from the same deal; each time is also given as a ratio to
it, so the figures hold on a machine shared with other work.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

from trashcards import Rules, apply, sample_chance, view
from trashcards.ai.odds import round_start
from trashcards.ai.solver import Solver

STANDARD = Rules.preset_named("standard")


def solve_from_deal(sizes: tuple[int, int], symmetry: bool = True) -> dict[str, Any]:
    state = round_start(STANDARD, sizes)
    state = apply(state, sample_chance(state, random.Random(0)))[0]
    v = view(state, state.to_act)
    solver = Solver(STANDARD, sizes, symmetry=symmetry)
    began = time.perf_counter()
    solution = solver.solve(solver.key_of(v))
    seconds = time.perf_counter() - began
    return {"sizes": list(sizes), "nodes": solver.stats.nodes,
            "bounded": solver.stats.bounded, "seconds": seconds,
            "exact": solution.exact, "error": solution.error,
            "value": solution.best.values[solution.seat]}


def _sizes(text: str) -> tuple[int, int]:
    a, _, b = text.partition("x")
    return int(a), int(b)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", default=["1x1", "2x1", "2x2"],
                        help="board sizes as AxB (default: 1x1 2x1 2x2)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args()
    baseline = solve_from_deal((2, 1), symmetry=False)
    print(f"baseline: plain solver, boards 2 + 1 from the deal: {baseline['nodes']:,} "
          f"nodes in {baseline['seconds']:.2f} s")
    rows = []
    for text in args.sizes:
        row = solve_from_deal(_sizes(text))
        row["ratio"] = row["seconds"] / baseline["seconds"]
        rows.append(row)
        a, b = row["sizes"]
        print(f"boards {a} + {b} from the deal: {row['nodes']:,} nodes "
              f"({row['bounded']:,} post-reshuffle positions bounded), "
              f"{row['seconds']:.2f} s ({row['ratio']:.1f}x baseline), "
              + ("exact" if row["exact"] else f"error {row['error']:.2g}")
              + f", value {row['value']:.6f}", flush=True)
    if args.json:
        args.json.write_text(json.dumps({"baseline": baseline, "rows": rows}, indent=2),
                             encoding="utf-8")


if __name__ == "__main__":
    main()
