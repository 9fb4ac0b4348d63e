"""Every bot of the command line, registered: the bots that live above
:mod:`trashcards.bots` register themselves when their module is imported
(:func:`trashcards.bots.register_bot`), so importing this module makes them all
available by name — the ``expert`` (:mod:`trashcards.ai`) and, where numpy is installed,
the shipped agent ``learned`` (:mod:`trashcards.envs.learned`)."""

from __future__ import annotations

import contextlib

from .. import ai  # noqa: F401  (registers the expert)

with contextlib.suppress(ImportError):  # numpy missing: no learned bot
    from ..envs import learned  # noqa: F401  (registers the learned bot)
