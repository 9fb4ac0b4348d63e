"""Playing Trash well: evaluation of positions, the expert bot, hints, game review, the
exact solver for small boards, and the ladder of levels (docs/ai.md).

Trash has no private information (RULES.md §8), so a position is judged from a
:class:`~trashcards.views.View` alone: the unseen cards are dealt at random into the
hidden places (:mod:`trashcards.deals`), each legal action is played out on every deal
with common random numbers (:mod:`.evaluate`), and the outcomes become win chances with
95 % intervals. Modules:

* :mod:`.rollout` — a position played out by bots to the end of the round or match;
* :mod:`.odds` — each seat's chance of winning the match from a standing between rounds;
* :mod:`.evaluate` — every legal action's chance of winning the round and the match;
* :mod:`.expert` — the ``expert`` bot; :mod:`.levels` — named levels with measured Elo;
* :mod:`.hints`, :mod:`.review` — what the ``hint`` and ``review`` commands print;
* :mod:`.solver` — exact optimal play for small boards (two players, one round), the
  reference; :mod:`.exact` — the fast exact answers the coach asks first
  (:mod:`.exact_solver`, :mod:`.exact_tables` with the shipped tables in
  ``exact_data/``, :mod:`.exact_calls` for call-trash).

Layering: this package uses the core, the bots, the simulators and the lab's statistics
(:mod:`trashcards.estimates`); the front ends and the lab's ``skill`` and ``tips``
experiments use it. Nothing below it imports it: the ``expert`` bot registers itself
with the bots registry (:func:`trashcards.bots.register_bot`) when this package is
imported, so importing any module of it makes ``make_bot("expert")`` work.
"""

from __future__ import annotations

from .expert import ExpertBot

__all__ = ["ExpertBot"]
