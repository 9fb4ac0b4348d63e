"""Every environment pickles and deep-copies mid-episode, and the copy plays on exactly as
the original does (also with ``streams="kernel"``)."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
import pyspiel
import pytest

import trashcards.envs.openspiel  # noqa: F401 - registers python_trash
from trashcards.envs import ENV_ID
from trashcards.envs.pettingzoo import env, raw_env
from trashcards.envs.vector import TrashVectorEnv

ROUND_TRIPS: dict[str, Callable[[Any], Any]] = {
    "pickle": lambda e: pickle.loads(pickle.dumps(e)),
    "deepcopy": copy.deepcopy,
}


def _gym_steps(e: Any, rng: np.random.Generator, n: int) -> list[Any]:
    out = []
    info = e.unwrapped._info()
    for _ in range(n):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, term, trunc, info = e.step(action)
        out.append((obs.tolist(), float(reward), term, trunc))
        if term or trunc:
            _obs, info = e.reset()
    return out


@pytest.mark.parametrize("how", ROUND_TRIPS)
@pytest.mark.parametrize("streams", ["python", "kernel"])
def test_the_gymnasium_env_copies_mid_episode(how: str, streams: str):
    original = gymnasium.make(ENV_ID, opponents=["greedy", "random"], preset="kids",
                              streams=streams)
    original.reset(seed=3)
    _gym_steps(original, np.random.default_rng(0), 7)
    twin = ROUND_TRIPS[how](original)
    assert (_gym_steps(twin, np.random.default_rng(1), 60)
            == _gym_steps(original, np.random.default_rng(1), 60))


def _aec_steps(table: Any, rng: np.random.Generator, n: int) -> list[Any]:
    out = []
    for _ in range(n):
        agent = table.agent_selection
        obs, reward, term, trunc, info = table.last()
        out.append((agent, obs.tolist(), reward, term, trunc))
        if term or trunc:
            table.step(None)
            if not table.agents:
                break
            continue
        table.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return out


@pytest.mark.parametrize("how", ROUND_TRIPS)
@pytest.mark.parametrize("make", [raw_env, env], ids=["raw_env", "env"])
def test_the_pettingzoo_env_copies_mid_episode(how: str, make: Callable[..., Any]):
    original = make(preset="kids", players=3)
    original.reset(seed=2)
    _aec_steps(original, np.random.default_rng(0), 9)
    twin = ROUND_TRIPS[how](original)
    assert (_aec_steps(twin, np.random.default_rng(1), 80)
            == _aec_steps(original, np.random.default_rng(1), 80))


@pytest.mark.parametrize("how", ROUND_TRIPS)
@pytest.mark.numba_compile
def test_the_vector_env_copies_mid_episode(how: str):
    original = TrashVectorEnv(8, opponents=["greedy"], preset="kids")
    _obs, info = original.reset(seed=4)
    rng = np.random.default_rng(0)
    for _ in range(5):
        _obs, _r, _te, _tr, info = original.step(
            (info["action_mask"] * rng.random((8, 15))).argmax(axis=1))
    twin = ROUND_TRIPS[how](original)
    noise = np.random.default_rng(1).random((40, 8, 15))
    mine, theirs = info, info
    for k in range(40):
        a = twin.step((theirs["action_mask"] * noise[k]).argmax(axis=1))
        b = original.step((mine["action_mask"] * noise[k]).argmax(axis=1))
        theirs, mine = a[4], b[4]
        for x, y in zip(a[:4], b[:4], strict=True):
            assert np.array_equal(x, y)


@pytest.mark.parametrize("how", ROUND_TRIPS)
def test_openspiel_states_and_games_copy(how: str):
    game = pyspiel.load_game("python_trash", {"players": 3, "preset": "kids"})
    state = game.new_initial_state()
    rng = np.random.default_rng(0)

    def advance(s: Any, r: np.random.Generator, n: int) -> list[str]:
        seen = []
        for _ in range(n):
            if s.is_terminal():
                break
            if s.is_chance_node():
                outcomes, probs = zip(*s.chance_outcomes(), strict=True)
                s.apply_action(int(r.choice(outcomes, p=probs)))
            else:
                s.apply_action(int(r.choice(s.legal_actions())))
            seen.append(str(s))
        return seen

    advance(state, rng, 30)
    twin = ROUND_TRIPS[how](state)
    assert advance(twin, np.random.default_rng(1), 60) == advance(state,
                                                                 np.random.default_rng(1), 60)
    assert str(ROUND_TRIPS[how](game)) == str(game)


def test_human_render_prints_the_agent_s_view(capsys):
    e = gymnasium.make(ENV_ID, preset="kids", render_mode="human")
    _obs, info = e.reset(seed=1)
    assert "Round 1" in capsys.readouterr().out
    e.step(int(np.flatnonzero(info["action_mask"])[0]))
    assert "Round 1" in capsys.readouterr().out
