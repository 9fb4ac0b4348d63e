"""Train the shipped ``learned`` agent: masked PPO with self-play on the vector environment.

A CleanRL-style PPO loop in PyTorch (the ``train`` extra) on two sets of tables stepped
side by side: half against ``--bot`` (a kernel bot, ``greedy`` by default) and half
against a :class:`~trashcards.envs.policy.SnapshotPool` of the agent's own past policies
(numpy copies, a snapshot added every ``--snapshot-every`` updates; the pool picks the one
that plays, seeded, at every update). The policy is a tanh MLP (233-H-H-15) with a value
head; illegal actions get a logit of -1e8; rewards per round (+1 a round won, -1 lost).

At the end the policy's weights (the policy head only, float32, numpy-only inference:
:class:`~trashcards.envs.policy.MLPPolicy`) go to ``--out`` with the settings, the
command line and the time taken in its ``meta``. Every number is seeded by ``--seed``.

    python examples/selfplay.py --steps 12000000 --out src/trashcards/envs/data/learned.npz
    python examples/selfplay.py --steps 8192 --num-envs 32 --out smoke.npz   # a smoke run
"""

from __future__ import annotations

import os

# The snapshot opponents are numpy MLPs on small batches: BLAS threads only spin.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from ppo import Agent, Rollout, update
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from trashcards.envs.policy import MLPPolicy, SnapshotPool
from trashcards.envs.vector import TrashVectorEnv


def train(args: argparse.Namespace) -> MLPPolicy:
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    half = args.num_envs // 2
    pool = SnapshotPool(capacity=args.pool, seed=args.seed)
    agent = Agent(args.hidden)
    pool.add(agent.numpy_policy(sample=True, seed=args.seed))
    envs = [TrashVectorEnv(half, [args.bot], preset=args.preset, reward="round",
                           autoreset_mode=AutoresetMode.SAME_STEP),
            TrashVectorEnv(args.num_envs - half, [pool], preset=args.preset, reward="round",
                           autoreset_mode=AutoresetMode.SAME_STEP)]
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    n, t_len = args.num_envs, args.rollout
    batch = n * t_len
    updates = max(1, args.steps // batch)
    rollout = Rollout(t_len, n)
    firsts = [e.reset(seed=args.seed + 1_000_000 * k) for k, e in enumerate(envs)]
    obs = torch.as_tensor(np.concatenate([o for o, _ in firsts]))
    mask = torch.as_tensor(np.concatenate([i["action_mask"] for _, i in firsts]).astype(bool))
    began = time.perf_counter()
    done = 0
    columns = (TextColumn("self-play PPO"), BarColumn(),
               TextColumn("{task.completed}/{task.total} updates"), TimeElapsedColumn())
    with Progress(*columns, transient=True, disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task("train", total=updates)
        for number in range(1, updates + 1):
            pool.sample()
            for t in range(t_len):
                action = rollout.act(agent, t, obs, mask)
                acts = action.numpy()
                outs = [envs[0].step(acts[:half]), envs[1].step(acts[half:])]
                rollout.rewarded(t, np.concatenate([o[1] for o in outs]),
                                 np.concatenate([o[2] | o[3] for o in outs]))
                obs = torch.as_tensor(np.concatenate([o[0] for o in outs]))
                mask = torch.as_tensor(np.concatenate(
                    [o[4]["action_mask"] for o in outs]).astype(bool))
            update(agent, optimizer, rollout, t_len, obs, mask, args)
            if number % args.snapshot_every == 0:
                pool.add(agent.numpy_policy(sample=True, seed=args.seed + number))
            progress.advance(task)
            done = number
            if args.minutes and time.perf_counter() - began > 60 * args.minutes:
                print(f"stopping at the time limit after update {number}", flush=True)
                break
            if number % 50 == 0 or number == updates:
                print(f"update {number}/{updates}, {number * batch:,} steps, "
                      f"{(time.perf_counter() - began) / 60:.1f} min", flush=True)
    shipped = agent.numpy_policy()
    shipped.meta = {
        "name": "learned", "algorithm": "PPO, masked, self-play (snapshot pool) + bot",
        "command": "python examples/selfplay.py " + " ".join(sys.argv[1:]),
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "agent_steps": done * batch, "updates": done,
        "minutes": round((time.perf_counter() - began) / 60, 1),
    }
    return shipped


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=12_000_000, help="agent steps of training")
    parser.add_argument("--num-envs", type=int, default=256,
                        help="tables stepped at once (half vs --bot, half self-play)")
    parser.add_argument("--rollout", type=int, default=64, help="steps per table per update")
    parser.add_argument("--bot", default="greedy", help="the kernel bot of the first half")
    parser.add_argument("--preset", default="standard", help="rules preset")
    parser.add_argument("--hidden", type=int, default=128, help="width of the MLP")
    parser.add_argument("--pool", type=int, default=16, help="snapshots kept for self-play")
    parser.add_argument("--snapshot-every", type=int, default=20,
                        help="updates between snapshots")
    parser.add_argument("--lr", type=float, default=5e-4, help="Adam's learning rate")
    parser.add_argument("--gamma", type=float, default=0.995, help="discount")
    parser.add_argument("--gae-lambda", type=float, default=0.95, help="GAE's lambda")
    parser.add_argument("--clip", type=float, default=0.2, help="PPO's clip range")
    parser.add_argument("--entropy", type=float, default=0.005, help="entropy bonus")
    parser.add_argument("--epochs", type=int, default=4, help="passes over each batch")
    parser.add_argument("--minibatches", type=int, default=4, help="minibatches per pass")
    parser.add_argument("--minutes", type=float, default=0.0,
                        help="stop after this much wall clock (0: no limit); the steps "
                             "done are saved, and --steps with them replays the run")
    parser.add_argument("--seed", type=int, default=0, help="seed of torch, tables and pool")
    parser.add_argument("--out", type=Path, required=True, help="where the .npz goes")
    args = parser.parse_args()
    if args.steps < 1 or args.num_envs < 2:
        parser.error("--steps must be at least 1 and --num-envs at least 2")
    policy = train(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    policy.save(args.out)
    print(f"wrote {args.out} ({policy.parameters:,} parameters, "
          f"{policy.meta['agent_steps']:,} agent steps, {policy.meta['minutes']} min)")


if __name__ == "__main__":
    main()
