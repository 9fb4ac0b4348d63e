"""Keys: what the player types, turned into an :class:`~trashcards.actions.Action`.

One key per decision (RULES.md §10): ``s`` stock, ``d`` discard, ``1``…``9`` and ``0`` a
wild on slot 1…10, ``w`` swap, ``t`` trash, ``c`` call "Trash!"; ``q`` quits (the match
is saved) and ``?`` shows the help. The record words work too (``stock``, ``wild 7``,
``10``, ``quit``, ``help``). :func:`parse_key` accepts only what ``view.legal`` allows and
otherwise raises :class:`InputError` with a short message for the player.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from ..actions import CALL, DISCARD, STOCK, SWAP, TRASH, Action, Verb, wild

__all__ = ["KEY_HELP", "Command", "InputError", "action_key", "parse_key"]


class Command(StrEnum):
    """What a player can type besides an action."""

    QUIT = "quit"
    HELP = "help"


class InputError(ValueError):
    """Input that is not a legal choice now; the message is meant for the player."""


_VERB_KEYS: Final = {"s": STOCK, "d": DISCARD, "w": SWAP, "t": TRASH, "c": CALL}
_WORDS: Final = {"stock": STOCK, "discard": DISCARD, "swap": SWAP, "trash": TRASH,
                 "call": CALL}
_COMMANDS: Final = {"q": Command.QUIT, "quit": Command.QUIT, "exit": Command.QUIT,
                    "?": Command.HELP, "h": Command.HELP, "help": Command.HELP}

#: The key table shown by ``?`` (key, meaning).
KEY_HELP: Final = (
    ("s", "draw the top card of the stock"),
    ("d", "take the top card of the discard pile (only when you can play it)"),
    ("1-9, 0", "put the wild card in hand on that face-down slot (0 = slot 10)"),
    ("w", "swap: the card in hand takes its slot, the wild there comes back to hand"),
    ("t", "trash the card in hand: discard it and end your turn"),
    ("c", 'call "Trash!" (only with the call-trash rule)'),
    ("q", "quit: the match is saved and can be resumed"),
    ("?", "this help"),
)


def action_key(action: Action) -> str:
    """The one key that chooses ``action``."""
    if action.verb is Verb.WILD:
        return str(action.slot % 10)
    return next(key for key, act in _VERB_KEYS.items() if act == action)


def _slot(text: str) -> int | None:
    """The slot a key or word names (``0`` and ``10`` are slot 10), or ``None``."""
    if text.isdigit() and len(text) <= 2:
        number = int(text)
        if number == 0:
            return 10
        if 1 <= number <= 10:
            return number
    return None


def parse_key(text: str, legal: Sequence[Action]) -> Action | Command:
    """The action (or command) that ``text`` chooses among ``legal``."""
    words = text.strip().lower().split()
    if not words:
        raise InputError(f"type a key: {_choices(legal)} (? for help)")
    if len(words) == 2 and words[0] == "wild":
        words = words[1:]
    if len(words) != 1:
        raise InputError(f"one key at a time: {_choices(legal)}")
    word = words[0]
    if word in _COMMANDS:
        return _COMMANDS[word]
    slot = _slot(word)
    if slot is not None:
        return _wild_on(slot, legal)
    action = _VERB_KEYS.get(word) or _WORDS.get(word)
    if action is None:
        raise InputError(f"{word!r} is not a key here: {_choices(legal)} (? for help)")
    if action not in legal:
        raise InputError(f"{action} is not possible now: {_choices(legal)}")
    return action


def _wild_on(slot: int, legal: Sequence[Action]) -> Action:
    action = wild(slot)
    if action in legal:
        return action
    open_slots = [a.slot for a in legal if a.verb is Verb.WILD]
    if not open_slots:
        raise InputError(f"no wild card to place now: {_choices(legal)}")
    raise InputError(f"slot {slot} is not a face-down slot of your board: "
                     f"choose {' '.join(str(k % 10) for k in open_slots)}"
                     + (" (0 = slot 10)" if 10 in open_slots else ""))


def _choices(legal: Sequence[Action]) -> str:
    keys = [action_key(action) for action in legal]
    return ", ".join([*keys, "q"])
