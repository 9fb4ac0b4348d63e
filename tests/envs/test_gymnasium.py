"""The single-agent Gymnasium environment: Gymnasium's checker, the registry, opponents by
bot name, masks for MaskablePPO, rewards, seeding and records."""

from __future__ import annotations

import random
import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from trashcards import Rules, view
from trashcards.bots import GreedyBot, make_bot
from trashcards.envs import ENV_ID
from trashcards.envs.actions import action_index
from trashcards.envs.gymnasium import ILLEGAL_REWARD, TrashEnv
from trashcards.envs.observation import observation
from trashcards.record import loads
from trashcards.session import play_match

CONFIGS = [
    {"opponents": ["greedy"], "preset": "standard"},
    {"opponents": ["random", "kid"], "preset": "call-trash", "seat": 1},
    {"opponents": ["counter", "greedy", "random"], "preset": "last-chance", "seat": 3},
    {"opponents": ["greedy"], "preset": "classic"},
    {"opponents": ["stockonly", "sometimes"], "preset": "kids", "reward": "round"},
]


def run(env: gymnasium.Env, seed: int, rng: np.random.Generator) -> tuple[float, int]:
    """Random legal actions for a whole episode: (total reward, steps)."""
    _obs, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _obs, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        done = terminated or truncated
    return total, steps


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"{c['preset']}-{len(c['opponents'])}")
def test_gymnasium_check_env_passes_with_no_warnings(config):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(gymnasium.make(ENV_ID, **config, render_mode="ansi").unwrapped)
        check_env(gymnasium.make(ENV_ID, **config).unwrapped)
    assert [str(w.message) for w in caught] == []


def test_make_plays_the_agent_against_the_named_bots():
    env = gymnasium.make(ENV_ID, opponents=["greedy", "random"], preset="kids", seat=1)
    obs, info = env.reset(seed=5)
    inner = env.unwrapped
    assert isinstance(inner, TrashEnv)
    assert inner.record().players == ("bot:greedy", "agent", "bot:random")
    seen = view(inner.episode._match.state, 1)
    assert seen.to_act == 1
    assert np.array_equal(obs, observation(seen))
    assert np.array_equal(info["action_mask"].astype(bool), inner.action_masks())
    assert env.get_wrapper_attr("action_masks")().dtype == bool


def test_the_bots_play_as_they_would_in_a_match():
    """The agent playing greedy's moves against greedy gives the very match two greedy
    bots play with the same chance."""
    env = TrashEnv(opponents=["greedy"], preset="kids")
    _obs, _info = env.reset(seed=9)
    me = GreedyBot(random.Random(0))
    done = False
    while not done:
        choice = me.choose(env.episode.view(0))
        _obs, _reward, terminated, truncated, _info = env.step(action_index(choice))
        done = terminated or truncated
    bots = [GreedyBot(random.Random(0)), GreedyBot(random.Random(0))]
    match = play_match(env.rules, ("agent", "bot:greedy"), bots,
                       random.Random(env.episode.seed))
    assert env.record() == match.record
    assert match.over


def test_match_reward_is_plus_1_or_split_minus_1():
    env = TrashEnv(opponents=["random", "random"], preset="kids")
    totals = {run(env, seed, np.random.default_rng(seed))[0] for seed in range(40)}
    assert totals <= {1.0, -0.5}
    assert len(totals) == 2


def test_round_rewards_sum_to_the_rounds_won_less_the_rounds_lost():
    env = TrashEnv(opponents=["random"], preset="kids", reward="round")
    total, _steps = run(env, 3, np.random.default_rng(3))
    won = env.record().replay().rounds_won
    assert total == won[0] - won[1]


def test_the_same_seed_gives_the_same_episode():
    env = TrashEnv(opponents=["kid", "sometimes"], preset="jokers")
    first = run(env, 21, np.random.default_rng(0)), env.record()
    second = run(env, 21, np.random.default_rng(0)), env.record()
    assert first == second
    assert run(env, 22, np.random.default_rng(0))[1] != first[0][1] or env.record() != first[1]
    assert loads(first[1].dumps()).replay() == first[1].replay()


def test_an_illegal_action_ends_the_episode_with_a_reason():
    env = TrashEnv(opponents=["greedy"], preset="kids")
    _obs, info = env.reset(seed=1)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _obs, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated) == (ILLEGAL_REWARD, True, False)
    assert "discard" in info["illegal"] or "wild" in info["illegal"]
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_truncation_at_the_move_cap():
    env = TrashEnv(opponents=["greedy"], preset="standard", max_moves=30)
    _total, steps = run(env, 4, np.random.default_rng(4))
    assert steps <= 30
    moves = [e for e in env.record().moves if e.seat is not None]
    assert len(moves) == 30


def test_a_match_over_before_the_agent_acts_is_dealt_again():
    """Classic is one round: the bot may fill its board in the first turn."""
    env = TrashEnv(opponents=["greedy"], preset="classic", seat=1)
    for seed in range(60):
        _obs, info = env.reset(seed=seed)
        assert info["action_mask"].any()
        assert not env.episode.done


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="unknown bot"):
        TrashEnv(opponents=["nobody"])
    with pytest.raises(ValueError, match="seat"):
        TrashEnv(opponents=["greedy"], seat=2)
    with pytest.raises(ValueError, match="players"):
        TrashEnv(opponents=["greedy"] * 4)
    with pytest.raises(ValueError, match="render_mode"):
        TrashEnv(render_mode="rgb_array")


def test_opponents_may_be_bot_objects():
    env = TrashEnv(opponents=[make_bot("counter", random.Random(1))],
                   rules=Rules.preset_named("kids"))
    total, _steps = run(env, 2, np.random.default_rng(2))
    assert total in (1.0, -1.0)
    assert env.record().players == ("agent", "bot:CounterBot")
