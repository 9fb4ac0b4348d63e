"""The PPO parts the training examples share (``train.py`` and ``selfplay.py``): the
masked actor-critic MLP, the rollout buffers, and one update (GAE, then clipped PPO
epochs over shuffled minibatches), CleanRL-style, in PyTorch (the ``train`` extra)."""

from __future__ import annotations

import argparse
import warnings
from typing import Any

import torch
from torch import nn

from trashcards.envs.policy import MLPPolicy

OBS, ACTIONS = 233, 15


class Agent(nn.Module):
    """Policy and value heads on a shared two-layer tanh MLP; illegal actions get a logit
    of -1e8."""

    def __init__(self, hidden: int = 128) -> None:
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

    def export_onnx(self, path: str) -> None:
        """The policy head as an ONNX model for the arena (``trashcards arena
        policy.onnx``): ``obs`` float32[M, 233] in, ``logits`` [M, 15] out (the arena masks
        them). Uses torch's TorchScript-based exporter (``dynamo=False``: the newer one
        needs the onnxscript package); torch warns that it is deprecated."""
        head = nn.Sequential(self.body, self.policy)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            torch.onnx.export(head, (torch.zeros(1, OBS),), path, dynamo=False,
                              input_names=["obs"], output_names=["logits"],
                              dynamic_axes={"obs": {0: "M"}, "logits": {0: "M"}})


class Rollout:
    """What ``steps`` steps of ``tables`` tables leave for an update."""

    def __init__(self, steps: int, tables: int) -> None:
        self.obs = torch.zeros((steps, tables, OBS))
        self.mask = torch.zeros((steps, tables, ACTIONS), dtype=torch.bool)
        self.action = torch.zeros((steps, tables), dtype=torch.long)
        self.logp = torch.zeros((steps, tables))
        self.reward = torch.zeros((steps, tables))
        self.done = torch.zeros((steps, tables))
        self.value = torch.zeros((steps, tables))

    def act(self, agent: Agent, t: int, obs: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        """Sample step ``t``'s actions and keep what the update needs of them."""
        with torch.no_grad():
            logits, value = agent.logits(obs, mask)
        dist: Any = torch.distributions.Categorical(logits=logits)  # untyped
        action: torch.Tensor = dist.sample()
        self.obs[t], self.mask[t], self.action[t] = obs, mask, action
        self.logp[t], self.value[t] = dist.log_prob(action), value
        return action

    def rewarded(self, t: int, reward: Any, done: Any) -> None:
        """Step ``t``'s rewards and ended tables (numpy arrays)."""
        self.reward[t] = torch.as_tensor(reward, dtype=torch.float32)
        self.done[t] = torch.as_tensor(done, dtype=torch.float32)


def update(agent: Agent, optimizer: torch.optim.Optimizer, rollout: Rollout, length: int,
           obs: torch.Tensor, mask: torch.Tensor, args: argparse.Namespace) -> None:
    """One PPO update on the first ``length`` steps of ``rollout`` (``obs``/``mask``: the
    tables after them), with ``args.gamma``, ``gae_lambda``, ``clip``, ``entropy``,
    ``epochs`` and ``minibatches``."""
    tables = rollout.obs.shape[1]
    with torch.no_grad():
        _, next_value = agent.logits(obs, mask)
    advantages = torch.zeros_like(rollout.reward)
    last = torch.zeros(tables)
    for t in reversed(range(length)):
        following = next_value if t == length - 1 else rollout.value[t + 1]
        alive = 1.0 - rollout.done[t]
        delta = rollout.reward[t] + args.gamma * following * alive - rollout.value[t]
        last = delta + args.gamma * args.gae_lambda * alive * last
        advantages[t] = last
    returns = advantages + rollout.value
    batch = tables * length
    b_obs, b_mask, b_act, b_logp, b_adv, b_ret = (
        x[:length].reshape(batch, *x.shape[2:]) for x in
        (rollout.obs, rollout.mask, rollout.action, rollout.logp, advantages, returns))
    size = max(1, batch // args.minibatches)
    for _epoch in range(args.epochs):
        order = torch.randperm(batch)
        for start in range(0, batch, size):
            idx = order[start:start + size]
            logits, value = agent.logits(b_obs[idx], b_mask[idx])
            dist: Any = torch.distributions.Categorical(logits=logits)  # untyped
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
