"""Trash as a PettingZoo AEC environment: every seat an agent, ``player_0`` … ``player_3``.

>>> from trashcards.envs.pettingzoo import env
>>> table = env(preset="kids", players=3)
>>> table.reset(seed=1)
>>> observation, reward, terminated, truncated, info = table.last()
>>> sorted(observation), observation["action_mask"].tolist()[:2]
(['action_mask', 'observation'], [1, 0])

Observations are ``{"observation": float32 features (docs/envs.md), "action_mask": int8}``;
the mask is all zeros for an agent that is not to act. Chance moves are played inside
:meth:`raw_env.step` from the seed given to :meth:`raw_env.reset`. :func:`env` adds
PettingZoo's usual wrappers (an illegal action ends the match with -1 for its agent).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..pictures import table_text
from ..record import Record
from ..rules import Rules
from .actions import NUM_ACTIONS, action_mask
from .episode import DEFAULT_MAX_MOVES, Episode, RewardKind, check_options, make_rules
from .observation import OBSERVATION_SIZE, observation

__all__ = ["env", "raw_env"]

Observation = dict[str, npt.NDArray[Any]]


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
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "trash_v0",
                                          "is_parallelizable": False}

    def __init__(self, preset: str = "standard", players: int = 2,
                 rules: Rules | Mapping[str, Any] | None = None, reward: RewardKind = "match",
                 max_moves: int = DEFAULT_MAX_MOVES, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', got {render_mode!r}")
        check_options(reward, max_moves)
        self.rules = make_rules(preset, rules)
        self.rules.check_players(players)
        self.reward_kind: RewardKind = reward
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        })
        self._action_space = spaces.Discrete(NUM_ACTIONS)
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
        return {"observation": observation(view), "action_mask": action_mask(view)}

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
        if seat is not None and not self.episode.done:
            self.agent_selection = self.possible_agents[seat]
        else:
            self.agent_selection = self.agents[0]
            self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return table_text(self.episode.view(None))

    def close(self) -> None:
        self._episode = None

    def record(self) -> Record:
        """The match of the current episode as a ``trash/1`` record."""
        return self.episode.record()
