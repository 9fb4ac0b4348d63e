"""What happened at a table so far, for a page that arrives late (a reload, a new tab, a
restart): ``history`` messages that let the page rebuild its "What happened" log.

A connection that is sent a whole ``state`` at ``join`` also gets the events of the
current round from its first move (the cut and the deal in round 1), at most
:data:`PAGE` moves in one message; a page asks for older moves with ``{"type":
"history", "before": V}``. Pages only go back: a connection is sent each move's events
at most once, so what one connection can ask for is bounded by the table's length, and
one page at a time stays well inside the per-connection memory bound.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["PAGE", "page_frame", "round_start"]

#: The most moves in one ``history`` message.
PAGE = 200


def round_start(moves: Sequence[str]) -> int:
    """The index of the current round's first move: its ``deck`` move, or 0 in the first
    round (so the cut for the dealer is included)."""
    decks = [index for index, move in enumerate(moves) if move.startswith("deck ")]
    if len(decks) <= 1:
        return 0
    return decks[-1]


def page_frame(move_events: Sequence[str], end: int, round_from: int,
               floor: int = 0) -> tuple[str, int]:
    """The ``history`` message of the moves before ``end`` (at most :data:`PAGE`, none
    before ``floor``), and the first move it holds. ``move_events[i]`` is the events of
    move ``i`` as comma-separated JSON objects."""
    start = max(floor, end - PAGE, 0)
    events = ",".join(text for text in move_events[start:end] if text)
    return (f'{{"type":"history","from_version":{start},"version":{end},'
            f'"round_from":{round_from},"events":[{events}]}}', start)
