"""The events of one move as the browsers get them: :func:`trashcards.events.event_to_json`
objects, and on a ``discarded`` event a ``why`` object saying why the card went to the
pile (docs/protocol.md, "events"), so the page can tell a player why their turn ended in
their own language; and on the event that ends a round (``round_won``, the last one
when several players win, or ``round_void``) a ``revealed`` list: each seat's board with
the cards that stayed face down, shown to everyone once the round is over.

The face-down cards are hidden only while the round is played (RULES.md §8): every round
is dealt from all the cards shuffled anew (§4), so a finished round's cards tell nothing
of the next, and the record of the table already holds every finished round's deal.

The reason comes from public facts only (:mod:`trashcards.discards`): the card and the
discarding player's face-up slots after the move. Nothing on a board changes after a
discard within one move (the discard ends the chain), so those are the slots it met.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..discards import discard_reason
from ..events import Completed, Discarded, Event, RoundVoid, RoundWon, event_to_json
from ..state import Phase, State
from ..views import view
from .connection import dumps

__all__ = ["events_text", "revealed_json", "why_json"]


def why_json(event: Discarded, following: Event | None, state: State) -> dict[str, Any] | None:
    """The ``why`` of a discard, given the event after it and the state after its move."""
    if isinstance(following, Completed):
        return {"reason": "complete"}
    slots = view(state, None).players[event.seat].slots
    why = discard_reason(state.rules, event.card, slots)
    if why is None:
        return None
    out: dict[str, Any] = {"reason": why.reason}
    if why.slot is not None:
        out["slot"] = why.slot
    if why.held is not None:
        out["held"] = str(why.held)
    if why.size is not None:
        out["size"] = why.size
    return out


def revealed_json(state: State) -> list[list[str | None]]:
    """Each seat's board at the end of a round: the card of every slot that stayed face
    down, ``None`` for a face-up slot."""
    return [[None if up else card.text for card, up in zip(board.cards, board.up, strict=True)]
            for board in state.boards]


def events_text(events: Sequence[Event], state: State) -> str:
    """The events of one move as JSON objects separated by commas (no brackets);
    ``state`` is the state after the move."""
    parts = []
    ended = state.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
    last_end = max((i for i, e in enumerate(events) if isinstance(e, RoundWon | RoundVoid)),
                   default=None) if ended else None
    for index, event in enumerate(events):
        data = event_to_json(event)
        if isinstance(event, Discarded):
            following = events[index + 1] if index + 1 < len(events) else None
            why = why_json(event, following, state)
            if why is not None:
                data["why"] = why
        if index == last_end:
            data["revealed"] = revealed_json(state)
        parts.append(dumps(data))
    return ",".join(parts)
