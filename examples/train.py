"""Train a masked policy on the vector environment with PPO, and show that it learned.

A CleanRL-style PPO loop in PyTorch (the ``train`` extra): ``--num-envs`` tables of
:class:`trashcards.envs.vector.TrashVectorEnv` against ``--opponent`` (greedy by default),
rewarded per round (+1 a round won, -1 a round lost), a small MLP whose illegal actions
get a logit of -1e8. Before and after training, and every ``--eval-every`` updates for
the learning curve (also after updates 1, 2, 4, 8, …), the policy plays
``--eval-matches`` whole matches against ``random`` and against ``greedy``, its actions
sampled (seeded), the same deals every time; the win rates come with Wilson 95 %
intervals. Before and after training it is also evaluated taking its most likely action.

``--steps N`` trains exactly N agent steps (N a multiple of ``--num-envs``: each step
moves every table): updates of ``--rollout`` steps per table, the last one shorter if
need be. Outputs, in ``--out-dir`` (``train-output`` by default, never a tracked file
unless asked): ``envs-learning-curve.png`` and ``envs-training.json`` (every figure, the
settings and the time taken). ``--out-dir docs`` refreshes the project's own figures.

    python examples/train.py --out-dir docs         # the full run, into docs/
    python examples/train.py --steps 4096 --eval-matches 64   # a smoke, into train-output/
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from ppo import Agent, Rollout, update
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from trashcards.envs.vector import TrashVectorEnv
from trashcards.estimates import Estimate, proportion

_EVAL_SEED = 10_000_000


def evaluate(agent: Agent, opponent: str, matches: int, preset: str,
             sample: bool = True) -> Estimate:
    """The agent's win rate over ``matches`` whole matches (the same deals every call):
    its actions sampled from the policy (seeded), or with ``sample=False`` the most
    likely legal action."""
    generator = torch.Generator().manual_seed(_EVAL_SEED)
    env = TrashVectorEnv(matches, [opponent], preset=preset, reward="match",
                         autoreset_mode=AutoresetMode.DISABLED)
    obs, info = env.reset(seed=_EVAL_SEED)
    wins = np.zeros(matches, dtype=bool)
    ended = np.zeros(matches, dtype=bool)
    with torch.no_grad():
        while not ended.all():
            mask = torch.as_tensor(info["action_mask"].astype(bool))
            mask[~mask.any(dim=1), 0] = True  # ended tables: any action, it is ignored
            logits, _ = agent.logits(torch.as_tensor(obs), mask)
            if sample:
                probs = torch.softmax(logits, dim=1)
                action = torch.multinomial(probs, 1, generator=generator).squeeze(1)
            else:
                action = logits.argmax(dim=1)
            obs, rewards, terms, truncs, info = env.step(action.numpy())
            wins |= terms & ~ended & (rewards > 0)
            ended |= terms | truncs
    return proportion(int(wins.sum()), matches)


def evaluations(agent: Agent, matches: int, preset: str,
                sample: bool = True) -> dict[str, Estimate]:
    return {name: evaluate(agent, name, matches, preset, sample)
            for name in ("random", "greedy")}


def show(label: str, figures: dict[str, Estimate]) -> str:
    return f"{label}: " + "; ".join(
        f"vs {name} {est.value:.1%} [{est.low:.1%}, {est.high:.1%}]"
        for name, est in figures.items())


def train(args: argparse.Namespace) -> dict[str, Any]:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    env = TrashVectorEnv(args.num_envs, [args.opponent], preset=args.preset, reward="round",
                         autoreset_mode=AutoresetMode.SAME_STEP)
    agent = Agent(args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n = args.num_envs
    table_steps = args.steps // n  # each step moves every table
    t_len = min(args.rollout, table_steps)
    updates = -(-table_steps // t_len)  # the last one takes what is left
    rollout = Rollout(t_len, n)

    began = time.perf_counter()
    before = evaluations(agent, args.eval_matches, args.preset)
    print(show("before training", before))
    before_argmax = evaluations(agent, args.eval_matches, args.preset, sample=False)
    print(show("before training, most likely action", before_argmax))
    curve: list[dict[str, Any]] = [{"steps": 0, **{k: e.to_json() for k, e in before.items()}}]
    obs_np, info = env.reset(seed=args.seed)
    obs = torch.as_tensor(obs_np)
    mask = torch.as_tensor(info["action_mask"].astype(bool))
    steps = 0
    columns = (TextColumn("training"), BarColumn(), TextColumn("{task.completed}/{task.total} "
               "updates"), TimeElapsedColumn())
    with Progress(*columns, transient=True) as progress:
        task = progress.add_task("train", total=updates)
        for number in range(1, updates + 1):
            length = min(t_len, table_steps - (number - 1) * t_len)
            batch = n * length
            for t in range(length):
                action = rollout.act(agent, t, obs, mask)
                obs_np, rewards, terms, truncs, info = env.step(action.numpy())
                rollout.rewarded(t, rewards, terms | truncs)
                obs = torch.as_tensor(obs_np)
                mask = torch.as_tensor(info["action_mask"].astype(bool))
            steps += batch
            update(agent, optimizer, rollout, length, obs, mask, args)
            if (number % args.eval_every == 0 or number & (number - 1) == 0
                    or number == updates):
                figures = evaluations(agent, args.eval_matches, args.preset)
                curve.append({"steps": steps, **{k: e.to_json() for k, e in figures.items()}})
            progress.advance(task)
    after = evaluations(agent, args.eval_matches, args.preset)
    print(show("after training", after))
    likeliest = {"before": before_argmax,
                 "after": evaluations(agent, args.eval_matches, args.preset, sample=False)}
    print(show("after training, most likely action", likeliest["after"]))
    elapsed = time.perf_counter() - began
    print(f"{steps:,} agent steps, {updates} updates, {elapsed / 60:.1f} minutes")
    settings = {**vars(args), "out_dir": str(args.out_dir)}
    return {"settings": settings, "steps": steps, "updates": updates,
            "minutes": elapsed / 60, "before": {k: e.to_json() for k, e in before.items()},
            "after": {k: e.to_json() for k, e in after.items()},
            "most_likely_action": {when: {k: e.to_json() for k, e in figures.items()}
                                   for when, figures in likeliest.items()},
            "curve": curve}


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    steps = [point["steps"] for point in result["curve"]]
    for name, colour in (("random", "tab:blue"), ("greedy", "tab:orange")):
        value = [point[name]["value"] for point in result["curve"]]
        low = [point[name]["low"] for point in result["curve"]]
        high = [point[name]["high"] for point in result["curve"]]
        ax.plot(steps, value, color=colour, label=f"vs {name}")
        ax.fill_between(steps, low, high, color=colour, alpha=0.2)
    ax.axhline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_xscale("symlog", linthresh=max(1, steps[1] if len(steps) > 1 else 1))
    ax.set_xlim(0, steps[-1] * 1.05)
    ax.set_xlabel("agent steps of training (linear to the first update, then log scale)")
    ax.set_ylabel("match win rate (95 % interval)")
    ax.set_ylim(0, 1)
    settings = result["settings"]
    ax.set_title(f"PPO on TrashVectorEnv ({settings['preset']}, trained vs "
                 f"{settings['opponent']}, {settings['eval_matches']} matches per point)")
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=6_000_000, help="agent steps of training")
    parser.add_argument("--num-envs", type=int, default=128, help="tables stepped at once")
    parser.add_argument("--rollout", type=int, default=64, help="steps per table per update")
    parser.add_argument("--opponent", default="greedy", help="the bot trained against")
    parser.add_argument("--preset", default="standard", help="rules preset")
    parser.add_argument("--eval-matches", type=int, default=2000,
                        help="matches per evaluation against each bot")
    parser.add_argument("--eval-every", type=int, default=100,
                        help="updates between points (besides updates 1, 2, 4, 8, …)")
    parser.add_argument("--hidden", type=int, default=128, help="width of the MLP")
    parser.add_argument("--lr", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--gamma", type=float, default=0.995, help="discount")
    parser.add_argument("--gae-lambda", type=float, default=0.95, help="GAE's lambda")
    parser.add_argument("--clip", type=float, default=0.2, help="PPO's clip range")
    parser.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    parser.add_argument("--minibatches", type=int, default=4, help="minibatches per pass")
    parser.add_argument("--threads", type=int, default=1, help="torch threads")
    parser.add_argument("--seed", type=int, default=0, help="seed of torch and the tables")
    parser.add_argument("--out-dir", type=Path, default=Path("train-output"),
                        help="where the PNG and the JSON go (default: train-output; "
                             "--out-dir docs refreshes the project's figures)")
    args = parser.parse_args()
    if args.steps < 1 or args.eval_matches < 1 or args.num_envs < 1:
        parser.error("--steps, --eval-matches and --num-envs must be at least 1")
    if args.steps % args.num_envs or args.rollout < 1:
        parser.error(f"--steps must be a multiple of --num-envs ({args.num_envs}): each step "
                     "moves every table; --rollout at least 1")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    result = train(args)
    (args.out_dir / "envs-training.json").write_text(json.dumps(result, indent=1) + "\n")
    plot(result, args.out_dir / "envs-learning-curve.png")
    print(f"wrote {args.out_dir / 'envs-learning-curve.png'} and "
          f"{args.out_dir / 'envs-training.json'}")


if __name__ == "__main__":
    main()
