"""How often the ratings of bots of known strength land on the levels' Elo: the
calibration of :mod:`trashcards.players.calibration` over many seeds.

    python benchmarks/ratings.py --games 1000 --seeds 40

prints, per level, how many of the seeds' final 95 % intervals hold the level's Elo
(about 95 % if the ratings are calibrated), the mean final rating and deviation, and
the seconds taken.
"""

from __future__ import annotations

import argparse
import statistics
import time

from trashcards.ai.levels import level_named
from trashcards.players.calibration import CALIBRATED, simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seeds", type=int, default=40)
    args = parser.parse_args()
    began = time.perf_counter()
    runs = [simulate(args.games, seed) for seed in range(args.seeds)]
    print(f"{args.seeds} seeds x {args.games} games, {time.perf_counter() - began:.0f} s")
    print("level     Elo    inside  mean rating  mean RD  mean |error|")
    for name in CALIBRATED:
        elo = level_named(name).elo
        finals = [run[name] for run in runs]
        inside = sum(r.interval()[0] <= elo <= r.interval()[1] for r in finals)
        print(f"{name:9} {elo:6.0f} {inside:3}/{len(finals):<3} "
              f"{statistics.mean(r.rating for r in finals):10.0f} "
              f"{statistics.mean(r.rd for r in finals):8.1f} "
              f"{statistics.mean(abs(r.rating - elo) for r in finals):10.1f}")


if __name__ == "__main__":
    main()
