"""trashcards: the card game Trash (also called Garbage or Ten).

The core — cards, rules, actions, events, state, engine, chance, views, records — uses
only the standard library. Typical use::

    >>> import random
    >>> from trashcards import Rules, new_match, sample_chance, apply, view
    >>> state = new_match(Rules.preset_named("standard"), ["Ana", "Bo"])
    >>> rng = random.Random(7)
    >>> state, events = apply(state, sample_chance(state, rng))   # the cut
    >>> state, events = apply(state, sample_chance(state, rng))   # the deal
    >>> view(state, 0).legal
    (parse_action('stock'),)
"""

from __future__ import annotations

from .actions import (
    CALL,
    DISCARD,
    STOCK,
    SWAP,
    TRASH,
    Action,
    Dealer,
    Deck,
    Move,
    Reshuffle,
    Verb,
    parse_action,
    parse_move,
    wild,
)
from .cards import Card, parse_card, parse_cards
from .chance import sample_chance
from .engine import apply, chance_due, is_legal, legal_actions, verify
from .errors import (
    IllegalActionError,
    NotationError,
    RecordError,
    RecordFormatError,
    RulesError,
    TrashError,
)
from .record import Entry, Record
from .rules import Rules
from .state import Phase, State, new_match, standings
from .statejson import revealed_json, view_json
from .views import PlayerView, View, view

__version__ = "0.1.0"

__all__ = [
    "CALL", "DISCARD", "STOCK", "SWAP", "TRASH", "Action", "Card", "Dealer", "Deck", "Entry",
    "IllegalActionError", "Move", "NotationError", "Phase", "PlayerView", "Record",
    "RecordError", "RecordFormatError", "Reshuffle", "Rules", "RulesError", "State",
    "TrashError", "Verb", "View", "__version__", "apply", "chance_due", "is_legal",
    "legal_actions", "new_match", "parse_action", "parse_card", "parse_cards", "parse_move",
    "revealed_json", "sample_chance", "standings", "verify", "view", "view_json", "wild",
]
