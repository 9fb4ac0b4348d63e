"""The arena: an agent against the ladder, its Elo on the levels' scale, and its win rates.

``rate(agent)`` plays the agent against ``random`` and every level (beginner, casual,
good, expert: :data:`trashcards.ai.levels.LEVELS`), half the matches with the agent in
each seat (at ``players`` > 2, the agent at every seat in turn against copies of the
opponent), and gives its win rate against each with a Wilson 95 % interval.

**The Elo.** The levels' ratings come from ``trashcards analyze skill`` (two players,
standard rules; docs/analysis/skill): a Bradley–Terry fit of ``random`` and the four
levels, centred so those five average 1500. The agent is placed on that scale by the
maximum-likelihood rating against the ladder's ratings held fixed, with the same prior
as the fit (half a win each way per opponent met), and a 95 % interval of ± 1.96
standard errors from the likelihood's curvature (the ladder's own intervals, ± 4 points
or so, are not added). The scale is measured at two players on standard rules only, so
any other table size or preset gives the win rates and no Elo (``None``).

An **agent** is a level's or a bot's name (:data:`trashcards.bots.BOTS`), a batched
policy ``(obs float32[M, 233], mask int8[M, 15]) -> int[M]`` (by object, or as
``module:function``), an object with ``choose(view)``, or a policy file saved by
:meth:`trashcards.envs.policy.MLPPolicy.save` (``.npz``). Bots the kernel has play
against the kernel's bots on the fast simulator; everything else plays through the
vector environment (:class:`trashcards.envs.vector.TrashVectorEnv`), the opponents the
kernel's bots there too, and ``expert`` (which searches on the rules engine) on fewer
matches (``expert_matches``). Every opponent and seat gets its own deals (seeded from ``seed``),
so the results against different opponents are independent, as the interval assumes.
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, cast

import numpy as np
from gymnasium.vector import AutoresetMode

from .ai.levels import LEVELS
from .bots import BOTS, make_bot
from .envs.actions import action_index
from .envs.gymnasium import KERNEL_BOTS
from .envs.policy import BatchedPolicy, MLPPolicy
from .envs.vector import TrashVectorEnv
from .estimates import Z95, Estimate, proportion
from .rules import Rules
from .session import Chooser

__all__ = ["LADDER", "RANDOM_ELO", "Agent", "Rating", "Record", "elo_against", "rate",
           "resolve_agent"]

#: ``random``'s Elo and 95 % interval in the levels' fit (docs/analysis/skill,
#: ``trashcards analyze skill``, seed 0; a test checks it against the report's figures).
RANDOM_ELO: Final = (1025.2, 1018.2, 1032.3)
#: The ladder: (name, bot, Elo) from the weakest up.
LADDER: Final[tuple[tuple[str, str, float], ...]] = (
    ("random", "random", RANDOM_ELO[0]),
    *((level.name, level.bot, level.elo) for level in LEVELS),
)
_PRIOR: Final = 0.5
_SCALE: Final = 400.0 / math.log(10.0)
#: The move cap of an arena match; a match stopped by it counts as half a win.
MAX_MOVES: Final = 10_000


@dataclass(frozen=True, slots=True)
class Agent:
    """What plays: a batched policy, or a bot factory (a fresh bot per table, from a
    seeded ``random.Random``) and, for a bot the kernel has, its name."""

    name: str
    kernel_bot: str | None = None
    bot: Callable[[random.Random], Chooser] | None = None
    policy: BatchedPolicy | None = None


@dataclass(frozen=True, slots=True)
class Record:
    """The agent's results against one opponent."""

    wins: float
    matches: int

    @property
    def estimate(self) -> Estimate:
        return proportion(round(self.wins), self.matches)


@dataclass(frozen=True, slots=True)
class Rating:
    """The arena's verdict: Elo (``None`` off the levels' scale) and results per opponent."""

    agent: str
    elo: float | None
    elo_ci: tuple[float, float] | None
    players: int
    preset: str
    vs: dict[str, Record]

    @property
    def matches(self) -> int:
        return sum(r.matches for r in self.vs.values())

    def to_json(self) -> dict[str, Any]:
        """``{"agent", "elo", "elo_ci": [lo, hi], "matches", "vs": {NAME: {"win",
        "win_ci"}}}`` (win rates as fractions)."""
        vs = {}
        for name, record in self.vs.items():
            est = record.estimate
            vs[name] = {"win": est.value, "win_ci": [est.low, est.high]}
        return {"agent": self.agent, "elo": self.elo,
                "elo_ci": None if self.elo_ci is None else list(self.elo_ci),
                "matches": self.matches, "vs": vs}


def elo_against(results: list[tuple[float, float, int]]) -> tuple[float, float, float]:
    """The maximum-likelihood Elo (and its 95 % interval) of a player with ``wins`` of
    ``matches`` against opponents of fixed ratings: ``results`` is ``(rating, wins,
    matches)`` per opponent; each opponent met adds half a win each way."""
    met = [(r, w + _PRIOR, n + 2 * _PRIOR) for r, w, n in results if n > 0]
    if not met:
        raise ValueError("no matches played")
    ratings = np.array([r for r, _, _ in met])
    wins = np.array([w for _, w, _ in met])
    games = np.array([n for _, _, n in met])
    x = float(np.average(ratings, weights=games))
    for _ in range(100):
        p = 1.0 / (1.0 + np.exp((ratings - x) / _SCALE))
        gradient = float((wins - games * p).sum()) / _SCALE
        information = float((games * p * (1 - p)).sum()) / _SCALE ** 2
        step = gradient / information
        x += max(-200.0, min(200.0, step))
        if abs(step) < 1e-9:
            break
    p = 1.0 / (1.0 + np.exp((ratings - x) / _SCALE))
    half = Z95 / math.sqrt(float((games * p * (1 - p)).sum()) / _SCALE ** 2)
    return x, x - half, x + half


def resolve_agent(spec: str) -> Agent:
    """The agent named by ``spec``: a level, a bot, ``module:function`` or a policy file
    (``.npz``); a clear :class:`ValueError` otherwise."""
    key = spec.strip().lower()
    for level in LEVELS:
        if key == level.name:
            return _bot_agent(spec, level.bot)
    if key in BOTS:
        return _bot_agent(spec, key)
    path = Path(spec)
    if path.suffix == ".npz" or path.is_file():
        if not path.is_file():
            raise ValueError(f"no such policy file: {spec}")
        return Agent(path.stem, policy=MLPPolicy.load(path))
    if ":" in spec:
        module_name, _, attr = spec.partition(":")
        try:
            target = getattr(importlib.import_module(module_name), attr)
        except (ImportError, AttributeError) as exc:
            raise ValueError(f"cannot load {spec}: {exc}") from None
        if hasattr(target, "choose"):
            return Agent(spec, bot=_same(target))
        if not callable(target):
            raise ValueError(f"{spec} is neither a batched policy nor a bot")
        return Agent(spec, policy=target)
    raise ValueError(f"unknown agent {spec!r}: give a level ("
                     f"{', '.join(level.name for level in LEVELS)}), a bot ("
                     f"{', '.join(BOTS)}), module:function or a .npz policy file")


def _same(bot: Chooser) -> Callable[[random.Random], Chooser]:
    """A factory that always gives ``bot`` itself."""
    return lambda _rng: bot


def _bot_agent(spec: str, bot: str) -> Agent:
    if bot in KERNEL_BOTS:  # on the kernel, or from its views against the expert
        return Agent(spec, kernel_bot=bot, bot=lambda rng: make_bot(bot, rng))
    if bot == "learned":
        learned: BatchedPolicy = importlib.import_module(
            "trashcards.envs.learned").learned_policy()
        return Agent(spec, policy=learned)
    return Agent(spec, bot=lambda rng: make_bot(bot, rng))


def rate(agent: str | Agent | BatchedPolicy | Chooser, *, matches: int = 2000,
         players: int = 2, preset: str = "standard", seed: int = 0,
         expert_matches: int | None = None, name: str | None = None,
         opponents: Sequence[str] | None = None,
         progress: Callable[[int], None] | None = None) -> Rating:
    """Play ``agent`` against the ladder and rate it (see the module's text).

    ``matches`` per opponent (``expert_matches`` against the expert: ``matches // 16``
    by default, 0 to leave it out); ``opponents`` keeps only those of the ladder's names
    (all by default); ``progress`` receives the number of matches finished as they
    finish."""
    if isinstance(agent, str):
        agent = resolve_agent(agent)
    elif not isinstance(agent, Agent):
        label = name or type(agent).__name__
        agent = (Agent(label, bot=_same(cast(Chooser, agent))) if hasattr(agent, "choose")
                 else Agent(label, policy=agent))
    if name:
        agent = Agent(name, agent.kernel_bot, agent.bot, agent.policy)
    if matches < players:
        raise ValueError(f"matches must be at least {players} (one per seat)")
    rules = Rules.preset_named(preset)
    rules.check_players(players)
    expert_n = matches // 16 if expert_matches is None else expert_matches
    vs: dict[str, Record] = {}
    names = [name for name, _bot, _elo in LADDER]
    unknown = sorted(set(opponents or ()) - set(names))
    if unknown:
        raise ValueError(f"unknown opponents {', '.join(unknown)}; the ladder is "
                         f"{', '.join(names)}")
    for k, (opponent, bot, _elo) in enumerate(LADDER):
        if opponents is not None and opponent not in opponents:
            continue
        n = expert_n if bot == "expert" else matches
        if n <= 0:
            continue
        n = max(n, players)
        # every opponent its own deals, so that the results against each are independent
        vs[opponent] = _play(agent, bot, rules, players, n, seed * len(LADDER) + k, progress)
    elo = elo_ci = None
    if not vs:
        raise ValueError("no opponent to play")
    if players == 2 and rules.preset == "standard" and rules == Rules.preset_named("standard"):
        ratings = {name: r for name, _bot, r in LADDER}
        x, lo, hi = elo_against([(ratings[k], rec.wins, rec.matches) for k, rec in vs.items()])
        elo, elo_ci = x, (lo, hi)
    return Rating(agent.name, elo, elo_ci, players, rules.preset, vs)


def _play(agent: Agent, opponent: str, rules: Rules, players: int, matches: int, seed: int,
          progress: Callable[[int], None] | None) -> Record:
    """The agent's wins (a match at the move cap: half) in ``matches`` matches against
    ``opponent`` at every other seat, spread over the agent's seats (each seat its own
    run seed: ``seed`` · 4 + seat)."""
    wins = 0.0
    for seat in range(players):
        count = matches // players + (1 if seat < matches % players else 0)
        if count == 0:
            continue
        if agent.kernel_bot is not None and opponent in KERNEL_BOTS:
            wins += _play_kernel(agent.kernel_bot, opponent, rules, players, seat, count,
                                 seed * 4 + seat, progress)
        else:
            wins += _play_vector(agent, opponent, rules, players, seat, count, seed * 4 + seat,
                                 progress)
    return Record(wins, matches)


def _play_kernel(bot: str, opponent: str, rules: Rules, players: int, seat: int,
                 count: int, seed: int, progress: Callable[[int], None] | None) -> float:
    from .sim.fast import play_chunk

    bots = [opponent] * players
    bots[seat] = bot
    stats = play_chunk(rules, bots, seed, 0, count, progress=progress)
    return float(stats.wins[seat]) + 0.5 * (count - stats.matches)


def _play_vector(agent: Agent, opponent: str, rules: Rules, players: int, seat: int,
                 count: int, seed: int, progress: Callable[[int], None] | None) -> float:
    # Table i plays run seed * 1,000,003 + i: apart from every other (seed, seat)'s.
    """Whole matches on ``count`` tables of the vector env, the agent deciding at
    ``seat`` (a policy in one batch per step; a bot table by table from its view)."""
    opponents: list[Any] = [opponent] * (players - 1)
    env = TrashVectorEnv(count, opponents, rules=rules, seat=seat, reward="match",
                         max_moves=MAX_MOVES, autoreset_mode=AutoresetMode.DISABLED,
                         copy=False, seed=seed)
    bots: dict[int, Chooser] = {}
    obs, info = env.reset(seed=seed * 1_000_003)
    wins = np.zeros(count)
    ended = np.zeros(count, dtype=bool)
    while not ended.all():
        mask = info["action_mask"]
        live = np.flatnonzero(mask.any(axis=1) & ~ended)
        actions = np.zeros(count, dtype=np.int64)
        if agent.policy is not None:
            actions[live] = np.asarray(agent.policy(obs[live], mask[live])).reshape(-1)
        else:
            assert agent.bot is not None
            for i in live.tolist():
                if i not in bots:
                    bots[i] = agent.bot(random.Random(f"{seed}/{i}"))
                actions[i] = action_index(bots[i].choose(env.tables.view(i)))
        obs, rewards, terms, truncs, info = env.step(actions)
        if "illegal" in info and info["illegal"].any():
            raise ValueError(f"{agent.name} chose an illegal action")
        now = (terms | truncs) & ~ended
        wins[now & terms & (rewards > 0)] = 1.0
        wins[now & truncs & ~terms] = 0.5
        ended |= now
        if progress is not None and now.any():
            progress(int(now.sum()))
    return float(wins.sum())
