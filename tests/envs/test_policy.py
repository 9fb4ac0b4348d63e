"""Batched numpy policies: the MLP's masked choices, its file, the self-play pool's seeded
picks, and a policy as a bot."""

from __future__ import annotations

import random

import numpy as np
import pytest

from trashcards import Rules
from trashcards.envs.actions import action_mask
from trashcards.envs.observation import OBSERVATION_SIZE
from trashcards.envs.policy import MLPPolicy, PolicyBot, SnapshotPool, masked_argmax
from trashcards.session import play_match


def mlp(seed: int, hidden: int = 8) -> MLPPolicy:
    rng = np.random.default_rng(seed)
    return MLPPolicy([(rng.normal(size=(OBSERVATION_SIZE, hidden)), rng.normal(size=hidden)),
                      (rng.normal(size=(hidden, 15)), rng.normal(size=15))])


def test_masked_argmax_never_picks_an_illegal_action():
    logits = np.array([[5.0, 1.0, 9.0], [0.0, 0.0, 0.0]])
    mask = np.array([[1, 1, 0], [0, 1, 1]], dtype=np.int8)
    assert masked_argmax(logits, mask).tolist() == [0, 1]


def test_the_mlp_plays_legal_actions_greedy_or_sampled_and_sampling_is_seeded():
    rng = np.random.default_rng(0)
    obs = rng.random((500, OBSERVATION_SIZE), dtype=np.float32)
    mask = (rng.random((500, 15)) < 0.3).astype(np.int8)
    mask[:, 0] = 1
    for policy in (mlp(1), MLPPolicy(mlp(1).layers, sample=True, seed=3)):
        acts = policy(obs, mask)
        assert mask[np.arange(500), acts].all()
    a = MLPPolicy(mlp(1).layers, sample=True, seed=3)(obs, mask)
    b = MLPPolicy(mlp(1).layers, sample=True, seed=3)(obs, mask)
    c = MLPPolicy(mlp(1).layers, sample=True, seed=4)(obs, mask)
    assert (a == b).all()
    assert (a != c).any()
    assert (a != mlp(1)(obs, mask)).any()  # sampling is not the greedy choice


def test_a_saved_mlp_loads_to_the_same_policy(tmp_path):
    policy = mlp(2)
    policy.meta["seed"] = 2
    policy.save(tmp_path / "p.npz")
    again = MLPPolicy.load(tmp_path / "p.npz")
    assert again.meta == {"seed": 2}
    obs = np.random.default_rng(0).random((20, OBSERVATION_SIZE), dtype=np.float32)
    assert np.array_equal(again.logits(obs), policy.logits(obs))
    (tmp_path / "bad.npz").write_text("nope")
    with pytest.raises(ValueError, match="not a policy"):
        MLPPolicy.load(tmp_path / "bad.npz")
    with pytest.raises(ValueError, match="233"):
        MLPPolicy([(np.zeros((5, 15)), np.zeros(15))])


def test_self_play_snapshots_are_deterministic_for_a_seed():
    def picks(seed: int) -> list[int]:
        pool = SnapshotPool(capacity=4, seed=seed)
        out = []
        for k in range(10):
            pool.add(mlp(k))
            out.append(pool.sample())
        return out

    assert picks(5) == picks(5)
    assert picks(5) != picks(6)
    pool = SnapshotPool(capacity=3, seed=0)
    with pytest.raises(ValueError, match="empty"):
        pool.sample()
    policies = [mlp(k) for k in range(5)]
    for p in policies:
        pool.add(p)
    assert len(pool.snapshots) == 3  # the oldest went
    obs = np.random.default_rng(1).random((10, OBSERVATION_SIZE), dtype=np.float32)
    mask = np.ones((10, 15), dtype=np.int8)
    index = pool.sample()
    assert np.array_equal(pool(obs, mask), policies[2 + index](obs, mask))
    policies[4].layers[0][0][:] = 0  # a snapshot is a copy
    assert pool.snapshots[2] is not policies[4]


def test_a_policy_plays_whole_matches_as_a_bot():
    rules = Rules.preset_named("kids")
    bots = [PolicyBot(mlp(3)), PolicyBot(mlp(4))]
    match = play_match(rules, ["a", "b"], bots, random.Random(1))
    assert match.over
    assert match.state.match_winner in (0, 1)


def test_a_policy_bot_takes_a_decision_with_one_legal_action_without_asking():
    asked: list[int] = []

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        asked.extend(np.count_nonzero(mask, axis=1).tolist())
        return masked_argmax(np.zeros(mask.shape), mask)

    forced = []
    bot = PolicyBot(policy)
    original = bot.choose

    def choose(view):  # counts the decisions it is given, forced ones included
        forced.append(np.count_nonzero(action_mask(view)) == 1)
        return original(view)

    bot.choose = choose  # type: ignore[method-assign]
    match = play_match(Rules.preset_named("standard"), ["a", "b"],
                       [bot, PolicyBot(mlp(4))], random.Random(3))
    assert match.over
    assert any(forced)
    assert not all(forced)
    assert len(asked) == forced.count(False)
    assert min(asked) >= 2  # the policy saw only real choices


def test_the_mlp_plays_its_most_likely_legal_action_and_leaves_its_input_alone():
    policy = mlp(5)
    rng = np.random.default_rng(2)
    obs = rng.random((40, OBSERVATION_SIZE)).astype(np.float32)
    mask = (rng.random((40, 15)) < 0.3).astype(np.int8)
    mask[:, 0] = 1
    kept = obs.copy(), mask.copy()
    assert np.array_equal(policy(obs, mask), masked_argmax(policy.logits(obs), mask))
    assert np.array_equal(obs, kept[0])
    assert np.array_equal(mask, kept[1])


def test_the_shipped_learned_agent_is_a_bot_with_its_training_command():
    from trashcards.bots import BOTS, make_bot
    from trashcards.envs.learned import WEIGHTS, learned_policy

    assert "learned" in BOTS
    assert WEIGHTS.stat().st_size < 300_000  # small enough for the package
    policy = learned_policy()
    assert "examples/selfplay.py" in policy.meta["command"]
    assert policy.meta["settings"]["seed"] == 0
    assert "/tmp" not in str(policy.meta)
    rules = Rules.preset_named("standard")
    bots = [make_bot("learned", random.Random(0)), make_bot("greedy", random.Random(1))]
    match = play_match(rules, ["learned", "greedy"], bots, random.Random(2))
    assert match.over


def test_the_learned_bot_needs_only_numpy_to_decide():
    import subprocess
    import sys

    code = ("import sys, random\n"
            "sys.modules['gymnasium'] = None\n"  # importing gymnasium now fails
            "import trashcards.envs.learned\n"  # registers the learned bot
            "from trashcards.bots import make_bot\n"
            "from trashcards import Rules, new_match, view\n"
            "from trashcards.session import play_match\n"
            "bots = [make_bot('learned', random.Random(0)), make_bot('random', random.Random(0))]\n"
            "m = play_match(Rules.preset_named('kids'), ['a', 'b'], bots, random.Random(0))\n"
            "assert m.over\n"
            "assert not [k for k in sys.modules if k.startswith(('torch', 'numba'))]\n"
            "print('ok')\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
