"""The leaderboard of docs/leaderboard.md: every built-in bot and shipped agent in the arena.

Each agent is rated exactly as the command in its row rates it (``trashcards arena NAME
--matches M --expert-matches E …``: duplicate matches, two players, standard rules, seed
0, unless ``--preset``/``--players`` say otherwise), and the row records that command,
the wall time and the widest half-interval of its win rates (every row must be within
± 5 pp: the script says which are not). The learned agent is also measured head to head
against ``greedy`` per preset and table size (``--head-to-head``). Prints the Markdown
tables and writes every figure as JSON to ``--out``.

    python benchmarks/leaderboard.py --out docs/leaderboard.json
    python benchmarks/leaderboard.py --preset call-trash --head-to-head 0 \\
        --out docs/leaderboard-call-trash.json     # the ladder of another setting
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from trashcards.arena import rate
from trashcards.bots import BOTS

PRESETS = ("standard", "kids", "jokers", "all-faces-wild", "call-trash")
#: The agents the kernel has (or, for learned, a numpy policy): cheap matches.
FAST = {"random", "greedy", "counter", "kid", "sometimes", "stockonly", "learned"}
OPPONENTS = ("random", "beginner", "casual", "good", "expert")


def pct(est: Any) -> str:
    return f"{est.value:.1%} [{est.low:.1%}, {est.high:.1%}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000,
                        help="matches per opponent for the fast agents")
    parser.add_argument("--expert-matches", type=int, default=400,
                        help="matches against the expert (it searches: slow)")
    parser.add_argument("--slow-matches", type=int, default=500,
                        help="--matches for agents that decide in Python (lowwild, endblind)")
    parser.add_argument("--expert-agent-matches", type=int, default=500,
                        help="--matches for the expert as the agent")
    parser.add_argument("--preset", default="standard")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--bots", default=",".join(["learned", *(b for b in BOTS
                                                                 if b != "learned")]),
                        help="the agents, comma-separated")
    parser.add_argument("--head-to-head", type=int, default=2000,
                        help="matches of learned v greedy per preset and table size (0: none)")
    parser.add_argument("--out", type=Path, required=True, help="the JSON file")
    args = parser.parse_args()
    figures: dict[str, Any] = {"settings": vars(args) | {"out": str(args.out)}, "agents": {},
                               "learned_v_greedy": {}}
    rows = []
    wide = []
    for name in args.bots.split(","):
        matches = (args.matches if name in FAST else args.expert_agent_matches
                   if name == "expert" else args.slow_matches)
        began = time.perf_counter()
        rating = rate(name, matches=matches, expert_matches=args.expert_matches,
                      preset=args.preset, players=args.players)
        seconds = time.perf_counter() - began
        data = rating.to_json()
        data["seconds"] = round(seconds, 1)
        data["load"] = round(os.getloadavg()[0], 1)
        half = max(r.estimate.half_width or 1.0 for r in rating.vs.values())
        data["widest_half_interval"] = half
        figures["agents"][name] = data
        if half > 0.05:
            wide.append(name)
        elo = "—" if rating.elo is None or rating.elo_ci is None else (
            f"{rating.elo:.0f} ({rating.elo_ci[0]:.0f}–{rating.elo_ci[1]:.0f})")
        rows.append((rating.elo if rating.elo is not None else
                     rating.vs["good"].estimate.value,
                     f"| `{name}` | {elo} | "
                     + " | ".join(pct(rating.vs[k].estimate) if k in rating.vs else "—"
                                  for k in OPPONENTS)
                     + f" | ± {100 * half:.1f} | {rating.matches:,} | `{data['command']}` |"))
        print(f"{name}: Elo {elo}, widest ± {100 * half:.1f} pp, {seconds:.0f} s "
              f"(load {data['load']})", flush=True)
    print("\n| agent | Elo (95 %) | vs random | vs beginner | vs casual | vs good | vs expert "
          "| widest ± | matches | command |\n"
          "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for _key, row in sorted(rows, reverse=True):
        print(row)
    if wide:
        print(f"\nwider than ± 5 pp: {', '.join(wide)}")
    if args.head_to_head:
        print("\n| preset | players | learned v greedy | fair share |\n| --- | --- | --- | --- |")
        for preset in PRESETS:
            for players in (2, 3, 4):
                rating = rate("learned", matches=args.head_to_head, players=players,
                              preset=preset, opponents=["good"])
                est = rating.vs["good"].estimate
                figures["learned_v_greedy"][f"{preset}/{players}"] = {
                    "win": est.value, "win_ci": [est.low, est.high], "matches": est.n,
                    "fair_share": 1 / players, "command": rating.command}
                print(f"| {preset} | {players} | {pct(est)} | {1 / players:.1%} |", flush=True)
    args.out.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
