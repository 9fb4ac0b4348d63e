"""The plain mode of the terminal game, for screen readers: line by line, no full-screen
redraw, in the player's language (``trashcards play --plain``, docs/accessibility.md).

:mod:`.catalog` reads the browser's message catalogs, :mod:`.speech` words the events,
boards, piles, choices, hints and refusals as the browser does, and :mod:`.loop` plays a
match through standard input and output.
"""

from __future__ import annotations

from .catalog import LANGUAGES, Catalog, language_from_environment
from .loop import PlainGame, Verbosity
from .speech import Speaker

__all__ = ["LANGUAGES", "Catalog", "PlainGame", "Speaker", "Verbosity",
           "language_from_environment"]
