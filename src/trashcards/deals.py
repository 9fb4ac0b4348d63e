"""Deals consistent with a view: full states that agree with everything public.

Trash has no private information (RULES.md §8): nobody knows a face-down card or the
stock's order, and every discard is public. Given the public history, the cards not in
sight are therefore spread uniformly over the hidden places — the face-down slots and the
stock — except that after a reshuffle the stock is a known multiset (``View.stock_known``)
in an unknown order, and the face-down slots hold the rest. :func:`sample_state` draws
such a state; :func:`deal_state` builds one from a given order of the unseen cards, so any
shuffle (a seeded :class:`random.Random`, the fast kernel's own Fisher–Yates) deals the
same way. docs/ai.md gives the whole argument.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Sequence

from .cards import Card
from .errors import PositionError
from .state import Board, Due, Phase, State, public_seats
from .views import View

__all__ = ["deal_state", "hidden_slots", "sample_state", "split_unseen", "unseen_cards"]


def unseen_cards(view: View) -> tuple[Card, ...]:
    """The cards of the match not in sight, in canonical order: every card less those face
    up on a board, in the discard pile and in hand. They fill the face-down slots and the
    stock."""
    left = Counter(view.rules.match_cards(len(view.players)))
    for player in view.players:
        left.subtract(card for card in player.slots if card is not None)
    left.subtract(view.discard)
    if view.in_hand is not None:
        left[view.in_hand] -= 1
    if any(n < 0 for n in left.values()):
        raise PositionError("the view shows more of a card than the match has")
    return tuple(sorted(left.elements()))


def hidden_slots(view: View) -> tuple[tuple[int, int], ...]:
    """The face-down slots as (seat, slot index from 0), seat by seat, slot by slot."""
    return tuple((seat, k) for seat, player in enumerate(view.players)
                 for k, card in enumerate(player.slots) if card is None)


def split_unseen(view: View) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """The unseen cards as (those that may lie face down, those that may be in the stock):
    both all of :func:`unseen_cards` before a reshuffle; after one, the stock's known
    cards and the rest."""
    unseen = unseen_cards(view)
    if view.stock_known is None:
        return unseen, unseen
    rest = Counter(unseen)
    rest.subtract(view.stock_known)
    if any(n < 0 for n in rest.values()):
        raise PositionError("the known stock holds cards that are in sight")
    return tuple(sorted(rest.elements())), view.stock_known


def deal_state(view: View, face_down: Sequence[Card], stock: Sequence[Card]) -> State:
    """The full state that agrees with ``view``, with ``face_down`` dealt into the
    face-down slots in :func:`hidden_slots` order and ``stock`` as the stock, top first.

    Together the two must be exactly the unseen cards, and the stock exactly the known
    stock when there is one; raises :class:`ValueError` otherwise, or when the view is a
    reshuffle that is due (such a view does not say whose turn it is). Before the first
    deal nothing is hidden: both are empty and the cut or the deal is due.
    """
    dealt = any(player.slots for player in view.players)
    if view.phase is Phase.CHANCE and dealt:
        raise PositionError("a view while a reshuffle is due does not show whose turn it is: "
                         "take the position before or after the reshuffle")
    if not dealt:
        if face_down or stock:
            raise PositionError("before the first deal nothing is hidden")
        return _state(view, (Board(player.board_size) for player in view.players), ())
    places = hidden_slots(view)
    if len(face_down) != len(places) or len(stock) != view.stock_count:
        raise PositionError(f"the view has {len(places)} face-down slots and a stock of "
                         f"{view.stock_count}, not {len(face_down)} and {len(stock)} cards")
    if Counter(face_down) + Counter(stock) != Counter(unseen_cards(view)):
        raise PositionError("the face-down slots and the stock must hold exactly the unseen "
                         "cards")
    if view.stock_known is not None and sorted(stock) != list(view.stock_known):
        raise PositionError("after a reshuffle the stock must be exactly the known stock")
    hidden = iter(face_down)
    boards = (Board(player.board_size,
                    tuple(next(hidden) if card is None else card for card in player.slots),
                    tuple(card is not None for card in player.slots))
              for player in view.players)
    return _state(view, boards, tuple(stock))


def _state(view: View, boards: Iterable[Board], stock: tuple[Card, ...]) -> State:
    boards = tuple(boards)
    names = tuple(player.name for player in view.players)
    rounds_won = tuple(player.rounds_won for player in view.players)
    due: Due | None = None  # the engine keeps none in decision and round-over phases
    if view.phase is Phase.CHANCE:
        due = Due.DEALER if view.dealer is None else Due.DECK
    return State(
        rules=view.rules, names=names, phase=view.phase, due=due,
        round=view.round, dealer=view.dealer, turn=view.to_act, in_hand=view.in_hand,
        stock=stock, discard=view.discard, boards=boards, rounds_won=rounds_won,
        called=view.called, must_play=view.must_play, unclaimed=view.unclaimed,
        final_from=view.final_from, round_winners=view.round_winners,
        match_winner=view.match_winner, seats=public_seats(names, rounds_won, boards),
        stock_public=view.stock_known is not None,
    )


def sample_state(view: View, rng: random.Random) -> State:
    """A full state drawn uniformly among those that agree with ``view``: the unseen
    cards shuffled by ``rng`` into the face-down slots (in :func:`hidden_slots` order),
    the rest the stock; after a reshuffle the known stock and the rest are shuffled
    apart."""
    down, stock_pool = split_unseen(view)
    if view.stock_known is None:
        cards = list(down)
        rng.shuffle(cards)
        places = len(hidden_slots(view))
        return deal_state(view, cards[:places], cards[places:])
    face_down, stock = list(down), list(stock_pool)
    rng.shuffle(face_down)
    rng.shuffle(stock)
    return deal_state(view, face_down, stock)
