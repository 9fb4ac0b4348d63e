"""``trashcards play --learn``: the guided first game in the terminal
(:mod:`trashcards.tui.learn`), and the line ``trashcards play`` adds to its opening until
the guided game was done or skipped (docs/rules.md, "Learn by playing")."""

from __future__ import annotations

import os
import sys

from rich.console import Console

from ..tui.learn import (
    LANGUAGES,
    Lesson,
    catalog,
    language_from_env,
    learned,
    remember,
    tutorial_path,
)
from ..tui.terminal import LineReader

__all__ = ["LANGUAGES", "learn", "suggestion"]


def learn(lang: str | None, name: str | None, console: Console) -> None:
    """Walk the learner through the guided game, line by line; remember how it ended."""
    sentences = catalog(lang or language_from_env(os.environ))
    reader = LineReader(sys.stdin, console, echo=not sys.stdin.isatty())
    how = Lesson(reader, console, sentences, name or "You").run()
    if how is None:
        console.print("The input ended; the guided game stopped (trashcards play --learn "
                      "starts it again).", markup=False)
        return
    problem = remember(tutorial_path(), how)
    if problem is not None:
        console.print(f"Note: {problem}", markup=False, soft_wrap=True)


def suggestion() -> list[str]:
    """The opening's line that offers the guided game, until it was done or skipped."""
    if learned(tutorial_path()):
        return []
    return ["New to Trash? trashcards play --learn walks you through a short guided game."]
