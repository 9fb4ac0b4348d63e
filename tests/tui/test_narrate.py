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
from trashcards.rules import Rules
from trashcards.state import PlayerView
from trashcards.tui.narrate import event_line, last_chance_left, narrate, status_lines
from trashcards.tui.scene import Scene

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


def scene(boards, rules=None):
    """A scene of two seats' boards written as text (``-`` face down)."""
    from trashcards.cards import parse_card as card
    slots = tuple(tuple(None if w == "-" else card(w) for w in b.split()) for b in boards)
    return Scene(rules or Rules(), 1, 1, 0, None, 30, (), slots, (0, 0))


def test_the_person_at_the_keyboard_is_spoken_to_in_the_second_person():
    events = (DealerChosen(0, ()), Dealt(1, 0, (10, 10), 1), TurnPassed(0),
              Drew(0, "stock", C7H), RoundWon(0, 1, 1), Completed(0, True), Claimed(0),
              FinalCycle(0), MatchWon(0, (1, 2)))
    lines = narrate(events, NAMES, you=0)
    assert lines == [
        "You deal first",
        "Round 1: you deal (boards: you 10, Bo 10); Bo plays first",
        "— Your turn —",
        "You drew 7♥ from the stock",
        "You win round 1 (1 round won)",
        "Your board is complete!",
        "You claim the completed board",
        "Last chance: everyone but you plays one more turn",
        "You win the match!",
    ]
    assert not any(bad in " ".join(lines) for bad in ("You deals", "You's", "You wins"))
    assert narrate(events, NAMES, you=1)[2] == "— Ana's turn —"


def test_a_discard_that_ends_the_turn_says_why():
    table = scene(["- - - - - - 7d - - -", "- - - - - - - - - -"])
    def line(card_text, following=None):
        from trashcards.cards import parse_card as card
        return event_line(Discarded(0, card(card_text)), NAMES, 0, table, following)
    assert line("Qs") == "You discarded Q♠: Queens are trash"
    assert line("7h") == "You discarded 7♥: slot 7 already holds 7♦"
    assert line("Js") == "You trashed the wild J♠"
    assert line("As", Completed(0, True)) == "You discarded A♠: the board is complete"
    small = scene(["- - - - -", "- - - - -"])
    assert event_line(Discarded(1, C7H), NAMES, 0, small) == \
        "Bo discarded 7♥: a board of 5 has no slot 7"
    kept = scene(["- - - - - - Jc - - -", "- - - - - - - - - -"])
    assert event_line(Discarded(0, C7H), NAMES, None, kept) == \
        "Ana discarded 7♥, keeping the wild J♣ on slot 7"


def test_jokers_are_named_joker():
    joker = parse_card("X2")
    assert event_line(Drew(0, "stock", joker), NAMES) == "Ana drew Joker from the stock"
    assert "X2" not in event_line(Placed(0, 3, joker, True), NAMES)


def test_the_status_tells_a_pending_claim_and_the_last_chance_lap():
    from trashcards.views import view as view_of

    from support import start
    base = view_of(start(["Ad 2d 3d 4d 5d", "Ac 2c 3c 4c 5c", "As 2s 3s 4s 5s"],
                         rules=Rules.preset_named("kids"), names=["Ana", "Bo", "Cy"]), 0)
    claim = base._replace(unclaimed=(1,))
    assert status_lines(claim, you=0) == [
        'Bo completed the board without calling "Trash!": Bo claims it at the start of '
        "Bo's next turn"]
    assert status_lines(claim, you=1)[0].startswith(
        'You completed your board without calling "Trash!": you claim it at the start of '
        "your next turn")
    lap = base._replace(final_from=2, to_act=0)
    assert last_chance_left(lap) == (0, 1)
    assert status_lines(lap, you=0) == [
        "Last chance: Cy completed the board; still to play one more turn: you, Bo"]
    assert status_lines(base, you=0) == []
    assert isinstance(base.players[0], PlayerView)
