"""Room at the top: the strongest agent at hand (the expert, at its default search or a
deeper one) against ``greedy`` in a chosen setting, in duplicate matches, with its 95 %
interval; the search behind docs/leaderboard.md ("A setting with room at the top").

    python benchmarks/room_at_the_top.py call-trash 2 300 --seed 0
    python benchmarks/room_at_the_top.py call-trash 2 150 --seed 2 --samples 256

Arguments: preset, players, deals (each played at every seat). Prints one JSON line: the
win rate against greedy, its interval, the fair share, the matches, the wall time and the
machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import time

from trashcards.ai.expert import DEFAULT_SAMPLES, ExpertBot
from trashcards.arena import Agent, rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("preset")
    parser.add_argument("players", type=int)
    parser.add_argument("deals", type=int)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES,
                        help="deals the expert plays out per decision")
    args = parser.parse_args()
    samples = args.samples
    agent = Agent(f"expert-{samples}", bot=lambda rng: ExpertBot(rng, samples=samples))
    began = time.perf_counter()
    rating = rate(agent, matches=args.deals * args.players, expert_matches=0,
                  opponents=["good"], preset=args.preset, players=args.players,
                  seed=args.seed)
    est = rating.vs["good"].estimate
    print(json.dumps({"agent": f"expert samples={samples}", "preset": args.preset,
                      "players": args.players, "seed": args.seed, "win": est.value,
                      "ci": [est.low, est.high], "fair": 1 / args.players,
                      "matches": est.n, "seconds": round(time.perf_counter() - began, 1),
                      "load": round(os.getloadavg()[0], 1)}))


if __name__ == "__main__":
    main()
