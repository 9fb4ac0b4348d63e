"""The events of one move as the browsers get them: :func:`trashcards.events.event_to_json`
objects, and on a ``discarded`` event a ``why`` object saying why the card went to the
pile (docs/protocol.md, "events"), so the page can tell a player why their turn ended in
their own language.

The reason comes from public facts only (:mod:`trashcards.discards`): the card and the
discarding player's face-up slots after the move. Nothing on a board changes after a
discard within one move (the discard ends the chain), so those are the slots it met.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..discards import discard_reason
from ..events import Completed, Discarded, Event, event_to_json
from ..state import State
from ..views import view
from .connection import dumps

__all__ = ["events_text", "why_json"]


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


def events_text(events: Sequence[Event], state: State) -> str:
    """The events of one move as JSON objects separated by commas (no brackets);
    ``state`` is the state after the move."""
    parts = []
    for index, event in enumerate(events):
        data = event_to_json(event)
        if isinstance(event, Discarded):
            following = events[index + 1] if index + 1 < len(events) else None
            why = why_json(event, following, state)
            if why is not None:
                data["why"] = why
        parts.append(dumps(data))
    return ",".join(parts)
