"""Baselines for the arena: masked PPO against greedy, self-play, and a fictitious-play
league, each over several seeds, rated by the arena; one command writes the table.

Every method is the same CleanRL-style masked PPO (``ppo.py``: a 233-H-H-15 tanh MLP with a
value head, rewards per round, ``--num-envs`` vector tables) and differs only in what the
other seat is:

* ``ppo-greedy``: the kernel's ``greedy`` bot at every table;
* ``self-play``: the agent's latest snapshot (a copy taken every ``--snapshot-every``
  updates, its actions sampled);
* ``fsp-league``: fictitious self-play, a population method: at every update one snapshot
  drawn uniformly from all the agent's past snapshots (seeded), so the agent answers the
  average of its past policies.

Per seed: the agent steps and wall time, a learning curve (its most likely action against
``greedy`` in duplicate matches, ``--curve-matches`` per point, every ``--eval-every``
updates and at the end) and the final rating: ``trashcards.arena.rate`` against random and
the levels but expert (``--final-matches`` each, duplicate), its Elo with the 95 %
interval. Everything but the wall time is a function of the seed and the settings:
torch runs on one thread, every table, snapshot pick and rating is seeded, so two runs
of one seed give the same numbers (``tests/envs/test_baselines.py``).

    python examples/baselines.py --out docs/baselines.md        # the published table
    python examples/baselines.py --steps 4096 --seeds 1 --out smoke.md   # a smoke run

Writes ``--out`` (Markdown) and the same figures as JSON beside it (``.json``).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # numpy MLPs on small batches

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from ppo import Agent, Rollout, update

from trashcards.ai.levels import level_named
from trashcards.arena import rate
from trashcards.envs.policy import SnapshotPool
from trashcards.envs.vector import TrashVectorEnv

METHODS = ("ppo-greedy", "self-play", "fsp-league")


def rating_of(agent: Agent, args: argparse.Namespace, seed: int) -> dict[str, Any]:
    """The arena's rating of the agent's most likely action (Elo, win rates)."""
    rated = rate(agent.numpy_policy(), matches=args.final_matches, expert_matches=0,
                 seed=seed, name="baseline")
    data = rated.to_json()
    return {"elo": data["elo"], "elo_ci": data["elo_ci"], "vs": data["vs"],
            "matches": data["matches"]}


def versus_greedy(agent: Agent, matches: int, seed: int) -> dict[str, Any]:
    est = rate(agent.numpy_policy(), matches=matches, opponents=["good"], seed=seed,
               name="baseline").vs["good"].estimate
    return {"win": est.value, "win_ci": [est.low, est.high]}


def train(method: str, seed: int, args: argparse.Namespace) -> dict[str, Any]:
    torch.manual_seed(seed)
    torch.set_num_threads(1)
    agent = Agent(args.hidden)
    pool = SnapshotPool(capacity=1 if method == "self-play" else 10_000, seed=seed)
    pool.add(agent.numpy_policy(sample=True, seed=seed))
    opponent: Any = "greedy" if method == "ppo-greedy" else pool
    env = TrashVectorEnv(args.num_envs, [opponent], reward="round",
                         autoreset_mode=AutoresetMode.SAME_STEP)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n, t_len = args.num_envs, args.rollout
    updates = max(1, args.steps // (n * t_len))
    rollout = Rollout(t_len, n)
    obs_np, info = env.reset(seed=seed * 1_000_003)
    obs = torch.as_tensor(obs_np)
    mask = torch.as_tensor(info["action_mask"].astype(bool))
    curve = [{"steps": 0, **versus_greedy(agent, args.curve_matches, seed)}]
    training = 0.0
    for number in range(1, updates + 1):
        began = time.perf_counter()
        if method == "fsp-league":
            pool.sample()
        for t in range(t_len):
            action = rollout.act(agent, t, obs, mask)
            obs_np, rewards, terms, truncs, info = env.step(action.numpy())
            rollout.rewarded(t, rewards, terms | truncs)
            obs = torch.as_tensor(obs_np)
            mask = torch.as_tensor(info["action_mask"].astype(bool))
        update(agent, optimizer, rollout, t_len, obs, mask, args)
        if method != "ppo-greedy" and number % args.snapshot_every == 0:
            pool.add(agent.numpy_policy(sample=True, seed=seed + number))
        training += time.perf_counter() - began
        if number % args.eval_every == 0 or number == updates:
            curve.append({"steps": number * n * t_len,
                          **versus_greedy(agent, args.curve_matches, seed)})
            print(f"{method} seed {seed}: update {number}/{updates}, "
                  f"{curve[-1]['win']:.1%} v greedy", flush=True)
    return {"method": method, "seed": seed, "steps": updates * n * t_len,
            "updates": updates, "training_seconds": round(training, 1), "curve": curve,
            "final": rating_of(agent, args, seed)}


def tied_with_greedy(runs: list[dict[str, Any]]) -> int:
    """How many runs' Elo intervals hold the good level's (greedy's) rating."""
    good = level_named("good").elo
    return sum(1 for r in runs if r["final"]["elo_ci"][0] <= good <= r["final"]["elo_ci"][1])


def markdown(runs: list[dict[str, Any]], args: argparse.Namespace, command: str,
             load: float) -> str:
    lines = [
        "# Baselines",
        "",
        "Masked PPO against `greedy`, self-play and a fictitious-play league "
        f"(`examples/baselines.py`), {args.seeds} seeds each, {args.steps:,} agent steps "
        f"per run ({args.num_envs} tables × {args.rollout} steps per update), two "
        "players, standard rules, rated by the arena (duplicate; "
        f"{args.final_matches:,} matches against random and each level but expert). "
        "Regenerate this page (two runs give the same figures, all but the wall times; "
        "another CPU or torch build may round differently):",
        "",
        "```sh",
        command,
        "```",
        "",
        "A difference inside the intervals is a tie. The levels, for scale: beginner 1535, "
        "casual 1596, good (`greedy`) 1670 (docs/leaderboard.md). "
        f"{tied_with_greedy(runs)} of the {len(runs)} runs have an Elo interval holding "
        "greedy's 1670. Wall times are those of a shared 2-core machine (load "
        f"{load:.0f} at the end of the run) and vary with its load.",
        "",
        "## Summary",
        "",
        "| method | seeds | Elo, mean of seeds | Elo range (seeds) | v greedy, mean | "
        "agent steps per run | training minutes per run (mean) |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for method in METHODS:
        mine = [r for r in runs if r["method"] == method]
        if not mine:
            continue
        elos = [r["final"]["elo"] for r in mine]
        vs = [r["final"]["vs"]["good"]["win"] for r in mine]
        minutes = np.mean([r["training_seconds"] for r in mine]) / 60
        lines.append(f"| {method} | {len(mine)} | {np.mean(elos):.0f} | {min(elos):.0f}–"
                     f"{max(elos):.0f} | {np.mean(vs):.1%} | {mine[0]['steps']:,} | "
                     f"{minutes:.1f} |")
    lines += ["", "## Every run", "",
              "| method | seed | Elo (95 %) | v random | v beginner | v casual | v good | "
              "steps | training minutes |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for r in runs:
        f = r["final"]
        lo, hi = f["elo_ci"]
        cells = " | ".join(f"{f['vs'][k]['win']:.1%} [{f['vs'][k]['win_ci'][0]:.1%}, "
                           f"{f['vs'][k]['win_ci'][1]:.1%}]"
                           for k in ("random", "beginner", "casual", "good"))
        lines.append(f"| {r['method']} | {r['seed']} | {f['elo']:.0f} ({lo:.0f}–{hi:.0f}) | "
                     f"{cells} | {r['steps']:,} | {r['training_seconds'] / 60:.1f} |")
    lines += ["", "## Learning curves", "",
              "Win rate of the most likely action against `greedy` (duplicate, "
              f"{args.curve_matches} matches per point, 95 % interval) by agent steps:", ""]
    steps = [p["steps"] for p in runs[0]["curve"]] if runs else []
    lines.append("| method | seed | " + " | ".join(f"{s:,}" for s in steps) + " |")
    lines.append("| --- | --- | " + " | ".join("---" for _ in steps) + " |")
    for r in runs:
        lines.append(f"| {r['method']} | {r['seed']} | " + " | ".join(
            f"{p['win']:.1%} [{p['win_ci'][0]:.0%}, {p['win_ci'][1]:.0%}]"
            for p in r["curve"]) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--methods", default=",".join(METHODS))
    parser.add_argument("--seeds", type=int, default=5, help="seeds 0 … N-1 per method")
    parser.add_argument("--steps", type=int, default=196_608, help="agent steps per run")
    parser.add_argument("--num-envs", type=int, default=64)
    parser.add_argument("--rollout", type=int, default=64, help="steps per table per update")
    parser.add_argument("--hidden", type=int, default=64, help="width of the MLP")
    parser.add_argument("--snapshot-every", type=int, default=4)
    parser.add_argument("--eval-every", type=int, default=16, help="updates per curve point")
    parser.add_argument("--curve-matches", type=int, default=200)
    parser.add_argument("--final-matches", type=int, default=400)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--gae-lambda", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.005)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatches", type=int, default=4)
    parser.add_argument("--out", type=Path, required=True, help="the Markdown page")
    args = parser.parse_args()
    methods = args.methods.split(",")
    if set(methods) - set(METHODS) or args.seeds < 1 or args.steps < 1:
        parser.error(f"--methods from {', '.join(METHODS)}; --seeds and --steps at least 1")
    command = "python examples/baselines.py " + " ".join(
        a if a != str(args.out) else "docs/baselines.md" for a in sys.argv[1:])
    runs = [train(method, seed, args) for method in methods for seed in range(args.seeds)]
    settings = {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    load = os.getloadavg()[0]
    args.out.with_suffix(".json").write_text(json.dumps(
        {"command": command, "settings": settings, "load": round(load, 1), "runs": runs},
        indent=1) + "\n", encoding="utf-8")
    args.out.write_text(markdown(runs, args, command, load), encoding="utf-8")
    print(f"wrote {args.out} and {args.out.with_suffix('.json')}")


if __name__ == "__main__":
    main()
