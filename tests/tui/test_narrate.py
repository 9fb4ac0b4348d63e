"""Events in words: one line per step, a placement and its turned-up card together."""

from __future__ import annotations

import dataclasses

from trashcards.cards import parse_card
from trashcards.events import (
    Called,
    Claimed,
    Completed,
    DealerChosen,
    Dealt,
    Discarded,
    Drew,
    FinalCycle,
    MatchWon,
    PenaltyDrawn,
    Placed,
    Reshuffled,
    RoundVoid,
    RoundWon,
    StockEmpty,
    Swapped,
    TurnedUp,
    TurnPassed,
)
from trashcards.tui.narrate import event_line, narrate

NAMES = ("Ana", "Bo")
C7H, CQS, CJS = parse_card("7h"), parse_card("Qs"), parse_card("Js")


def test_a_chain_reads_as_one_line_per_step():
    events = (Drew(0, "stock", C7H), Placed(0, 7, C7H, False), TurnedUp(0, 7, CQS),
              Discarded(0, CQS), TurnPassed(1))
    assert narrate(events, NAMES) == [
        "Ana drew 7♥ from the stock",
        "Ana placed 7♥ on slot 7, turned up Q♠",
        "Ana discarded Q♠",
        "— Bo's turn —",
    ]


def test_wilds_swaps_and_the_discard_pile_are_named():
    assert event_line(Drew(1, "discard", CJS), NAMES) == "Bo drew J♠ from the discard pile"
    assert event_line(Placed(1, 4, CJS, True), NAMES) == "Bo placed the wild J♠ on slot 4"
    assert (event_line(Swapped(1, 4, parse_card("4d"), CJS), NAMES)
            == "Bo swapped 4♦ into slot 4; the wild J♠ is back in hand")


def test_every_event_has_a_sentence():
    events = [
        DealerChosen(1, ((0, C7H), (1, parse_card("As")))), Dealt(1, 1, (10, 10), 0),
        Drew(0, "stock", C7H), Called(0), Placed(0, 7, C7H, False), TurnedUp(0, 7, CQS),
        Swapped(0, 7, C7H, CJS), Discarded(0, CQS), StockEmpty(0), Reshuffled(12),
        Completed(0, True), Completed(0, False), PenaltyDrawn(0, CQS), Claimed(0),
        RoundWon(0, 3, 3), FinalCycle(0), RoundVoid(2), MatchWon(0, (1, 2)), TurnPassed(1),
    ]
    lines = [event_line(event, NAMES) for event in events]
    assert all(lines)
    assert len(set(lines)) == len(lines)
    for event, line in zip(events, lines, strict=True):
        seat = getattr(event, "seat", None)
        if seat is not None and not isinstance(event, DealerChosen):
            assert NAMES[seat] in line, (dataclasses.asdict(event), line)
    assert "Cut for the deal: Ana 7♥, Bo A♠ — Bo deals" in lines
    assert "Ana wins round 3 (3 rounds won)" in lines
