"""Multi-agent plumbing: PettingZoo's parallel API over the AEC match, ``state()`` for
centralised critics, the vector environment where every seat is an agent, and
``render_mode`` on the vector environments (issue 29)."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode
from pettingzoo.test import parallel_api_test

from trashcards.envs.observation import OBSERVATION_SIZE, observation
from trashcards.envs.pettingzoo import env, parallel_env
from trashcards.envs.seats import TrashSeatsVectorEnv
from trashcards.envs.vector import TrashVectorEnv
from trashcards.pictures import table_text
from trashcards.sim.arrays import to_state
from trashcards.views import view


def first_legal(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
    return mask.argmax(axis=1)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_parallel_env_passes_pettingzoo_s_parallel_api_test(players: int):
    parallel_api_test(parallel_env(players=players, preset="kids", dict_observations=True),
                      num_cycles=2000)


def test_a_parallel_match_plays_the_agent_to_act_and_is_zero_sum():
    table = parallel_env(players=3)
    _obs, infos = table.reset(seed=3)
    rng = np.random.default_rng(0)
    total = dict.fromkeys(table.possible_agents, 0.0)
    while table.agents:
        acting = [a for a in table.agents if infos[a]["action_mask"].any()]
        assert len(acting) == 1
        actions = dict.fromkeys(table.agents, 0)
        actions[acting[0]] = int(rng.choice(np.flatnonzero(infos[acting[0]]["action_mask"])))
        _obs, rewards, _terms, _truncs, infos = table.step(actions)
        for agent, reward in rewards.items():
            total[agent] += reward
    assert sum(total.values()) == pytest.approx(0.0)
    assert max(total.values()) == 1.0


def test_state_is_every_seat_s_observation_in_seat_order():
    table = env(players=3, preset="jokers")
    table.reset(seed=4)
    raw = table.unwrapped
    for _ in range(40):
        state = raw.state()
        assert state.shape == raw.state_space.shape == (3 * OBSERVATION_SIZE,)
        for seat in range(3):
            expected = observation(raw.episode.view(seat))
            assert np.array_equal(state[seat * OBSERVATION_SIZE:(seat + 1) * OBSERVATION_SIZE],
                                  expected)
        mask = table.infos[table.agent_selection]["action_mask"]
        table.step(int(np.flatnonzero(mask)[0]))
    assert np.array_equal(parallel_env(players=2).unwrapped.state_space.shape, (466,))


@pytest.mark.numba_compile
@pytest.mark.parametrize(("players", "preset"), [(2, "standard"), (3, "kids"),
                                                 (4, "call-trash")])
def test_every_seat_an_agent_plays_the_matches_the_vector_env_plays(players: int,
                                                                     preset: str):
    """The same policy at every seat gives, table by table, the winner of the vector env
    where seat 0 is the agent and the others that policy as opponents."""
    n = 48
    seats = TrashSeatsVectorEnv(n, players=players, preset=preset)
    single = TrashVectorEnv(n, [first_legal] * (players - 1), preset=preset,
                            autoreset_mode=AutoresetMode.DISABLED)
    obs, info = seats.reset(seed=11)
    winners = np.full(n, -1)
    totals = np.zeros((n, players))
    done = np.zeros(n, dtype=bool)
    while not done.all():
        assert (info["action_mask"][~done].any(axis=1)).all()
        acts = first_legal(obs, info["action_mask"])
        obs, rewards, terms, truncs, info = seats.step(acts)
        assert rewards.sum(axis=1) == pytest.approx(np.zeros(n))
        new = (terms | truncs) & ~done
        totals[~done] += rewards[~done]
        winners[new & terms] = rewards[new & terms].argmax(axis=1)
        done |= new
    obs1, info1 = single.reset(seed=11)
    ended = np.zeros(n, dtype=bool)
    won = np.zeros(n, dtype=bool)
    while not ended.all():
        obs1, r, te, tr, info1 = single.step(first_legal(obs1, info1["action_mask"]))
        won |= (te & (r > 0)) & ~ended
        ended |= te | tr
    assert np.array_equal(winners == 0, won)
    assert (totals.max(axis=1) == 1.0).all()


@pytest.mark.numba_compile
def test_the_seats_env_reports_the_seat_to_act_and_a_state_of_every_seat():
    seats = TrashSeatsVectorEnv(8, players=3, preset="kids", render_mode="ansi")
    obs, info = seats.reset(seed=2)
    for _ in range(30):
        table = seats.tables
        for i in range(8):
            seat = int(info["seat"][i])
            seen = view(table.state(i), seat)
            assert np.array_equal(obs[i], observation(seen))
            assert seen.to_act == seat
        state = seats.state()
        assert state.shape == (8, 3 * OBSERVATION_SIZE)
        for seat in range(3):
            assert np.array_equal(state[3, seat * OBSERVATION_SIZE:(seat + 1) * OBSERVATION_SIZE],
                                  observation(view(seats.tables.state(3), seat)))
        obs, _r, _te, _tr, info = seats.step(first_legal(obs, info["action_mask"]))
    texts = seats.render()
    assert texts is not None
    assert texts[0] == table_text(view(to_state(seats.tables.table, seats.tables.st[0],
                                                seats.tables.ky[0],
                                                ["player_0", "player_1", "player_2"]), None))
    assert "player_2" in texts[0]
    assert "bot:" not in texts[0]
    bad = np.where(info["action_mask"][:, 14] == 0, 14, 0)
    with pytest.raises(ValueError, match="illegal action"):
        seats.step(bad)


@pytest.mark.numba_compile
def test_the_vector_env_renders_each_table_as_its_agent_sees_it(capsys: pytest.CaptureFixture[str]):
    ansi = TrashVectorEnv(3, ["greedy"], render_mode="ansi")
    ansi.reset(seed=1)
    texts = ansi.render()
    assert texts is not None
    assert texts == tuple(table_text(ansi.tables.view(i)) for i in range(3))
    assert TrashVectorEnv(2, ["greedy"]).render() is None
    human = TrashVectorEnv(2, ["greedy"], render_mode="human")
    human.reset(seed=1)
    assert table_text(human.tables.view(1)) in capsys.readouterr().out
    with pytest.raises(ValueError, match="render_mode"):
        TrashVectorEnv(2, ["greedy"], render_mode="rgb_array")
