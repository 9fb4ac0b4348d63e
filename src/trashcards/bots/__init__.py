"""Bots: players that decide from a :class:`~trashcards.views.View` and nothing else.

Each bot is seeded (it takes a :class:`random.Random`) and draws random numbers only
through ``rng.random()``, at the points its docstring names, so that any other
implementation fed the same stream of numbers makes the same decisions (the fast
simulator proves it does). A bot never raises: it always returns one of ``view.legal``.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Sequence
from typing import Final

from .base import Bot
from .counter import CounterBot
from .greedy import EndBlindBot, GreedyBot, LowWildBot, SometimesDiscardBot, StockOnlyBot
from .kid import KidBot
from .random_bot import RandomBot

__all__ = ["BOTS", "BOT_PREFIX", "Bot", "CounterBot", "EndBlindBot", "GreedyBot", "KidBot",
           "LowWildBot", "RandomBot", "SometimesDiscardBot", "StockOnlyBot", "bot_kind",
           "bot_name", "bot_seat_names", "make_bot"]

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


def _learned(rng: random.Random) -> Bot:
    """The ``learned`` bot of :mod:`trashcards.envs.learned` (the shipped agent: a policy
    trained with self-play PPO, played with numpy), imported when first made, as the
    expert is."""
    factory: Callable[[random.Random], Bot] = importlib.import_module(
        "trashcards.envs.learned").LearnedBot
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
    "learned": (_learned, "a small neural network trained by self-play PPO, played with "
                          "numpy (trashcards.envs.learned; docs/leaderboard.md)"),
}


def make_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name (``random``, ``greedy``, ``counter``, ``kid``, ``expert`` …)."""
    try:
        factory = BOTS[name.strip().lower()][0]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}") from None
    return factory(rng)


# -- how a bot's seat is named in a record ----------------------------------------------
#
# A record (RECORDS.md) stores only the players' names, so a bot's seat is named after its
# kind: ``bot:KIND``, with ``:N`` for the N-th bot of the same kind at the table
# (``bot:greedy``, ``bot:greedy:2``). Every command that writes a record names bots so,
# and ``trashcards play --resume`` reads the bots back from the names.

#: The prefix that marks a bot's seat in a record's ``players``.
BOT_PREFIX: Final = "bot:"


def bot_name(kind: str, copy: int = 1) -> str:
    """The seat name of the ``copy``-th bot of ``kind`` at the table."""
    return f"{BOT_PREFIX}{kind}" if copy == 1 else f"{BOT_PREFIX}{kind}:{copy}"


def bot_seat_names(kinds: Sequence[str]) -> tuple[str, ...]:
    """The seat names of a table of bots, one per kind in ``kinds``, seat 0 first."""
    copies: dict[str, int] = {}
    names = []
    for kind in kinds:
        copies[kind] = copies.get(kind, 0) + 1
        names.append(bot_name(kind, copies[kind]))
    return tuple(names)


def bot_kind(name: str) -> str | None:
    """The bot kind a seat name stands for (``bot:greedy:2`` → ``greedy``), or ``None``
    for a name that does not start with :data:`BOT_PREFIX` (a person's). Raises
    :class:`ValueError` for a ``bot:`` name of no known bot."""
    if not name.startswith(BOT_PREFIX):
        return None
    parts = name[len(BOT_PREFIX):].split(":")
    kind = parts[0]
    copy_ok = len(parts) == 1 or (len(parts) == 2 and parts[1].isascii()
                                  and parts[1].isdigit())
    if kind not in BOTS or not copy_ok:
        raise ValueError(f"player {name!r}: names starting with {BOT_PREFIX!r} are bots, "
                         f"and the bots are {', '.join(BOTS)}")
    return kind
