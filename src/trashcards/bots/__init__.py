"""Bots: players that decide from a :class:`~trashcards.views.View` and nothing else.

Each bot is seeded (it takes a :class:`random.Random`) and draws random numbers only
through ``rng.random()``, at the points its docstring names, so that any other
implementation fed the same stream of numbers makes the same decisions (the fast
simulator proves it does). A bot never raises: it always returns one of ``view.legal``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from typing import Final

from ..errors import ArgumentError
from .base import Bot
from .counter import CounterBot
from .greedy import EndBlindBot, GreedyBot, LowWildBot, SometimesDiscardBot, StockOnlyBot
from .kid import KidBot
from .random_bot import RandomBot

__all__ = ["BOTS", "BOT_PREFIX", "Bot", "CounterBot", "EndBlindBot", "GreedyBot", "KidBot",
           "LowWildBot", "RandomBot", "SometimesDiscardBot", "StockOnlyBot", "bot_kind",
           "bot_modules", "bot_name", "bot_seat_names", "make_bot", "register_bot"]

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
}

#: The module of each bot registered from above this package (:func:`register_bot`).
_REGISTERED_BY: dict[str, str] = {}


def register_bot(name: str, factory: Callable[[random.Random], Bot], description: str) -> None:
    """Add a bot to :data:`BOTS` under ``name`` (lower case), for every place that
    chooses bots by name.

    Bots that need more than this package (the ``expert`` of :mod:`trashcards.ai.expert`
    searches with the simulators, which use these very bots) live above it and register
    themselves when their module is imported, so this package never imports them:
    importing :mod:`trashcards.ai` registers the expert, and every front end that offers
    it (the command line, the terminal game, the server, the lab, the environments)
    imports that package. Registering a name again replaces its entry.
    """
    key = name.strip().lower()
    if not key or ":" in key:
        raise ArgumentError(f"a bot's name is a word without ':', got {name!r}")
    BOTS[key] = (factory, description)
    _REGISTERED_BY[key] = factory.__module__


def bot_modules(names: Iterable[str]) -> tuple[str, ...]:
    """The modules that registered the bots ``names`` from above this package, for a
    fresh process (a worker of a process pool, a Ray task) to import before it makes
    those bots; empty for the bots of this package."""
    found = {_REGISTERED_BY[key] for key in (n.strip().lower() for n in names)
             if key in _REGISTERED_BY}
    return tuple(sorted(found))


def make_bot(name: str, rng: random.Random) -> Bot:
    """A bot by name (``random``, ``greedy``, ``counter``, ``kid`` …, and the bots
    registered from above: ``expert`` once :mod:`trashcards.ai` is imported)."""
    try:
        factory = BOTS[name.strip().lower()][0]
    except KeyError:
        raise ArgumentError(f"unknown bot {name!r}; the bots are {', '.join(BOTS)}") from None
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
        raise ArgumentError(f"player {name!r}: names starting with {BOT_PREFIX!r} are bots, "
                         f"and the bots are {', '.join(BOTS)}")
    return kind
