"""What a seat may know (RULES.md §8): the only picture of a match that leaves the core.

:func:`view` copies the public part of a :class:`~trashcards.state.State` into a new
value. A face-down card is ``None`` in every view — for every seat, the board's owner
included — and the stock is only a count, so nothing built on a view can reveal them.
"""

from __future__ import annotations

from typing import NamedTuple

from .actions import Action
from .cards import Card
from .engine import legal_actions
from .errors import PositionError
from .rules import Rules
from .state import Phase, PlayerView, State, standings

__all__ = ["PlayerView", "View", "view"]


class View(NamedTuple):
    """The match as ``seat`` sees it (``seat=None``: a spectator).

    ``legal`` are the actions of the seat to act (public: they follow from face-up cards
    only); ``called`` and ``must_play`` describe the current turn; ``unclaimed`` lists
    seats waiting to claim a board completed without calling; ``final_from`` is the seat
    whose completion started a last-chance cycle; ``standings`` is set once the match is
    over. ``stock_known`` is the stock's cards in canonical order (never the stock's
    order) once a reshuffle made them public this round (RULES.md §8), else ``None``.
    """

    seat: int | None
    rules: Rules
    phase: Phase
    round: int
    dealer: int | None
    to_act: int | None
    in_hand: Card | None
    stock_count: int
    discard: tuple[Card, ...]
    players: tuple[PlayerView, ...]
    round_winners: tuple[int, ...]
    match_winner: int | None
    legal: tuple[Action, ...]
    called: bool
    must_play: bool
    unclaimed: tuple[int, ...]
    final_from: int | None
    standings: tuple[int, ...] | None
    stock_known: tuple[Card, ...] | None = None

    @property
    def me(self) -> PlayerView | None:
        """The viewing seat's own player, or ``None`` for a spectator."""
        return None if self.seat is None else self.players[self.seat]

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None


def view(state: State, seat: int | None = None) -> View:
    """What ``seat`` (or a spectator, ``None``) may know of ``state``."""
    if seat is not None and not 0 <= seat < state.players:
        raise PositionError(f"no seat {seat} at a table of {state.players}")
    # Positional arguments, in field order: bots ask for a view at every decision.
    return View(
        seat, state.rules, state.phase, state.round, state.dealer, state.to_act,
        state.in_hand, len(state.stock), state.discard, state.seats, state.round_winners,
        state.match_winner, legal_actions(state), state.called, state.must_play,
        state.unclaimed, state.final_from,
        standings(state) if state.phase is Phase.MATCH_OVER else None,
        tuple(sorted(state.stock)) if state.stock_public else None,
    )
