"""Batched policies for the arena's tests, loaded as ``tests.arena.policies:NAME``."""

from __future__ import annotations

import numpy as np


def first_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The lowest legal action index: the stock, or the lowest wild slot (no discards)."""
    return mask.argmax(axis=1)


def last_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """The highest legal action index (always calls, trashes a wild if it may)."""
    return mask.shape[1] - 1 - mask[:, ::-1].argmax(axis=1)
