"""The ``expert`` bot: Monte Carlo search over deals consistent with what it sees.

At every decision with more than one legal action, the expert evaluates each action
(:func:`trashcards.ai.evaluate.evaluate`): on ``samples`` deals of the unseen cards it
plays the action and then the rest of the round with ``greedy`` at every seat, with
common random numbers, and values the end of the round with the match-odds table. It
plays the action with the highest estimated chance of winning the match — but only when
that action beats greedy's own choice by more than the noise (the paired 95 % interval
of the difference lies above zero); otherwise it plays greedy's choice. A decision with
one legal action costs nothing.

Under call-trash (RULES.md §9) the expert calls "Trash!" at the first decision of each of
its turns, before anything else: a call that is not followed by completing the board
costs nothing, and one that is saves the penalty draw and the delayed claim when a chain
completes the board unexpectedly. Greedy calls only with one face-down slot left.

This is a one-step improvement of the rollout policy ("I do this, then everyone plays
greedy"), made safe against noise: measured without the guard, the expert chose the
stock over a playable discard on noise alone often enough to lose to greedy (docs/ai.md).
The budget is ``samples`` deals per decision (deterministic: the same view and seed give
the same decision) or ``seconds`` of thinking (batches of samples until the time is
spent; not deterministic).

It decides from the view alone and draws one number per decision from its generator
(the evaluation's seed).
"""

from __future__ import annotations

import random
import time
from typing import Final, Literal

from ..actions import CALL, Action
from ..bots import Bot, make_bot, register_bot
from ..views import View
from .evaluate import Engine, Evaluation, combine, evaluate, fast_problem
from .rollout import Horizon

__all__ = ["DEFAULT_SAMPLES", "REFERENCE_SAMPLES", "ExpertBot", "pick"]

#: Deals per decision with the fast engine, and with the reference engine (slower).
DEFAULT_SAMPLES: Final = 64
REFERENCE_SAMPLES: Final = 32
#: Deals per batch when thinking to a time budget.
BATCH: Final = 8


class ExpertBot(Bot):
    """Plays the action with the best estimated match-win chance (see the module)."""

    name = "expert"

    def __init__(self, rng: random.Random | None = None, samples: int | None = None,
                 seconds: float | None = None, engine: Engine = "auto",
                 horizon: Horizon | Literal["auto"] = "auto", policy: str = "greedy") -> None:
        super().__init__(rng)
        fast = engine != "reference" and fast_problem() is None
        self.samples = samples if samples is not None else (
            DEFAULT_SAMPLES if fast else REFERENCE_SAMPLES)
        if self.samples < 1:
            raise ValueError("samples must be at least 1")
        self.seconds = seconds
        self.engine: Engine = engine
        self.horizon: Horizon | Literal["auto"] = horizon
        self.policy = policy
        #: The bot whose choice the expert keeps unless another is measurably better.
        self.baseline = make_bot(policy, random.Random(0))
        #: Why the expert runs on the reference engine with a smaller budget, if it does.
        self.notice = None if fast or engine == "reference" else (
            f"expert: {fast_problem()}; searching with the reference engine, "
            f"{self.samples} deals per decision")
        self.last: Evaluation | None = None

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1 or CALL in legal:  # calling is free: always first
            self.last = None
            return CALL if CALL in legal else legal[0]
        seed = int(self.rng.random() * 2 ** 53)
        self.last = evaluation = self.think(view, seed)
        return pick(evaluation, self.baseline.choose(view))

    def think(self, view: View, seed: int) -> Evaluation:
        """The evaluation behind a decision."""
        if self.seconds is None:
            return evaluate(view, view.legal, self.samples, seed, self.horizon, self.engine,
                            self.policy)
        deadline = time.perf_counter() + self.seconds
        parts: list[Evaluation] = []
        while not parts or time.perf_counter() < deadline:
            parts.append(evaluate(view, view.legal, BATCH, seed, self.horizon, self.engine,
                                  self.policy, first_sample=BATCH * len(parts)))
        return combine(parts)

    def __repr__(self) -> str:
        budget = f"seconds={self.seconds}" if self.seconds is not None else \
            f"samples={self.samples}"
        return f"ExpertBot({budget})"


def pick(evaluation: Evaluation, baseline: Action) -> Action:
    """The best action of ``evaluation`` if it beats ``baseline`` measurably (paired 95 %
    interval of the match-win difference above zero, or of the round-win difference when
    the match chances are equal), else ``baseline``."""
    best = evaluation.best.action
    if best == baseline:
        return best
    for measure in ("match", "round"):
        diff = evaluation.difference(best, baseline, measure)
        if diff.low is not None and diff.low > 0:
            return best
        if diff.value != 0:
            break
    return baseline


# The bots registry lives below this package; the expert joins it from here, so that
# make_bot("expert"), the records' ``bot:expert`` seats and every front end know it once
# trashcards.ai is imported (its __init__ imports this module).
register_bot("expert", ExpertBot, "searches: plays out every legal action on deals "
                                  "consistent with what it sees and picks the best "
                                  "(trashcards.ai)")
