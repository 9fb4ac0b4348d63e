"""Bots: players that decide from a :class:`~trashcards.views.View` and nothing else.

Each bot is seeded (it takes a :class:`random.Random`) and draws random numbers only
through ``rng.random()``, at the points its docstring names, so that any other
implementation fed the same stream of numbers makes the same decisions (the fast
simulator proves it does). A bot never raises: it always returns one of ``view.legal``.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .base import Bot
from .counter import CounterBot
from .greedy import GreedyBot, SometimesDiscardBot, StockOnlyBot
from .kid import KidBot
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "CounterBot", "GreedyBot", "KidBot", "RandomBot",
           "SometimesDiscardBot", "StockOnlyBot", "make_bot"]

#: The bots by name, with a one-line description.
BOTS: dict[str, tuple[Callable[[random.Random], Bot], str]] = {
    "random": (RandomBot, "uniform over the legal actions"),
    "greedy": (GreedyBot, "takes every playable discard, wilds on the highest slot, swaps"),
    "counter": (CounterBot, "like greedy, but puts a wild where the natural card is least "
                            "likely to come"),
    "kid": (KidBot, "a beginner: sometimes forgets the discard pile and to call"),
    "sometimes": (SometimesDiscardBot, "greedy that takes a playable discard half the time"),
    "stockonly": (StockOnlyBot, "greedy that never takes the discard pile"),
}


def make_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name (``random``, ``greedy``, ``counter``, ``kid``)."""
    try:
        factory = BOTS[name.strip().lower()][0]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}") from None
    return factory(rng)
