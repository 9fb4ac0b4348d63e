"""``python -m trashcards``: the command line."""

from .cli import main

main()
