"""Running a match: chance from a seeded generator, actions from people or bots, and the
record of every move. Front ends (terminal, web, simulator) all play through here:
:func:`advance` applies a move and the chance moves it makes due, without changing
anything (the web commits its result before it takes it); :class:`Match` keeps a state
and its record and advances them with it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from .actions import Action, Move
from .chance import sample_chance
from .engine import apply, chance_due
from .events import Event
from .record import Entry, Record
from .rules import Rules
from .state import Phase, State, new_match
from .views import View, view

__all__ = ["Chooser", "Match", "Step", "advance", "play_match"]


class Chooser(Protocol):
    """Anything that picks an action from a view (every bot)."""

    def choose(self, view: View) -> Action: ...


@dataclass(frozen=True)
class Step:
    """One move applied: its record entry, the state after it and what happened."""

    entry: Entry
    state: State
    events: tuple[Event, ...]


def advance(state: State, rng: random.Random, first: Move | None = None,
            seat: int | None = None, deal: bool = False) -> list[Step]:
    """Apply ``first`` (checked by the engine for ``seat``, when given), then the chance
    moves due after it, drawn from ``rng``, until a player must act, the match is over or
    a round is over; with ``deal``, a round over before the first chance move is dealt
    on (the next round's deck), not one met later. ``state`` is unchanged. Raises
    :class:`~trashcards.errors.IllegalActionError` (nothing applied) if ``first`` is not
    legal."""
    steps: list[Step] = []
    if first is not None:
        acting = state.to_act if isinstance(first, Action) else None
        state, events = apply(state, first, seat)
        steps.append(Step(Entry(acting, first), state, events))
    while chance_due(state) is not None and (deal or state.phase is not Phase.ROUND_OVER):
        deal = False
        move = sample_chance(state, rng)
        state, events = apply(state, move)
        steps.append(Step(Entry(None, move), state, events))
    return steps


class Match:
    """A match in progress: its state and its record, advanced one move at a time.

    Chance moves come from ``rng``; every move applied is appended to :attr:`record`, so
    the match can be saved at any moment and continued with :meth:`from_record`.
    """

    def __init__(self, rules: Rules, names: Sequence[str], rng: random.Random) -> None:
        self.rng = rng
        self._state = new_match(rules, tuple(names))
        self._record = Record(rules, tuple(names))
        self._moves: list[Entry] = []

    @classmethod
    def from_record(cls, record: Record, rng: random.Random) -> Match:
        """Continue a saved match: replays every move of ``record`` (may raise
        :class:`~trashcards.errors.RecordError`)."""
        match = cls(record.rules, record.players, rng)
        match._state = record.replay()
        match._moves = list(record.moves)
        return match

    @property
    def state(self) -> State:
        return self._state

    @property
    def record(self) -> Record:
        return Record(self._record.rules, self._record.players, tuple(self._moves))

    @property
    def over(self) -> bool:
        return self._state.phase is Phase.MATCH_OVER

    def view(self, seat: int | None) -> View:
        return view(self._state, seat)

    def play(self, move: Move, seat: int | None = None) -> tuple[Event, ...]:
        """Apply a move (raises :class:`~trashcards.errors.IllegalActionError`, nothing
        changed, if it is not legal; ``seat`` must then be the seat to act)."""
        acting = self._state.to_act if isinstance(move, Action) else None
        self._state, events = apply(self._state, move, seat)
        self._moves.append(Entry(acting, move))
        return events

    def advance(self, next_round: bool = True) -> tuple[Event, ...]:
        """Apply due chance moves until a player must act or the match is over; with
        ``next_round=False`` stop at the end of a round (for a scoreboard)."""
        events: list[Event] = []
        while True:
            steps = advance(self._state, self.rng, deal=next_round)
            for step in steps:
                self._moves.append(step.entry)
                events.extend(step.events)
                self._state = step.state
            if not steps or not next_round:
                return tuple(events)


def play_match(rules: Rules, names: Sequence[str], bots: Sequence[Chooser],
               rng: random.Random,
               observe: Callable[[tuple[Event, ...]], None] | None = None) -> Match:
    """A whole match between bots (one per seat); chance from ``rng``. ``observe``, if
    given, receives the events of every move in order."""
    match = Match(rules, names, rng)
    events = match.advance()
    while True:
        if observe is not None:
            observe(events)
        if match.over:
            return match
        state = match.state
        seat = state.to_act
        assert seat is not None
        events = match.play(bots[seat].choose(view(state, seat))) + match.advance()
