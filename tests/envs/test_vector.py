"""The vectorized environment on the kernel: the same trajectories as the single Gymnasium
environment on the kernel's streams (observations, rewards, terminations, truncations,
masks), observations blind to hidden cards, autoreset, seeding and refusals."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("numba")

from gymnasium.vector import AutoresetMode

from trashcards import Rules
from trashcards.envs.gymnasium import ILLEGAL_REWARD, TrashEnv
from trashcards.envs.observation import (
    OBSERVATION_SIZE,
    observation,
    observation_batch,
    observation_recipe,
)
from trashcards.envs.policy import masked_argmax
from trashcards.envs.vector import TrashVectorEnv
from trashcards.sim.arrays import load_state
from trashcards.sim.kernel import vector as kernel
from trashcards.views import view

from .games import permute_hidden

CONFIGS = [
    {"opponents": ["greedy"], "preset": "standard"},
    {"opponents": ["random", "kid"], "preset": "call-trash", "seat": 1, "reward": "round"},
    {"opponents": ["counter", "greedy", "random"], "preset": "last-chance", "seat": 3},
    {"opponents": ["sometimes"], "preset": "kids", "reward": "round", "max_moves": 40},
    {"opponents": ["stockonly", "greedy"], "preset": "kings-wild", "max_moves": 90},
]


def _pick(masks: np.ndarray, rng: np.random.Generator, illegal: float = 0.0) -> np.ndarray:
    """A random legal action per row (any action where nothing is legal); with
    probability ``illegal`` an illegal one instead."""
    out = np.zeros(len(masks), dtype=np.int64)
    for i, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        wrong = np.flatnonzero(mask == 0)
        if len(legal) and (rng.random() >= illegal or not len(wrong)):
            out[i] = rng.choice(legal)
        else:
            out[i] = rng.choice(wrong) if len(wrong) else 0
    return out


class LinearPolicy:
    """A fixed numpy policy: the legal action of highest ``obs @ weights``; it counts
    the rows it was asked about."""

    def __init__(self, seed: int) -> None:
        self.weights = np.random.default_rng(seed).normal(size=(OBSERVATION_SIZE, 15))
        self.rows = 0
        self.calls = 0
        self.largest = 0

    def __call__(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        assert obs.dtype == np.float32
        assert mask.dtype == np.int8
        assert obs.shape == (len(mask), OBSERVATION_SIZE)
        self.rows += len(obs)
        self.calls += 1
        self.largest = max(self.largest, len(obs))
        return masked_argmax(obs @ self.weights, mask)


POLICY_CONFIGS = [
    {"opponents": [LinearPolicy(1)], "preset": "standard"},
    {"opponents": [LinearPolicy(2), "kid"], "preset": "call-trash", "seat": 1,
     "reward": "round"},
    {"opponents": ["counter", LinearPolicy(3), LinearPolicy(4)], "preset": "last-chance",
     "seat": 3},
    {"opponents": [LinearPolicy(5)], "preset": "kids", "reward": "round", "max_moves": 40},
]


@pytest.mark.parametrize("config", CONFIGS + POLICY_CONFIGS)
@pytest.mark.numba_compile
def test_the_vector_env_plays_what_the_single_env_plays_on_the_kernels_streams(config):
    """Table i after ``reset(seed=s)`` and ``TrashEnv(streams="kernel")`` after
    ``reset(seed=s + i)``, fed the same actions (some illegal), give equal observations,
    masks, rewards, terminations and truncations at every step, across autoresets; also
    with fixed numpy policies as opponents."""
    n, seed = 6, 40
    vec = TrashVectorEnv(n, **config)
    singles = [TrashEnv(**config, streams="kernel") for _ in range(n)]
    obs, info = vec.reset(seed=seed)
    for i, env in enumerate(singles):
        o, inf = env.reset(seed=seed + i)
        assert (obs[i] == o).all()
        assert (info["action_mask"][i] == inf["action_mask"]).all()
    rng = np.random.default_rng(7)
    ended = np.zeros(n, dtype=bool)
    episodes = 0
    for _ in range(300):
        actions = _pick(info["action_mask"], rng, illegal=0.01)
        obs, rewards, terms, truncs, info = vec.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:  # NEXT_STEP: the vector env resets this table now
                o, inf = env.reset()
                r, te, tr = 0.0, False, False
            else:
                o, r, te, tr, inf = env.step(int(actions[i]))
            assert (obs[i] == o).all(), (i, np.flatnonzero(obs[i] != o))
            assert (info["action_mask"][i] == inf["action_mask"]).all()
            assert (rewards[i], terms[i], truncs[i]) == (r, te, tr)
        ended = terms | truncs
        episodes += int(ended.sum())
    assert episodes >= n


@pytest.mark.numba_compile
def test_same_step_autoreset_gives_the_final_observation_and_the_next_episode():
    config = {"opponents": ["greedy"], "preset": "kids"}
    vec = TrashVectorEnv(4, **config, autoreset_mode=AutoresetMode.SAME_STEP)
    singles = [TrashEnv(**config, streams="kernel") for _ in range(4)]
    _obs, info = vec.reset(seed=5)
    for i, env in enumerate(singles):
        env.reset(seed=5 + i)
    rng = np.random.default_rng(1)
    finals = 0
    for _ in range(200):
        actions = _pick(info["action_mask"], rng)
        obs, rewards, terms, truncs, info = vec.step(actions)
        for i, env in enumerate(singles):
            o, r, te, tr, inf = env.step(int(actions[i]))
            assert (rewards[i], terms[i], truncs[i]) == (r, te, tr)
            if te or tr:
                assert info["_final_obs"][i]
                assert info["_final_info"][i]
                assert (info["final_obs"][i] == o).all()
                final = info["final_info"]
                assert final["_action_mask"][i]
                assert (final["action_mask"][i] == inf["action_mask"]).all()
                assert final.get("illegal", np.zeros(4, bool))[i] == ("illegal" in inf)
                o, _inf = env.reset()
                finals += 1
            else:
                assert not info.get("_final_obs", np.zeros(4, bool))[i]
            assert (obs[i] == o).all()
    assert finals >= 4


@pytest.mark.numba_compile
def test_next_step_autoreset_ignores_the_action_and_gives_no_reward():
    vec = TrashVectorEnv(2, ["greedy"], preset="kids")
    _obs, info = vec.reset(seed=0)
    rng = np.random.default_rng(0)
    while True:
        _obs, _r, terms, truncs, info = vec.step(_pick(info["action_mask"], rng))
        if terms.any():
            break
    i = int(np.flatnonzero(terms)[0])
    assert not info["action_mask"][i].any()  # the match is over: nothing is legal
    actions = _pick(info["action_mask"], rng)
    actions[i] = 99  # ignored
    _obs, rewards, terms, truncs, info = vec.step(actions)
    assert rewards[i] == 0.0
    assert not terms[i]
    assert not truncs[i]
    assert info["action_mask"][i][0] == 1  # a new match, at the agent's draw


@pytest.mark.numba_compile
def test_an_illegal_action_ends_that_episode_with_the_illegal_reward():
    vec = TrashVectorEnv(3, ["greedy"])
    _obs, info = vec.reset(seed=2)
    actions = _pick(info["action_mask"], np.random.default_rng(0))
    actions[1] = 14  # call: not in the standard rules
    _obs, rewards, terms, _truncs, info = vec.step(actions)
    assert rewards[1] == ILLEGAL_REWARD
    assert terms[1]
    assert info["illegal"].tolist() == [False, True, False]
    with pytest.raises(ValueError, match="one action per table"):
        vec.step([0, 0])


@pytest.mark.numba_compile
def test_disabled_autoreset_waits_for_a_masked_reset():
    vec = TrashVectorEnv(3, ["greedy"], preset="kids", autoreset_mode="Disabled")
    _obs, info = vec.reset(seed=0)
    rng = np.random.default_rng(3)
    terms = np.zeros(3, dtype=bool)
    while not terms.any():
        _obs, _r, terms, _t, info = vec.step(_pick(info["action_mask"], rng))
    ended = terms.copy()
    _obs, rewards, terms, truncs, info = vec.step(_pick(info["action_mask"], rng))
    assert terms[ended].all()
    assert not truncs[ended].any()
    assert not rewards[ended].any()
    _obs, info = vec.reset(options={"reset_mask": ended})
    assert info["action_mask"][ended, 0].all()  # new matches, at the agent's draw
    _obs, _r, terms, _t, info = vec.step(_pick(info["action_mask"], rng))
    assert not terms[ended].any()


@pytest.mark.numba_compile
def test_disabled_autoreset_repeats_each_end_as_it_was_with_no_reward():
    """With autoreset disabled, a table that ended says so again at every later step, as
    it ended: terminated after an illegal action (not marked illegal again), truncated
    at the move cap; reward 0, its action ignored."""
    vec = TrashVectorEnv(4, ["greedy"], preset="kids", max_moves=12,
                         autoreset_mode=AutoresetMode.DISABLED)
    _obs, info = vec.reset(seed=3)
    rng = np.random.default_rng(5)
    actions = _pick(info["action_mask"], rng)
    actions[0] = 14  # call: not in the kids' rules
    _obs, rewards, terms, truncs, info = vec.step(actions)
    assert (rewards[0], terms[0], truncs[0]) == (ILLEGAL_REWARD, True, False)
    assert info["illegal"].tolist() == [True, False, False, False]
    first: dict[int, tuple[bool, bool]] = {0: (True, False)}
    for _ in range(30):
        actions = _pick(info["action_mask"], rng)
        actions[list(first)] = 14  # ignored: those tables wait for a reset
        _obs, rewards, terms, truncs, info = vec.step(actions)
        assert not info.get("illegal", np.zeros(4, bool))[list(first)].any()
        for i in range(4):
            if i in first:
                assert (rewards[i], terms[i], truncs[i]) == (0.0, *first[i])
            elif terms[i] or truncs[i]:
                first[i] = (bool(terms[i]), bool(truncs[i]))
    assert (False, True) in first.values()  # some table reached the cap


@pytest.mark.numba_compile
def test_the_same_seed_gives_the_same_trajectories_and_other_seeds_others():
    def play(seed: int) -> list[np.ndarray]:
        vec = TrashVectorEnv(8, ["random", "greedy"], preset="call-trash")
        obs, info = vec.reset(seed=seed)
        rng = np.random.default_rng(0)
        out = [obs]
        for _ in range(50):
            obs, rewards, _te, _tr, info = vec.step(_pick(info["action_mask"], rng))
            out += [obs, rewards]
        return out

    a, b, c = play(1), play(1), play(2)
    assert all((x == y).all() for x, y in zip(a, b, strict=True))
    assert not all((x == y).all() for x, y in zip(a, c, strict=True))


@pytest.mark.numba_compile
def test_observations_lie_in_the_space_and_masks_have_shape_n_by_15():
    vec = TrashVectorEnv(16, ["counter", "kid", "random"], preset="jokers", seat=2)
    obs, info = vec.reset(seed=9)
    rng = np.random.default_rng(0)
    for _ in range(100):
        assert obs.shape == (16, OBSERVATION_SIZE)
        assert obs.dtype == np.float32
        assert vec.observation_space.contains(obs)
        assert info["action_mask"].shape == (16, 15)
        assert info["action_mask"].dtype == np.int8
        assert (info["action_mask"].astype(bool) == vec.action_masks()).all()
        obs, _r, _te, _tr, info = vec.step(_pick(info["action_mask"], rng))


@pytest.mark.numba_compile
def test_the_kernel_observation_equals_the_numpy_one_and_ignores_hidden_cards():
    """Every table's observation, recomputed from its state with every hidden card dealt
    elsewhere (face-down slots and stock permuted), is unchanged; and equals the numpy
    observation of the agent's view."""
    rules = Rules.preset_named("last-chance")
    vec = TrashVectorEnv(12, ["greedy", "random"], rules=rules, seat=1, copy=False)
    obs, info = vec.reset(seed=21)
    np_rng, rng = np.random.default_rng(4), random.Random(4)
    kinds, sources, params = observation_recipe(rules)
    table = vec.tables.table
    changed = 0
    for _ in range(40):
        public = np.zeros((12, 100), dtype=np.int32)
        for i in range(12):
            state = vec.tables.state(i)
            other = permute_hidden(state, rng)
            changed += other != state
            st, _keys = load_state(table, other)
            kernel.encode(table.tab, st, 1, public[i])
            assert (observation(view(state, 1)) == obs[i]).all()
        out = np.zeros((12, OBSERVATION_SIZE), dtype=np.float32)
        kernel.observation_batch(public, kinds, sources, params, out)
        assert (out == obs).all()
        assert (observation_batch(public, rules) == obs).all()
        obs, _r, _te, _tr, info = vec.step(_pick(info["action_mask"], np_rng))
    assert changed > 400


def test_bad_arguments_are_refused_clearly():
    with pytest.raises(ValueError, match="unknown bot"):
        TrashVectorEnv(2, ["nobody"])
    with pytest.raises(ValueError, match="batched policy"):
        TrashVectorEnv(2, [3])
    with pytest.raises(ValueError, match="seat must be"):
        TrashVectorEnv(2, ["greedy"], seat=2)
    with pytest.raises(ValueError, match="num_envs"):
        TrashVectorEnv(0, ["greedy"])
    with pytest.raises(ValueError, match="reward"):
        TrashVectorEnv(2, ["greedy"], reward="points")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one seed per table"):
        TrashVectorEnv(2, ["greedy"]).reset(seed=[1, 2, 3])
    with pytest.raises(ValueError, match="streams"):
        TrashEnv(["greedy"], streams="other")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="bots the kernel has"):
        TrashEnv(["expert"], streams="kernel")


@pytest.mark.numba_compile
def test_a_policy_opponent_is_asked_once_per_round_trip_for_all_its_tables():
    policy = LinearPolicy(9)
    vec = TrashVectorEnv(64, opponents=[policy, "greedy"], preset="standard")
    _obs, info = vec.reset(seed=1)
    policy.rows = policy.calls = 0
    rng = np.random.default_rng(0)
    for _ in range(30):
        _obs, _r, _te, _tr, info = vec.step(_pick(info["action_mask"], rng))
    assert policy.calls > 0
    assert policy.largest >= 16  # batches across tables, not one by one
    assert policy.calls <= 30 * 12  # a few round trips per step, not one per table


@pytest.mark.numba_compile
@pytest.mark.parametrize("preset", ["standard", "call-trash", "kings-wild"])
def test_a_policy_opponent_is_never_asked_a_decision_with_one_legal_action(preset):
    """The kernel takes an opponent policy's forced moves (the draw from the stock when the
    discard is no use, the swap after taking the discard); a bot object is asked all."""
    from trashcards.bots import GreedyBot

    class Counting(GreedyBot):
        def __init__(self) -> None:
            super().__init__(random.Random(0))
            self.forced = 0

        def choose(self, view):
            self.forced += len(view.legal) == 1
            return super().choose(view)

    policy = LinearPolicy(9)
    seen: list[int] = []

    def asked(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen.extend(np.count_nonzero(mask, axis=1).tolist())
        return policy(obs, mask)

    bot = Counting()
    vec = TrashVectorEnv(32, opponents=[asked, bot], preset=preset)
    _obs, info = vec.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(40):
        _obs, _r, _te, _tr, info = vec.step(_pick(info["action_mask"], rng))
    assert len(seen) > 100
    assert min(seen) >= 2
    assert bot.forced > 0


def test_only_seats_played_outside_may_have_their_forced_moves_taken():
    from trashcards.sim.vector import VectorTables

    rules = Rules.preset_named("standard")
    with pytest.raises(ValueError, match="take_forced"):
        VectorTables(rules, [None, "greedy"], 2, outside=lambda *a: [0], take_forced=[1])
    with pytest.raises(ValueError, match="take_forced"):
        VectorTables(rules, [None, "greedy"], 2, outside=lambda *a: [0], take_forced=[2])


@pytest.mark.numba_compile
def test_an_illegal_choice_of_a_policy_opponent_is_refused_clearly():
    vec = TrashVectorEnv(4, opponents=[lambda obs, mask: np.full(len(obs), 14)], seat=1)

    def play() -> None:  # to the opponent's first decision with a choice
        _obs, info = vec.reset(seed=0)
        for _ in range(50):
            _obs, _r, _te, _tr, info = vec.step(info["action_mask"].argmax(axis=1))

    with pytest.raises(ValueError, match="illegal action: 14"):
        play()


@pytest.mark.numba_compile
def test_a_bot_object_and_a_name_the_kernel_lacks_play_from_their_views():
    from trashcards.bots import GreedyBot, LowWildBot

    vec = TrashVectorEnv(3, opponents=[GreedyBot(random.Random(0)), "lowwild"],
                         preset="kids")
    singles = [TrashEnv([GreedyBot(), LowWildBot()], preset="kids", streams="kernel")
               for _ in range(3)]
    obs, info = vec.reset(seed=2)
    for i, env in enumerate(singles):
        o, _ = env.reset(seed=2 + i)
        assert (obs[i] == o).all()
    ended = np.zeros(3, dtype=bool)
    for _ in range(60):
        actions = info["action_mask"].argmax(axis=1)
        obs, rewards, terms, truncs, info = vec.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:
                o, _ = env.reset()
            else:
                o, r, te, _tr, _ = env.step(int(actions[i]))
                assert (rewards[i], terms[i]) == (r, te)
            assert (obs[i] == o).all()
        ended = terms | truncs


@pytest.mark.numba_compile
def test_the_expert_plays_as_an_opponent_at_a_budget():
    from trashcards.ai.expert import ExpertBot

    class Counted(ExpertBot):
        searched = 0

        def choose(self, view):
            action = super().choose(view)
            self.searched += self.last is not None
            return action

    expert = Counted(random.Random(0), samples=2)
    vec = TrashVectorEnv(3, opponents=[expert], preset="kids", reward="match",
                         autoreset_mode=AutoresetMode.DISABLED)
    _obs, info = vec.reset(seed=4)
    ended = np.zeros(3, dtype=bool)
    for _ in range(300):
        if ended.all():
            break
        _obs, _r, terms, truncs, info = vec.step(info["action_mask"].argmax(axis=1))
        ended |= terms | truncs
    assert ended.all()
    assert expert.samples == 2
    assert expert.searched > 0
