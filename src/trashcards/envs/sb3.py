"""The vector environment as a Stable-Baselines3 ``VecEnv`` (the ``train`` extra).

>>> from sb3_contrib import MaskablePPO                              # doctest: +SKIP
>>> from trashcards.envs.sb3 import TrashSB3VecEnv
>>> venv = TrashSB3VecEnv(num_envs=256, opponents=["greedy"], preset="standard")
>>> model = MaskablePPO("MlpPolicy", venv, n_steps=64).learn(100_000)  # doctest: +SKIP

:class:`TrashSB3VecEnv` wraps :class:`~trashcards.envs.vector.TrashVectorEnv` (every
keyword is passed on to it) in SB3's conventions: a table whose episode ends is reset at
once (``SAME_STEP``), ``dones`` is termination or truncation, the last observation is in
that table's ``infos[i]["terminal_observation"]`` and a truncation sets
``infos[i]["TimeLimit.truncated"]``. ``action_masks()`` (and
``env_method("action_masks")``, which sb3-contrib's ``get_action_masks`` calls) gives the
``(N, 15)`` boolean masks of the legal actions, so ``MaskablePPO`` never samples an
illegal one. ``seed(s)`` then ``reset()`` gives table ``i`` the run seed ``s + i``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium.vector import AutoresetMode
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvStepReturn

from .vector import TrashVectorEnv

__all__ = ["TrashSB3VecEnv"]


class TrashSB3VecEnv(VecEnv):
    """``TrashVectorEnv(**kwargs)`` as an SB3 ``VecEnv`` (see the module's text)."""

    def __init__(self, num_envs: int = 1024, **kwargs: Any) -> None:
        if "autoreset_mode" in kwargs:
            raise ValueError("TrashSB3VecEnv always resets at once (SB3's convention): "
                             "leave out autoreset_mode")
        self.venv = TrashVectorEnv(num_envs, autoreset_mode=AutoresetMode.SAME_STEP,
                                   **kwargs)
        super().__init__(num_envs, self.venv.single_observation_space,
                         self.venv.single_action_space)
        self._actions: npt.NDArray[np.int64] = np.zeros(num_envs, dtype=np.int64)

    def reset(self) -> npt.NDArray[np.float32]:
        seeds = self._seeds
        seed: list[int] | None = None
        if any(s is not None for s in seeds):
            seed = [int(s) if s is not None else int(self.venv.np_random.integers(2**62))
                    for s in seeds]
        obs, _info = self.venv.reset(seed=seed)
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: npt.NDArray[Any]) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self) -> VecEnvStepReturn:
        obs, rewards, terminated, truncated, info = self.venv.step(self._actions)
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if dones.any():
            final = info["final_obs"]
            for i in np.flatnonzero(dones).tolist():
                infos[i]["terminal_observation"] = final[i]
                infos[i]["TimeLimit.truncated"] = bool(truncated[i] and not terminated[i])
        if "illegal" in info:
            for i in np.flatnonzero(info["illegal"]).tolist():
                infos[i]["illegal"] = True
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every table, ``(N, 15)`` booleans."""
        return self.venv.action_masks()

    def close(self) -> None:
        self.venv.close()

    def _indices(self, indices: int | Iterable[int] | None) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)

    def get_attr(self, attr_name: str, indices: int | Iterable[int] | None = None) -> list[Any]:
        """The vector env's attribute, once per table asked for."""
        value = getattr(self.venv, attr_name)
        return [value for _ in self._indices(indices)]

    def set_attr(self, attr_name: str, value: Any,
                 indices: int | Iterable[int] | None = None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name: str, *method_args: Any,
                   indices: int | Iterable[int] | None = None,
                   **method_kwargs: Any) -> list[Any]:
        """``action_masks`` gives each table's mask; other methods are the vector
        env's, called once."""
        which = self._indices(indices)
        if method_name == "action_masks":
            return list(self.venv.action_masks()[which])
        result = getattr(self.venv, method_name)(*method_args, **method_kwargs)
        return [result for _ in which]

    def env_is_wrapped(self, wrapper_class: type[Any],
                       indices: int | Iterable[int] | None = None) -> list[bool]:
        return [False for _ in self._indices(indices)]
