"""A table's moves in memory: applying a move with the chance moves it makes due
(:func:`advance`, not yet committed) and rebuilding a match from its stored moves
(:func:`replay`, :func:`entry`, :func:`with_cuts`)."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Sequence
from dataclasses import dataclass

from .. import session
from ..actions import Dealer, Move, parse_move
from ..cards import Card, parse_card
from ..errors import NotationError, RecordFormatError
from ..record import Entry, Record
from ..rules import Rules
from ..state import Phase, State
from .connection import dumps
from .eventjson import events_text
from .protocol import ProtocolError

__all__ = ["Advance", "advance", "entry", "replay", "started", "with_cuts"]

log = logging.getLogger(__name__)


@dataclass
class Advance:
    """Moves applied in memory only, not yet committed: the state after them, their
    record texts and their events as JSON text."""

    state: State
    entries: list[str]
    texts: list[str]
    #: the cards cut for the first dealer as JSON, when these moves include the cut
    cuts: str | None = None

    @property
    def status(self) -> str:
        return "over" if self.state.phase is Phase.MATCH_OVER else "playing"


def advance(state: State, first: Move | None, seat: int | None, rng: random.Random,
            deal: bool = False) -> Advance:
    """:func:`trashcards.session.advance` (``first`` checked by the engine, then every
    chance move it makes due; the next round's deal only with ``deal``), in memory only,
    with the record texts, events and cuts the table commits and sends. Raises
    :class:`IllegalActionError` if ``first`` is illegal."""
    steps = session.advance(state, rng, first, seat, deal)
    cuts: str | None = None
    for step in steps:
        if isinstance(step.entry.move, Dealer):
            cuts = dumps([[s, str(card)] for s, card in step.entry.move.cuts])
    return Advance(steps[-1].state if steps else state, [str(step.entry) for step in steps],
                   [events_text(step.events, step.state) for step in steps], cuts)


def started(state: State | None) -> State:
    """The match, once it started; raises :class:`ProtocolError` ``not_started``."""
    if state is None:
        raise ProtocolError("not_started", "the table is waiting for players")
    return state


def replay(rules: Rules, names: tuple[str, ...], moves: Sequence[str],
           cuts: str | None) -> tuple[State | None, list[str]]:
    """The match after the stored ``moves`` (``None`` before the first) and each move's
    events as JSON text; raises what the record breaks (a ``TrashError``)."""
    state: State | None = None
    texts: list[str] = []
    if moves:
        entries = [entry(index, text) for index, text in enumerate(moves)]
        entries[0] = with_cuts(entries[0], cuts)
        record = Record(rules, names, tuple(entries))
        for state, events in record.steps():
            texts.append(events_text(events, state))
    return state, texts


def entry(index: int, text: str) -> Entry:
    """Move ``index`` of a stored record; raises :class:`RecordFormatError` naming it."""
    try:
        return Entry(*parse_move(text))
    except NotationError as exc:
        raise RecordFormatError(str(exc), index, text) from None


def with_cuts(first: Entry, cuts: str | None) -> Entry:
    """The first entry of a record with the stored cards cut for its dealer (the record
    keeps only the dealer's seat)."""
    if isinstance(first.move, Dealer) and cuts is not None:
        return Entry(first.seat, Dealer(first.move.seat, _cuts(cuts, first.move)))
    return first


def _cuts(text: str, dealer: Dealer) -> tuple[tuple[int, Card], ...]:
    """The stored cards cut for ``dealer``; ``()`` if they cannot be read (they only
    tell the story, so a bad value costs nothing but the telling)."""
    try:
        cuts = tuple((int(seat), parse_card(card)) for seat, card in json.loads(text))
    except (ValueError, TypeError):
        log.warning("the stored cut for dealer %d cannot be read; it is left out",
                    dealer.seat)
        return ()
    return cuts
