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
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from torch import nn

from trashcards.envs.policy import MLPPolicy, SnapshotPool
from trashcards.envs.vector import TrashVectorEnv

OBS, ACTIONS = 233, 15


class Agent(nn.Module):
    """Policy and value heads on a shared two-layer tanh MLP."""

    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(nn.Linear(OBS, hidden), nn.Tanh(),
                                  nn.Linear(hidden, hidden), nn.Tanh())
        self.policy = nn.Linear(hidden, ACTIONS)
        self.value = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.policy.weight, 0.01)

    def logits(self, obs: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = self.body(obs)
        return self.policy(h).masked_fill(~mask, -1e8), self.value(h).squeeze(-1)

    def numpy_policy(self, sample: bool = False, seed: int = 0) -> MLPPolicy:
        """The policy head as numpy weights (what ships)."""
        layers = []
        for linear in (self.body[0], self.body[2], self.policy):
            assert isinstance(linear, nn.Linear)
            layers.append((linear.weight.detach().numpy().T.copy(),
                           linear.bias.detach().numpy().copy()))
        return MLPPolicy(layers, sample=sample, seed=seed)


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
    obs_buf = torch.zeros((t_len, n, OBS))
    mask_buf = torch.zeros((t_len, n, ACTIONS), dtype=torch.bool)
    act_buf = torch.zeros((t_len, n), dtype=torch.long)
    logp_buf = torch.zeros((t_len, n))
    rew_buf = torch.zeros((t_len, n))
    done_buf = torch.zeros((t_len, n))
    val_buf = torch.zeros((t_len, n))
    firsts = [e.reset(seed=args.seed + 1_000_000 * k) for k, e in enumerate(envs)]
    obs = torch.as_tensor(np.concatenate([o for o, _ in firsts]))
    mask = torch.as_tensor(np.concatenate([i["action_mask"] for _, i in firsts]).astype(bool))
    began = time.perf_counter()
    done = 0
    columns = (TextColumn("self-play PPO"), BarColumn(),
               TextColumn("{task.completed}/{task.total} updates"), TimeElapsedColumn())
    with Progress(*columns, transient=True, disable=not sys.stderr.isatty()) as progress:
        task = progress.add_task("train", total=updates)
        for update in range(1, updates + 1):
            pool.sample()
            for t in range(t_len):
                with torch.no_grad():
                    logits, value = agent.logits(obs, mask)
                dist = torch.distributions.Categorical(logits=logits)
                action = dist.sample()  # type: ignore[no-untyped-call]
                obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, action
                logp_buf[t], val_buf[t] = dist.log_prob(action), value  # type: ignore[no-untyped-call]
                acts = action.numpy()
                outs = [envs[0].step(acts[:half]), envs[1].step(acts[half:])]
                rew_buf[t] = torch.as_tensor(np.concatenate([o[1] for o in outs]),
                                             dtype=torch.float32)
                done_buf[t] = torch.as_tensor(np.concatenate([o[2] | o[3] for o in outs]),
                                              dtype=torch.float32)
                obs = torch.as_tensor(np.concatenate([o[0] for o in outs]))
                mask = torch.as_tensor(np.concatenate(
                    [o[4]["action_mask"] for o in outs]).astype(bool))
            with torch.no_grad():
                _, next_value = agent.logits(obs, mask)
            advantages = torch.zeros_like(rew_buf)
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                following = next_value if t == t_len - 1 else val_buf[t + 1]
                alive = 1.0 - done_buf[t]
                delta = rew_buf[t] + args.gamma * following * alive - val_buf[t]
                last = delta + args.gamma * args.gae_lambda * alive * last
                advantages[t] = last
            returns = advantages + val_buf
            flat = [x.reshape(batch, *x.shape[2:]) for x in
                    (obs_buf, mask_buf, act_buf, logp_buf, advantages, returns)]
            b_obs, b_mask, b_act, b_logp, b_adv, b_ret = flat
            size = batch // args.minibatches
            for _epoch in range(args.epochs):
                order = torch.randperm(batch)
                for start in range(0, batch, size):
                    idx = order[start:start + size]
                    logits, value = agent.logits(b_obs[idx], b_mask[idx])
                    dist = torch.distributions.Categorical(logits=logits)
                    ratio = (dist.log_prob(b_act[idx]) - b_logp[idx]).exp()  # type: ignore[no-untyped-call]
                    adv = b_adv[idx]
                    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                    clip = torch.clamp(ratio, 1 - args.clip, 1 + args.clip)
                    policy_loss = -torch.min(ratio * adv, clip * adv).mean()
                    value_loss = 0.5 * ((value - b_ret[idx]) ** 2).mean()
                    entropy = dist.entropy().mean()  # type: ignore[no-untyped-call]
                    loss = policy_loss + 0.5 * value_loss - args.entropy * entropy
                    optimizer.zero_grad()
                    loss.backward()
                    nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                    optimizer.step()
            if update % args.snapshot_every == 0:
                pool.add(agent.numpy_policy(sample=True, seed=args.seed + update))
            progress.advance(task)
            done = update
            if args.minutes and time.perf_counter() - began > 60 * args.minutes:
                print(f"stopping at the time limit after update {update}", flush=True)
                break
            if update % 50 == 0 or update == updates:
                print(f"update {update}/{updates}, {update * batch:,} steps, "
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
