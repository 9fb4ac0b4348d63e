"""Game review: every decision of every player, the move taken against the best one, the
match-win chance each choice cost, each player's mistakes, small losses and largest loss,
and the stretches of play where luck (the cards, not the choices) swung the match.

Each decision with more than one legal action is evaluated from the view of the player
to act (:func:`trashcards.ai.evaluate.evaluate`), so a review uses only what the players
could see. Between rounds, with two players, the match-odds table gives each player's
chance exactly (up to the table's own error). Along the match a player's chance moves for
two reasons: their choices (the *cost* of a decision: the best action's chance minus the
chance of the action taken) and everything else — draws, turn-ups and the other players'
moves (a *swing*: the change from one evaluated moment to the next that no choice of the
player explains). Costs and swings add up to the whole change of the chance.

**Only confirmed mistakes.** Each decision is judged in two independent steps, so that
noise is never presented as a mistake:

1. *selection*: :func:`trashcards.ai.compare.compare` finds the best action and the
   actions equal to it (paired comparison on common deals, adaptive sampling, exact
   values on small two-player boards). A move in the tie group whose estimated cost is
   under half the threshold is not a mistake.
2. *confirmation*: otherwise (a move outside the tie group, or a tied one whose cost
   was not yet decided) the best and the move taken are played again on **fresh
   deals** (sample indices the selection never used, :func:`.compare.confirm`): picking
   the best of several noisy estimates favours the lucky one (the winner's curse), so
   the deals that chose the best cannot also measure its lead. The move is a mistake
   only when that fresh interval of the cost excludes 0 **and** the cost is at least
   :data:`THRESHOLD` (0.5 points of match-win chance) — smaller differences exist but no
   player can act on them, and the lab finds nothing measurable below it (docs/ai.md).
   Exact positions need no confirmation: the cost is the solver's.

**Small losses.** A move that the confirmation finds measurably worse (its fresh interval
excludes 0) by less than :data:`THRESHOLD`, or that the solver finds worse by less, is a
``small_loss``: a real loss, too small to be called a mistake, counted apart so that the
mistakes keep their precision.

A board completed without calling "Trash!" (call-trash, RULES.md §9) is always a mistake
(``missed_call``): calling was free. Its cost is the measured one (never below 0), which
is near 0 when no other player could have won the round before the delayed claim. A
decision's ``cost`` is its confirmed cost (0 when it is neither a mistake nor a small
loss). Each player's summary gives what a person reads at a glance: the mistakes, the
small losses, the share of decisions that matched the best (no confirmed loss) and the
largest single loss — never a sum of costs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import pairwise
from typing import Any, Final

from ..actions import CALL, Action
from ..record import Record
from ..state import Phase, State, new_match
from ..views import View, view
from .compare import EXTRA_LEAST, Comparison, Paired, compare, confirm
from .evaluate import Engine
from .odds import MatchOdds, OddsUnavailableError, match_odds

__all__ = ["DEFAULT_SAMPLES", "KINDS", "LOSSES", "THRESHOLD", "Decision", "PlayerSummary",
           "Point", "Review", "Swing", "judge", "review", "verdict"]

#: Deals per action per decision for the selection (then up to three times as many on
#: the contested pair), and twice as many for the confirmation on fresh deals (a review
#: of a two-player standard match takes some 5 to 30 seconds with numba; fewer deals
#: find fewer of the small mistakes: benchmarks/coach.py).
DEFAULT_SAMPLES: Final = 400
#: The least cost (match-win chance) a confirmed mistake has.
THRESHOLD: Final = 0.005
#: Nodes the solver may add per decision in a review (a few seconds at most; the
#: solved nodes are kept for the rest of the round).
REVIEW_NODES: Final = 20_000
#: Deals (per ``samples``) the confirmation may add until its interval is decided.
CONFIRM_EXTRA: Final = 6
#: Where the confirmation's fresh deals start (far beyond any selection's).
FRESH: Final = 1 << 30
#: How many luck swings each summary lists.
TOP: Final = 3
#: A decision's kinds: no confirmed loss, a mistake, a board completed without calling,
#: a confirmed loss under the threshold.
KINDS: Final = ("ok", "mistake", "missed_call", "small_loss")
#: The kinds that are mistakes.
LOSSES: Final = ("mistake", "missed_call")


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision: ``move`` is its index in the record; ``best`` the reported best
    action and ``tied`` the actions equal to it; ``cost`` the confirmed match-win chance
    the choice cost the player (0 when ``kind`` is ``"ok"``), ``measured`` and
    ``cost_ci`` the confirmation's estimate and 95 % interval (on fresh deals; exact when
    ``exact``); ``kind`` is one of :data:`KINDS`."""

    move: int
    seat: int
    round: int
    taken: Action
    best: Action
    options: int
    cost: float
    cost_ci: tuple[float, float]
    round_cost: float
    chance_before: float
    chance_after: float
    tied: tuple[Action, ...] = ()
    measured: float = 0.0
    exact: bool = False
    kind: str = "ok"

    @property
    def mistake(self) -> bool:
        return self.kind in LOSSES

    @property
    def small_loss(self) -> bool:
        return self.kind == "small_loss"

    @property
    def matched(self) -> bool:
        """No confirmed loss: the move taken matched the best within the noise."""
        return self.kind == "ok"

    @property
    def equal_to_best(self) -> bool:
        return self.taken in self.tied

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "seat": self.seat, "round": self.round,
                "taken": str(self.taken), "best": str(self.best),
                "tied": [str(a) for a in self.tied], "equal_to_best": self.equal_to_best,
                "options": self.options, "exact": self.exact,
                "cost": round(self.cost, 4), "measured": round(self.measured, 4),
                "cost_ci": [round(v, 4) for v in self.cost_ci],
                "round_cost": round(self.round_cost, 4), "mistake": self.mistake,
                "small_loss": self.small_loss, "kind": self.kind,
                "match_win_before": round(self.chance_before, 4),
                "match_win_after": round(self.chance_after, 4)}


@dataclass(frozen=True, slots=True)
class Point:
    """Every seat's match-win chance at one moment: before move ``move`` (a decision,
    valued as if the best action were taken) and after it (the action taken), or after
    move ``move`` when a round ended (``decision`` false: before and after agree)."""

    move: int
    round: int
    before: tuple[float, ...]
    after: tuple[float, ...]
    decision: bool

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "round": self.round, "decision": self.decision,
                "before": [round(v, 4) for v in self.before],
                "after": [round(v, 4) for v in self.after]}


@dataclass(frozen=True, slots=True)
class Swing:
    """The change of ``seat``'s chance between two evaluated moments (after move
    ``start``, up to move ``end``) that no choice of that seat explains."""

    seat: int
    start: int
    end: int
    round: int
    change: float

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "from_move": self.start, "to_move": self.end,
                "round": self.round, "change": round(self.change, 4)}


@dataclass(frozen=True)
class PlayerSummary:
    """A player's decisions at a glance: how many, the mistakes, the small losses, how
    many matched the best (no confirmed loss), the largest single loss (a mistake or a
    small loss; ``None`` without one) and the largest luck swings."""

    seat: int
    name: str
    decisions: int
    mistakes: int
    small_losses: int
    largest: Decision | None
    swings: tuple[Swing, ...]

    @property
    def matched(self) -> int:
        return self.decisions - self.mistakes - self.small_losses

    @property
    def matched_share(self) -> float:
        return self.matched / self.decisions if self.decisions else 1.0

    def to_json(self) -> dict[str, Any]:
        largest = self.largest
        return {"seat": self.seat, "name": self.name, "decisions": self.decisions,
                "mistakes": self.mistakes, "small_losses": self.small_losses,
                "matched": self.matched, "matched_share": round(self.matched_share, 4),
                "largest_loss": None if largest is None else {
                    "move": largest.move, "kind": largest.kind, "exact": largest.exact,
                    "cost": round(largest.cost, 4),
                    "cost_ci": [round(v, 4) for v in largest.cost_ci]},
                "luck": [s.to_json() for s in self.swings]}


@dataclass(frozen=True)
class Review:
    """The review of a record (see the module)."""

    players: tuple[str, ...]
    decisions: tuple[Decision, ...]
    points: tuple[Point, ...]
    summaries: tuple[PlayerSummary, ...]
    samples: int
    seed: int
    horizon: str
    engine: str
    winner: int | None
    notes: tuple[str, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "winner": self.winner,
                "samples": self.samples, "seed": self.seed, "horizon": self.horizon,
                "engine": self.engine,
                "summary": [s.to_json() for s in self.summaries],
                "decisions": [d.to_json() for d in self.decisions],
                "curve": [p.to_json() for p in self.points], "notes": list(self.notes)}


def _decisions(record: Record) -> list[tuple[int, State]]:
    """The state before every action with more than one legal action."""
    state = new_match(record.rules, record.players)
    found = []
    for index, (after, _events) in enumerate(record.steps()):
        if state.to_act is not None and len(view(state, state.to_act).legal) > 1:
            found.append((index, state))
        state = after
    return found


#: ``judge(view, taken, samples, seed, engine, threshold, missed_call)``, as :func:`judge`.
Judge = Callable[[View, Action, int, int, Engine, float, bool], tuple["Decision", Comparison]]


def review(record: Record, samples: int = DEFAULT_SAMPLES, seed: int = 0,
           engine: Engine = "auto",
           progress: Callable[[int, int], None] | None = None,
           threshold: float = THRESHOLD, judged_by: Judge | None = None,
           odds_table: bool = True) -> Review:
    """Review every decision of ``record`` (every move must be legal: replay it first).
    ``progress(done, total)`` is called after each evaluated decision. ``judged_by``
    replaces :func:`judge` and ``odds_table=False`` does without the match-odds table
    (as the browser's review does: tests/web/test_js_coach.py)."""
    players = len(record.players)
    try:
        odds: MatchOdds | None = match_odds(record.rules, players) if odds_table else None
    except OddsUnavailableError:
        odds = None
    judge_one = judge if judged_by is None else judged_by
    todo = dict(_decisions(record))
    total = len(todo)
    decisions: list[Decision] = []
    points: list[Point] = []
    notes: list[str] = []
    horizon, used_engine = "round" if odds else "match", "reference"
    state = new_match(record.rules, record.players)
    if odds is not None:
        first = _first_dealt(record)
        if first is not None:
            points.append(Point(0, 1, *(odds.after_deal_of(first),) * 2, False))
    for index, (after, _events) in enumerate(record.steps()):
        if index in todo:
            seat = state.to_act
            assert seat is not None
            taken = record.moves[index].move
            assert isinstance(taken, Action)
            missed = seat in after.unclaimed and seat not in state.unclaimed
            judged, found = judge_one(view(state, seat), taken, samples,
                                      seed * 1_000_003 + index, engine, threshold, missed)
            horizon, used_engine = found.horizon, found.engine
            if found.notice and found.notice not in notes:
                notes.append(found.notice)
            decisions.append(replace(judged, move=index))
            best_value = found.values[found.best]
            taken_value = found.values[taken]
            points.append(Point(index, state.round, best_value.match_wins,
                                taken_value.match_wins, True))
            if progress is not None:
                progress(len(decisions), total)
        if after.phase is Phase.MATCH_OVER:
            final = tuple(float(s == after.match_winner) for s in range(players))
            points.append(Point(index, after.round, final, final, False))
        elif after.phase is Phase.ROUND_OVER and odds is not None:
            chances = odds.after(after)
            points.append(Point(index, after.round, chances, chances, False))
        state = after
    swings = _swings(points, players)
    summaries = tuple(_summary(seat, name, decisions, swings)
                      for seat, name in enumerate(record.players))
    return Review(record.players, tuple(decisions), tuple(points), summaries, samples, seed,
                  horizon, used_engine, state.match_winner, tuple(notes))


def judge(seat_view: View, taken: Action, samples: int, seed: int, engine: Engine = "auto",
          threshold: float = THRESHOLD, missed_call: bool = False,
          fresh: bool = True) -> tuple[Decision, Comparison]:
    """One decision judged (see the module): the decision and the comparison behind it;
    the decision is a :class:`Decision` with move index 0 (the caller sets it).
    ``fresh=False`` measures the cost on the selection's own deals — the winner's curse
    the review avoids; it exists for the test that shows the difference."""
    found = compare(seat_view, samples, seed, engine, extra=EXTRA_LEAST * samples,
                    exact_nodes=REVIEW_NODES)
    start = FRESH if fresh else 0

    def check(versus: Action) -> Paired:
        return confirm(seat_view, versus, taken, 2 * samples, seed, engine,
                       extra=CONFIRM_EXTRA * samples, first_sample=start)

    return verdict(seat_view, taken, found, check, threshold, missed_call), found


def verdict(seat_view: View, taken: Action, found: Comparison,
            check: Callable[[Action], Paired], threshold: float = THRESHOLD,
            missed_call: bool = False) -> Decision:
    """The judgement of :func:`judge` on the comparison ``found`` (the selection), where
    ``check(versus)`` measures ``versus − taken`` on fresh deals (the confirmation): the
    pure part of a review, which the browser's port (static/js/local/coach.js) must agree
    with."""
    seat = seat_view.to_act
    assert seat is not None
    best = found.best
    tied = found.tied
    kind = "ok"
    if found.exact:
        measured = found.values[best].match_win.value - found.values[taken].match_win.value
        if taken in tied:
            measured = 0.0
        ci = (measured, measured)
        if measured >= threshold:
            kind = "mistake"
        elif measured > 0:
            kind = "small_loss"
    elif taken in tied and not missed_call and (
            taken == best or found.vs_best[taken].equivalent
            or -found.vs_best[taken].mean < threshold / 2):
        diff = found.vs_best[taken]
        measured, ci = -diff.mean, (-diff.high, -diff.low)
    else:
        versus = CALL if missed_call and CALL in seat_view.legal else best
        if versus == taken:
            measured, ci = 0.0, (0.0, 0.0)
        else:
            diff = check(versus)
            measured, ci = diff.mean, (diff.low, diff.high)
            if diff.low > 0:  # confirmed on fresh deals: a mistake, or a small loss
                kind = "mistake" if diff.mean >= threshold else "small_loss"
                tied = tuple(a for a in tied if a != taken)
        if missed_call:
            kind = "missed_call"
    cost = max(measured, 0.0) if kind == "missed_call" else measured if kind != "ok" else 0.0
    round_cost = (found.values[best].round_win.value - found.values[taken].round_win.value
                  if kind != "ok" else 0.0)
    return Decision(0, seat, seat_view.round, taken, best, len(found.order), cost, ci,
                    round_cost, found.values[best].match_win.value,
                    found.values[taken].match_win.value, tied, measured, found.exact, kind)


def _first_dealt(record: Record) -> State | None:
    """The state just before the first deal (the dealer chosen), if the record has it."""
    for state, _events in record.steps(1):
        if state.dealer is not None:
            return state
    return None


def _swings(points: list[Point], players: int) -> list[Swing]:
    swings = []
    for prev, nxt in pairwise(points):
        for seat in range(players):
            change = nxt.before[seat] - prev.after[seat]
            swings.append(Swing(seat, prev.move, nxt.move, nxt.round, change))
    return swings


def _summary(seat: int, name: str, decisions: list[Decision],
             swings: list[Swing]) -> PlayerSummary:
    mine = [d for d in decisions if d.seat == seat]
    losses = [d for d in mine if not d.matched]
    largest = min(losses, key=lambda d: (-d.cost, d.move)) if losses else None
    luck = tuple(sorted((s for s in swings if s.seat == seat),
                        key=lambda s: (-abs(s.change), s.start))[:TOP])
    return PlayerSummary(seat, name, len(mine), sum(d.mistake for d in mine),
                         sum(d.small_loss for d in mine), largest, luck)
