"""Hints for players: every legal action, the best first, with its chance of winning the
match and the round (95 % intervals), how it compares with the best (a paired interval,
corrected for the looks of the adaptive sampling), whether it is as good as the best,
and a reason — from the view alone.

The figures say what the ranking says (:meth:`.compare.Comparison.figure`): the moves
of the tie group are listed in a fixed order (the reported best — the standard play
where it is among them — then the others in legal order) and all show the best's
chances; a measurably worse move shows the best's chance less its paired cost. So a
lower figure never stands above a higher one.

:func:`hint` is what the ``trashcards hint`` command prints and what the terminal and
browser games call: it reads a :class:`~trashcards.views.View` (so nothing hidden can
reach it) and is deterministic for a given seed and budget. The judging is
:func:`trashcards.ai.compare.compare` (common random numbers, tie groups, adaptive
sampling on the contested pair, exact values where the solver reaches); the reasons are
:func:`trashcards.ai.reasons.reasons`, built from the same comparison.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from ..actions import CALL, Action
from ..state import Phase
from ..views import View
from .compare import Comparison, Paired, compare
from .evaluate import ActionValue, Engine, evaluate
from .odds import OddsUnavailableError, match_odds
from .reasons import Reason, reasons
from .rollout import Horizon

__all__ = ["DEFAULT_SAMPLES", "Chances", "Hint", "HintLine", "chances", "hint", "hint_of"]

#: Deals per action per hint, before the adaptive deals on the contested pair (up to
#: three times as many more): about ±1 pp on a two-player match-win chance, and a paired
#: difference of ±0.3 pp or better on the contested pair (benchmarks/coach.py).
DEFAULT_SAMPLES: Final = 300


@dataclass(frozen=True, slots=True)
class HintLine:
    """One action of a hint: ``value`` holds the chances shown for it
    (:meth:`.compare.Comparison.figure`; its own estimate is in the comparison's
    ``values``)."""

    action: Action
    value: ActionValue
    vs_best: Paired
    equal_to_best: bool
    why: Reason

    @property
    def reason(self) -> str:
        """The reason in English."""
        return self.why.text

    def to_json(self) -> dict[str, Any]:
        mw, rw = self.value.match_win, self.value.round_win
        return {"action": str(self.action), "match_win": round(mw.value, 4),
                "match_win_ci": _ci(mw.low, mw.high), "round_win": round(rw.value, 4),
                "round_win_ci": _ci(rw.low, rw.high),
                # a difference of two chances lies in [-1, 1] (an interval on few deals
                # with a wide spread can reach past it)
                "vs_best": [round(max(-1.0, self.vs_best.low), 4),
                            round(min(1.0, self.vs_best.high), 4)],
                "equal_to_best": self.equal_to_best, "reason": self.why.to_json()}


def _ci(low: float | None, high: float | None) -> list[float]:
    return [round(max(0.0, low if low is not None else 0.0), 4),
            round(min(1.0, high if high is not None else 1.0), 4)]


@dataclass(frozen=True)
class Hint:
    """A hint for the seat ``to_act``: ``lines`` best first (the tie group first)."""

    to_act: int
    lines: tuple[HintLine, ...]
    comparison: Comparison

    @property
    def best(self) -> HintLine:
        return self.lines[0]

    @property
    def evaluation(self) -> Comparison:
        """The comparison behind the hint (``samples``, ``engine``, ``seed`` …)."""
        return self.comparison

    @property
    def exact(self) -> bool:
        return self.comparison.exact

    @property
    def tied(self) -> tuple[HintLine, ...]:
        return tuple(line for line in self.lines if line.equal_to_best)

    @property
    def always_call(self) -> bool:
        """Calling "Trash!" is legal: it costs nothing, so it always comes first."""
        return any(line.action == CALL for line in self.lines)

    def to_json(self) -> dict[str, Any]:
        """``{"to_act": S, "best": "discard", "exact": false, "samples": 900, "tied":
        ["discard"], "always_call": false, "actions": [{"action", "match_win",
        "match_win_ci", "round_win", "round_win_ci", "vs_best": [lo, hi],
        "equal_to_best", "reason": {"code", "params"}}, …]}``."""
        return {"to_act": self.to_act, "best": str(self.best.action), "exact": self.exact,
                "samples": 0 if self.exact else self.comparison.samples,
                "tied": [str(line.action) for line in self.tied],
                "always_call": self.always_call,
                "actions": [line.to_json() for line in self.lines]}


def hint(view: View, samples: int = DEFAULT_SAMPLES, seed: int = 0,
         engine: Engine = "auto", horizon: Horizon | Literal["auto"] = "auto",
         extra: int | None = None) -> Hint:
    """The hint for the seat to act (raises :class:`ValueError` when no decision is due):
    ``samples`` deals per action, then up to ``extra`` (default
    :func:`~trashcards.ai.compare.extra_deals`: 5 × ``samples`` for two moves, 4 × for
    three, 3 × for more) on the contested pair; exact values where the solver reaches."""
    if view.to_act is None or view.phase not in (Phase.DRAW, Phase.WILD, Phase.SWAP):
        raise ValueError("no decision is due in this position")
    return hint_of(view, compare(view, samples, seed, engine, extra, horizon=horizon))


def hint_of(view: View, found: Comparison) -> Hint:
    """The hint that the comparison ``found`` of ``view``'s decision gives."""
    assert view.to_act is not None
    why = reasons(view, found)
    lines = tuple(HintLine(a, found.figure(a), found.vs_best[a], found.equal_to_best(a),
                           why[a]) for a in found.order)
    return Hint(view.to_act, lines, found)


@dataclass(frozen=True, slots=True)
class Chances:
    """Every seat's chance of winning the match (and, during a round, the round) at one
    moment: ``source`` says how it was found — ``"search"`` (sampled deals, as if the
    seat to act takes its best action), ``"odds"`` (between rounds, the match-odds
    table) or ``"final"`` (the match is over)."""

    match_win: tuple[float, ...]
    round_win: tuple[float, ...] | None
    source: Literal["search", "odds", "final"]

    def to_json(self) -> dict[str, Any]:
        return {"match_win": [round(v, 4) for v in self.match_win],
                "round_win": None if self.round_win is None
                else [round(v, 4) for v in self.round_win],
                "source": self.source}


def chances(view: View, samples: int = DEFAULT_SAMPLES, seed: int = 0,
            engine: Engine = "auto") -> Chances | None:
    """Every seat's chances in the position of ``view`` (any seat's or a spectator's: all
    see the same), or ``None`` where none can be given: between rounds without a
    match-odds table (more than two players), or while a chance move is due."""
    players = len(view.players)
    if view.phase is Phase.MATCH_OVER:
        return Chances(tuple(float(s == view.match_winner) for s in range(players)),
                       None, "final")
    if view.phase is Phase.ROUND_OVER:
        if view.dealer is None:
            return None
        try:
            odds = match_odds(view.rules, players)
        except OddsUnavailableError:
            return None
        rounds_won = [p.rounds_won for p in view.players]
        return Chances(odds.win_chances(rounds_won, (view.dealer + 1) % players), None,
                       "odds")
    if view.to_act is None or view.phase not in (Phase.DRAW, Phase.WILD, Phase.SWAP):
        return None
    best = evaluate(view, view.legal, samples, seed, "auto", engine).best
    return Chances(best.match_wins, best.round_wins, "search")
