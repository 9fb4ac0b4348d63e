"""The guided first game (trashcards.tutorial): its stacked deal, replayed through the
engine with the learner's scripted moves and the opponent's only legal ones, reaches
every situation the steps teach, in the steps' order."""

from __future__ import annotations

from trashcards import tutorial
from trashcards.actions import Action, parse_move
from trashcards.engine import apply, legal_actions
from trashcards.events import Discarded, Drew, Event, Placed, RoundWon, TurnedUp
from trashcards.rules import TRASH
from trashcards.state import Phase, State

LEARNER = tutorial.LEARNER


def _play() -> list[tuple[int, Action, tuple[Event, ...], State]]:
    """Every decision of the guided game: (seat, action, its events, the state before);
    the learner plays the steps' actions, the opponent its one legal action."""
    state = tutorial.record().replay()
    script = [step.do for step in tutorial.STEPS if step.do is not None]
    played = []
    while state.to_act is not None:
        seat = state.to_act
        assert seat is not None
        legal = legal_actions(state)
        if seat == LEARNER:
            action = parse_move(script.pop(0))[1]
            assert isinstance(action, Action)
            assert action in legal
        else:
            assert len(legal) == 1, f"the opponent has a choice: {legal}"
            action = legal[0]
        after, events = apply(state, action, seat)
        played.append((seat, action, events, state))
        state = after
    assert script == [], "every scripted action was played"
    assert state.phase is Phase.MATCH_OVER
    return played


def _learner_events() -> list[tuple[Event, ...]]:
    return [events for seat, _, events, _ in _play() if seat == LEARNER]


def test_the_stacked_deal_is_the_kids_game_for_one_round_with_every_card_once() -> None:
    record = tutorial.record("Ana")
    assert record.players == ("Ana", tutorial.OPPONENT)
    assert record.rules.start_size == 5
    assert record.rules.rounds_to_win == 1
    deck = tutorial.deck().cards
    assert sorted(map(str, deck)) == sorted(map(str, tutorial.RULES.match_cards(2)))
    state = record.replay()
    assert state.to_act == LEARNER
    assert state.phase is Phase.DRAW


def test_the_first_draw_is_from_the_stock_and_is_placed() -> None:
    first = _learner_events()[0]
    draw = first[0]
    assert isinstance(draw, Drew)
    assert draw.source == "stock"
    placed = first[1]
    assert isinstance(placed, Placed)
    assert placed.card == draw.card
    assert not placed.wild


def test_the_first_turn_is_a_chain_of_two_placements_ended_by_a_trash_card() -> None:
    first = _learner_events()[0]
    placed = [e for e in first if isinstance(e, Placed)]
    turned = [e for e in first if isinstance(e, TurnedUp)]
    assert len(placed) == 2, "the card turned up goes on to its own slot: a chain"
    assert placed[1].card == turned[0].card
    discarded = [e for e in first if isinstance(e, Discarded)]
    assert len(discarded) == 1
    assert tutorial.RULES.roles()[discarded[0].card] == TRASH
    assert discarded[0].card == turned[-1].card


def test_the_opponent_throws_away_a_card_the_learner_then_takes_from_the_discard() -> None:
    played = _play()
    opponent = [events for seat, _, events, _ in played if seat != LEARNER]
    thrown = [e for e in opponent[0] if isinstance(e, Discarded)][-1]
    second = _learner_events()[1]
    taken = second[0]
    assert isinstance(taken, Drew)
    assert taken.source == "discard"
    assert taken.card == thrown.card
    # a real choice: the stock was legal too
    state_before = [state for seat, _, _, state in played if seat == LEARNER][1]
    assert len(legal_actions(state_before)) == 2


def test_a_wild_is_put_on_a_face_down_slot_and_the_round_is_won() -> None:
    events = [e for batch in _learner_events() for e in batch]
    wilds = [e for e in events if isinstance(e, Placed) and e.wild]
    assert len(wilds) == 1
    won = [e for e in events if isinstance(e, RoundWon)]
    assert [(e.seat, e.round) for e in won] == [(LEARNER, 1)]


def test_each_decision_step_is_a_decision_of_the_learner_in_order() -> None:
    played = [(seat, str(action)) for seat, action, _, _ in _play() if seat == LEARNER]
    assert [text for _, text in played] == [s.do for s in tutorial.STEPS if s.do]
    assert tutorial.STEPS[-1].name == "won"
    assert tutorial.STEPS[-1].do is None
    taught = {"draw", "place", "chain", "trash", "discard", "wild", "won"}
    assert {step.name for step in tutorial.STEPS} == taught


def test_the_browser_reads_the_same_script() -> None:
    data = tutorial.script_json()
    assert data["opening"] == ["dealer 1", str(tutorial.deck())]
    assert [step["key"] for step in data["steps"]] == [s.key for s in tutorial.STEPS]  # type: ignore[attr-defined]
    assert data["opponent"] == "greedy"
