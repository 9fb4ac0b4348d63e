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

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Final, NamedTuple

from ..actions import CALL, DISCARD, STOCK, SWAP, TRASH, Action, Verb, wild
from ..cards import Card
from ..rules import TRASH as TRASH_ROLE
from ..rules import WILD as WILD_ROLE
from ..state import Phase
from ..views import View
from .narrate import card_label

__all__ = ["KEY_HELP", "REFUSALS", "Command", "InputError", "Refusal", "action_key",
           "action_named", "parse_key", "refusal", "refusal_reason"]


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


def action_named(word: str) -> Action | None:
    """The action a key or a record word names (``s``, ``stock``, ``7``, ``0``, ``10``),
    legal now or not; ``None`` if it names none."""
    slot = _slot(word)
    return wild(slot) if slot is not None else _VERB_KEYS.get(word) or _WORDS.get(word)


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
    action = action_named(word)
    if action is None:
        raise InputError(f"{word!r} is not a key here: {_choices(legal)} (? for help)")
    if action not in legal:
        raise InputError(f"{refusal(action, view)}: {_choices(legal)}")
    return action


class Refusal(NamedTuple):
    """Why an action is not legal now: a code of :data:`REFUSALS` and its parameters
    (a card is a :class:`~trashcards.cards.Card`, each front end writes it)."""

    code: str
    params: Mapping[str, Card | int]


#: Every refusal's English text (``{name}`` marks a parameter). The terminal's plain
#: mode says the same from the catalogs' ``refused.<code>`` in the player's language
#: (tests/tui/test_plain_speech.py checks that English is this text).
REFUSALS: Final[dict[str, str]] = {
    "nobody": "nobody is to act now",
    "no_call": 'calling "Trash!" is not in these rules (see the call-trash preset)',
    "called": 'you already called "Trash!" this turn',
    "discard_empty": "the discard pile is empty",
    "discard_trash": "the top discard {card} is a trash card",
    "discard_wild": "the top discard {card} is a wild, but your board has no face-down "
                    "slot",
    "discard_no_slot": "the top discard {card} does not fit your board: it has no slot "
                       "{slot}",
    "discard_taken": "the top discard {card} does not fit your board: slot {slot} already "
                     "holds {held}",
    "discard_unfit": "the top discard {card} does not fit your board",
    "draw_first": "draw a card first",
    "holding": "you already hold {card}: play it first",
    "must_play": "{card} came from the discard pile, so it must be played",
    "wild_no_swap": "{card} is a wild: put it on a face-down slot",
    "no_such_slot": "your board has no slot {slot} (it has {size})",
    "face_up": "slot {slot} is already face up",
    "not_wild": "{card} is not a wild: it can only swap out the wild on its own slot",
    "no_swap": "{card} cannot swap now",
}


def _unfit_discard(view: View, seat: int) -> Refusal:
    """Why the top discard cannot go on ``seat``'s board."""
    top = view.top_discard
    assert top is not None
    role = view.rules.roles()[top]
    slots = view.players[seat].slots
    if role == TRASH_ROLE:
        return Refusal("discard_trash", {"card": top})
    if role == WILD_ROLE:
        return Refusal("discard_wild", {"card": top})
    if role > len(slots):
        return Refusal("discard_no_slot", {"card": top, "slot": role})
    held = slots[role - 1]
    if held is None:  # pragma: no cover - a discard that fits a face-down slot is legal
        return Refusal("discard_unfit", {"card": top})
    return Refusal("discard_taken", {"card": top, "slot": role, "held": held})


def refusal_reason(action: Action, view: View) -> Refusal:
    """Why ``action`` is not one of ``view.legal`` now, for the player to act."""
    seat = view.to_act
    if seat is None:
        return Refusal("nobody", {})
    verb, phase = action.verb, view.phase
    hand: dict[str, Card | int] = {} if view.in_hand is None else {"card": view.in_hand}
    if verb is Verb.CALL:
        return Refusal("called" if view.rules.call_trash else "no_call", {})
    if phase is Phase.DRAW:
        if verb is Verb.DISCARD:
            if view.top_discard is None:
                return Refusal("discard_empty", {})
            return _unfit_discard(view, seat)
        return Refusal("draw_first", {})
    if verb in (Verb.STOCK, Verb.DISCARD):
        return Refusal("holding", hand)
    if verb is Verb.TRASH:
        return Refusal("must_play", hand)
    if phase is Phase.WILD:
        if verb is Verb.SWAP:
            return Refusal("wild_no_swap", hand)
        size = len(view.players[seat].slots)
        if action.slot > size:
            return Refusal("no_such_slot", {"slot": action.slot, "size": size})
        return Refusal("face_up", {"slot": action.slot})
    if verb is Verb.WILD:
        return Refusal("not_wild", hand)
    return Refusal("no_swap", hand)  # pragma: no cover - swap is legal in the swap phase


def refusal(action: Action, view: View) -> str:
    """Why ``action`` is not one of ``view.legal`` now, in English words for the player
    to act."""
    why = refusal_reason(action, view)
    return REFUSALS[why.code].format_map(
        {name: card_label(value) if isinstance(value, Card) else value
         for name, value in why.params.items()})


def _choices(legal: Sequence[Action]) -> str:
    """The keys that work now: verbs, the face-down slots as one group, then q."""
    keys = [action_key(action) for action in legal]
    return ", ".join([*keys, "q"])
