"""Batched policies in numpy: a small MLP, a pool of its snapshots for self-play, and a
bot that plays any batched policy from a view.

A **batched policy** is any callable ``policy(obs, mask) -> actions``: ``obs`` float32
``(M, 233)`` observations (docs/envs.md), ``mask`` int8 ``(M, 15)`` legal actions, the
result ``M`` action indices, each legal. The vector environment's opponents, the arena's
agents and the ``learned`` bot all take one.

* :class:`MLPPolicy` — a tanh MLP's weights in numpy (inference needs only numpy); it
  plays its most likely legal action, or samples with a seeded generator;
  :meth:`MLPPolicy.save` / :meth:`MLPPolicy.load` use one ``.npz`` file.
* :class:`SnapshotPool` — copies of the agent's past policies; :meth:`SnapshotPool.sample`
  picks the one that plays next with a seeded generator, and the pool itself is the
  batched policy to give the vector env as an opponent (self-play).
* :class:`PolicyBot` — a batched policy as a bot (``choose(view)``), for the single
  environments, the rules engine's matches and the front ends.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..actions import Action
from ..views import View
from .actions import ACTIONS, action_mask
from .observation import OBSERVATION_SIZE, observation

__all__ = ["BatchedPolicy", "MLPPolicy", "PolicyBot", "SnapshotPool", "masked_argmax",
           "policy_actions"]

BatchedPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8]], npt.ArrayLike]
#: The logit an illegal action gets.
ILLEGAL_LOGIT = -1e8


def masked_argmax(logits: npt.NDArray[Any], mask: npt.NDArray[Any]) -> npt.NDArray[np.int64]:
    """Each row's legal action of highest logit (the lowest index on ties)."""
    out: npt.NDArray[np.int64] = np.where(mask != 0, logits, ILLEGAL_LOGIT).argmax(axis=1)
    return out


def policy_actions(policy: BatchedPolicy, mask: npt.NDArray[Any],
                   observations: npt.NDArray[np.float32]
                   | Callable[[], npt.NDArray[np.float32]],
                   who: str = "the policy") -> npt.NDArray[np.int64]:
    """Each row's action for legal-action masks ``mask`` (M, 15): its one legal action
    where it has only one (the policy is not asked about a forced move), and otherwise
    ``policy``'s choice, asked once for all the rows with a choice. ``observations``:
    the rows' (M, 233) observations, or a function that makes them, called only when a
    row has a choice. Raises ``ValueError`` when the policy answers for another number
    of rows; checking that its answers are legal is the caller's."""
    actions: npt.NDArray[np.int64] = mask.argmax(axis=1).astype(np.int64)
    ask = np.flatnonzero(np.count_nonzero(mask, axis=1) > 1)
    if len(ask):
        obs = observations() if callable(observations) else observations
        picked = np.asarray(policy(obs[ask], mask[ask].view(np.int8))).reshape(-1)
        if picked.shape != ask.shape:
            raise ValueError(f"{who} gave {picked.shape[0]} actions for {ask.shape[0]} "
                             "observations")
        actions[ask] = picked
    return actions


class MLPPolicy:
    """A multilayer perceptron over the 233 observation floats: ``tanh`` between layers,
    15 logits out. ``layers`` is a list of ``(weight (in, out), bias (out,))`` pairs.

    Called as a batched policy it plays the most likely legal action of each row; with
    ``sample=True`` it samples from the masked softmax with ``np.random.default_rng(seed)``.
    """

    def __init__(self, layers: Sequence[tuple[npt.ArrayLike, npt.ArrayLike]],
                 sample: bool = False, seed: int = 0,
                 meta: dict[str, Any] | None = None) -> None:
        self.layers = [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
                       for w, b in layers]
        if not self.layers or self.layers[0][0].shape[0] != OBSERVATION_SIZE \
                or self.layers[-1][0].shape[1] != len(ACTIONS):
            raise ValueError(f"an MLP policy maps {OBSERVATION_SIZE} floats to "
                             f"{len(ACTIONS)} logits")
        for (w, b), (w2, _) in zip(self.layers, self.layers[1:], strict=False):
            if w.shape[1] != b.shape[0] or w.shape[1] != w2.shape[0]:
                raise ValueError("the layers' shapes do not chain")
        self.sample = sample
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        #: Free-form facts about the policy (how it was trained), saved with it.
        self.meta = dict(meta or {})

    def logits(self, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        x = np.asarray(obs, dtype=np.float32)
        last = len(self.layers) - 1
        for k, (w, b) in enumerate(self.layers):
            x = x @ w  # a fresh array: the rest is done in place
            x += b
            if k < last:
                np.tanh(x, out=x)
        return x

    def __call__(self, obs: npt.NDArray[np.float32],
                 mask: npt.NDArray[np.int8]) -> npt.NDArray[np.int64]:
        logits = self.logits(obs)
        if not self.sample:
            np.putmask(logits, mask == 0, ILLEGAL_LOGIT)  # masked_argmax, in place
            best: npt.NDArray[np.int64] = logits.argmax(axis=1)
            return best
        z = np.where(mask != 0, logits, -np.inf)
        z = z - z.max(axis=1, keepdims=True)
        p = np.exp(z)
        cum = np.cumsum(p / p.sum(axis=1, keepdims=True), axis=1)
        u = self.rng.random((len(cum), 1))
        picks: npt.NDArray[np.int64] = np.minimum((cum < u).sum(axis=1), len(ACTIONS) - 1)
        return np.where(mask[np.arange(len(picks)), picks] != 0, picks,
                        masked_argmax(logits, mask))

    @property
    def parameters(self) -> int:
        return sum(w.size + b.size for w, b in self.layers)

    def save(self, path: str | Path) -> None:
        """One ``.npz`` file: ``w0``, ``b0``, ``w1`` … and the ``meta`` as JSON text."""
        import json

        arrays: dict[str, Any] = {f"{kind}{k}": a for k, (w, b) in enumerate(self.layers)
                                  for kind, a in (("w", w), ("b", b))}
        arrays["meta"] = np.array(json.dumps(self.meta, sort_keys=True))
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path, sample: bool = False, seed: int = 0) -> MLPPolicy:
        """A policy saved by :meth:`save`; a file that is not one, or breaks the bounds
        of :mod:`trashcards.envs.policyfiles`, is refused in one line
        (:class:`~trashcards.envs.policyfiles.PolicyFileError`)."""
        from .npz import read_npz  # bounded: the file may come from anyone

        layers, meta = read_npz(path)
        return cls(layers, sample=sample, seed=seed, meta=meta)


class SnapshotPool:
    """Past versions of a policy, for self-play: :meth:`add` keeps a copy (the oldest
    goes once there are ``capacity``), :meth:`sample` picks the one that plays next,
    uniformly with ``np.random.default_rng(seed)``, and calling the pool calls it. The
    same seed and the same snapshots give the same picks."""

    def __init__(self, capacity: int = 16, seed: int = 0) -> None:
        if capacity < 1:
            raise ValueError(f"capacity must be at least 1, got {capacity}")
        self.capacity = capacity
        self.rng = np.random.default_rng(seed)
        self.snapshots: list[BatchedPolicy] = []
        self.current = -1

    def add(self, policy: BatchedPolicy) -> None:
        self.snapshots.append(copy.deepcopy(policy))
        if len(self.snapshots) > self.capacity:
            self.snapshots.pop(0)
        if self.current < 0 or self.current >= len(self.snapshots):
            self.current = len(self.snapshots) - 1

    def sample(self) -> int:
        """Pick the snapshot that plays from now on; its index in :attr:`snapshots`."""
        if not self.snapshots:
            raise ValueError("the pool is empty: add a snapshot first")
        self.current = int(self.rng.integers(len(self.snapshots)))
        return self.current

    def __call__(self, obs: npt.NDArray[np.float32],
                 mask: npt.NDArray[np.int8]) -> npt.ArrayLike:
        if self.current < 0:
            raise ValueError("the pool is empty: add a snapshot first")
        return self.snapshots[self.current](obs, mask)


class PolicyBot:
    """A batched policy as a bot: ``choose(view)`` asks it about that one view, unless
    only one action is legal there, which it takes without asking (as the vector
    environment does for its policy opponents: the same policy plays the same game in
    both, its random draws included)."""

    def __init__(self, policy: BatchedPolicy, name: str = "policy") -> None:
        self.policy = policy
        self.name = name

    def choose(self, view: View) -> Action:
        mask = action_mask(view)[None, :]
        index = int(policy_actions(self.policy, mask,
                                   lambda: observation(view)[None, :])[0])
        if not 0 <= index < len(ACTIONS) or not mask[0, index]:
            raise ValueError(f"the policy chose {index}, which is not legal here")
        return ACTIONS[index]

    def __repr__(self) -> str:
        return f"PolicyBot({self.name})"
