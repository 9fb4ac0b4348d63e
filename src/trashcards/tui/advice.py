"""Hints and win chances at the terminal, worked out from views only.

An :class:`Advisor` answers two questions for both front ends: the hint for a decision
(:func:`trashcards.ai.hints.hint`: every legal action, best first, with its chances of
winning the match and the round and a one-line reason) and every player's chance of
winning the match now. It is handed :class:`~trashcards.views.View` values and nothing
else, so it cannot see a face-down card or the stock's order; two positions that differ
only in hidden cards get the same advice (tests/tui/test_advice.py).

A player's chance "now", at a decision, is the chance the best action leaves them
(the review's convention, :mod:`trashcards.ai.review`); between rounds it is read from
the match-odds table (two players) and at the end of the match it is 1 or 0. The seed is
fixed, so a hint is the same as ``trashcards hint`` prints for the saved record at that
move. Answers are kept per view, so the status line and a hint for the same decision cost
one evaluation. It is thread-safe: the full-screen game calls it from worker threads.

Without numba the evaluation runs on the rules engine; the first :class:`Advice` that
comes from it carries the notice (:attr:`Advice.notice`), later ones do not, so the
front ends say so once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Final

from ..ai.evaluate import Engine
from ..ai.hints import DEFAULT_SAMPLES, Hint, hint
from ..ai.odds import OddsUnavailableError, match_odds
from ..state import Phase
from ..views import View

__all__ = ["Advice", "Advisor", "standing_chances"]

#: Views whose advice is kept (a decision and the few before it).
_KEPT: Final = 16


@dataclass(frozen=True)
class Advice:
    """The hint for the seat to act of a view, every seat's match-win chance, and the
    engine's notice the first time it had one."""

    hint: Hint
    chances: tuple[float, ...]
    notice: str | None = None


class Advisor:
    """Hints and chances, ``samples`` deals each, seeded by ``seed`` (see the module)."""

    def __init__(self, samples: int = DEFAULT_SAMPLES, seed: int = 0,
                 engine: Engine = "auto") -> None:
        self.samples = samples
        self.seed = seed
        self.engine: Engine = engine
        self._kept: OrderedDict[View, Hint] = OrderedDict()
        self._lock = threading.Lock()
        self._told = False

    def advise(self, view: View) -> Advice:
        """The advice at ``view``'s decision (raises :class:`ValueError` when no
        decision is due)."""
        with self._lock:
            found = self._kept.get(view)
        if found is None:
            found = hint(view, self.samples, self.seed, self.engine)
            with self._lock:
                self._kept[view] = found
                while len(self._kept) > _KEPT:
                    self._kept.popitem(last=False)
        notice = found.evaluation.notice
        with self._lock:
            if notice is not None and self._told:
                notice = None
            self._told = self._told or notice is not None
        return Advice(found, found.best.value.match_wins, notice)


def standing_chances(view: View) -> tuple[float, ...] | None:
    """Every seat's chance of winning the match between rounds (the match-odds table,
    two players) or at its end; ``None`` where no table exists or a round is on."""
    players = len(view.players)
    if view.phase is Phase.MATCH_OVER:
        return tuple(float(seat == view.match_winner) for seat in range(players))
    if view.phase is not Phase.ROUND_OVER or view.dealer is None:
        return None
    try:
        odds = match_odds(view.rules, players)
    except OddsUnavailableError:
        return None
    return odds.win_chances([p.rounds_won for p in view.players], (view.dealer + 1) % players)
