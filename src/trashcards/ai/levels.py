"""Named levels of play with their measured strength, for the front ends to offer.

Each level is a bot with an Elo rating and its 95 % interval, measured by
``trashcards analyze skill`` (two players, standard rules; docs/analysis/skill). The
ratings are data from that run, not guesses: a test checks that they equal the report's
``figures.json``. ``apart_from_below`` says whether the level's interval lies above the
one below it; a level that is not apart is offered with the honest note that it plays no
measurably better. The expert is such a level: in standard Trash it cannot be told from
good (two players, 2,000 matches: 50.0 %, 47.8-52.2 %); it is measurably stronger only
under call-trash, where it calls "Trash!" every turn (54.3 %, 52.1-56.5 %, of 2,000
matches against good; the per-preset table of the skill report).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bots import Bot, make_bot

__all__ = ["LEVELS", "Level", "level_named"]


@dataclass(frozen=True, slots=True)
class Level:
    """A level: its name, the bot that plays it, its Elo with a 95 % interval, and a line
    for people."""

    name: str
    bot: str
    elo: float
    low: float
    high: float
    apart_from_below: bool
    description: str

    def make(self, rng: random.Random) -> Bot:
        """A bot that plays at this level."""
        return make_bot(self.bot, rng)

    @property
    def label(self) -> str:
        """``"good (Elo 1650 ± 3)"`` — what a menu shows."""
        return f"{self.name} (Elo {self.elo:.0f} ± {(self.high - self.low) / 2:.0f})"


#: From the weakest up (docs/analysis/skill, `trashcards analyze skill`, seed 0).
LEVELS: tuple[Level, ...] = (
    Level("beginner", "sometimes", 1534.6, 1530.6, 1538.6, True,
          "takes a playable discard only half the time"),
    Level("casual", "kid", 1596.2, 1592.2, 1600.2, True,
          "forgets the discard pile 30 % of the time and the call half the time"),
    Level("good", "greedy", 1670.1, 1666.2, 1673.9, True,
          "takes every playable discard, never throws a wild away"),
    Level("expert", "expert", 1673.8, 1663.6, 1684.1, False,
          "searches every move on sampled deals; same strength as good in standard Trash "
          "(50.0 % of 2,000 matches), stronger under call-trash (54.3 %, 52.1-56.5 %)"),
)


def level_named(name: str) -> Level:
    """The level called ``name`` (``beginner``, ``casual``, ``good``, ``expert``)."""
    for level in LEVELS:
        if level.name == name.strip().lower():
            return level
    raise ValueError(f"unknown level {name!r}; the levels are "
                     f"{', '.join(level.name for level in LEVELS)}")
