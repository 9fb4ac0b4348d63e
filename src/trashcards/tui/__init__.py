"""Trash in the terminal: the full-screen game, the line mode, and the pieces they share.

Layers, each testable alone: :mod:`.scene` (the public table, moved on event by event),
:mod:`.narrate` (events → sentences, "you" for the person at the keyboard),
:mod:`.keys` (a key → an action among ``view.legal``, or the reason it is refused),
:mod:`.render` (view → rich renderables), :mod:`.seats` (people and bots, and their names
in a record), :mod:`.game` (one match: what is due, moves, saving, the log), then the two
front ends: :mod:`.loop` with :mod:`.terminal` (the line mode, for pipes and scripts),
:mod:`.app` (the full-screen Textual game, imported only when it runs), and :mod:`.plain`
(the plain mode for screen readers: the browser's sentences, line by line).
"""

from __future__ import annotations

from .game import Game, Outcome, SaveError
from .keys import Command, InputError, parse_key
from .loop import TerminalGame
from .narrate import event_line, narrate
from .render import board_text, card_text, menu_text, table_view
from .scene import Scene
from .seats import Seat, SeatError, make_seats, seats_from_names
from .terminal import KeyPressReader, LineReader, Reader

__all__ = [
    "Command",
    "Game",
    "InputError",
    "KeyPressReader",
    "LineReader",
    "Outcome",
    "Reader",
    "SaveError",
    "Scene",
    "Seat",
    "SeatError",
    "TerminalGame",
    "board_text",
    "card_text",
    "event_line",
    "make_seats",
    "menu_text",
    "narrate",
    "parse_key",
    "seats_from_names",
    "table_view",
]
