"""Trash as PettingZoo environments: every seat an agent, ``player_0`` … ``player_3``;
the AEC environment (:func:`env`, :class:`raw_env`) and a parallel one
(:func:`parallel_env`).

>>> from trashcards.envs.pettingzoo import env
>>> table = env(preset="kids", players=3)
>>> table.reset(seed=1)
>>> observation, reward, terminated, truncated, info = table.last()
>>> observation.shape, info["action_mask"].tolist()[:2]
((233,), [1, 0])

Observations are the float32 features (docs/envs.md), a ``Box``; each agent's legal
actions are ``infos[agent]["action_mask"]`` (int8, all zeros for an agent that is not to
act). ``dict_observations=True`` gives the older form instead,
``{"observation": features, "action_mask": mask}`` (a ``Dict`` space, which PettingZoo's
``api_test`` warns about). Chance moves are played inside
:meth:`raw_env.step` from the seed given to :meth:`raw_env.reset`. :func:`env` adds
PettingZoo's usual wrappers (an illegal action ends the match with -1 for its agent).

**Parallel.** Trash is turn-based: one seat acts at a time, and a seat often acts several
times in a row (draw, then place, then place again), so PettingZoo's own AEC-to-parallel
conversion for agents that act in a cycle does not apply; its turn-based one does.
:func:`parallel_env` is that: every step takes an action from every live agent, plays
the one of the agent to act (its mask is the only one with a 1; ``infos[agent]
["active_agent"]`` names it) and ignores the others' (their masks are all zeros: any
action, 0 by convention). Rewards, ends and observations come for every agent at every
step. The AEC environment stays the primary one: it says whose turn it is by itself.

**state()** (both APIs): the centralised critic's input, every seat's observation in seat
order (``players · 233`` float32, ``state_space``). In Trash no seat knows anything another
does not (face-down cards are hidden from their owners too; RULES.md §8), so this is the
whole public position; the hidden cards stay out of it by design.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from ..pictures import table_text
from ..record import Record
from ..rules import Rules
from .actions import NUM_ACTIONS, action_mask
from .episode import DEFAULT_MAX_MOVES, Episode, RewardKind, check_options, make_rules
from .observation import OBSERVATION_SIZE, observation

__all__ = ["env", "parallel_env", "raw_env"]

Observation = npt.NDArray[np.float32] | dict[str, npt.NDArray[Any]]
RENDER_MODES = (None, "ansi", "human")


def env(**kwargs: Any) -> AECEnv:
    """:class:`raw_env` with PettingZoo's checks: an illegal action ends the match with
    -1 for the agent that played it, an out-of-range action is an error, and the methods
    must be called in order."""
    table: AECEnv = raw_env(**kwargs)
    table = wrappers.TerminateIllegalWrapper(table, illegal_reward=-1)
    table = wrappers.AssertOutOfBoundsWrapper(table)
    return wrappers.OrderEnforcingWrapper(table)


class raw_env(AECEnv):  # type: ignore[misc]  # noqa: N801 - PettingZoo's name
    """A Trash match among ``players`` agents; one episode is one match.

    ``rules`` is a :class:`~trashcards.rules.Rules` or a mapping of fields changed from
    ``preset``. ``reward="match"``: +1 to the match winner, -1 split over the others;
    ``reward="round"``: the same for every round. An episode is truncated after
    ``max_moves`` player actions. :meth:`record` gives the match as a ``trash/1`` record.
    ``render_mode``: ``"ansi"`` (:meth:`render` returns the table as text) or ``"human"``
    (it is printed after every reset and step). ``dict_observations``: see the module.
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi", "human"], "name": "trash_v0",
                                          "is_parallelizable": False}

    def __init__(self, preset: str = "standard", players: int = 2,
                 rules: Rules | Mapping[str, Any] | None = None, reward: RewardKind = "match",
                 max_moves: int = DEFAULT_MAX_MOVES, render_mode: str | None = None,
                 dict_observations: bool = False) -> None:
        super().__init__()
        if render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', "
                             f"got {render_mode!r}")
        check_options(reward, max_moves)
        self.rules = make_rules(preset, rules)
        self.rules.check_players(players)
        self.reward_kind: RewardKind = reward
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.dict_observations = dict_observations
        features = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self._observation_space: spaces.Space[Any] = spaces.Dict({
            "observation": features,
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }) if dict_observations else features
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.state_space = spaces.Box(0.0, 1.0, (players * OBSERVATION_SIZE,), np.float32)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self.np_random, _ = seeding.np_random(None)
        self._episode: Episode | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    @property
    def episode(self) -> Episode:
        if self._episode is None:
            raise RuntimeError("call reset() first")
        return self._episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self.np_random, _ = seeding.np_random(seed)
        self._episode = Episode(self.rules, tuple(self.possible_agents),
                                int(self.np_random.integers(2**63 - 1)),
                                self.reward_kind, self.max_moves)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def observe(self, agent: str) -> Observation:
        seat = self._seat[agent]
        view = self.episode.view(seat)
        if not self.dict_observations:
            return observation(view)
        return {"observation": observation(view), "action_mask": action_mask(view)}

    def state(self) -> npt.NDArray[np.float32]:
        """Every seat's observation, in seat order (the public position: see the module)."""
        return np.concatenate([observation(self.episode.view(seat))
                               for seat in range(len(self.possible_agents))])

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to act: give an action index 0…{NUM_ACTIONS - 1}")
        episode = self.episode
        self._cumulative_rewards[agent] = 0.0
        episode.act(int(action))
        for seat, reward in enumerate(episode.take_rewards()):
            self.rewards[self.possible_agents[seat]] = reward
        if episode.done:
            flags = self.terminations if episode.terminated else self.truncations
            for name in self.agents:
                flags[name] = True
        self._accumulate_rewards()
        self._select()

    def _select(self) -> None:
        seat = self.episode.to_act
        for agent in self.agents:  # only the seat to act has legal actions
            self.infos[agent]["action_mask"] = (
                action_mask(self.episode.view(seat)) if self._seat[agent] == seat
                else np.zeros(NUM_ACTIONS, dtype=np.int8))
        if seat is not None and not self.episode.done:
            self.agent_selection = self.possible_agents[seat]
        else:
            self.agent_selection = self.agents[0]
            self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The table as text (``"ansi"``); printed, returning ``None``, in ``"human"``."""
        if self.render_mode is None:
            return None
        text = table_text(self.episode.view(None))
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def close(self) -> None:
        self._episode = None

    def record(self) -> Record:
        """The match of the current episode as a ``trash/1`` record."""
        return self.episode.record()


def parallel_env(**kwargs: Any) -> ParallelEnv:
    """The parallel API (see the module): PettingZoo's own turn-based conversion of
    :func:`env` (``infos[agent]["active_agent"]`` names the agent to act), with
    :class:`raw_env`'s options."""
    return turn_based_aec_to_parallel(env(**kwargs))
