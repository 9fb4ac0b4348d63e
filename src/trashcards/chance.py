"""Chance: the cut for the first dealer, the shuffle of each round, the reshuffle.

The only place that draws random numbers for the match; it always uses the
:class:`random.Random` it is given, never the global one, so a seed fixes the game.
"""

from __future__ import annotations

import random

from .actions import ChanceMove, Dealer, Deck, Reshuffle
from .cards import Card, standard_pack
from .engine import chance_due
from .errors import PositionError
from .state import Due, State

__all__ = ["cut_for_dealer", "sample_chance"]


def cut_for_dealer(players: int, rng: random.Random) -> Dealer:
    """RULES.md §4.1: each player cuts a card from a shuffled pack of 52; the lowest rank
    (A low … K high) deals; players tied for lowest cut again among themselves."""
    contenders = list(range(players))
    cuts: list[tuple[int, Card]] = []
    while True:
        pack = list(standard_pack())
        rng.shuffle(pack)
        drawn = {seat: pack[i] for i, seat in enumerate(contenders)}
        cuts.extend(drawn.items())
        low = min(card.rank for card in drawn.values())
        contenders = [seat for seat, card in drawn.items() if card.rank == low]
        if len(contenders) == 1:
            return Dealer(contenders[0], tuple(cuts))


def sample_chance(state: State, rng: random.Random) -> ChanceMove:
    """The chance move that is due, decided by ``rng``."""
    due = chance_due(state)
    if due is Due.DEALER:
        return cut_for_dealer(state.players, rng)
    if due is Due.DECK:
        cards = list(state.rules.match_cards(state.players))
        rng.shuffle(cards)
        return Deck(tuple(cards))
    if due in (Due.RESHUFFLE, Due.PENALTY_RESHUFFLE):
        cards = list(state.discard[:-1])
        rng.shuffle(cards)
        return Reshuffle(tuple(cards))
    raise PositionError("no chance move is due")
