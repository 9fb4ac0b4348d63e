"""Paired comparison of actions: which moves are measurably worse, and which are equal.

:func:`compare` is how the coach (hints and reviews) judges a decision. It never ranks
noise:

* **Common random numbers.** Every action is played out on the same sampled deals
  (:func:`trashcards.ai.evaluate.evaluate`: deal ``k`` of a seed is the same whatever the
  set of actions or the range asked for), dealt from the view alone — the unseen cards of
  the player's view, never the real hidden cards. Two actions are compared by the mean
  of their paired differences on the deals both were played on. Wild placements are one
  move (:mod:`.symmetry`): they get identical outcomes, so they are equal by
  construction.
* **A test that stays valid under adaptive spending.** The sampling looks at the
  differences after the first deals and after every batch, and stops when it sees a
  difference: a plain 95 % interval re-checked after every batch would tell exactly
  equal moves apart far more often than 5 % of the time. So every interval that decides
  (:func:`paired_interval` with ``alpha``) is a Student's t interval at level
  :data:`ALPHA` ``/ looks``, where ``looks`` is how many times the sampling may look
  (:func:`planned_looks`): by Bonferroni over the looks, two moves of exactly equal value
  are told apart with a chance of at most :data:`ALPHA` (1 %), however the sampling
  stops.
* **Best only when significant.** The leader is the action with the highest mean
  match-win chance. Every action whose difference to the leader (or to the reported
  best) has an interval that reaches 0 is *equal to the best* (the tie group). The
  reported best is greedy's own choice (the standard play) when it is in the tie
  group, else the leader: on small boards the solver proves greedy's choice optimal, and
  the lab finds nothing better at ten slots (docs/analysis/skill, tips). The tie group
  is listed in a fixed order: the reported best, then the others in the order of the
  legal actions (never by their noisy means); the other actions follow, by their
  difference to the best.
* **Figures that say what the ranking says** (:meth:`Comparison.figure`): every move of
  the tie group shows the reported best's chances (equal within the noise, so shown
  equal), and a measurably worse move the best's chance plus its paired difference (a
  control variate on the common deals, with its own interval), so the figures fall in
  the order of the list and a move's figure is the best's less exactly the cost its
  reason names.
* **Adaptive sampling.** After ``samples`` deals for every action, the rest of the
  budget (``extra`` deals, by default :func:`extra_deals`: what is left of
  :data:`ROLLOUTS` ``× samples`` rollouts, so a decision of two moves gets more deals
  than one of many) goes to the *contested pair* — the leader and the best tied
  rival whose interval is still undecided — in batches, until its interval excludes 0,
  or lies within ±:data:`EQUIVALENT` (equal for any practical purpose), or the budget
  is spent. The budget is counted in deals, never in seconds, so a comparison is
  deterministic: the same view, seed and budget give the same answer everywhere.
* **Exact values.** Two-player positions of small boards (each at most
  :data:`EXACT_MAX_SIZE` slots, plain turn) are solved exactly by :mod:`.solver`
  (optimal play of the round, the round's end valued with the match-odds table):
  ``exact`` is true, the intervals are points and ties are exact equalities.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Final, Literal

from ..actions import CALL, Action
from ..bots import make_bot
from ..estimates import Estimate, t975, t_quantile
from ..rules import Rules
from ..views import View
from .evaluate import ActionValue, Engine, evaluate, mean_estimate
from .odds import MatchOdds, OddsUnavailableError, match_odds
from .rollout import Horizon
from .symmetry import representative

__all__ = ["ALPHA", "BATCH", "EQUIVALENT", "EXACT_MAX_SIZE", "EXTRA_LEAST", "INTERIM_Z",
           "ROLLOUTS", "Comparison", "Draw", "Outcomes", "Paired", "compare", "comparison_of",
           "confirm", "confirm_paired", "exact_comparison", "extra_deals", "greedy_choice",
           "paired_interval", "planned_looks", "sample_adaptively"]

#: Deals per batch of adaptive sampling on the contested pair.
BATCH: Final = 200
#: The most a comparison may err in telling two moves of exactly equal value apart (two
#: sided), over every look of its adaptive sampling together (see the module).
ALPHA: Final = 0.01
#: A pair whose 95 % interval lies within ± this many match-win points is equal.
EQUIVALENT: Final = 0.0025
#: The budget of a comparison in rollouts, as a multiple of its ``samples``
#: (:func:`extra_deals`).
ROLLOUTS: Final = 7
#: The least extra budget, as a multiple of ``samples`` (the budget before the rollout
#: rule, whatever the number of moves).
EXTRA_LEAST: Final = 3
#: The early stop of a confirmation: the interval of ± this many standard errors (a
#: two-sided 99.9 % normal interval) must exclude 0.
INTERIM_Z: Final = 3.29
#: Largest board (slots, each player) solved exactly by the hint.
EXACT_MAX_SIZE: Final = 3
#: Nodes the solver may add to its memo for one comparison (some 0.1 s): positions that
#: need more are sampled instead (the memo is kept, so later positions of the same round
#: come cheaper).
EXACT_NODES: Final = 3000
#: Nodes a solver (one per rules and board sizes) may hold in all: beyond it, the
#: positions of those boards are sampled.
EXACT_TOTAL: Final = 60_000
#: Exact values closer than this are equal.
EXACT_TOLERANCE: Final = 1e-9


@dataclass(frozen=True, slots=True)
class Paired:
    """The paired difference ``a − b`` of match-win chance on ``n`` common deals: its mean
    and 95 % interval."""

    mean: float
    low: float
    high: float
    n: int

    @property
    def significant(self) -> bool:
        """The interval excludes 0."""
        return self.low > 0 or self.high < 0

    @property
    def equivalent(self) -> bool:
        """The interval lies within ±:data:`EQUIVALENT`."""
        return self.low >= -EQUIVALENT and self.high <= EQUIVALENT


def paired_interval(a: Sequence[float], b: Sequence[float], z: float | None = None,
                    alpha: float | None = None) -> Paired:
    """``a − b`` on their common deals (the first ``min(len(a), len(b))``), with its 95 %
    interval by Student's t (or ``± z`` standard errors, or the two-sided ``1 − alpha``
    interval by Student's t); identical outcomes give the point ``[0, 0]``."""
    n = min(len(a), len(b))
    if n == 0:
        raise ValueError("no common deals")
    diffs = [a[k] - b[k] for k in range(n)]
    mean = sum(diffs) / n
    if n < 2:
        return Paired(mean, -math.inf, math.inf, n)
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    if z is not None:
        quantile = z
    elif alpha is not None:
        quantile = t_quantile(1 - alpha / 2, n - 1)
    else:
        quantile = t975(n - 1)
    half = quantile * math.sqrt(var / n)
    return Paired(mean, mean - half, mean + half, n)


def planned_looks(extra: int, batch: int = BATCH) -> int:
    """How many times :func:`sample_adaptively` may look at a pair's difference with an
    ``extra`` budget in batches of ``batch``: after the first deals, and after each batch
    (every batch spends at least ``batch`` deals, or what is left)."""
    return 1 + max(0, -(-extra // max(1, batch)))


def extra_deals(samples: int, moves: int) -> int:
    """The default extra budget of a comparison of ``moves`` sampled moves (wild placements
    counted once): what is left of :data:`ROLLOUTS` ``× samples`` rollouts after
    ``samples`` deals of each move, and at least :data:`EXTRA_LEAST` ``× samples``. Two
    moves get ``5 × samples`` extra deals, three ``4 × samples``, more ``3 × samples``:
    a deal of a pair costs two rollouts, so the small decisions, where a lead of a few
    points must be confirmed between two moves, get the deals that decisions of many
    moves spend on their first look. The test's correction follows the budget
    (:func:`planned_looks`)."""
    return max(EXTRA_LEAST, ROLLOUTS - moves) * samples


@dataclass
class _Samples:
    """One action's outcomes, deal by deal: each seat's match-win chance at the end of
    the rollout, and the round's winners."""

    match: list[tuple[float, ...]] = field(default_factory=list)
    round: list[tuple[int, ...]] = field(default_factory=list)


@dataclass(frozen=True)
class Comparison:
    """Every legal action of a decision, compared (see the module).

    ``order``: the actions, reported best first — the tie group (the best, then the
    others in legal order), then the rest by their difference to the best; ``values``:
    each action's own chances; ``vs_best``: each action's paired difference to the
    reported best (a point ``0`` for the best itself), with its interval at the level
    ``ALPHA / looks`` that decided it; ``tied``: the actions equal to the best;
    ``samples``: the most deals any action was played on (0 when exact); ``looks``: how
    many times the sampling could look (the intervals' Bonferroni divisor);
    ``figures``: what a hint shows for each action (:meth:`figure`)."""

    seat: int
    order: tuple[Action, ...]
    values: dict[Action, ActionValue]
    vs_best: dict[Action, Paired]
    tied: tuple[Action, ...]
    exact: bool
    samples: int
    greedy: Action | None
    engine: str
    horizon: str
    seed: int
    notice: str | None = None
    #: who plays every seat in the rollouts (the chances assume it)
    policy: str = "greedy"
    looks: int = 1
    figures: Mapping[Action, ActionValue] | None = None

    @property
    def best(self) -> Action:
        return self.order[0]

    def figure(self, action: Action) -> ActionValue:
        """The chances a hint shows for ``action``: the reported best's for every action of
        the tie group (equal within the noise, they are shown equal); for a measurably
        worse one, the best's plus its paired difference (:func:`_figures`), or its
        exact values."""
        if self.figures is not None:
            return self.figures[action]
        if action in self.tied:
            top = self.values[self.best]
            return ActionValue(action, top.round_win, top.match_win,
                               self.values[action].round_wins,
                               self.values[action].match_wins)
        return self.values[action]

    def equal_to_best(self, action: Action) -> bool:
        return action in self.tied

    @property
    def decided(self) -> bool:
        """The best is measurably better than every other action."""
        return len(self.tied) == 1


@lru_cache(maxsize=4096)
def greedy_choice(view: View) -> Action:
    """What the greedy bot (the standard play) does here."""
    import random

    return make_bot("greedy", random.Random(0)).choose(view)


def compare(view: View, samples: int = 300, seed: int = 0, engine: Engine = "auto",
            extra: int | None = None, exact: bool = True,
            horizon: Horizon | Literal["auto"] = "auto",
            actions: Sequence[Action] | None = None, first_sample: int = 0,
            exact_nodes: int = EXACT_NODES, exact_total: int = EXACT_TOTAL) -> Comparison:
    """Compare the legal actions (or ``actions``) of the seat to act: ``samples`` deals
    each, then up to ``extra`` (default :func:`extra_deals`) more on the contested pair;
    exact where the solver reaches (``exact``) within ``exact_nodes`` new nodes, unless
    the ``horizon`` is ``"match"`` (the solver values a round's end with the match-odds
    table, which that caller does not want used or computed). Deals ``first_sample`` …
    of ``seed``."""
    seat = view.to_act
    if seat is None:
        raise ValueError("no decision is due in this position")
    chosen = tuple(view.legal if actions is None else actions)
    greedy = greedy_choice(view) if actions is None else None
    if exact and horizon != "match" and len(chosen) > 1:
        solved = exact_comparison(view, chosen, greedy, seed, exact_nodes, exact_total)
        if solved is not None:
            return solved
    evaluations = []

    def draw(actions: Sequence[Action], start: int, count: int) -> list[Outcomes]:
        found = evaluate(view, actions, count, seed, horizon, engine,
                         first_sample=first_sample + start)
        evaluations.append(found)
        return [(found.match_value[i], found.round_won[i]) for i in range(len(actions))]

    # Wild placements share one sample (symmetry.py): the extra deals of a contested pair
    # go to all of them at once.
    stand_in = {a: representative(view, a) for a in chosen}
    played = tuple(dict.fromkeys(stand_in.values()))
    extra = extra_deals(samples, len(played)) if extra is None else extra
    shared = sample_adaptively(played, seat, draw, samples, extra)
    data = {a: shared[stand_in[a]] for a in chosen}
    first = evaluations[0]
    return _comparison(view, seat, chosen, data, greedy, first.engine, first.horizon, seed,
                       first.notice, planned_looks(extra))


#: One action's outcomes on consecutive deals: each seat's match-win chance at the end
#: of the rollout, and the round's winners.
Outcomes = tuple[Sequence[tuple[float, ...]], Sequence[tuple[int, ...]]]
#: ``draw(actions, start, count)``: the outcomes of each action on deals ``start`` …
#: ``start + count − 1`` (deal ``k`` the same whatever the actions asked for).
Draw = Callable[[Sequence[Action], int, int], list[Outcomes]]


def sample_adaptively(chosen: Sequence[Action], seat: int, draw: Draw, samples: int,
                      extra: int, batch: int = BATCH) -> dict[Action, _Samples]:
    """The sampling of :func:`compare`: ``samples`` deals of every action, then batches of
    ``batch`` on the contested pair until it is decided or ``extra`` deals are spent
    (the budget in deals; the outcomes come from ``draw``). A pair is decided at the
    level ``ALPHA / planned_looks(extra, batch)``."""
    alpha = ALPHA / planned_looks(extra, batch)
    data: dict[Action, _Samples] = {}
    for action, (match, rounds) in zip(chosen, draw(chosen, 0, samples), strict=True):
        data[action] = _Samples(list(match), list(rounds))
    spent = 0
    while len(chosen) > 1 and spent < extra:
        pair = _contested(data, seat, alpha)
        if pair is None:
            break
        target = min(len(data[pair[0]].match), len(data[pair[1]].match)) + \
            min(batch, extra - spent)
        for action in pair:
            have = len(data[action].match)
            if have >= target:
                continue
            [(match, rounds)] = draw([action], have, target - have)
            data[action].match.extend(match)
            data[action].round.extend(rounds)
            spent += target - have
    return data


def comparison_of(view: View, chosen: Sequence[Action], outcomes: Mapping[Action, Outcomes],
                  greedy: Action | None, engine: str = "given", horizon: str = "given",
                  seed: int = 0, looks: int = 1) -> Comparison:
    """The comparison that :func:`compare` makes of these outcomes (each action's, deal by
    deal, from the view of the seat to act, gathered in ``looks`` looks at most): the
    best, the ties and every paired interval. The pure part of the coach, which the
    browser's port (static/js/local/coach.js) must agree with."""
    seat = view.to_act
    if seat is None:
        raise ValueError("no decision is due in this position")
    data = {a: _Samples(list(outcomes[a][0]), list(outcomes[a][1])) for a in chosen}
    return _comparison(view, seat, tuple(chosen), data, greedy, engine, horizon, seed, None,
                       looks)


def _mine(data: _Samples, seat: int) -> list[float]:
    return [m[seat] for m in data.match]


def _leader(data: dict[Action, _Samples], seat: int) -> Action:
    return max(data, key=lambda a: (sum(_mine(data[a], seat)) / len(data[a].match),
                                    -list(data).index(a)))


def _contested(data: dict[Action, _Samples], seat: int,
               alpha: float) -> tuple[Action, Action] | None:
    """The leader and its closest rival whose difference is still undecided (at level
    ``alpha``)."""
    leader = _leader(data, seat)
    lead = _mine(data[leader], seat)
    open_ = []
    for action, found in data.items():
        if action == leader:
            continue
        diff = paired_interval(_mine(found, seat), lead, alpha=alpha)
        if not diff.significant and not diff.equivalent:
            open_.append((-diff.mean, list(data).index(action), action))
    if not open_:
        return None
    return leader, min(open_)[2]


def _value(action: Action, found: _Samples, seat: int, players: int) -> ActionValue:
    n = len(found.match)
    rounds = [float(seat in w) for w in found.round]
    return ActionValue(action, mean_estimate(rounds, "sampled deals"),
                       mean_estimate(_mine(found, seat), "sampled deals"),
                       tuple(sum(s in w for w in found.round) / n for s in range(players)),
                       tuple(sum(m[s] for m in found.match) / n for s in range(players)))


def _comparison(view: View, seat: int, chosen: tuple[Action, ...],
                data: dict[Action, _Samples], greedy: Action | None, engine: str,
                horizon: str, seed: int, notice: str | None, looks: int) -> Comparison:
    players = len(view.players)
    alpha = ALPHA / looks
    values = {a: _value(a, data[a], seat, players) for a in chosen}

    def versus(a: Action, b: Action) -> Paired:
        if a == b:
            return Paired(0.0, 0.0, 0.0, len(data[b].match))
        return paired_interval(_mine(data[a], seat), _mine(data[b], seat), alpha=alpha)

    leader = _leader(data, seat)
    tied = [a for a in chosen if versus(a, leader).high >= 0]
    best = greedy if greedy in tied else leader
    if CALL in chosen:  # calling is free (RULES.md §9): always first
        best = CALL
        tied = [a for a in chosen if versus(a, CALL).high >= 0]
    assert best is not None
    vs_best = {a: versus(a, best) for a in chosen}
    # worse means measurably worse than the leader and than the reported best
    group = [a for a in chosen if a in tied or vs_best[a].high >= 0]
    group.sort(key=lambda a: (a != best, chosen.index(a)))
    rest = sorted((a for a in chosen if a not in group),
                  key=lambda a: (-vs_best[a].mean, chosen.index(a)))
    used = max(len(found.match) for found in data.values())
    figures = _figures(data, seat, best, group, vs_best, values)
    return Comparison(seat, (*group, *rest), values, vs_best, tuple(group), False, used,
                      greedy, engine, horizon, seed, notice, looks=looks, figures=figures)


def _figures(data: dict[Action, _Samples], seat: int, best: Action, tied: Sequence[Action],
             vs_best: Mapping[Action, Paired],
             values: Mapping[Action, ActionValue]) -> dict[Action, ActionValue]:
    """What a hint shows (:meth:`Comparison.figure`): the best's chances for the tie
    group; for a worse action ``a``, the best's mean over all its deals plus the mean of
    ``a − best`` on their common deals (for the match: exactly ``vs_best[a].mean``), with
    the interval of that sum."""
    top = values[best]
    base = data[best]
    out = {}
    for a in values:
        own = values[a]
        if a in tied:
            out[a] = ActionValue(a, top.round_win, top.match_win, own.round_wins,
                                 own.match_wins)
            continue
        match = _shifted(_mine(base, seat), _mine(data[a], seat), top.match_win.value,
                         vs_best[a].mean)
        won = [[float(seat in w) for w in found.round] for found in (base, data[a])]
        rounds = _shifted(won[0], won[1], top.round_win.value, None)
        out[a] = ActionValue(a, rounds, match, own.round_wins, own.match_wins)
    return out


def _shifted(base: Sequence[float], other: Sequence[float], base_mean: float,
             mean_diff: float | None) -> Estimate:
    """``base_mean`` (the mean of all of ``base``) plus the mean of ``other − base`` on
    their common deals (``mean_diff`` when given), with a 95 % interval: the variance of
    that sum is ``s²(base)/N + s²(diff)/n + 2 cov(base, diff)/N`` over ``N`` deals of
    ``base`` and ``n`` common ones (the covariance of the two means: the common deals are
    the first ``n`` of ``base``'s)."""
    big = len(base)
    n = min(big, len(other))
    diffs = [other[k] - base[k] for k in range(n)]
    if mean_diff is None:
        mean_diff = sum(diffs) / n
    value = min(1.0, max(0.0, base_mean + mean_diff))
    if n < 2:
        return Estimate(value, None, None, n, "sampled deals", "paired shift")
    mean_base = sum(base) / big
    var_base = sum((x - mean_base) ** 2 for x in base) / (big - 1)
    head = sum(base[:n]) / n
    var_diff = sum((d - mean_diff) ** 2 for d in diffs) / (n - 1)
    cov = sum((base[k] - head) * (diffs[k] - mean_diff) for k in range(n)) / (n - 1)
    var = max(0.0, var_base / big + var_diff / n + 2 * cov / big)
    half = t975(n - 1) * math.sqrt(var)
    return Estimate(value, value - half, value + half, n, "sampled deals", "paired shift")


def confirm(view: View, best: Action, taken: Action, samples: int, seed: int,
            engine: Engine = "auto", extra: int | None = None, first_sample: int = 0,
            horizon: Horizon | Literal["auto"] = "auto") -> Paired:
    """``best − taken`` in match-win chance on ``samples`` deals from ``first_sample`` of
    ``seed`` (then up to ``extra``, default ``3 × samples``, more in batches), with its
    95 % interval. A review calls it on deals the selection of ``best`` never saw, so the
    winner's curse cannot inflate the cost. Looking at the interval after every batch
    would inflate the false alarms, so an early stop needs strong evidence: the ±
    :data:`INTERIM_Z` interval excludes 0, or the 95 % one lies within ±:data:`EQUIVALENT`;
    otherwise the 95 % interval on the whole budget decides (about 2.6 % false alarms
    one-sided in all, against 2.5 % for a single look)."""
    seat = view.to_act
    assert seat is not None
    extra = 3 * samples if extra is None else extra
    pair = (best, taken)

    def draw(start: int, count: int) -> tuple[list[float], list[float]]:
        found = evaluate(view, pair, count, seed, horizon, engine,
                         first_sample=first_sample + start)
        return ([m[seat] for m in found.match_value[0]],
                [m[seat] for m in found.match_value[1]])

    return confirm_paired(draw, samples, extra)


def confirm_paired(draw: Callable[[int, int], tuple[list[float], list[float]]],
                   samples: int, extra: int, batch: int = BATCH) -> Paired:
    """The sequential test of :func:`confirm` on the outcomes ``draw(start, count)`` gives
    (the seat's match-win chance after ``best`` and after ``taken`` on deals ``start`` …
    ``start + count − 1``)."""
    a, b = draw(0, samples)
    diff = paired_interval(a, b)
    spent = 0
    while (spent < extra and not paired_interval(a, b, INTERIM_Z).significant
           and not diff.equivalent):
        step = min(batch, extra - spent)
        more_a, more_b = draw(len(a), step)
        a.extend(more_a)
        b.extend(more_b)
        spent += step
        diff = paired_interval(a, b)
    return diff


# -- exact values ---------------------------------------------------------------------------


def _exact_odds(rules: Rules) -> MatchOdds | None:
    try:
        return match_odds(rules, 2)
    except OddsUnavailableError:
        return None


def exact_comparison(view: View, chosen: Sequence[Action], greedy: Action | None,
                     seed: int = 0, nodes: int = EXACT_NODES,
                     total: int = EXACT_TOTAL) -> Comparison | None:
    """The comparison from the solver's exact values, or ``None`` where the position is
    out of their reach (:func:`.exact.exact_solution`: more than two players, last
    chance, a value that depends on a reshuffle, more than ``min(nodes, total)`` solver
    types of work)."""
    rules = view.rules
    if len(view.players) != 2 or rules.last_chance:
        return None
    odds = _exact_odds(rules)
    if odds is None:
        return None
    from .exact import exact_solution

    solution = exact_solution(view, min(nodes, total))
    if solution is None or not solution.exact or solution.error > EXACT_TOLERANCE:
        return None
    seat = view.to_act
    assert seat is not None
    standing = [p.rounds_won for p in view.players]
    next_dealer = ((view.dealer if view.dealer is not None else -1) + 1) % 2
    target = rules.target_rounds

    def after(winner: int | None) -> tuple[float, ...]:
        won = [w + (s == winner) for s, w in enumerate(standing)]
        if winner is not None and won[winner] >= target:
            return tuple(float(s == winner) for s in range(2))
        return odds.win_chances(won, next_dealer)

    ends = [after(0), after(1), after(None)]
    values: dict[Action, ActionValue] = {}
    for entry in solution.actions:
        if entry.action not in chosen:
            continue
        p0, p1 = entry.values
        void = max(0.0, 1.0 - p0 - p1)
        match = tuple(p0 * ends[0][s] + p1 * ends[1][s] + void * ends[2][s]
                      for s in range(2))
        rounds = (p0, p1)
        values[entry.action] = ActionValue(
            entry.action, _point(rounds[seat]), _point(match[seat]), rounds, match)
    if set(values) != set(chosen):
        return None
    mean = {a: values[a].match_win.value for a in chosen}
    top = max(mean.values())
    tied = [a for a in chosen if mean[a] >= top - EXACT_TOLERANCE]
    best = greedy if greedy in tied else max(tied, key=lambda a: (mean[a],
                                                                   -chosen.index(a)))
    if CALL in tied:  # calling is free (RULES.md §9): first, as in the sampled comparison
        best = CALL
    assert best is not None
    tied.sort(key=lambda a: (a != best, -mean[a], chosen.index(a)))
    rest = sorted((a for a in chosen if a not in tied), key=lambda a: (-mean[a],
                                                                        chosen.index(a)))
    vs_best = {}
    for a in chosen:
        d = 0.0 if a in tied else mean[a] - mean[best]
        vs_best[a] = Paired(d, d, d, 0)
    return Comparison(seat, (*tied, *rest), values, vs_best, tuple(tied), True, 0, greedy,
                      "solver", "round", seed)


def _point(value: float) -> Estimate:
    return Estimate(value, value, value, 0, "exact", "solver")
