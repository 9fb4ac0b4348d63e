"""Measure the levels' bots' habits offline and write the table a player's page compares
a player's habits with (docs/players.md, "Habits"):

    python3 scripts/level_habits.py --matches 100 --seed 1 \\
        --out src/trashcards/players/level_habits.json

For each level with a fixed rating (beginner, casual, good: the expert plays as good in
standard Trash and is too slow to review by the hundred), ``--matches`` two-player
standard matches of the level's bot against itself, every shuffle seeded from
``--seed``; the coach reviews each match (:func:`trashcards.ai.review.review`,
``--samples`` deals per decision, as the server's habit reviews: 60) and both seats'
decisions are counted into habits (:func:`trashcards.players.habits.count`). Each habit
gets its misses over its chances and the 95 % interval over the seat-games as the units
(:func:`trashcards.players.habits.peer_interval`). Deterministic: the same command
writes the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

from trashcards.ai.levels import level_named
from trashcards.ai.review import review
from trashcards.players.habits import HABITS, count, peer_interval
from trashcards.players.levelhabits import FORMAT, LEVELS
from trashcards.rules import Rules
from trashcards.session import play_match


def measure(level: str, matches: int, seed: int, samples: int) -> dict[str, object]:
    """One level's habits over ``matches`` matches against itself."""
    rules = Rules.preset_named("standard")
    games: list[dict[str, list[int]]] = []
    for number in range(matches):
        bots = [level_named(level).make(random.Random(f"{seed}/{level}/{number}/{seat}"))
                for seat in range(2)]
        match = play_match(rules, ["A", "B"], bots, random.Random(f"{seed}/{level}/{number}"))
        decisions = review(match.record, samples, seed=number).decisions
        games.extend(count(decisions, seat) for seat in range(2))
        print(f"{level}: {number + 1}/{matches}", file=sys.stderr, flush=True)
    habits: dict[str, dict[str, float]] = {}
    for habit in HABITS:
        rows = [(g[habit][0], g[habit][1]) for g in games if g[habit][0]]
        if not rows:
            continue
        low, high = peer_interval(rows)
        chances, misses = sum(c for c, _ in rows), sum(m for _, m in rows)
        habits[habit] = {"chances": chances, "misses": misses,
                         "rate": round(misses / chances, 4), "low": round(low, 4),
                         "high": round(high, 4)}
    found = level_named(level)
    return {"bot": found.bot, "elo": round(found.elo, 1), "matches": matches,
            "games": len(games), "habits": habits}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=60)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.matches < 1 or args.samples < 8:
        parser.error("--matches at least 1, --samples at least 8")
    start = time.monotonic()
    table = {"format": FORMAT,
             "command": (f"python3 scripts/level_habits.py --matches {args.matches} "
                         f"--seed {args.seed} --samples {args.samples}"),
             "rules": "standard", "players": 2, "matches": args.matches,
             "samples": args.samples, "seed": args.seed,
             "levels": {level: measure(level, args.matches, args.seed, args.samples)
                        for level in LEVELS}}
    args.out.write_text(json.dumps(table, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {time.monotonic() - start:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
