"""Every seat an agent: N tables on the numba kernel, each step the action of the seat to
act at every table (self-play with a shared policy, or one policy per seat).

``TrashSeatsVectorEnv(num_envs=N, players=2, preset=…)`` is a Gymnasium ``VectorEnv``
with no bots: at every table the seat to act is the agent, whichever it is.

* Observations: ``(N, 233)`` float32, the seat to act's (the single environments'
  features); ``info["seat"]`` ``(N,)`` which seat that is; ``info["action_mask"]`` its
  legal actions, ``(N, 15)`` int8.
* Rewards: ``(N, players)`` float64, **every seat's** reward from what ended in that step
  (``reward="match"``: +1 to the match's winner and −1/(players − 1) to each other seat
  when it ends; ``reward="round"``: the same for every round, the round's winners
  sharing +1), so a learner credits each seat's last action; zero-sum.
* ``state()``: the centralised critic's input, ``(N, players · 233)`` float32, every
  seat's observation in seat order. In Trash no seat knows anything another does not
  (every face-down card is hidden from its owner too, RULES.md §8), so this is the whole
  public position: the face-down cards and the stock's order stay out of it, by design.
* ``render_mode``: ``"ansi"``: :meth:`render` gives each table's picture as a spectator
  sees it; ``"human"`` prints them after every reset and step.
* Truncation at ``max_moves``, seeds (``reset(seed=s)``: table ``i`` plays match 0, 1, …
  of the run ``s + i``, the deals of :class:`~trashcards.envs.vector.TrashVectorEnv`),
  Gymnasium's ``NEXT_STEP`` autoreset (the step after a table's end deals it again and
  ignores its action). An illegal action is refused (``ValueError``, nothing played).

The kernel plays every seat as "outside" (:class:`trashcards.sim.vector.VectorTables`
with no bot): each step is one compiled call that takes each table's action and stops at
the next decision, whoever's it is. The kernel functions are the vector environment's,
unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..pictures import table_text
from ..rules import Rules
from ..sim.arrays import to_state
from ..sim.kernel import layout
from ..sim.kernel import vector as kernel
from ..sim.rng import seed_key
from ..sim.vector import VectorTables
from ..views import view
from .actions import NUM_ACTIONS
from .episode import DEFAULT_MAX_MOVES, RewardKind, check_options, make_rules, split_reward
from .observation import OBSERVATION_SIZE, observation_recipe
from .vector import RENDER_MODES

__all__ = ["TrashSeatsVectorEnv"]

_SEEDS: Final = 2**63

Obs = npt.NDArray[np.float32]


class TrashSeatsVectorEnv(VectorEnv[Obs, npt.NDArray[np.int64], npt.NDArray[Any]]):
    """``num_envs`` tables of ``players`` seats, every seat an agent (see the module)."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP,  # noqa: RUF012 - Gymnasium's
                "render_modes": ["ansi", "human"]}

    def __init__(self, num_envs: int = 1024, players: int = 2, preset: str = "standard",
                 rules: Rules | Mapping[str, Any] | None = None, reward: RewardKind = "match",
                 max_moves: int = DEFAULT_MAX_MOVES, render_mode: str | None = None) -> None:
        check_options(reward, max_moves)
        if render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        self.rules = make_rules(preset, rules)
        self.rules.check_players(players)
        self.num_envs = num_envs
        self.players = players
        self.reward_kind: RewardKind = reward
        self.max_moves = max_moves
        self.render_mode = render_mode
        self._recipe = observation_recipe(self.rules)
        self.tables = VectorTables(self.rules, [None] * players, num_envs, agent_seats=0,
                                   max_moves=max_moves, outside=_never,
                                   recipe=self._recipe)
        self.single_observation_space = spaces.Box(0.0, 1.0, (OBSERVATION_SIZE,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.state_space = spaces.Box(0.0, 1.0, (num_envs, players * OBSERVATION_SIZE),
                                      np.float32)
        self._keys = np.zeros(num_envs, dtype=np.uint64)
        self._index = np.zeros(num_envs, dtype=np.int64)
        self._ended = np.zeros(num_envs, dtype=bool)
        self._seeded = False
        self._all = np.arange(num_envs, dtype=np.int64)
        self._won = np.zeros((num_envs, players), dtype=np.int64)
        #: Each seat's reward for a round won by the seats of bit mask w (0: void).
        self._split = np.zeros((1 << players, players), dtype=np.float64)
        for w in range(1, 1 << players):
            self._split[w] = split_reward(tuple(s for s in range(players) if w >> s & 1),
                                          players)

    # -- Gymnasium's API ------------------------------------------------------------------

    def reset(self, *, seed: int | Sequence[int] | None = None,
              options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        """Every table starts a match: ``seed`` as :class:`TrashVectorEnv.reset
        <trashcards.envs.vector.TrashVectorEnv.reset>` takes it."""
        super().reset(seed=seed if isinstance(seed, int) else None)
        if seed is not None:
            runs = (np.arange(self.num_envs, dtype=np.int64) + seed if isinstance(seed, int)
                    else np.array(list(seed), dtype=np.int64))
            if runs.shape != (self.num_envs,):
                raise ValueError(f"one seed per table: {self.num_envs}, got {runs.shape}")
            self._keys[:] = [seed_key(int(run)) for run in runs]
            self._index[:] = 0
        elif not self._seeded:
            self._keys[:] = [seed_key(int(run)) for run in
                             self.np_random.integers(_SEEDS, size=self.num_envs)]
        else:
            self._index += 1
        self._seeded = True
        self._deal(self._all)
        self._ended[:] = False
        obs, info = self._observe()
        self._render_if_human()
        return obs, info

    def step(self, actions: npt.ArrayLike) -> tuple[Obs, npt.NDArray[np.float64],
                                                   npt.NDArray[np.bool_],
                                                   npt.NDArray[np.bool_], dict[str, Any]]:
        """The seat to act at each table takes its action; returns the next seat to act's
        observations, every seat's rewards ``(N, players)``, terminations, truncations
        and info (see the module)."""
        acts = np.array(actions, dtype=np.int64).reshape(-1)
        if acts.shape != (self.num_envs,):
            raise ValueError(f"one action per table: shape ({self.num_envs},), "
                             f"got {acts.shape}")
        tables = self.tables
        rewards = np.zeros((self.num_envs, self.players), dtype=np.float64)
        waiting = self._all[self._ended]
        live = self._all[~self._ended]
        if len(live):
            masks = self._masks()[live]
            bad = (acts[live] < 0) | (acts[live] >= NUM_ACTIONS)
            bad[~bad] = masks[~bad, acts[live][~bad]] == 0
            if bad.any():
                j = int(np.flatnonzero(bad)[0])
                raise ValueError(f"illegal action {int(acts[live][j])} at table "
                                 f"{int(live[j])} (legal: {np.flatnonzero(masks[j]).tolist()})"
                                 "; nothing was played")
            before = self._won_now()
            values = np.zeros((self.players, 1 << self.players)), np.zeros(
                (self.players, self.players))
            kernel.advance(tables.tab, tables.st, tables.ky, tables.codes, tables.agent, live,
                           acts[live], *values, tables._before, tables.mask, tables.obs,
                           tables.agent_rounds, tables.other_rounds, tables.reward,
                           tables.done, tables.truncated, tables.winner, tables._waiting,
                           tables._other_obs, tables._other_mask, tables._feat(),
                           tables._work)
            rewards += self._rewards(before, live)
        if len(waiting):  # NEXT_STEP: the tables that ended last step start again
            self._index[waiting] += 1
            self._deal(waiting)
        st = tables.st
        over = st[:, layout.S_PHASE] == layout.PH_MATCH_OVER
        capped = ~over & (self.max_moves > 0) & (st[:, layout.S_MOVES] >= self.max_moves)
        terminated = over.copy()
        truncated = capped
        terminated[waiting] = False
        truncated[waiting] = False
        self._ended = terminated | truncated
        obs, info = self._observe()
        self._render_if_human()
        return obs, rewards, terminated, truncated, info

    def state(self) -> Obs:
        """Every seat's observation of every table, ``(N, players · 233)`` float32 (the
        public position: see the module)."""
        out = np.empty((self.num_envs, self.players, OBSERVATION_SIZE), dtype=np.float32)
        public = np.empty((self.num_envs, 100), dtype=np.int32)
        kinds, sources, params = self._recipe
        for seat in range(self.players):
            for i in range(self.num_envs):
                kernel.encode(self.tables.tab, self.tables.st[i], seat, public[i])
            kernel.observation_batch(public, kinds, sources, params, out[:, seat])
        return out.reshape(self.num_envs, -1)

    def render(self) -> tuple[str, ...] | None:
        """Each table's picture (``"ansi"``); printed, returning ``None``, in ``"human"``."""
        if self.render_mode is None:
            return None
        names = [f"player_{seat}" for seat in range(self.players)]
        t = self.tables
        texts = tuple(table_text(view(to_state(t.table, t.st[i], t.ky[i], names), None))
                      for i in range(self.num_envs))
        if self.render_mode == "human":
            print("\n\n".join(texts) + "\n")
            return None
        return texts

    def close_extras(self, **kwargs: Any) -> None:
        """Nothing to release: the tables are arrays."""

    # -- the tables -----------------------------------------------------------------------

    def action_masks(self) -> npt.NDArray[np.bool_]:
        """The legal actions of the seat to act at every table, (N, 15) booleans."""
        masks: npt.NDArray[np.bool_] = self._masks().astype(bool)
        return masks

    def _render_if_human(self) -> None:
        if self.render_mode == "human":
            self.render()

    def _deal(self, which: npt.NDArray[np.int64]) -> None:
        """Tables ``which`` start their current match and stop at its first decision."""
        t = self.tables
        kernel.reset(t.tab, t.st, t.ky, which, self._keys[which], self._index[which],
                     t._before, t.reward)
        none = np.full(which.shape[0], -1, dtype=np.int64)  # no first action
        rounds, match = t._zero_values
        kernel.advance(t.tab, t.st, t.ky, t.codes, t.agent, which, none, rounds, match,
                       t._before, t.mask, t.obs, t.agent_rounds, t.other_rounds, t.reward,
                       t.done, t.truncated, t.winner, t._waiting, t._other_obs,
                       t._other_mask, t._feat(), t._work)

    def _won_now(self) -> npt.NDArray[np.int64]:
        won: npt.NDArray[np.int64] = self.tables.st[:, layout.O_WON: layout.O_WON
                                                    + self.players].astype(np.int64)
        return won

    def _rewards(self, before: npt.NDArray[np.int64], live: npt.NDArray[np.int64]
                 ) -> npt.NDArray[np.float64]:
        """Every seat's reward for what ended at tables ``live`` since ``before``."""
        out = np.zeros((self.num_envs, self.players), dtype=np.float64)
        st = self.tables.st
        if self.reward_kind == "round":
            gained = self._won_now()[live] - before[live]
            bits = (gained > 0).astype(np.int64) @ (1 << np.arange(self.players))
            out[live] = self._split[bits]
            return out
        winner = st[live, layout.S_MATCH_WINNER]
        ended = (st[live, layout.S_PHASE] == layout.PH_MATCH_OVER) & (winner >= 0)
        rows = live[ended]
        out[rows] = -1.0 / (self.players - 1)
        out[rows, winner[ended]] = 1.0
        return out

    def _masks(self) -> npt.NDArray[np.uint8]:
        """The legal actions of the seat to act (seat 0's in ``mask``, the others' in the
        outside rows)."""
        tables = self.tables
        waiting = tables._waiting.astype(bool)[:, None]
        out: npt.NDArray[np.uint8] = np.where(waiting, tables._other_mask, tables.mask)
        return out

    def _observe(self) -> tuple[Obs, dict[str, Any]]:
        tables = self.tables
        waiting = tables._waiting.astype(bool)
        public = np.where(waiting[:, None], tables._other_obs, tables.obs)
        obs = np.empty((self.num_envs, OBSERVATION_SIZE), dtype=np.float32)
        kinds, sources, params = self._recipe
        kernel.observation_batch(public, kinds, sources, params, obs)
        seat = np.where(waiting, tables.st[:, layout.S_TURN], 0).astype(np.int64)
        return obs, {"action_mask": self._masks().view(np.int8).copy(), "seat": seat,
                     "_action_mask": np.ones(self.num_envs, dtype=bool),
                     "_seat": np.ones(self.num_envs, dtype=bool)}


def _never(*_: object) -> npt.NDArray[np.int64]:
    """The tables' outside seats are played by :meth:`TrashSeatsVectorEnv.step`, which
    calls the kernel itself, so the tables never call back."""
    raise AssertionError("every seat is played by the agent")
