"""Trash as a single-agent Gymnasium environment: one seat against bots.

Registered as ``trashcards/Trash-v0`` when :mod:`trashcards.envs` is imported::

    gymnasium.make("trashcards/Trash-v0", opponents=["greedy"], preset="kids", seat=0)

The agent plays ``seat``; the other seats, in order, are the bots named in ``opponents``
(:data:`trashcards.bots.BOTS`), each with its own seeded ``random.Random``. One episode
is one match. The legal actions are ``info["action_mask"]`` and :meth:`TrashEnv.action_masks`
(for sb3-contrib's ``MaskablePPO``).

``streams="kernel"`` draws every number as the vector environment does
(:mod:`trashcards.envs.vector`): episode ``k`` since ``reset(seed=s)`` is match ``k`` of the
numba kernel's run with seed ``s``, its chance moves those the kernel draws
(:class:`~trashcards.sim.positions.KernelChance`) and each bot fed its seat's kernel
stream (:class:`~trashcards.sim.rng.KernelRandom`), so with the same actions it plays the
very matches a table of the vector environment plays. Bots named must be bots the kernel
has; bot objects and batched policies play as they are (a deterministic policy plays
here exactly as in the vector environment).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal, SupportsFloat

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .. import ai  # noqa: F401  (importing it registers the expert bot)
from ..bots import make_bot
from ..errors import IllegalActionError
from ..pictures import table_text
from ..record import Record
from ..rules import Rules
from ..session import Chooser
from ..sim.positions import KernelChance
from ..sim.rng import KernelRandom
from ..views import View
from .actions import ACTIONS, NUM_ACTIONS, action_mask
from .episode import DEFAULT_MAX_MOVES, Episode, RewardKind, check_options, make_rules
from .observation import OBSERVATION_SIZE, observation
from .policy import BatchedPolicy, PolicyBot

__all__ = ["ILLEGAL_REWARD", "KERNEL_BOTS", "STREAMS", "Streams", "TrashEnv"]

#: The reward for an illegal action, which also ends the episode.
ILLEGAL_REWARD = -1.0
_REDEALS = 1000
Streams = Literal["python", "kernel"]
STREAMS: Final = ("python", "kernel")
#: The bots ``streams="kernel"`` can play (those the numba kernel has,
#: :data:`trashcards.sim.tables.BOT_CODES`).
KERNEL_BOTS: Final = ("random", "greedy", "counter", "kid", "sometimes", "stockonly")

Obs = npt.NDArray[np.float32]


def _opponent(bot: str | Chooser | BatchedPolicy) -> str | Chooser:
    """A batched policy as a bot; names and bots as they are."""
    if isinstance(bot, str) or hasattr(bot, "choose"):
        return bot
    return PolicyBot(bot)


class TrashEnv(gymnasium.Env[Obs, np.int64]):
    """One seat of a Trash match against bots.

    ``opponents`` are bot names, objects with ``choose(view)`` (used as given) or batched
    policies ``(obs float32[M, 233], mask int8[M, 15]) -> int[M]`` (asked with M = 1,
    through :class:`~trashcards.envs.policy.PolicyBot`);
    ``rules`` is a :class:`~trashcards.rules.Rules` or a mapping of fields changed from
    ``preset``. Rewards as in the PettingZoo environment, for the agent's seat: ``"match"``
    (+1 for winning the match, -1 split over the losers) or ``"round"`` (the same for
    every round). An illegal action ends the episode with reward -1 and
    ``info["illegal"]`` giving the reason. A match that ends before the agent's first
    decision (an opponent can fill a whole board in one turn) is dealt again.
    ``streams``: ``"python"`` (seeded ``random.Random`` chance and bots) or ``"kernel"``
    (the vector environment's numbers, see the module's text).
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 - Gymnasium's

    def __init__(self, opponents: Sequence[str | Chooser | BatchedPolicy] = ("greedy",),
                 preset: str = "standard", seat: int = 0,
                 rules: Rules | Mapping[str, Any] | None = None, reward: RewardKind = "match",
                 max_moves: int = DEFAULT_MAX_MOVES, render_mode: str | None = None,
                 streams: Streams = "python") -> None:
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            opponents = [opponents]
        players = len(opponents) + 1
        check_options(reward, max_moves)
        self.rules = make_rules(preset, rules)
        self.rules.check_players(players)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, got {seat}")
        if render_mode not in (None, "ansi", "human"):
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', "
                             f"got {render_mode!r}")
        if streams not in STREAMS:
            raise ValueError(f"streams must be one of {', '.join(STREAMS)}, got {streams!r}")
        for bot in opponents:
            if isinstance(bot, str):
                make_bot(bot, random.Random(0))  # an unknown name fails here, clearly
            if streams == "kernel" and isinstance(bot, str) \
                    and bot.strip().lower() not in KERNEL_BOTS:
                raise ValueError(f"streams='kernel' needs bots the kernel has "
                                 f"({', '.join(KERNEL_BOTS)}) or bot objects, got {bot!r}")
        self.streams: Streams = streams
        self.opponents: list[str | Chooser] = [_opponent(bot) for bot in opponents]
        self.seat = seat
        self.players = players
        self.reward_kind: RewardKind = reward
        self.max_moves = max_moves
        self.render_mode = render_mode
        self.observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self._names = tuple("agent" if s == seat else self._bot_name(s)
                            for s in range(players))
        self._episode: Episode | None = None
        self._bots: dict[int, Chooser] = {}
        self._illegal = False
        self._run: int | None = None  # streams="kernel": the run's seed, and
        self._index = 0  # … the match of the run now played

    def _bot_name(self, seat: int) -> str:
        bot = self.opponents[seat if seat < self.seat else seat - 1]
        return f"bot:{bot}" if isinstance(bot, str) else f"bot:{type(bot).__name__}"

    @property
    def episode(self) -> Episode:
        if self._episode is None:
            raise RuntimeError("call reset() first")
        return self._episode

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        self._illegal = False
        if self.streams == "kernel":
            if seed is not None or self._run is None:
                self._run = seed if seed is not None else int(self.np_random.integers(2**63))
                self._index = 0
            else:
                self._index += 1
        for _ in range(_REDEALS):
            self._deal()
            self._play_bots()
            if not self.episode.done:
                self.episode.take_rewards()
                if self.render_mode == "human":
                    self.render()
                return self._observe(), self._info()
            self._index += 1
        raise RuntimeError(f"{_REDEALS} matches in a row ended before the agent could act")

    def _deal(self) -> None:
        chance: KernelChance | None = None
        if self._run is not None and self.streams == "kernel":
            run, index = self._run, self._index
            chance = KernelChance(run, index)
            match_seed = run
        else:
            match_seed = int(self.np_random.integers(2**63 - 1))
        self._episode = Episode(self.rules, self._names, match_seed, self.reward_kind,
                                self.max_moves, chance)
        self._bots = {}
        for s in range(self.players):
            if s != self.seat:
                bot = self.opponents[s if s < self.seat else s - 1]
                if not isinstance(bot, str):
                    self._bots[s] = bot
                else:
                    rng = (random.Random(f"{match_seed}/{s}") if chance is None
                           else KernelRandom(run, index, s))
                    self._bots[s] = make_bot(bot, rng)

    def step(self, action: np.int64 | int) -> tuple[Obs, SupportsFloat, bool, bool,
                                                   dict[str, Any]]:
        episode = self.episode
        if episode.done or self._illegal:
            raise RuntimeError("the episode is over: call reset()")
        try:
            episode.act(int(action))
        except IllegalActionError as exc:
            self._illegal = True
            info = self._info()
            info["illegal"] = f"{ACTIONS[int(action)]}: {exc.reason}"
            return self._observe(), ILLEGAL_REWARD, True, False, info
        self._play_bots()
        reward = episode.take_rewards()[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, episode.terminated, episode.truncated, self._info()

    def _play_bots(self) -> None:
        episode = self.episode
        while not episode.done and episode.to_act != self.seat:
            seat = episode.to_act
            assert seat is not None
            episode.play(self._bots[seat].choose(episode.view(seat)))

    def _view(self) -> View:
        return self.episode.view(self.seat)

    def _observe(self) -> Obs:
        return observation(self._view())

    def _info(self) -> dict[str, Any]:
        return {"action_mask": action_mask(self._view())}

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions now, as booleans (sb3-contrib's ``MaskablePPO`` asks for this)."""
        return action_mask(self._view()).astype(bool)

    def render(self) -> str | None:
        """The agent's view as text (``"ansi"``); printed, returning ``None``, in
        ``"human"`` mode (where reset and step print it too)."""
        if self.render_mode is None:
            return None
        text = table_text(self._view())
        if self.render_mode == "human":
            print(text + "\n")
            return None
        return text

    def record(self) -> Record:
        """The current episode's match as a ``trash/1`` record."""
        return self.episode.record()
