"""The shipped agent: a policy trained with self-play PPO (``examples/selfplay.py``), its
weights in ``data/learned.npz`` (float32, about 190 kB), played with numpy alone.

:func:`learned_policy` is the batched policy (its most likely legal action);
:class:`LearnedBot` is the bot ``learned`` of :data:`trashcards.bots.BOTS`, deciding from
a view like every bot. The file's ``meta`` holds the training command, seed, steps and
time (``learned_policy().meta``); docs/leaderboard.md gives its measured strength.
"""

from __future__ import annotations

import functools
import random
from pathlib import Path
from typing import Final

from ..actions import Action
from ..bots import register_bot
from ..bots.base import Bot
from ..views import View
from .policy import MLPPolicy, PolicyBot

__all__ = ["WEIGHTS", "LearnedBot", "learned_policy"]

#: The shipped weights.
WEIGHTS: Final = Path(__file__).with_name("data") / "learned.npz"


@functools.cache
def learned_policy() -> MLPPolicy:
    """The shipped agent as a batched policy (loaded once)."""
    return MLPPolicy.load(WEIGHTS)


class LearnedBot(Bot):
    """The shipped agent as a bot: the most likely legal action of its policy for the
    view (it draws no random numbers; ``rng`` is accepted for the registry)."""

    name = "learned"

    def __init__(self, rng: random.Random | None = None) -> None:
        super().__init__(rng)
        self._bot = PolicyBot(learned_policy(), "learned")

    def choose(self, view: View) -> Action:
        return self._bot.choose(view)


register_bot("learned", LearnedBot, "a small neural network trained by self-play PPO, played "
             "with numpy (trashcards.envs.learned; docs/leaderboard.md)")
