"""Every legal action's chance of winning the round and the match, judged from a view.

:func:`evaluate` is the one way the AI judges a position. For ``samples`` deals
consistent with the view (:func:`trashcards.deals.sample_state`; Trash has no private
information, so these are exactly the positions the view could be, equally likely), it
applies each candidate action and plays the position out with the rollout ``policy`` at
every seat. It uses common random numbers: sample ``k`` deals the same hidden cards and
feeds the same chance and bot streams to the rollout of every action, so the difference
between two actions' outcomes on sample ``k`` comes from the actions alone and the paired
differences (:meth:`Evaluation.difference`) are far sharper than the separate estimates.
Wild placements are one move for the rollout policies that always swap (:mod:`.symmetry`):
they are played once and all get the same outcomes, deal by deal (the sample of one
placement is paired with the sample that swaps the hidden cards of the two slots).

Horizons: ``"round"`` plays to the end of the round and values the standing it leaves
with the match-odds table (:mod:`.odds`; much less noise than a whole match), ``"match"``
plays to the end of the match. ``"auto"`` is ``round`` where a table exists (two
players) and ``match`` otherwise.

Engines: ``"fast"`` is the numba kernel's batch evaluation
(:func:`trashcards.sim.rollouts.evaluate`: deals sampled in the kernel, every action
rolled out with the same streams, one compiled call without the GIL); ``"reference"``
plays the rollouts with the rules engine and the bots of :mod:`trashcards.bots` on deals
from :func:`trashcards.deals.sample_state`. ``"auto"`` takes the fast one where numba is
installed and otherwise falls back to the reference one, saying so in
:attr:`Evaluation.notice`; the two agree statistically (tests/ai/test_evaluate_engines.py).
"""

from __future__ import annotations

import importlib
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Literal

from ..actions import Action
from ..deals import sample_state
from ..engine import apply
from ..estimates import Estimate, proportion, t975
from ..state import Phase, State
from ..views import View
from .odds import MatchOdds, OddsUnavailableError, match_odds
from .rollout import Horizon, play_out, rollout_bots
from .symmetry import representative

__all__ = ["ENGINES", "ActionValue", "Evaluation", "combine", "evaluate", "fast_problem",
           "mean_estimate", "resolve_horizon"]

Engine = Literal["auto", "fast", "reference"]
ENGINES: Final = ("auto", "fast", "reference")
DEFAULT_POLICY: Final = "greedy"


@dataclass(frozen=True, slots=True)
class ActionValue:
    """One action's chances for the seat to act (``round_win``, ``match_win``, with 95 %
    intervals) and every seat's mean chances (``round_wins``, ``match_wins``)."""

    action: Action
    round_win: Estimate
    match_win: Estimate
    round_wins: tuple[float, ...]
    match_wins: tuple[float, ...]


@dataclass(frozen=True)
class Evaluation:
    """The outcome of :func:`evaluate`. ``values`` follow the order of the actions asked
    for; ``round_won[a][k]`` lists the round's winners of sample ``k`` after action ``a``
    and ``match_value[a][k]`` each seat's chance of winning the match there."""

    seat: int
    values: tuple[ActionValue, ...]
    samples: int
    seed: int
    horizon: Horizon
    engine: str
    policy: str
    round_won: tuple[tuple[tuple[int, ...], ...], ...]
    match_value: tuple[tuple[tuple[float, ...], ...], ...]
    notice: str | None = None

    def ranked(self) -> tuple[ActionValue, ...]:
        """Best first: by match-win chance, then round-win chance, then legal order."""
        order = sorted(range(len(self.values)),
                       key=lambda i: (-self.values[i].match_win.value,
                                      -self.values[i].round_win.value, i))
        return tuple(self.values[i] for i in order)

    @property
    def best(self) -> ActionValue:
        return self.ranked()[0]

    def index(self, action: Action) -> int:
        for i, value in enumerate(self.values):
            if value.action == action:
                return i
        raise ValueError(f"{action} was not evaluated")

    def difference(self, a: Action, b: Action, measure: Literal["match", "round"] = "match",
                   seat: int | None = None) -> Estimate:
        """``a``'s chance minus ``b``'s for ``seat`` (default: the seat to act), from the
        paired samples, with a 95 % interval (Student's t)."""
        seat = self.seat if seat is None else seat
        i, j = self.index(a), self.index(b)
        diffs = [self._outcome(i, k, measure, seat) - self._outcome(j, k, measure, seat)
                 for k in range(self.samples)]
        return mean_estimate(diffs, "paired samples", "paired t")

    def _outcome(self, i: int, k: int, measure: str, seat: int) -> float:
        if measure == "round":
            return float(seat in self.round_won[i][k])
        return self.match_value[i][k][seat]


def mean_estimate(values: Sequence[float], unit: str, method: str = "normal") -> Estimate:
    """The mean of independent values with a 95 % interval (Student's t); values that
    are all 0 or 1 get a Wilson interval instead."""
    n = len(values)
    if n and all(v in (0.0, 1.0) for v in values) and method == "normal":
        return proportion(int(sum(values)), n, unit)
    if n < 2:
        mean = values[0] if values else math.nan
        return Estimate(mean, None, None, n, unit, method)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, unit, method)


def fast_problem() -> str | None:
    """Why the fast evaluator cannot run here, or ``None`` when it can."""
    try:
        module = importlib.import_module("trashcards.sim.rollouts")
    except ImportError as exc:
        if getattr(exc, "name", None) == "trashcards.sim.rollouts":
            return "the kernel's batch evaluation is not built yet"
        return f"{exc} (install the sim extra: pip install 'trashcards[sim]')"
    return None if hasattr(module, "evaluate") else "the kernel has no batch evaluation"


def resolve_horizon(view: View, horizon: Horizon | Literal["auto"],
                    policy: str = DEFAULT_POLICY) -> tuple[Horizon, MatchOdds | None]:
    """The horizon ``auto`` stands for here, and the match-odds table it needs."""
    players = len(view.players)
    if horizon == "match":
        return "match", None
    try:
        return "round", match_odds(view.rules, players, policy)
    except OddsUnavailableError:
        if horizon == "round":
            raise
        return "match", None


def evaluate(view: View, actions: Sequence[Action] | None = None, samples: int = 200,
             seed: int = 0, horizon: Horizon | Literal["auto"] = "auto",
             engine: Engine = "auto", policy: str = DEFAULT_POLICY,
             first_sample: int = 0) -> Evaluation:
    """Every action's (default: every legal action's) chances for the seat to act, from
    samples ``first_sample`` … ``first_sample + samples - 1`` of ``seed``.

    Deterministic: the same view, actions, samples, seed, horizon and policy give the same
    evaluation; hidden cards play no part (only the view is read). Evaluations of
    consecutive sample ranges :func:`combine` into the evaluation of the whole range.
    Raises :class:`ValueError` when no decision is due or an action is not legal.
    """
    seat = view.to_act
    if seat is None or view.phase not in (Phase.DRAW, Phase.WILD, Phase.SWAP):
        raise ValueError("no decision is due in this position")
    chosen = tuple(view.legal if actions is None else actions)
    for action in chosen:
        if action not in view.legal:
            raise ValueError(f"{action} is not legal here (legal: "
                             f"{', '.join(str(a) for a in view.legal)})")
    if not chosen:
        raise ValueError("no action to evaluate")
    if samples < 1:
        raise ValueError("samples must be at least 1")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; the engines are {', '.join(ENGINES)}")
    notice = None
    problem = fast_problem() if engine != "reference" else "not asked for"
    if engine == "fast" and problem is not None:
        raise ValueError(f"the fast engine cannot evaluate: {problem}")
    if engine == "auto" and problem is not None:
        notice = f"the fast engine is not available ({problem}): rollouts by the rules engine"
    used_horizon, odds = resolve_horizon(view, horizon, policy)
    backend = _fast if problem is None else _reference
    # Wild placements are one move (symmetry.py): played once, the same outcomes for all.
    stand_in = {a: representative(view, a, policy) for a in chosen}
    played = tuple(dict.fromkeys(stand_in.values()))
    rounds, values = backend(view, played, first_sample, samples, seed, used_horizon, odds,
                             policy)
    row = {a: i for i, a in enumerate(played)}
    round_won = tuple(rounds[row[stand_in[a]]] for a in chosen)
    match_value = tuple(values[row[stand_in[a]]] for a in chosen)
    return _summarise(seat, chosen, len(view.players), seed, used_horizon,
                      "fast" if problem is None else "reference", policy, round_won,
                      match_value, notice)


def combine(parts: Sequence[Evaluation]) -> Evaluation:
    """One evaluation from evaluations of the same position and actions on consecutive
    sample ranges (e.g. a time budget spent in batches)."""
    head = parts[0]
    actions = tuple(v.action for v in head.values)
    round_won = tuple(tuple(w for part in parts for w in part.round_won[i])
                      for i in range(len(actions)))
    match_value = tuple(tuple(m for part in parts for m in part.match_value[i])
                        for i in range(len(actions)))
    return _summarise(head.seat, actions, len(head.values[0].round_wins), head.seed,
                      head.horizon, head.engine, head.policy, round_won, match_value,
                      head.notice)


def _summarise(seat: int, chosen: tuple[Action, ...], players: int, seed: int,
               horizon: Horizon, engine: str, policy: str,
               round_won: tuple[tuple[tuple[int, ...], ...], ...],
               match_value: tuple[tuple[tuple[float, ...], ...], ...],
               notice: str | None) -> Evaluation:
    samples = len(round_won[0])
    values = []
    for i, action in enumerate(chosen):
        rounds = [float(seat in w) for w in round_won[i]]
        matches = [m[seat] for m in match_value[i]]
        values.append(ActionValue(
            action, mean_estimate(rounds, "sampled deals"),
            mean_estimate(matches, "sampled deals"),
            tuple(sum(s in w for w in round_won[i]) / samples for s in range(players)),
            tuple(sum(m[s] for m in match_value[i]) / samples for s in range(players))))
    return Evaluation(seat, tuple(values), samples, seed, horizon, engine, policy,
                      round_won, match_value, notice)


def _reference(view: View, actions: tuple[Action, ...], first: int, samples: int, seed: int,
               horizon: Horizon, odds: MatchOdds | None, policy: str,
               ) -> tuple[tuple[tuple[tuple[int, ...], ...], ...],
                          tuple[tuple[tuple[float, ...], ...], ...]]:
    """Rollouts with the rules engine and the reference bots, with common random numbers."""
    players = len(view.players)
    won: list[list[tuple[int, ...]]] = [[] for _ in actions]
    value: list[list[tuple[float, ...]]] = [[] for _ in actions]
    for k in range(first, first + samples):
        base = f"trashcards-eval:{seed}:{k}"
        state = sample_state(view, random.Random(f"{base}:deal"))
        for i, action in enumerate(actions):
            bots = rollout_bots(policy, [random.Random(f"{base}:seat{s}")
                                         for s in range(players)])
            chance = random.Random(f"{base}:chance")
            end = play_out(apply(state, action)[0], bots, chance, "round")
            won[i].append(end.round_winners)
            if horizon == "match":
                end = play_out(end, bots, chance, "match")
            value[i].append(_match_value(end, odds))
    return (tuple(tuple(w) for w in won), tuple(tuple(v) for v in value))


def _fast(view: View, actions: tuple[Action, ...], first: int, samples: int, seed: int,
          horizon: Horizon, odds: MatchOdds | None, policy: str,
          ) -> tuple[tuple[tuple[tuple[int, ...], ...], ...],
                     tuple[tuple[tuple[float, ...], ...], ...]]:
    """The kernel's batch evaluation (:func:`trashcards.sim.rollouts.evaluate`): the
    same deals for every action and the same streams (common random numbers), in one
    compiled call; the end of each round valued with the match-odds table."""
    rollouts = importlib.import_module("trashcards.sim.rollouts")
    players = len(view.players)
    out = rollouts.evaluate(view, [policy] * players, samples, seed, actions, horizon, first)
    won_rows: list[tuple[tuple[int, ...], ...]] = []
    value_rows: list[tuple[tuple[float, ...], ...]] = []
    standing = [p.rounds_won for p in view.players]
    next_dealer = ((view.dealer if view.dealer is not None else -1) + 1) % players
    for masks, champions in zip(out.winners.tolist(), out.match_winner.tolist(), strict=True):
        won_row = []
        value_row = []
        for mask, champion in zip(masks, champions, strict=True):
            winners = tuple(s for s in range(players) if mask >> s & 1)
            won_row.append(winners)
            if champion >= 0:
                value_row.append(tuple(float(s == champion) for s in range(players)))
            else:
                assert odds is not None
                after = [w + (s in winners) for s, w in enumerate(standing)]
                value_row.append(odds.win_chances(after, next_dealer))
        won_rows.append(tuple(won_row))
        value_rows.append(tuple(value_row))
    return tuple(won_rows), tuple(value_rows)


def _match_value(end: State, odds: MatchOdds | None) -> tuple[float, ...]:
    if end.phase is Phase.MATCH_OVER:
        return tuple(float(s == end.match_winner) for s in range(end.players))
    assert odds is not None
    return odds.after(end)
