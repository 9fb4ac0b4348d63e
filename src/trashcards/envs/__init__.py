"""Reinforcement-learning environments (the ``envs`` extra: gymnasium, pettingzoo,
open_spiel, numpy, numba). Importing this package registers ``trashcards/Trash-v0`` with
Gymnasium.

* :mod:`trashcards.envs.public` — the public int encoding of a view (100 numbers);
* :mod:`trashcards.envs.observation` — the float observation computed from it, batched;
* :mod:`trashcards.envs.actions` — the fixed action list and the legal-action mask;
* :mod:`trashcards.envs.episode` — one match as an episode: seeded chance, rewards, record;
* :mod:`trashcards.envs.pettingzoo` — the PettingZoo AEC environment (``env``, ``raw_env``);
* :mod:`trashcards.envs.gymnasium` — the single-agent Gymnasium environment;
* :mod:`trashcards.envs.openspiel` — the OpenSpiel game ``python_trash`` (registered when
  imported);
* :mod:`trashcards.envs.vector` — ``TrashVectorEnv``, a Gymnasium ``VectorEnv`` of many
  tables on the numba kernel (imported on its own: it loads numba), also
  ``gymnasium.make_vec("trashcards/Trash-v0", num_envs=N)``;
* :mod:`trashcards.envs.sb3` — ``TrashSB3VecEnv``, the vector env as a Stable-Baselines3
  ``VecEnv`` with ``action_masks()`` for sb3-contrib's ``MaskablePPO`` (the ``train``
  extra).

* :mod:`trashcards.envs.policy` — batched numpy policies: an MLP, a snapshot pool for
  self-play, a policy as a bot;
* :mod:`trashcards.envs.learned` — the shipped agent, the ``learned`` bot (numpy only).

Every environment decides nothing from a state: observations and masks are made from
views, or in the vector environment from the kernel's public fields only (``docs/envs.md``
documents every feature). Positions are drawn as text by :mod:`trashcards.pictures`.
"""

from __future__ import annotations

from .actions import ACTIONS, NUM_ACTIONS, action_index, action_mask
from .observation import FEATURES, OBSERVATION_SIZE, observation_batch
from .public import public_array

# (The one-view form, ``trashcards.envs.observation.observation``, is not re-exported: it
# would hide the module of the same name.)
__all__ = ["ACTIONS", "ENV_ID", "FEATURES", "NUM_ACTIONS", "OBSERVATION_SIZE",
           "action_index", "action_mask", "observation_batch", "public_array"]

#: The Gymnasium id of the single-agent environment.
ENV_ID = "trashcards/Trash-v0"

try:  # the learned bot needs only numpy, so this package imports without gymnasium
    import gymnasium
except ImportError:  # pragma: no cover - the envs extra is installed in the tests
    gymnasium = None  # type: ignore[assignment]

if gymnasium is not None and ENV_ID not in gymnasium.registry:
    # ``gymnasium.make_vec(ENV_ID, num_envs=N, vectorization_mode="vector_entry_point")``
    # (Gymnasium's default mode once a vector entry point exists) builds the vector env.
    gymnasium.register(id=ENV_ID, entry_point="trashcards.envs.gymnasium:TrashEnv",
                       vector_entry_point="trashcards.envs.vector:TrashVectorEnv")
