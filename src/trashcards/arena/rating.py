"""The arena's verdict: an agent against ``random`` and every level, its win rates with
95 % intervals and its Elo on the levels' scale.

**Matches.** ``rate(agent)`` plays the agent against ``random`` and every level
(beginner, casual, good, expert: :data:`trashcards.ai.levels.LEVELS`), at ``players`` > 2
against copies of the opponent. By default in **duplicate** (:mod:`.matches`): every
deal once per seat rotation, so luck in the cards falls on both sides alike, and the
win rate is the mean over deals of the agent's share of that deal's matches, with an
interval from the spread of those per-deal shares (Student's t over the deals; one
pseudo-deal of variance ¼ is added to the spread, so a run whose every deal split
evenly still has an interval). ``mode="plain"`` plays every deal once (Wilson
intervals). Every opponent gets its own deals (run seed ``seed · 5 + k`` for the k-th
opponent of the ladder), so results against different opponents are independent, as
the Elo's interval assumes; every agent rated with the same seed meets the same deals.

**The Elo.** The levels' ratings come from ``trashcards analyze skill`` (two players,
standard rules; docs/analysis/skill): a Bradley–Terry fit of ``random`` and the four
levels, centred so those five average 1500. The agent is placed on that scale by the
maximum-likelihood rating against the ladder's ratings held fixed, with the same prior
as the fit (half a win each way per opponent met), and a 95 % interval of ± 1.96
standard errors from the likelihood's curvature (the ladder's own intervals, ± 4 points
or so, are not added). A duplicate result enters the fit as the binomial sample with the
same variance (``p (1 − p) / se²`` effective matches), so the scale is the same and only
the interval shrinks. The scale is measured at two players on standard rules only, so
any other table size or preset gives the win rates and no Elo (``None``).
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

import numpy as np
import numpy.typing as npt

from ..ai.levels import LEVELS
from ..envs.policy import BatchedPolicy
from ..estimates import Z95, Estimate, t975, wilson_interval
from ..rules import Rules
from ..session import Chooser
from .agents import Agent, AgentError, resolve_agent
from .matches import MODES, Mode, play_deals

__all__ = ["LADDER", "RANDOM_ELO", "Rating", "Record", "elo_against", "rate", "record_of"]

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


@dataclass(frozen=True, slots=True)
class Record:
    """The agent's results against one opponent: ``wins`` (a capped match: half) of
    ``matches`` on ``deals`` deals; ``se`` the standard error of the win rate in
    duplicate (``None`` in plain, whose interval is Wilson's)."""

    wins: float
    matches: int
    deals: int
    se: float | None = None

    @property
    def mode(self) -> Mode:
        return "plain" if self.se is None else "duplicate"

    @property
    def estimate(self) -> Estimate:
        value = self.wins / self.matches
        if self.se is None:
            low, high = wilson_interval(self.wins, self.matches)
            return Estimate(value, low, high, self.matches, "matches", "Wilson")
        if self.deals < 2:  # one deal: no spread to measure
            return Estimate(value, 0.0, 1.0, self.matches, "matches", "duplicate (1 deal)")
        half = t975(self.deals - 1) * self.se
        return Estimate(value, max(0.0, value - half), min(1.0, value + half),
                        self.matches, "matches", f"duplicate ({self.deals} deals)")

    @property
    def effective(self) -> tuple[float, float]:
        """``(wins, matches)`` of the binomial sample as precise as this record."""
        if self.se is None:
            return self.wins, float(self.matches)
        p = (self.wins + _PRIOR) / (self.matches + 2 * _PRIOR)
        n = p * (1 - p) / self.se ** 2
        return (self.wins / self.matches) * n, n


def record_of(scores: npt.NDArray[np.float64]) -> Record:
    """The record of a ``(deals, rotations)`` array of match scores (one rotation:
    plain; several: duplicate, each row one deal)."""
    deals, rotations = scores.shape
    wins, matches = float(scores.sum()), int(scores.size)
    if rotations == 1:
        return Record(wins, matches, deals)
    per_deal = scores.mean(axis=1)
    spread = float(((per_deal - per_deal.mean()) ** 2).sum()) + 0.25
    return Record(wins, matches, deals, math.sqrt(spread / deals / deals))


@dataclass(frozen=True, slots=True)
class Rating:
    """The arena's verdict: Elo (``None`` off the levels' scale) and results per
    opponent, with what reproduces it: the settings, the seed, the policy file's SHA-256
    and the command (``None`` for an agent given as an object)."""

    agent: str
    elo: float | None
    elo_ci: tuple[float, float] | None
    players: int
    preset: str
    vs: dict[str, Record]
    mode: Mode = "duplicate"
    seed: int = 0
    settings: dict[str, Any] | None = None
    sha256: str | None = None
    command: str | None = None

    @property
    def matches(self) -> int:
        return sum(r.matches for r in self.vs.values())

    def to_json(self) -> dict[str, Any]:
        """``{"agent", "elo", "elo_ci": [lo, hi], "matches", "vs": {NAME: {"win",
        "win_ci", "matches", "deals"}}, "mode", "seed", "settings", "sha256",
        "command"}`` (win rates as fractions)."""
        vs = {}
        for name, record in self.vs.items():
            est = record.estimate
            vs[name] = {"win": est.value, "win_ci": [est.low, est.high],
                        "matches": record.matches, "deals": record.deals}
        return {"agent": self.agent, "elo": self.elo,
                "elo_ci": None if self.elo_ci is None else list(self.elo_ci),
                "matches": self.matches, "vs": vs, "mode": self.mode, "seed": self.seed,
                "settings": self.settings, "sha256": self.sha256, "command": self.command}


def elo_against(results: list[tuple[float, float, float]]) -> tuple[float, float, float]:
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


def _agent_of(agent: str | Agent | BatchedPolicy | Chooser, name: str | None) -> Agent:
    if isinstance(agent, str):
        agent = resolve_agent(agent)
    elif not isinstance(agent, Agent):
        label = name or type(agent).__name__
        if hasattr(agent, "choose"):
            bot = cast(Chooser, agent)
            agent = Agent(label, bot=lambda _rng: bot)
        else:
            agent = Agent(label, policy=agent)
    if name:
        agent = Agent(name, agent.kernel_bot, agent.bot, agent.policy, agent.sha256)
    return agent


def rate(agent: str | Agent | BatchedPolicy | Chooser, *, matches: int = 2000,
         players: int = 2, preset: str = "standard", seed: int = 0,
         expert_matches: int | None = None, name: str | None = None,
         opponents: Sequence[str] | None = None, mode: Mode = "duplicate",
         progress: Callable[[int], None] | None = None) -> Rating:
    """Play ``agent`` against the ladder and rate it (see the module's text).

    ``matches`` per opponent (``expert_matches`` against the expert: ``matches // 16``
    by default, 0 to leave it out), rounded up to whole deals in duplicate (a deal is
    ``players`` matches); ``opponents`` keeps only those of the ladder's names (all by
    default); ``mode``: ``"duplicate"`` or ``"plain"``; ``progress`` receives the number
    of matches finished as they finish."""
    if mode not in MODES:
        raise AgentError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
    spec = agent if isinstance(agent, str) else None
    resolved = _agent_of(agent, name)
    if matches < players:
        raise AgentError(f"matches must be at least {players} (one per seat)")
    rules = Rules.preset_named(preset)
    rules.check_players(players)
    expert_n = matches // 16 if expert_matches is None else expert_matches
    names = [n for n, _bot, _elo in LADDER]
    unknown = sorted(set(opponents or ()) - set(names))
    if unknown:
        raise AgentError(f"unknown opponents {', '.join(unknown)}; the ladder is "
                         f"{', '.join(names)}")
    vs: dict[str, Record] = {}
    for k, (opponent, bot, _elo) in enumerate(LADDER):
        if opponents is not None and opponent not in opponents:
            continue
        n = expert_n if bot == "expert" else matches
        if n <= 0:
            continue
        deals = -(-max(n, players) // players) if mode == "duplicate" else max(n, players)
        scores = play_deals(resolved, bot, rules, players, deals, seed * len(LADDER) + k,
                            mode, progress)
        vs[opponent] = record_of(scores)
    if not vs:
        raise AgentError("no opponent to play")
    elo = elo_ci = None
    if players == 2 and rules == Rules.preset_named("standard"):
        ratings = {n: r for n, _bot, r in LADDER}
        x, lo, hi = elo_against([(ratings[k], *rec.effective) for k, rec in vs.items()])
        elo, elo_ci = x, (lo, hi)
    settings = {"matches": matches, "expert_matches": expert_n, "players": players,
                "preset": rules.preset, "mode": mode,
                "opponents": None if opponents is None else list(opponents)}
    command = None if spec is None or name else reproduce_command(
        spec, settings, seed, resolved.sha256)
    return Rating(resolved.name, elo, elo_ci, players, rules.preset, vs, mode, seed,
                  settings, resolved.sha256, command)


def reproduce_command(spec: str, settings: dict[str, Any], seed: int,
                      sha256: str | None) -> str:
    """The ``trashcards arena`` command that plays exactly these matches again."""
    words = ["trashcards", "arena", spec, "--matches", str(settings["matches"]),
             "--expert-matches", str(settings["expert_matches"])]
    if settings["players"] != 2:
        words += ["--players", str(settings["players"])]
    if settings["preset"] != "standard":
        words += ["--preset", settings["preset"]]
    if settings["mode"] != "duplicate":
        words += ["--mode", settings["mode"]]
    for opponent in settings.get("opponents") or ():
        words += ["--opponent", opponent]
    words += ["--seed", str(seed)]
    if sha256 is not None:
        words += ["--sha256", sha256]
    return shlex.join(words)
