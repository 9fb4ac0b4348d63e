"""The ``expert`` bot: Monte Carlo search over deals consistent with what it sees.

At every decision with more than one legal action, the expert evaluates each action
(:func:`trashcards.ai.evaluate.evaluate`): on ``samples`` deals of the unseen cards it
plays the action and then the rest of the round with ``greedy`` at every seat, with
common random numbers, values the end of the round with the match-odds table, and plays
the action with the highest estimated chance of winning the match (ties: of winning the
round, then the legal order). A decision with one legal action costs nothing.

It is a one-step improvement of the rollout policy: against any opponents, choosing the
best action for "I do this, then everyone plays greedy" is at least as good as greedy's
own choice up to the estimates' noise (docs/ai.md). The budget is ``samples`` deals per
decision (deterministic: the same view and seed give the same decision) or ``seconds``
of thinking (batches of samples until the time is spent; not deterministic).

It decides from the view alone and draws one number per decision from its generator
(the evaluation's seed).
"""

from __future__ import annotations

import random
import time
from typing import Final, Literal

from ..actions import Action
from ..bots import Bot
from ..views import View
from .evaluate import Engine, Evaluation, combine, evaluate, fast_problem
from .rollout import Horizon

__all__ = ["DEFAULT_SAMPLES", "REFERENCE_SAMPLES", "ExpertBot"]

#: Deals per decision with the fast engine, and with the reference engine (slower).
DEFAULT_SAMPLES: Final = 64
REFERENCE_SAMPLES: Final = 24
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
        #: Why the expert runs on the reference engine with a smaller budget, if it does.
        self.notice = None if fast or engine == "reference" else (
            f"expert: {fast_problem()}; searching with the reference engine, "
            f"{self.samples} deals per decision")
        self.last: Evaluation | None = None

    def choose(self, view: View) -> Action:
        legal = view.legal
        if len(legal) == 1:
            self.last = None
            return legal[0]
        seed = int(self.rng.random() * 2 ** 53)
        self.last = self.think(view, seed)
        return self.last.best.action

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
