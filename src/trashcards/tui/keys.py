"""Keys: what the player types, turned into an :class:`~trashcards.actions.Action`.

One key per decision (RULES.md §10): ``s`` stock, ``d`` discard, ``1``…``9`` and ``0`` a
wild on slot 1…10, ``w`` swap, ``t`` trash, ``c`` call "Trash!"; ``q`` quits (the match
is saved), ``?`` shows the help, ``h`` a hint and ``o`` shows or hides every player's
chance of winning the match. The record words work too (``stock``, ``wild 7``,
``10``, ``quit``, ``help``). :func:`parse_key` accepts only what ``view.legal`` allows and
otherwise raises :class:`InputError` with a short message for the player that says why
("the top discard 9♣ does not fit your board: slot 9 already holds 9♦") and what works.
A key that is not text (an arrow, a function key) is never echoed back.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Final

from ..actions import CALL, DISCARD, STOCK, SWAP, TRASH, Action, Verb, wild
from ..rules import TRASH as TRASH_ROLE
from ..rules import WILD as WILD_ROLE
from ..state import Phase
from ..views import View
from .narrate import card_label

__all__ = ["KEY_HELP", "Command", "InputError", "action_key", "parse_key", "refusal"]


class Command(StrEnum):
    """What a player can type besides an action."""

    QUIT = "quit"
    HELP = "help"
    HINT = "hint"
    CHANCES = "chances"


class InputError(ValueError):
    """Input that is not a legal choice now; the message is meant for the player."""


_VERB_KEYS: Final = {"s": STOCK, "d": DISCARD, "w": SWAP, "t": TRASH, "c": CALL}
_WORDS: Final = {"stock": STOCK, "discard": DISCARD, "swap": SWAP, "trash": TRASH,
                 "call": CALL}
_COMMANDS: Final = {"q": Command.QUIT, "quit": Command.QUIT, "exit": Command.QUIT,
                    "?": Command.HELP, "help": Command.HELP, "h": Command.HINT,
                    "hint": Command.HINT, "o": Command.CHANCES, "chances": Command.CHANCES}

#: The key table shown by ``?`` (key, meaning).
#: Each meaning fits one line of the full-screen help at 80 columns.
KEY_HELP: Final = (
    ("s", "draw the top card of the stock"),
    ("d", "take the top discard (only when you can play it)"),
    ("1-9, 0", "put the wild in hand on that face-down slot (0 = slot 10)"),
    ("w", "swap: the card in hand takes its slot, the wild comes back"),
    ("t", "trash the card in hand: discard it, end your turn"),
    ("c", 'call "Trash!" (the call-trash rule only)'),
    ("h", "hint: the best move, every move's chance, and why"),
    ("o", "show or hide everyone's chance of winning the match"),
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


def parse_key(text: str, view: View) -> Action | Command:
    """The action (or command) that ``text`` chooses among ``view.legal``."""
    legal = view.legal
    if not text.isprintable():
        raise InputError(f"that key is not used here: {_choices(legal)} (? for help)")
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
    action = wild(slot) if slot is not None else _VERB_KEYS.get(word) or _WORDS.get(word)
    if action is None:
        raise InputError(f"{word!r} is not a key here: {_choices(legal)} (? for help)")
    if action not in legal:
        raise InputError(f"{refusal(action, view)}: {_choices(legal)}")
    return action


def _fits(card_text: str, view: View, seat: int) -> str:
    """Why the card ``card_text`` stands for cannot go on ``seat``'s board."""
    top = view.top_discard
    assert top is not None
    roles = view.rules.roles()
    role = roles[top]
    slots = view.players[seat].slots
    if role == TRASH_ROLE:
        return f"the top discard {card_text} is a trash card"
    if role == WILD_ROLE:
        return f"the top discard {card_text} is a wild, but your board has no face-down slot"
    if role > len(slots):
        return (f"the top discard {card_text} does not fit your board: it has no slot "
                f"{role}")
    held = slots[role - 1]
    held_text = card_label(held) if held is not None else "a card"
    return (f"the top discard {card_text} does not fit your board: slot {role} already "
            f"holds {held_text}")


def refusal(action: Action, view: View) -> str:
    """Why ``action`` is not one of ``view.legal`` now, in words for the player to act."""
    seat = view.to_act
    if seat is None:
        return "nobody is to act now"
    verb, phase = action.verb, view.phase
    hand = card_label(view.in_hand) if view.in_hand is not None else ""
    if verb is Verb.CALL:
        if not view.rules.call_trash:
            return 'calling "Trash!" is not in these rules (see the call-trash preset)'
        return 'you already called "Trash!" this turn'
    if phase is Phase.DRAW:
        if verb is Verb.DISCARD:
            if view.top_discard is None:
                return "the discard pile is empty"
            return _fits(card_label(view.top_discard), view, seat)
        return "draw a card first"
    if verb in (Verb.STOCK, Verb.DISCARD):
        return f"you already hold {hand}: play it first"
    if verb is Verb.TRASH:
        return f"{hand} came from the discard pile, so it must be played"
    if phase is Phase.WILD:
        if verb is Verb.SWAP:
            return f"{hand} is a wild: put it on a face-down slot"
        size = len(view.players[seat].slots)
        if action.slot > size:
            return f"your board has no slot {action.slot} (it has {size})"
        return f"slot {action.slot} is already face up"
    if verb is Verb.WILD:
        return f"{hand} is not a wild: it can only swap out the wild on its own slot"
    return f"{hand} cannot swap now"  # pragma: no cover - swap is legal in the swap phase


def _choices(legal: Sequence[Action]) -> str:
    """The keys that work now: verbs, the face-down slots as one group, then q."""
    keys = [action_key(action) for action in legal]
    return ", ".join([*keys, "q"])
