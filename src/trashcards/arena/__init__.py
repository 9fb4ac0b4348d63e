"""The arena: an agent against the ladder, its Elo on the levels' scale, and its win rates.

* :mod:`trashcards.arena.agents` — what plays: a level, a bot, ``module:function`` or a
  policy file (``.npz``, ``.onnx``), resolved from its spec;
* :mod:`trashcards.arena.matches` — the matches: numbered deals, played in duplicate
  (every deal at every seat rotation) or plain, each match's result kept;
* :mod:`trashcards.arena.rating` — :func:`rate`: win rates with 95 % intervals, the Elo on
  the levels' scale, and what reproduces the rating (settings, seed, file hash, command).

Bots the kernel has play on the compiled kernel; everything else on the kernel's vector
tables (:class:`trashcards.sim.vector.VectorTables`), the same deals on both.
"""

from __future__ import annotations

from .agents import Agent, AgentError, PolicyFileError, resolve_agent
from .matches import MAX_MOVES, MODES, Mode, play_deals
from .rating import LADDER, RANDOM_ELO, Rating, Record, elo_against, rate, record_of

__all__ = ["LADDER", "MAX_MOVES", "MODES", "RANDOM_ELO", "Agent", "AgentError", "Mode",
           "PolicyFileError", "Rating", "Record", "elo_against", "play_deals", "rate",
           "record_of", "resolve_agent"]
