"""The leaderboard of docs/leaderboard.md: every built-in bot and shipped agent in the arena.

Each agent is rated exactly as ``trashcards arena NAME --matches M --expert-matches E``
rates it (two players, standard rules, seed 0), and the learned agent is also measured
head to head against ``greedy`` per preset and table size (``trashcards arena learned
--preset P --players N --expert-matches 0``, against ``good`` only: its win rate against
the greedy bot, beside the fair share 1/N). Prints the Markdown tables and writes every figure as
JSON to ``--out``.

    python benchmarks/leaderboard.py --out docs/leaderboard.json
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from trashcards.arena import rate
from trashcards.bots import BOTS

PRESETS = ("standard", "kids", "jokers", "all-faces-wild", "call-trash")


def pct(est: Any) -> str:
    return f"{est.value:.1%} [{est.low:.1%}, {est.high:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000, help="matches per opponent")
    parser.add_argument("--expert-matches", type=int, default=32,
                        help="matches against the expert (it searches: slow)")
    parser.add_argument("--slow-matches", type=int, default=400,
                        help="--matches for agents that decide in Python (lowwild, endblind)")
    parser.add_argument("--expert-agent-matches", type=int, default=32,
                        help="--matches for the expert as the agent (it searches: slow)")
    parser.add_argument("--bots", default=",".join(["learned", *(b for b in BOTS
                                                                 if b != "learned")]),
                        help="the agents, comma-separated")
    parser.add_argument("--head-to-head", type=int, default=2000,
                        help="matches of learned v greedy per preset and table size (0: none)")
    parser.add_argument("--out", type=Path, required=True, help="the JSON file")
    args = parser.parse_args()
    kernel = {"random", "greedy", "counter", "kid", "sometimes", "stockonly", "learned"}
    figures: dict[str, Any] = {"settings": vars(args) | {"out": str(args.out)}, "agents": {},
                               "learned_v_greedy": {}}
    rows = []
    for name in args.bots.split(","):
        matches = (args.matches if name in kernel else args.expert_agent_matches
                   if name == "expert" else args.slow_matches)
        began = time.perf_counter()
        rating = rate(name, matches=matches, expert_matches=args.expert_matches)
        seconds = time.perf_counter() - began
        data = rating.to_json()
        data["command"] = (f"trashcards arena {name} --matches {matches} "
                           f"--expert-matches {args.expert_matches}")
        data["seconds"] = round(seconds, 1)
        figures["agents"][name] = data
        assert rating.elo is not None
        assert rating.elo_ci is not None
        lo, hi = rating.elo_ci
        rows.append((rating.elo, f"| `{name}` | {rating.elo:.0f} ({lo:.0f}–{hi:.0f}) | "
                     + " | ".join(pct(rating.vs[k].estimate) for k in
                                  ("random", "beginner", "casual", "good", "expert"))
                     + f" | `{data['command']}` |"))
        print(f"{name}: Elo {rating.elo:.0f} ({lo:.0f}-{hi:.0f}), {seconds:.0f} s", flush=True)
    print("\n| agent | Elo (95 %) | vs random | vs beginner | vs casual | vs good | vs expert "
          "| command |\n| --- | --- | --- | --- | --- | --- | --- | --- |")
    for _elo, row in sorted(rows, reverse=True):
        print(row)
    if args.head_to_head:
        print("\n| preset | players | learned v greedy | fair share |\n| --- | --- | --- | --- |")
        for preset in PRESETS:
            for players in (2, 3, 4):
                rating = rate("learned", matches=args.head_to_head, players=players,
                              preset=preset, opponents=["good"])
                est = rating.vs["good"].estimate
                figures["learned_v_greedy"][f"{preset}/{players}"] = {
                    "win": est.value, "win_ci": [est.low, est.high], "matches": est.n,
                    "fair_share": 1 / players}
                print(f"| {preset} | {players} | {pct(est)} | {1 / players:.1%} |", flush=True)
    args.out.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
