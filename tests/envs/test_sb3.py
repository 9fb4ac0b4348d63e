"""Gymnasium's vector entry point and the Stable-Baselines3 adapter: ``make_vec`` builds
the vector env, the adapter follows SB3's autoreset conventions on the very matches of the
vector env, and sb3-contrib's ``MaskablePPO`` trains through it without an illegal move."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.vector import AutoresetMode

from trashcards.envs import ENV_ID
from trashcards.envs.vector import TrashVectorEnv

pytestmark = [pytest.mark.torch, pytest.mark.numba_compile]
sb3_contrib = pytest.importorskip("sb3_contrib")


def test_make_vec_builds_the_vector_env_through_its_entry_point():
    for mode in ("vector_entry_point", None):
        venv = gymnasium.make_vec(ENV_ID, num_envs=6, vectorization_mode=mode,
                                  opponents=["counter"], preset="kids")
        assert isinstance(venv, TrashVectorEnv)
        assert venv.num_envs == 6
        obs, info = venv.reset(seed=3)
        direct = TrashVectorEnv(6, opponents=["counter"], preset="kids")
        again, info2 = direct.reset(seed=3)
        assert np.array_equal(obs, again)
        assert np.array_equal(info["action_mask"], info2["action_mask"])


def test_the_sb3_adapter_resets_at_once_and_keeps_the_final_observation():
    from trashcards.envs.sb3 import TrashSB3VecEnv

    venv = TrashSB3VecEnv(5, opponents=["greedy"], preset="kids", max_moves=40)
    same = TrashVectorEnv(5, opponents=["greedy"], preset="kids", max_moves=40,
                          autoreset_mode=AutoresetMode.SAME_STEP)
    venv.seed(9)
    obs = venv.reset()
    expected, info = same.reset(seed=9)
    assert np.array_equal(obs, expected)
    rng = np.random.default_rng(2)
    ended = truncations = 0
    for _ in range(150):
        masks = np.stack(venv.env_method("action_masks"))
        assert np.array_equal(masks, info["action_mask"].astype(bool))
        assert np.array_equal(masks, venv.action_masks())
        actions = (masks * rng.random(masks.shape)).argmax(axis=1)
        venv.step_async(actions)
        obs, rewards, dones, infos = venv.step_wait()
        expected, r, te, tr, info = same.step(actions)
        assert np.array_equal(obs, expected)
        assert np.array_equal(rewards, r.astype(np.float32))
        assert np.array_equal(dones, te | tr)
        for i in np.flatnonzero(dones):
            assert np.array_equal(infos[i]["terminal_observation"], info["final_obs"][i])
            assert infos[i]["TimeLimit.truncated"] == bool(tr[i] and not te[i])
            ended += 1
            truncations += infos[i]["TimeLimit.truncated"]
        assert all(not infos[i] for i in np.flatnonzero(~dones))
    assert ended > 5
    assert truncations > 0


def test_maskable_ppo_trains_through_the_adapter_without_illegal_moves():
    from sb3_contrib import MaskablePPO

    from trashcards.envs.sb3 import TrashSB3VecEnv

    venv = TrashSB3VecEnv(16, opponents=["random"], preset="kids", reward="round")
    seen_illegal = []
    original = venv.step_wait

    def step_wait():
        out = original()
        seen_illegal.extend(i for i, inf in enumerate(out[3]) if inf.get("illegal"))
        return out

    venv.step_wait = step_wait
    model = MaskablePPO("MlpPolicy", venv, n_steps=16, batch_size=64, n_epochs=1, seed=0,
                        policy_kwargs={"net_arch": [32]}, device="cpu")
    model.learn(16 * 16 * 2)
    assert model.num_timesteps >= 16 * 16 * 2
    assert seen_illegal == []
