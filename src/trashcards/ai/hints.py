"""Hints for players: every legal action, best first, with its chance of winning the match
and the round (95 % intervals) and a one-line reason — from the view alone.

:func:`hint` is what the ``trashcards hint`` command prints and what the terminal and
browser games call: it reads a :class:`~trashcards.views.View` (so nothing hidden can
reach it) and is deterministic for a given seed and number of samples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal

from ..actions import Action
from ..state import Phase
from ..views import View
from .evaluate import ActionValue, Engine, Evaluation, evaluate
from .odds import OddsUnavailableError, match_odds
from .reasons import reason
from .rollout import Horizon

__all__ = ["DEFAULT_SAMPLES", "Chances", "Hint", "HintLine", "chances", "hint"]

#: Deals per hint (about ±1 pp on a two-player match-win chance and ±5 pp on a round-win
#: chance, ±1 pp on the best move's margin; benchmarks/ai.py measures it).
DEFAULT_SAMPLES: Final = 300


@dataclass(frozen=True, slots=True)
class HintLine:
    """One action of a hint."""

    action: Action
    value: ActionValue
    reason: str

    def to_json(self) -> dict[str, Any]:
        mw, rw = self.value.match_win, self.value.round_win
        return {"action": str(self.action), "match_win": round(mw.value, 4),
                "match_win_ci": _ci(mw.low, mw.high), "round_win": round(rw.value, 4),
                "round_win_ci": _ci(rw.low, rw.high)}


def _ci(low: float | None, high: float | None) -> list[float]:
    return [round(max(0.0, low if low is not None else 0.0), 4),
            round(min(1.0, high if high is not None else 1.0), 4)]


@dataclass(frozen=True)
class Hint:
    """A hint for the seat ``to_act``: ``lines`` best first."""

    to_act: int
    lines: tuple[HintLine, ...]
    evaluation: Evaluation

    @property
    def best(self) -> HintLine:
        return self.lines[0]

    def to_json(self) -> dict[str, Any]:
        """``{"to_act": S, "best": "discard", "actions": [{"action": …, "match_win": …,
        "match_win_ci": [lo, hi], "round_win": …, "round_win_ci": [lo, hi]}, …]}``."""
        return {"to_act": self.to_act, "best": str(self.best.action),
                "actions": [line.to_json() for line in self.lines]}


def hint(view: View, samples: int = DEFAULT_SAMPLES, seed: int = 0,
         engine: Engine = "auto", horizon: Horizon | Literal["auto"] = "auto") -> Hint:
    """The hint for the seat to act (raises :class:`ValueError` when no decision is due)."""
    evaluation = evaluate(view, view.legal, samples, seed, horizon, engine)
    lines = tuple(HintLine(value.action, value, reason(view, value.action))
                  for value in evaluation.ranked())
    assert view.to_act is not None
    return Hint(view.to_act, lines, evaluation)


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
