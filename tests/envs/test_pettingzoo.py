"""The PettingZoo AEC environment: PettingZoo's own conformance tests, rewards, the move
cap, rendering, seeding and records."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from trashcards import IllegalActionError, Rules, view
from trashcards.envs.observation import OBSERVATION_SIZE, observation
from trashcards.envs.pettingzoo import env, raw_env
from trashcards.record import loads

from .games import PRESETS

# PettingZoo warns about every Dict observation of an environment it does not know.
DICT_WARNINGS = ("Observation is not a NumPy array",
                 "Observation space for each agent probably should be")


def mask_of(table, agent: str):
    return table.infos[agent]["action_mask"]


def play(table, seed: int, rng: np.random.Generator):
    """Random legal actions until every agent is done; the rewards each agent got."""
    table.reset(seed=seed)
    got = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        _obs, reward, terminated, truncated, info = table.last()
        got[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        table.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
    return got


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api_and_seed_tests_pass_with_warnings_as_errors(preset: str,
                                                                      players: int):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        api_test(env(preset=preset, players=players), num_cycles=1000)
        seed_test(lambda: env(preset=preset, players=players), num_cycles=500)


def test_dict_observations_still_pass_the_api_test_with_only_the_dict_warnings():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(preset="kids", players=3, dict_observations=True), num_cycles=300)
    messages = {str(w.message) for w in caught}
    assert messages
    assert all(m.startswith(DICT_WARNINGS) for m in messages)
    table = raw_env(preset="kids", players=3, dict_observations=True)
    table.reset(seed=4)
    obs = table.observe(table.agent_selection)
    assert sorted(obs) == ["action_mask", "observation"]
    assert np.array_equal(obs["action_mask"], mask_of(table, table.agent_selection))


def test_observations_are_each_agent_s_view():
    table = raw_env(preset="kids", players=3)
    table.reset(seed=4)
    for _ in range(25):
        for seat, agent in enumerate(table.agents):
            obs = table.observe(agent)
            seen = view(table.episode._match.state, seat)
            assert isinstance(obs, np.ndarray)
            assert np.array_equal(obs, observation(seen))
            acting = seat == seen.to_act
            assert mask_of(table, agent).any() == acting
        mask = mask_of(table, table.agent_selection)
        table.step(int(np.flatnonzero(mask)[-1]))


def test_the_match_winner_gets_1_and_the_others_share_minus_1():
    for players in (2, 3, 4):
        got = play(raw_env(preset="kids", players=players), seed=players,
                   rng=np.random.default_rng(players))
        rewards = sorted(got.values())
        assert rewards[-1] == 1.0
        assert rewards[:-1] == pytest.approx([-1 / (players - 1)] * (players - 1))
        assert sum(rewards) == pytest.approx(0.0)


def test_round_rewards_come_every_round():
    table = raw_env(preset="kids", players=2, reward="round")
    table.reset(seed=11)
    per_step = []
    rng = np.random.default_rng(3)
    for _agent in table.agent_iter():
        _obs, _reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        table.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if any(table.rewards.values()):
            per_step.append(dict(table.rewards))
    won = table.record().replay().rounds_won
    assert len(per_step) == sum(won) > 1  # one reward for every round won
    assert sum(r["player_0"] for r in per_step) == won[0] - won[1]
    assert all(sorted(r.values()) == [-1.0, 1.0] for r in per_step)


def test_an_episode_is_truncated_at_the_move_cap():
    table = raw_env(preset="standard", players=2, max_moves=25)
    table.reset(seed=1)
    moves = 0
    for _agent in table.agent_iter():
        _obs, reward, terminated, truncated, info = table.last()
        if terminated or truncated:
            assert truncated
            assert not terminated
            assert reward == 0
            table.step(None)
            continue
        table.step(int(np.flatnonzero(info["action_mask"])[0]))
        moves += 1
    assert moves == 25
    assert sum(1 for e in table.record().moves if e.seat is not None) == 25


def test_an_illegal_action_ends_the_match_with_minus_1_for_its_agent():
    table = env(preset="kids", players=2)
    table.reset(seed=2)
    agent = table.agent_selection
    mask = table.infos[agent]["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table.step(illegal)
    assert all(table.terminations.values())
    assert table.rewards[agent] == -1
    raw = raw_env(preset="kids", players=2)
    raw.reset(seed=2)
    with pytest.raises(IllegalActionError):
        raw.step(illegal)


def test_the_same_seed_gives_the_same_match_and_a_record_that_replays():
    first = raw_env(preset="call-trash", players=3)
    second = raw_env(preset="call-trash", players=3)
    play(first, seed=7, rng=np.random.default_rng(1))
    play(second, seed=7, rng=np.random.default_rng(1))
    record = first.record()
    assert record == second.record()
    again = loads(record.dumps())
    assert again.replay() == first.episode._match.state
    assert again.replay().match_winner is not None
    play(second, seed=8, rng=np.random.default_rng(1))
    assert second.record() != record


def test_ansi_render_shows_the_position():
    table = raw_env(preset="kids", players=2, render_mode="ansi")
    table.reset(seed=3)
    picture = table.render()
    assert "Round 1" in picture
    assert "player_0" in picture
    assert "░░░" in picture
    assert "\x1b[" not in picture  # plain text
    quiet = raw_env(preset="kids")
    quiet.reset(seed=3)
    assert quiet.render() is None


def test_human_render_prints_the_position_at_every_step(capsys):
    table = raw_env(preset="kids", players=2, render_mode="human")
    table.reset(seed=3)
    first = capsys.readouterr().out
    assert "Round 1" in first
    assert "player_0" in first
    table.step(int(np.flatnonzero(mask_of(table, table.agent_selection))[0]))
    assert "Round 1" in capsys.readouterr().out
    assert table.render() is None


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="players"):
        raw_env(players=5)
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="score")
    with pytest.raises(ValueError, match="max_moves"):
        raw_env(max_moves=0)
    with pytest.raises(ValueError, match="start_size"):
        raw_env(rules={"start_size": 11})


def test_rules_may_be_a_mapping_or_a_value():
    table = raw_env(preset="kids", rules={"jokers_per_deck": 2})
    assert table.rules == Rules.preset_named("kids").with_fields({"jokers_per_deck": 2})
    assert raw_env(rules=Rules.preset_named("classic")).rules.preset == "classic"
    space = table.observation_space("player_0")
    assert space.shape == (OBSERVATION_SIZE,)
