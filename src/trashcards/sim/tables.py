"""What the kernel needs to know of a table, as plain numbers and numpy arrays.

A card of the match is an integer id: its index in ``rules.match_cards(players)`` (the
packs suit by suit, Ace to King, then the Jokers). The kernel sees only ids, the role of
each id (its slot 1…10, :data:`~trashcards.rules.WILD` or ``TRASH``), its rank (1…13, 0
for a Joker, for the counting bot) and the rule numbers in :class:`Table.params`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ..bots import BOTS
from ..cards import Card
from ..rules import Rules

__all__ = [
    "BOT_CODES",
    "P_CALL_TRASH",
    "P_CARDS",
    "P_DECKS",
    "P_LAST_CHANCE",
    "P_PLAYERS",
    "P_START_SIZE",
    "P_TARGET",
    "Table",
    "bot_codes",
]

#: Indices into :attr:`Table.params`.
P_PLAYERS: Final = 0
P_CARDS: Final = 1
P_DECKS: Final = 2
P_START_SIZE: Final = 3
P_TARGET: Final = 4
P_CALL_TRASH: Final = 5
P_LAST_CHANCE: Final = 6
_PARAMS: Final = 7

#: The kernel's number for each bot (see :mod:`trashcards.sim.kernel`).
BOT_CODES: Final = {"random": 0, "greedy": 1, "counter": 2, "kid": 3, "sometimes": 4,
                    "stockonly": 5}


def bot_codes(bots: Sequence[str]) -> npt.NDArray[np.int64]:
    """The kernel codes of the bots, one per seat; refuses a bot the kernel lacks."""
    codes = []
    for name in bots:
        key = name.strip().lower()
        if key not in BOT_CODES:
            known = ", ".join(BOT_CODES)
            extra = " (it is a reference bot: use the reference engine)" if key in BOTS else ""
            raise ValueError(f"the fast kernel has no bot {name!r}{extra}; it has {known}")
        codes.append(BOT_CODES[key])
    return np.array(codes, dtype=np.int64)


@dataclass(frozen=True)
class Table:
    """The rules and bots of a run, in the kernel's terms."""

    rules: Rules
    bots: tuple[str, ...]
    params: npt.NDArray[np.int64]
    roles: npt.NDArray[np.int8]
    ranks: npt.NDArray[np.int8]
    codes: npt.NDArray[np.int64]
    cards: tuple[Card, ...]

    @classmethod
    def build(cls, rules: Rules, bots: Sequence[str]) -> Table:
        players = len(bots)
        rules.check_players(players)
        cards = rules.match_cards(players)
        role_of = rules.roles()
        params = np.zeros(_PARAMS, dtype=np.int64)
        params[P_PLAYERS] = players
        params[P_CARDS] = len(cards)
        params[P_DECKS] = rules.deck_count(players)
        params[P_START_SIZE] = rules.start_size
        params[P_TARGET] = rules.target_rounds
        params[P_CALL_TRASH] = int(rules.call_trash)
        params[P_LAST_CHANCE] = int(rules.last_chance)
        roles = np.array([role_of[card] for card in cards], dtype=np.int8)
        ranks = np.array([card.rank for card in cards], dtype=np.int8)
        return cls(rules, tuple(bots), params, roles, ranks, bot_codes(bots), cards)

    @property
    def players(self) -> int:
        return len(self.bots)
