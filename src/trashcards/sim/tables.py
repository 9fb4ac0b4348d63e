"""What the kernel needs to know of a table, as plain numbers and numpy arrays.

A card of the match is an integer id: its index in ``rules.match_cards(players)`` (the
packs suit by suit, Ace to King, then the Jokers). The kernel sees only ids and the
table array :attr:`Table.tab` (:mod:`trashcards.sim.kernel.layout`): the rule numbers,
and per id the card's role (its slot 1…10, :data:`~trashcards.rules.WILD` or ``TRASH``),
its rank (1…13, 0 for a Joker, for the counting bot), its class (the public encoding's,
:func:`trashcards.public.card_class`) and its place in the cards' canonical order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from ..bots import BOTS
from ..cards import Card
from ..public import card_class
from ..rules import Rules
from .kernel import layout

__all__ = ["BOT_CODES", "Table", "bot_codes"]

#: The kernel's number for each bot (see :mod:`trashcards.sim.kernel.bots`).
BOT_CODES: Final = {"random": layout.B_RANDOM, "greedy": layout.B_GREEDY,
                    "counter": layout.B_COUNTER, "kid": layout.B_KID,
                    "sometimes": layout.B_SOMETIMES, "stockonly": layout.B_STOCKONLY}


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
    tab: npt.NDArray[np.int64]
    roles: npt.NDArray[np.int8]
    codes: npt.NDArray[np.int64]
    cards: tuple[Card, ...]

    @classmethod
    def build(cls, rules: Rules, bots: Sequence[str]) -> Table:
        table = cls.of(rules, len(bots))
        return cls(rules, tuple(bots), table.tab, table.roles, bot_codes(bots), table.cards)

    @classmethod
    def of(cls, rules: Rules, players: int) -> Table:
        """The table of ``players`` seats under ``rules``, with no bots."""
        rules.check_players(players)
        cards = rules.match_cards(players)
        role_of = rules.roles()
        n = len(cards)
        tab = np.zeros(layout.TAB_SIZE, dtype=np.int64)
        tab[layout.T_PLAYERS] = players
        tab[layout.T_CARDS] = n
        tab[layout.T_DECKS] = rules.deck_count(players)
        tab[layout.T_START_SIZE] = rules.start_size
        tab[layout.T_TARGET] = rules.target_rounds
        tab[layout.T_CALL_TRASH] = int(rules.call_trash)
        tab[layout.T_LAST_CHANCE] = int(rules.last_chance)
        roles = np.array([role_of[card] for card in cards], dtype=np.int8)
        classes = [card_class(role_of[card]) for card in cards]
        tab[layout.T_ROLES: layout.T_ROLES + n] = roles
        tab[layout.T_RANKS: layout.T_RANKS + n] = [card.rank for card in cards]
        tab[layout.T_CLASS: layout.T_CLASS + n] = classes
        tab[layout.T_ORDER: layout.T_ORDER + n] = sorted(range(n), key=lambda i: (cards[i], i))
        for c in classes:
            tab[layout.T_CLASS_TOTAL + c] += 1
        return cls(rules, (), tab, roles, np.zeros(0, dtype=np.int64), cards)

    @property
    def players(self) -> int:
        return int(self.tab[layout.T_PLAYERS])

    @property
    def width(self) -> int:
        """Entries of one state of this table."""
        return layout.state_width(len(self.cards))
