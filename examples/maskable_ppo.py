"""Train sb3-contrib's MaskablePPO through the SB3 adapter of the vector environment.

``TrashSB3VecEnv`` (:mod:`trashcards.envs.sb3`) is the numba vector env in
Stable-Baselines3's conventions, with ``action_masks()``; MaskablePPO trains on it
unchanged. The policy then plays ``--eval-matches`` whole matches against ``greedy`` on
the arena (its most likely legal action; :func:`trashcards.arena.rate` would give its
Elo), and the win rate is printed with a Wilson 95 % interval.

    python examples/maskable_ppo.py                      # 1,000,000 steps
    python examples/maskable_ppo.py --steps 20000 --eval-matches 100   # a smoke run
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
from gymnasium.vector import AutoresetMode
from sb3_contrib import MaskablePPO

from trashcards.envs.sb3 import TrashSB3VecEnv
from trashcards.envs.vector import TrashVectorEnv
from trashcards.estimates import proportion


def win_rate(model: MaskablePPO, opponent: str, matches: int, seed: int) -> str:
    """The model's match win rate against ``opponent`` on ``matches`` fresh matches."""
    env = TrashVectorEnv(matches, [opponent], reward="match",
                         autoreset_mode=AutoresetMode.DISABLED)
    obs, info = env.reset(seed=seed)
    wins = np.zeros(matches, dtype=bool)
    ended = np.zeros(matches, dtype=bool)
    while not ended.all():
        masks = info["action_mask"].astype(bool)
        masks[~masks.any(axis=1), 0] = True  # ended tables: any action, it is ignored
        actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
        obs, rewards, terms, truncs, info = env.step(actions)
        wins |= terms & ~ended & (rewards > 0)
        ended |= terms | truncs
    est = proportion(int(wins.sum()), matches)
    return f"{est.value:.1%} [{est.low:.1%}, {est.high:.1%}] of {matches:,} matches"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=1_000_000, help="agent steps")
    parser.add_argument("--num-envs", type=int, default=256, help="tables stepped at once")
    parser.add_argument("--opponent", default="greedy", help="the bot trained against")
    parser.add_argument("--eval-matches", type=int, default=2000, help="evaluation matches")
    parser.add_argument("--seed", type=int, default=0, help="seed of everything")
    args = parser.parse_args()
    torch.set_num_threads(1)
    venv = TrashSB3VecEnv(args.num_envs, opponents=[args.opponent], reward="round")
    venv.seed(args.seed)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=4096, n_epochs=4,
                        learning_rate=1e-3, gamma=0.995, seed=args.seed, device="cpu",
                        policy_kwargs={"net_arch": [128, 128]})
    began = time.perf_counter()
    model.learn(args.steps)
    elapsed = time.perf_counter() - began
    print(f"{model.num_timesteps:,} agent steps in {elapsed:.0f} s "
          f"({model.num_timesteps / elapsed:,.0f} steps/s, training included)")
    print(f"vs {args.opponent}: {win_rate(model, args.opponent, args.eval_matches, 10**7)}")


if __name__ == "__main__":
    main()
