"""Trash in the terminal: rich pictures of views, keys to actions, and the game loop.

Layers, each testable alone: :mod:`.render` (view → rich renderables), :mod:`.narrate`
(events → sentences), :mod:`.keys` (a key → an action among ``view.legal``),
:mod:`.seats` (people and bots, and their names in a record), :mod:`.terminal` (reading
keys) and :mod:`.loop` (the match, with its input and output injected).
"""

from __future__ import annotations

from .keys import Command, InputError, parse_key
from .loop import Outcome, TerminalGame
from .narrate import event_line, narrate
from .render import board_text, card_text, menu_text, table_view
from .seats import Seat, SeatError, make_seats, seats_from_names
from .terminal import KeyPressReader, LineReader, Reader

__all__ = [
    "Command",
    "InputError",
    "KeyPressReader",
    "LineReader",
    "Outcome",
    "Reader",
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
