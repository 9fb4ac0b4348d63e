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
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from torch import nn

from trashcards.envs.vector import TrashVectorEnv
from trashcards.estimates import Estimate, proportion

OBS, ACTIONS = 233, 15
_EVAL_SEED = 10_000_000


class Agent(nn.Module):
    """Policy and value heads on a shared two-layer MLP."""

    def __init__(self, hidden: int = 128) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, ACTIONS)
        self.value = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        logits = self.policy(h).masked_fill(~mask, -1e8)
        return logits, self.value(h).squeeze(-1)


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
    obs_buf = torch.zeros((t_len, n, OBS))
    mask_buf = torch.zeros((t_len, n, ACTIONS), dtype=torch.bool)
    act_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf = torch.zeros((t_len, n))
    rew_buf = torch.zeros((t_len, n))
    done_buf = torch.zeros((t_len, n))
    val_buf = torch.zeros((t_len, n))

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
        for update in range(1, updates + 1):
            length = min(t_len, table_steps - (update - 1) * t_len)
            batch = n * length
            for t in range(length):
                with torch.no_grad():
                    logits, value = agent.logits(obs, mask)
                dist: Any = torch.distributions.Categorical(logits=logits)  # untyped
                action = dist.sample()
                obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, action
                logp_buf[t], val_buf[t] = dist.log_prob(action), value
                obs_np, rewards, terms, truncs, info = env.step(action.numpy())
                rew_buf[t] = torch.as_tensor(rewards, dtype=torch.float32)
                done_buf[t] = torch.as_tensor(terms | truncs, dtype=torch.float32)
                obs = torch.as_tensor(obs_np)
                mask = torch.as_tensor(info["action_mask"].astype(bool))
            steps += batch
            with torch.no_grad():
                _, next_value = agent.logits(obs, mask)
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(length)):
                following = next_value if t == length - 1 else val_buf[t + 1]
                alive = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * following * alive - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * alive * last
                advantages[t] = last
            returns = advantages + val_buf
            flat = [x[:length].reshape(batch, *x.shape[2:]) for x in
                    (obs_buf, mask_buf, act_buf, logp_buf, advantages, returns)]
            b_obs, b_mask, b_act, b_logp, b_adv, b_ret = flat
            size = max(1, batch // args.minibatches)
            for _epoch in range(args.epochs):
                order = torch.randperm(batch)
                for start in range(0, batch, size):
                    idx = order[start:start + size]
                    logits, value = agent.logits(b_obs[idx], b_mask[idx])
                    dist = torch.distributions.Categorical(logits=logits)
                    ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()
                    adv = b_adv[idx]
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                    clip = torch.clamp(ratio, 1 - args.clip, 1 + args.clip)
                    policy_loss = -torch.min(ratio * adv, clip * adv).mean()
                    value_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                    loss = policy_loss + 0.5 * value_loss - args.entropy * dist.entropy().mean()
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                    optimizer.step()
            if (update % args.eval_every == 0 or update & (update - 1) == 0
                    or update == updates):
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
