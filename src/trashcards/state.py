"""The state of a match: a frozen value, the whole truth, hidden cards included.

A :class:`State` is never shown to a player, a bot or a client: they get
:func:`trashcards.views.view`. States are made by :func:`new_match` and by
:func:`trashcards.engine.apply`, which returns a new state and leaves the old one as it was.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, NamedTuple

from .cards import Card
from .rules import Rules

__all__ = ["Board", "Due", "Phase", "PlayerView", "State", "new_match", "public_seats",
           "seat_view", "standings"]


class Phase(StrEnum):
    """Where the match stands (RECORDS.md, "the state as JSON")."""

    DRAW = "draw"  # the player to act draws from the stock or the discard pile
    WILD = "wild"  # a wild card is in hand: choose a face-down slot, or trash it
    SWAP = "swap"  # a pip card in hand may swap out the wild on its slot
    CHANCE = "chance"  # a `dealer`, the first `deck` or a `reshuffle` move is due
    ROUND_OVER = "round_over"  # the next move is the next round's `deck`
    MATCH_OVER = "match_over"


class Due(StrEnum):
    """Which chance move the match waits for in :attr:`Phase.CHANCE` and ``ROUND_OVER``."""

    DEALER = "dealer"
    DECK = "deck"
    RESHUFFLE = "reshuffle"  # then the player to act draws the new stock's top card
    PENALTY_RESHUFFLE = "penalty_reshuffle"  # then the call-trash penalty card is drawn


class Board(NamedTuple):
    """One player's board: ``size`` slots; ``cards[k]`` is slot k+1, ``up[k]`` whether it is
    face up. Empty (``cards == ()``) before the first deal."""

    size: int
    cards: tuple[Card, ...] = ()
    up: tuple[bool, ...] = ()

    @property
    def face_down(self) -> int:
        """Number of face-down slots."""
        return self.up.count(False)


class PlayerView(NamedTuple):
    """A player as everyone sees them; ``slots[k]`` is slot k+1, ``None`` if face down."""

    name: str
    rounds_won: int
    board_size: int
    slots: tuple[Card | None, ...]

    @property
    def face_down(self) -> int:
        return self.slots.count(None)


def seat_view(name: str, rounds_won: int, board: Board) -> PlayerView:
    """The public part of one seat: its face-up cards only."""
    return PlayerView(name, rounds_won, board.size,
                      tuple([card if up else None
                             for card, up in zip(board.cards, board.up, strict=True)]))


def public_seats(names: tuple[str, ...], rounds_won: tuple[int, ...],
                 boards: tuple[Board, ...]) -> tuple[PlayerView, ...]:
    """The public part of every seat."""
    return tuple(seat_view(name, won, board)
                 for name, won, board in zip(names, rounds_won, boards, strict=True))


class State(NamedTuple):
    """Everything about a match at one moment, an immutable value made by the engine.

    ``turn`` is the seat whose turn it is (also while a reshuffle in that turn is due);
    ``to_act`` is that seat only when a decision is due. ``stock`` is top card first;
    ``discard`` bottom first. ``called``: the player to act called "Trash!" this turn;
    ``must_play``: the card in hand was taken from the discard pile; ``unclaimed``: seats
    that completed without calling and claim at their next turn; ``final_from``: under
    last chance, the seat whose completion started the final cycle; ``stock_public``:
    the stock was reshuffled this round, so its cards (not their order) are public
    (RULES.md §8). ``seats`` is the
    public part of each seat (:class:`PlayerView`), kept in step with ``boards`` and
    ``rounds_won`` by the engine (:func:`public_seats`).

    Board, PlayerView, State and View are named tuples rather than frozen dataclasses:
    the engine makes one or more of each per move, and a tuple is built three times
    faster (``benchmarks/engine.py``).
    """

    rules: Rules
    names: tuple[str, ...]
    phase: Phase
    due: Due | None
    round: int
    dealer: int | None
    turn: int | None
    in_hand: Card | None
    stock: tuple[Card, ...]
    discard: tuple[Card, ...]
    boards: tuple[Board, ...]
    rounds_won: tuple[int, ...]
    called: bool = False
    must_play: bool = False
    unclaimed: tuple[int, ...] = ()
    final_from: int | None = None
    round_winners: tuple[int, ...] = ()
    match_winner: int | None = None
    seats: tuple[PlayerView, ...] = ()
    stock_public: bool = False

    @property
    def players(self) -> int:
        return len(self.names)

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is due, or ``None`` (chance, round or match over)."""
        return self.turn if self.phase in _DECISION_PHASES else None

    @property
    def top_discard(self) -> Card | None:
        return self.discard[-1] if self.discard else None


_DECISION_PHASES: Final = frozenset({Phase.DRAW, Phase.WILD, Phase.SWAP})


def new_match(rules: Rules, names: tuple[str, ...] | list[str]) -> State:
    """The state before the cut for the first dealer: a ``dealer`` chance move is due."""
    names = tuple(names)
    rules.check_players(len(names))
    boards = tuple(Board(rules.start_size) for _ in names)
    return State(
        rules=rules,
        names=names,
        phase=Phase.CHANCE,
        due=Due.DEALER,
        round=1,
        dealer=None,
        turn=None,
        in_hand=None,
        stock=(),
        discard=(),
        boards=boards,
        rounds_won=(0,) * len(names),
        seats=public_seats(names, (0,) * len(names), boards),
    )


def standings(state: State) -> tuple[int, ...]:
    """Each seat's place (1 = best) by RULES.md §7: the match winner first, then by rounds
    won (more is better), then by face-down cards left (fewer is better); ties share."""

    def key(seat: int) -> tuple[int, int, int]:
        return (0 if seat == state.match_winner else 1, -state.rounds_won[seat],
                state.boards[seat].face_down)

    keys = [key(seat) for seat in range(state.players)]
    return tuple(1 + sum(1 for other in keys if other < mine) for mine in keys)
