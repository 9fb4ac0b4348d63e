"""Stacked matches for the terminal tests."""

from __future__ import annotations

import random
from collections.abc import Sequence

from trashcards.actions import Dealer
from trashcards.record import Entry, Record
from trashcards.rules import Rules
from trashcards.session import Match

from support import stacked_deck

#: Ana draws A♥ and the chain fills her five slots: she wins the round with one key.
ANA_WINS = ("2h 3h 4h 5h As", "Kc Kd Ks Qc Qd")


def kids(rounds_to_win: int = 1) -> Rules:
    return Rules.preset_named("kids").with_fields({"rounds_to_win": rounds_to_win})


def stacked_record(names: Sequence[str] = ("Ana", "bot:greedy"), rounds_to_win: int = 1,
                   boards: Sequence[str] = ANA_WINS, stock: str = "Ah") -> Record:
    """A kids match just dealt (dealer seat 1, so seat 0 plays first) from a stacked deck."""
    rules = kids(rounds_to_win)
    deck = stacked_deck(rules, len(names), 1, boards, stock)
    return Record(rules, tuple(names), (Entry(None, Dealer(1)), Entry(None, deck)))


def stacked_match(**kwargs: object) -> Match:
    return Match.from_record(stacked_record(**kwargs), random.Random(0))  # type: ignore[arg-type]
