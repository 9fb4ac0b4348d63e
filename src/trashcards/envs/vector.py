"""Trash as a Gymnasium ``VectorEnv`` on the numba kernel: N tables stepped in one call.

``TrashVectorEnv(num_envs=N, opponents=["greedy"], preset=…, seat=0)`` is N copies of the
single-agent environment (:class:`trashcards.envs.gymnasium.TrashEnv`): the agent plays
``seat`` of every table. Each other seat is played by one opponent:

* a kernel bot by name (the bots of :mod:`trashcards.bots`, compiled;
  :data:`~trashcards.envs.gymnasium.KERNEL_BOTS`), inside the compiled step;
* a **batched policy**: any callable ``policy(obs, mask) -> actions`` taking
  ``float32[M, 233]`` observations and ``int8[M, 15]`` masks of the ``M`` tables where
  that seat is to act and returning ``M`` action indices (a numpy function, a torch
  module wrapped to return numpy, :class:`~trashcards.envs.policy.MLPPolicy`, a
  :class:`~trashcards.envs.policy.SnapshotPool`). Every step gathers the seats that
  policy plays, across all tables, into one call per round trip;
* a bot object (anything with ``choose(view)``, e.g. ``ExpertBot(rng, samples=32)``: the
  expert at a budget) or a bot name the kernel lacks (``"expert"``), asked table by table
  with the seat's view.

A step with kernel bots only is one compiled call that releases the GIL: the kernel
plays every table on to the agent's next decision
(:class:`trashcards.sim.vector.VectorTables`) and turns the public encoding of each
agent's view into the observation of the single environments right after it (the recipe
of :mod:`trashcards.envs.observation`, as
:func:`trashcards.sim.kernel.vector.observation_batch` applies it); then one compiled
pass gives the rewards and flags (:func:`trashcards.sim.kernel.vector.settle`) and one
deals the tables that autoreset. The kernel reads only what the agent's view holds. With
opponents outside the kernel, the kernel stops at their decisions too and each round
trip asks every such opponent once, for all the tables where it is to act.

* Observations: ``(N, 233)`` float32, the single environment's; ``info["action_mask"]``
  the ``(N, 15)`` int8 masks of the legal actions (all 0 when the agent is not to act).
* Rewards, truncation at ``max_moves`` and illegal actions (reward -1, the episode ends)
  as in the single environment.
* Autoreset: Gymnasium's ``NEXT_STEP`` by default (the step after an episode ended
  resets that table, with reward 0, and ignores its action); ``SAME_STEP`` resets at
  once and puts the last observation in ``info["final_obs"]`` and the last info in
  ``info["final_info"]`` (rows marked by ``info["_final_obs"]``, ``info["_final_info"]``);
  ``DISABLED`` leaves it to ``reset(options={"reset_mask": …})``
  (until then an ended table ignores its actions and reports its end again, reward 0).
* ``render_mode``: ``"ansi"``: :meth:`~TrashVectorEnv.render` gives each table's picture
  as its agent sees it (:func:`trashcards.pictures.table_text`); ``"human"`` prints them
  after every reset and step.
* Seeds: ``reset(seed=s)`` gives table ``i`` the run seed ``s + i``; its ``k``-th
  episode is match ``k`` of the kernel's run with that seed, exactly what
  ``TrashEnv(streams="kernel")`` plays after ``reset(seed=s + i)`` (a differential test
  proves it); a match that ends before the agent's first decision is skipped, as there.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..bots import make_bot
from ..pictures import table_text
from ..rules import Rules
from ..session import Chooser
from ..sim.kernel import vector as kernel
from ..sim.rng import seed_key
from ..sim.vector import VectorTables
from .actions import NUM_ACTIONS, action_index
from .episode import DEFAULT_MAX_MOVES, RewardKind, check_options, make_rules, split_reward
from .gymnasium import ILLEGAL_REWARD, KERNEL_BOTS
from .observation import OBSERVATION_SIZE, observation_recipe
from .policy import BatchedPolicy

#: ``render_mode``: ``"ansi"`` gives each table's picture, ``"human"`` prints them.
RENDER_MODES: Final = (None, "ansi", "human")

__all__ = ["BatchedPolicy", "Opponent", "TrashVectorEnv"]

#: An opponent: a bot's name, a batched policy, or a bot object (``choose(view)``).
Opponent = str | BatchedPolicy | Chooser

_REDEALS: Final = 1000
_MODES: Final = {AutoresetMode.NEXT_STEP: kernel.NEXT_STEP,
                 AutoresetMode.SAME_STEP: kernel.SAME_STEP,
                 AutoresetMode.DISABLED: kernel.DISABLED}
_SEEDS: Final = 2**63

Obs = npt.NDArray[np.float32]
Actions = npt.NDArray[np.int64]


class TrashVectorEnv(VectorEnv[Obs, Actions, npt.NDArray[Any]]):
    """``num_envs`` tables of Trash, the agent at ``seat`` of each, the other seats played
    by ``opponents`` (in seat order, skipping the agent's; see the module's text for
    what an opponent may be). ``seed`` seeds the bot objects of names the kernel lacks.

    ``rules``: a :class:`~trashcards.rules.Rules` or a mapping of fields changed from
    ``preset``; ``reward``: ``"match"`` or ``"round"``; ``autoreset_mode``: a Gymnasium
    :class:`~gymnasium.vector.AutoresetMode` (or its value); ``copy``: return fresh
    arrays (``False``: the env's own buffers, overwritten by the next call).
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 - Gymnasium's

    def __init__(self, num_envs: int = 1024, opponents: Sequence[Opponent] = ("greedy",),
                 preset: str = "standard", seat: int = 0,
                 rules: Rules | Mapping[str, Any] | None = None, reward: RewardKind = "match",
                 max_moves: int = DEFAULT_MAX_MOVES,
                 autoreset_mode: AutoresetMode | str = AutoresetMode.NEXT_STEP,
                 copy: bool = True, seed: int = 0, render_mode: str | None = None) -> None:
        if isinstance(opponents, str) or not isinstance(opponents, Sequence):
            opponents = [opponents]
        check_options(reward, max_moves)
        if render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        players = len(opponents) + 1
        self.rules = make_rules(preset, rules)
        self.rules.check_players(players)
        if not 0 <= seat < players:
            raise ValueError(f"seat must be 0 to {players - 1}, got {seat}")
        seats = [s for s in range(players) if s != seat]
        kernel_bots: list[str | None] = ["random"] * players  # the agent's seat: unused
        #: Per seat, what plays it outside the kernel (a policy or a bot object), if any.
        self._outside: dict[int, BatchedPolicy | Chooser] = {}
        for s, bot in zip(seats, opponents, strict=True):
            if isinstance(bot, str):
                name = bot.strip().lower()
                if name in KERNEL_BOTS:
                    kernel_bots[s] = name
                    continue
                bot = make_bot(name, random.Random(f"{seed}/{s}"))  # unknown names fail
            elif not (callable(bot) or hasattr(bot, "choose")):
                raise ValueError(f"an opponent is a bot's name, a batched policy "
                                 f"(obs, mask) -> actions, or a bot; got {bot!r}")
            kernel_bots[s] = None
            self._outside[s] = bot
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.metadata = {"autoreset_mode": self.autoreset_mode,
                         "render_modes": ["ansi", "human"]}
        self.num_envs = num_envs
        self.seat = seat
        self.players = players
        self.reward_kind: RewardKind = reward
        self.max_moves = max_moves
        self.copy = copy
        self.render_mode = render_mode
        self.opponents = list(opponents)
        self._recipe = observation_recipe(self.rules)
        self.tables = VectorTables(self.rules, kernel_bots, num_envs, agent_seats=seat,
                                   max_moves=max_moves, **_values(reward, players),
                                   outside=self._play_outside if self._outside else None,
                                   take_forced=[s for s, player in self._outside.items()
                                                if not hasattr(player, "choose")],
                                   recipe=self._recipe)
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._run = np.zeros(num_envs, dtype=np.int64)
        self._keys = np.zeros(num_envs, dtype=np.uint64)  # seed_key of each run
        self._index = np.zeros(num_envs, dtype=np.int64)
        self._ended = np.zeros(num_envs, dtype=bool)
        self._terminated = np.zeros(num_envs, dtype=bool)
        self._seeded = False
        self._all = np.arange(num_envs, dtype=np.int64)

    # -- Gymnasium's API ------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Start a new episode on every table (or on those of ``options["reset_mask"]``).

        ``seed``: an int ``s`` gives table ``i`` the run seed ``s + i``; a sequence gives
        each its own. Without one, each table plays the next match of its run (the
        first reset draws the runs' seeds from the env's ``np_random``)."""
        super().reset(seed=seed if isinstance(seed, int) else None)
        which = self._all
        if options is not None and "reset_mask" in options:
            picked = np.asarray(options["reset_mask"], dtype=bool)
            if picked.shape != (self.num_envs,):
                raise ValueError(f"reset_mask must have shape ({self.num_envs},)")
            which = self._all[picked]
        if seed is not None:
            runs = (np.arange(self.num_envs, dtype=np.int64) + seed if isinstance(seed, int)
                    else np.array(list(seed), dtype=np.int64))
            if runs.shape != (self.num_envs,):
                raise ValueError(f"one seed per table: {self.num_envs}, got {runs.shape}")
            self._set_runs(which, runs[which])
            self._index[which] = 0
            self._seeded = True
        elif not self._seeded:
            self._set_runs(self._all, self.np_random.integers(_SEEDS, size=self.num_envs))
            self._seeded = True
        else:
            self._index[which] += 1
        if self.copy:  # the rows not reset keep their observation
            self.tables.features = self.tables.features.copy()
        self._deal(which)
        self._ended[which] = False
        if self.render_mode == "human":
            self.render()
        return self._obs, self._info()

    def step(self, actions: npt.ArrayLike) -> tuple[Obs, npt.NDArray[Any], npt.NDArray[Any],
                                                   npt.NDArray[Any], dict[str, Any]]:
        """Every table takes its action (see the module's text for autoreset): the
        observations, rewards (float64), terminations and truncations (bool), info."""
        acts = np.array(actions, dtype=np.int64)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"one action per table: shape ({self.num_envs},), "
                             f"got {acts.shape}")
        waiting = self._ended  # ended at an earlier step: their actions are ignored
        acts[waiting] = -1
        tables = self.tables
        if self.copy:  # the kernel writes every row: a fresh array needs no copy
            tables.features = np.empty_like(tables.features)
        dealt = None
        if self.autoreset_mode is AutoresetMode.NEXT_STEP and waiting.any():
            dealt = self._all[waiting]  # dealt anew in the same pass as the step
            self._index[dealt] += 1
        tables.step(acts, skip_illegal=True, deal=None if dealt is None else
                    (dealt, self._keys[dealt], self._index[dealt]))
        n = self.num_envs
        rewards = np.empty(n, dtype=np.float64)
        terminated = np.empty(n, dtype=bool)
        truncated = np.empty(n, dtype=bool)
        illegal = np.empty(n, dtype=bool)
        faults, over = kernel.settle(tables.illegal, tables.reward, tables.done,
                                     tables.truncated, waiting, self._terminated,
                                     _MODES[self.autoreset_mode], ILLEGAL_REWARD, rewards,
                                     terminated, truncated, illegal)
        self._terminated = terminated
        info: dict[str, Any] = {}
        if faults:
            info["illegal"], info["_illegal"] = illegal, illegal.copy()
        if dealt is not None:  # the matches that ended before the agent could act
            again = dealt[(tables.done[dealt] | tables.truncated[dealt]).view(bool)]
            self._index[again] += 1
            self._deal(again)
        ended = terminated | truncated
        if self.autoreset_mode is AutoresetMode.SAME_STEP and over:
            which = self._all[ended]
            info["final_obs"], info["_final_obs"] = self._obs.copy(), ended.copy()
            final = self._info()
            if "illegal" in info:
                final["illegal"], final["_illegal"] = info["illegal"], info["_illegal"]
            final["_action_mask"] = ended.copy()
            info["final_info"], info["_final_info"] = final, ended.copy()
            self._index[which] += 1
            self._deal(which)
            self._ended[:] = False
        else:
            self._ended = ended
        info.update(self._info())
        if self.render_mode == "human":
            self.render()
        return self._obs, rewards, terminated, truncated, info

    def render(self) -> tuple[str, ...] | None:
        """Each table's picture as its agent sees it (``"ansi"``: one text per table);
        ``"human"`` prints them (after every reset and step too) and returns ``None``."""
        if self.render_mode is None:
            return None
        texts = tuple(table_text(self.tables.view(i)) for i in range(self.num_envs))
        if self.render_mode == "human":
            print("\n\n".join(texts) + "\n")
            return None
        return texts

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the tables are arrays."""

    # -- the tables -----------------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of every table now, (N, 15) booleans."""
        masks: npt.NDArray[np.bool_] = self.tables.mask.astype(bool)
        return masks

    def _set_runs(self, which: npt.NDArray[np.int64], runs: npt.NDArray[np.int64]) -> None:
        """Tables ``which`` play the runs of seeds ``runs`` (their keys kept for
        :meth:`_deal`)."""
        self._run[which] = runs
        self._keys[which] = [seed_key(int(run)) for run in runs]

    def _deal(self, which: npt.NDArray[np.int64]) -> None:
        """Tables ``which`` start the current match of their run, skipping matches that
        end before the agent's first decision."""
        tables = self.tables
        for _ in range(_REDEALS):
            if not len(which):
                return
            tables.reset_keys(which, self._keys[which], self._index[which])
            over = (tables.done[which] | tables.truncated[which]).view(bool)
            which = which[over]
            self._index[which] += 1
        raise RuntimeError(f"{_REDEALS} matches in a row ended before the agent could act")

    @property
    def _obs(self) -> Obs:
        """The observations, written by the kernel with every table's encoding."""
        obs: Obs = self.tables.features
        return obs

    def _play_outside(self, which: npt.NDArray[np.int64], seats: npt.NDArray[np.int64],
                      public: npt.NDArray[np.int32], masks: npt.NDArray[np.uint8],
                      obs: Obs) -> npt.ArrayLike:
        """The actions of the opponents played outside the kernel, one batch per policy
        (the observations come from the kernel, with the tables' recipe)."""
        if len(self._outside) == 1:  # one outside seat: every waiting table is its
            ((s, player),) = self._outside.items()
            if not hasattr(player, "choose"):
                return player(obs, masks.view(np.int8))
        acts = np.empty(len(which), dtype=np.int64)
        for s, player in self._outside.items():
            picked = np.flatnonzero(seats == s)
            if not len(picked):
                continue
            if hasattr(player, "choose"):
                for j in picked.tolist():
                    seen = self.tables.view(int(which[j]), s)
                    acts[j] = action_index(player.choose(seen))
                continue
            acts[picked] = np.asarray(player(obs[picked], masks[picked].view(np.int8))
                                      ).reshape(-1)
        return acts

    def _info(self) -> dict[str, Any]:
        mask = self.tables.mask.view(np.int8)
        return {"action_mask": mask.copy() if self.copy else mask,
                "_action_mask": np.ones(self.num_envs, dtype=bool)}


def _values(reward: RewardKind, players: int) -> dict[str, npt.NDArray[np.float64]]:
    """The kernel's reward tables: each round's or the match's value to each agent seat
    (:func:`~trashcards.envs.episode.split_reward`)."""
    rounds = np.zeros((players, 1 << players), dtype=np.float64)
    match = np.zeros((players, players), dtype=np.float64)
    if reward == "round":
        for w in range(1 << players):
            winners = tuple(s for s in range(players) if w >> s & 1)
            rounds[:, w] = split_reward(winners, players)
    else:
        for s in range(players):
            match[:, s] = split_reward((s,), players)
    return {"round_values": rounds, "match_values": match}
