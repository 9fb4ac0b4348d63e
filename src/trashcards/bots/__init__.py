"""Bots: players that decide from a :class:`~trashcards.views.View` and nothing else.

Each bot is seeded (it takes a :class:`random.Random`) and draws random numbers only
through ``rng.random()``, at the points its docstring names, so that any other
implementation fed the same stream of numbers makes the same decisions (the fast
simulator proves it does). A bot never raises: it always returns one of ``view.legal``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable

from .base import Bot
from .counter import CounterBot
from .greedy import EndBlindBot, GreedyBot, LowWildBot, SometimesDiscardBot, StockOnlyBot
from .kid import KidBot
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "CounterBot", "EndBlindBot", "GreedyBot", "KidBot", "LowWildBot",
           "RandomBot", "SometimesDiscardBot", "StockOnlyBot", "make_bot"]

def _expert(rng: random.Random) -> Bot:
    """The ``expert`` bot of :mod:`trashcards.ai.expert`, imported when first made.

    The expert searches with the rules engine, the deal sampler and these very bots, so it
    lives above this package; the registry names it, and imports it only when someone
    asks for one, so every place that chooses bots by name (``make_bot``, ``simulate``,
    the lab, the front ends) can choose it while ``trashcards.bots`` itself never imports
    ``trashcards.ai``.
    """
    factory: Callable[[random.Random], Bot] = importlib.import_module(
        "trashcards.ai.expert").ExpertBot
    return factory(rng)


#: The bots by name, with a one-line description.
BOTS: dict[str, tuple[Callable[[random.Random], Bot], str]] = {
    "random": (RandomBot, "uniform over the legal actions"),
    "greedy": (GreedyBot, "takes every playable discard, wilds on the highest slot, swaps"),
    "counter": (CounterBot, "like greedy, but puts a wild where the natural card is least "
                            "likely to come"),
    "kid": (KidBot, "a beginner: sometimes forgets the discard pile and to call"),
    "sometimes": (SometimesDiscardBot, "greedy that takes a playable discard half the time"),
    "stockonly": (StockOnlyBot, "greedy that never takes the discard pile"),
    "lowwild": (LowWildBot, "greedy that puts a wild on the lowest face-down slot (for the "
                            "lab)"),
    "endblind": (EndBlindBot, "greedy that ignores the discard pile once another player "
                              "has two face-down slots or fewer (for the lab)"),
    "expert": (_expert, "searches: plays out every legal action on deals consistent with "
                        "what it sees and picks the best (trashcards.ai)"),
}


def make_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name (``random``, ``greedy``, ``counter``, ``kid``, ``expert`` …)."""
    try:
        factory = BOTS[name.strip().lower()][0]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}") from None
    return factory(rng)
