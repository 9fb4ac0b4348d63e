"""One test per rule of RULES.md, named after the section it pins."""

from __future__ import annotations

import random

import pytest

from trashcards import (
    IllegalActionError,
    Phase,
    Rules,
    RulesError,
    apply,
    new_match,
    parse_card,
    parse_move,
    sample_chance,
    standings,
    view,
)
from trashcards.actions import Dealer, Deck, Reshuffle
from trashcards.cards import parse_cards
from trashcards.chance import cut_for_dealer
from trashcards.events import Claimed, MatchWon, PenaltyDrawn, RoundWon
from trashcards.rules import TRASH, WILD, card_roles
from trashcards.state import Due

from support import event_names, legal_text, play, play_events, position, start, up_cards

FULL = "(2h) (3h) (Qh) (4d) (5d) (6d) (7d) (8d) (9d) (Td)"
OTHER = "(2s) (3s) (4s) (5s) (6s) (7s) (8s) (9s) (Ts) (As)"


# §1 Cards ----------------------------------------------------------------------------------

def test_1_roles_standard_jacks_wild_queens_kings_trash() -> None:
    roles = card_roles(("J",))
    assert roles[parse_card("Ah")] == 1
    assert roles[parse_card("Tc")] == 10
    assert roles[parse_card("Jd")] == WILD
    assert roles[parse_card("Qd")] == TRASH
    assert roles[parse_card("Ks")] == TRASH
    assert roles[parse_card("X1")] == WILD


def test_1_roles_kings_wild() -> None:
    roles = Rules.preset_named("kings-wild").roles()
    assert roles[parse_card("Ks")] == WILD
    assert roles[parse_card("Js")] == TRASH


def test_1_notation_input_is_forgiving_output_canonical() -> None:
    for text in ("Ts", "10s", "ts", "T♠", "10♠", " 10S "):
        assert parse_card(text).text == "Ts"
    assert parse_card("ah").text == "Ah"
    assert parse_card("x2").text == "X2"
    assert parse_card("10♥").pretty() == "10♥"


def test_1_jokers_are_distinct_cards_per_deck() -> None:
    rules = Rules.preset_named("jokers")
    cards = rules.match_cards(3)
    jokers = [c.text for c in cards if c.is_joker]
    assert jokers == ["X1", "X2", "X3", "X4"]
    assert len(cards) == 2 * 52 + 4


def test_1_decks_default_one_for_two_players_two_for_more() -> None:
    assert Rules().deck_count(2) == 1
    assert Rules().deck_count(3) == 2
    assert Rules().deck_count(4) == 2


# §2 Players ------------------------------------------------------------------------------

def test_2_more_than_four_players_are_refused_with_a_hint() -> None:
    with pytest.raises(RulesError, match="split into two tables"):
        new_match(Rules(), ["a", "b", "c", "d", "e"])
    with pytest.raises(RulesError, match="players"):
        new_match(Rules(), ["a"])


def test_2_turns_go_clockwise() -> None:
    state = position([FULL, OTHER, OTHER], stock="Qc Kc Qd")
    state = play(state, "stock")
    assert state.to_act == 1
    state = play(state, "stock", "stock")
    assert state.to_act == 0


# §3 The board ----------------------------------------------------------------------------

def test_3_pip_above_board_size_is_unplayable() -> None:
    state = position(["(Ah) (2h) (3h) (4h) (5h)", OTHER], stock="9c")
    state, events = play_events(state, "stock")
    assert state.discard[-1].text == "9c"
    assert event_names(events) == ["drew", "discarded", "turn_passed"]


def test_3_complete_board_may_hold_wilds() -> None:
    state = position(["Ah Jh (3h) 4h 5h 6h 7h 8h 9h Th", OTHER], stock="3c")
    state = play(state, "stock")
    assert state.round_winners == (0,)


# §4 Setting up ---------------------------------------------------------------------------

class _StackedShuffles(random.Random):
    """A generator whose shuffles put chosen cards on top, in turn."""

    def __init__(self, tops: list[str]) -> None:
        super().__init__(0)
        self.tops = [parse_cards(t) for t in tops]

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        top = list(self.tops.pop(0))
        rest = [c for c in x if c not in top]
        x[:] = top + rest


def test_4_1_lowest_cut_deals() -> None:
    dealer = cut_for_dealer(3, _StackedShuffles(["9h 3c Kd"]))
    assert dealer.seat == 1
    assert [c.text for _, c in dealer.cuts] == ["9h", "3c", "Kd"]


def test_4_1_players_tied_for_lowest_cut_again() -> None:
    dealer = cut_for_dealer(3, _StackedShuffles(["4h 9c 4d", "Kd 2s"]))
    assert dealer.seat == 2
    assert [seat for seat, _ in dealer.cuts] == [0, 1, 2, 0, 2]


def test_4_3_deal_one_card_at_a_time_from_dealers_left_skipping_full_boards() -> None:
    rules = Rules.preset_named("kids")
    state = new_match(rules, ["A", "B"])._replace(rounds_won=(3, 0))
    state, _ = apply(state, Dealer(1))
    top = parse_cards("2c 3c 4c 5c 6c 7c 8c 9c")
    rest = tuple(c for c in rules.match_cards(2) if c not in top)
    state, events = apply(state, Deck(top + rest))
    assert [c.text for c in state.boards[0].cards] == ["2c", "4c"]
    assert [c.text for c in state.boards[1].cards] == ["3c", "5c", "6c", "7c", "8c"]
    assert state.stock[0].text == "9c"
    assert state.to_act == 0
    assert event_names(events) == ["dealt"]


def test_4_4_stock_is_the_rest_and_discard_starts_empty() -> None:
    state = start([FULL, OTHER], stock="Ac Kc")
    assert [c.text for c in state.stock[:2]] == ["Ac", "Kc"]
    assert len(state.stock) == 52 - 20
    assert state.discard == ()


def test_4_5_player_left_of_dealer_plays_first() -> None:
    assert start([FULL, OTHER], dealer=0).to_act == 1
    assert start([FULL, OTHER, OTHER], dealer=2).to_act == 0


def test_4_one_pack_may_deal_four_boards_of_ten() -> None:
    Rules(decks=1).check_players(4)  # 52 - 40 = 12 cards are left for the stock
    state = apply(new_match(Rules(decks=1), ["a", "b", "c", "d"]), Dealer(0))[0]
    state = apply(state, sample_chance(state, random.Random(3)))[0]
    assert len(state.stock) == 12


def test_4_deck_must_be_exactly_the_matchs_cards() -> None:
    state = apply(new_match(Rules(), ["a", "b"]), Dealer(0))[0]
    cards = list(Rules().match_cards(2))
    cards[0] = cards[1]
    with pytest.raises(IllegalActionError, match="missing As; not expected 2s"):
        apply(state, Deck(tuple(cards)))


# §5.1 Draw -------------------------------------------------------------------------------

def test_5_1_first_turn_draws_from_the_stock() -> None:
    state = start([FULL, OTHER])
    assert legal_text(state) == ["stock"]
    with pytest.raises(IllegalActionError, match="discard pile is empty"):
        play(state, "discard")


@pytest.mark.parametrize(("board", "top", "playable"), [
    (FULL, "Qs", False),  # trash card
    (FULL, "5h", True),  # slot 5 face down
    ("Ah 2h 3h 4h 5c (6h) (7h) (8h) (9h) (Th)", "5h", False),  # slot 5 holds its natural
    ("Ah 2h 3h 4h Jc (6h) (7h) (8h) (9h) (Th)", "5h", True),  # slot 5 holds a wild
    (FULL, "Jh", True),  # a wild while a slot is face down
    ("(Ah) (2h) (3h) (4h) (5h)", "9c", False),  # no slot 9 on a board of 5
])
def test_5_1_discard_pile_only_for_a_playable_card(board: str, top: str, playable: bool) -> None:
    state = position([board, OTHER], discard=f"Kd {top}")
    assert ("discard" in legal_text(state)) is playable


def test_5_1_wild_taken_from_discard_must_be_played() -> None:
    state = play(position([FULL, OTHER], discard="Jh"), "discard")
    assert state.phase is Phase.WILD
    assert "trash" not in legal_text(state)
    with pytest.raises(IllegalActionError, match="must be played"):
        play(state, "trash")


def test_5_1_pip_taken_from_discard_onto_a_wild_must_swap() -> None:
    board = "Ah 2h 3h 4h Jc (6h) (7h) (8h) (9h) (Th)"
    state = play(position([board, OTHER], discard="5h"), "discard")
    assert state.phase is Phase.SWAP
    assert legal_text(state) == ["swap"]


def test_5_1_trash_is_offered_for_cards_the_chain_turns_up_later() -> None:
    board = "(Ah) (2h) (3h) (4h) (Jc) (6h) (7h) (8h) (9h) (Th)"
    state = play(position([board, OTHER], discard="5h"), "discard")
    assert state.phase is Phase.WILD
    assert state.in_hand is not None
    assert state.in_hand.text == "Jc"
    assert "trash" in legal_text(state)


# §5.2 The card in hand -------------------------------------------------------------------

def test_5_2_pip_cards_chain_automatically() -> None:
    state, events = play_events(position([FULL, OTHER], stock="Ac"), "stock")
    assert up_cards(state, 0)[:4] == ["Ac", "2h", "3h", None]
    assert event_names(events) == ["drew", "placed", "turned_up", "placed", "turned_up",
                                   "placed", "turned_up", "discarded", "turn_passed"]
    assert state.discard[-1].text == "Qh"
    assert state.to_act == 1


def test_5_2_natural_duplicate_ends_the_turn() -> None:
    state = play(position(["Ah " + FULL[5:], OTHER], stock="Ac"), "stock")
    assert state.discard[-1].text == "Ac"
    assert state.to_act == 1


def test_5_2_trash_card_ends_the_turn() -> None:
    state = play(position([FULL, OTHER], stock="Kc"), "stock")
    assert state.discard[-1].text == "Kc"
    assert state.to_act == 1


def test_5_2_wild_goes_on_any_face_down_slot_of_the_players_choice() -> None:
    board = "Ah (2h) (3h) 4c (5d) (6d) (7d) (8d) (9d) (Qd)"
    state = play(position([board, OTHER], stock="Jc"), "stock")
    assert state.phase is Phase.WILD
    assert legal_text(state) == ["wild 2", "wild 3", "wild 5", "wild 6", "wild 7", "wild 8",
                                 "wild 9", "wild 10", "trash"]
    state, events = play_events(state, "wild 10")
    assert up_cards(state, 0)[9] == "Jc"
    assert event_names(events)[:2] == ["placed", "turned_up"]
    assert state.discard[-1].text == "Qd"


def test_5_2_wild_never_goes_on_a_face_up_slot() -> None:
    state = play(position(["Ah " + FULL[5:], OTHER], stock="Jc"), "stock")
    with pytest.raises(IllegalActionError, match="slot 1 is face up"):
        play(state, "wild 1")


def test_5_2_wild_may_be_trashed() -> None:
    state = play(position([FULL, OTHER], stock="Jc"), "stock", "trash")
    assert state.discard[-1].text == "Jc"
    assert state.to_act == 1


def test_5_2_swap_is_optional() -> None:
    board = "Jd (2h) (3h) (4d) (5d) (6d) (7d) (8d) (9d) (Td)"
    state = play(position([board, OTHER], stock="Ac"), "stock")
    assert state.phase is Phase.SWAP
    assert legal_text(state) == ["swap", "trash"]
    trashed = play(state, "trash")
    assert up_cards(trashed, 0)[0] == "Jd"
    assert trashed.discard[-1].text == "Ac"
    swapped, events = play_events(state, "swap")
    assert up_cards(swapped, 0)[0] == "Ac"
    assert swapped.phase is Phase.WILD
    assert swapped.in_hand is not None
    assert swapped.in_hand.text == "Jd"
    assert event_names(events) == ["swapped"]


# §5.3 / §5.4 -----------------------------------------------------------------------------

def test_5_4_empty_stock_reshuffles_all_but_the_top_discard() -> None:
    state = play(position([FULL, OTHER], discard="Qs Kd 7h 3c"), "stock")
    assert state.phase is Phase.CHANCE
    assert state.due is Due.RESHUFFLE
    assert state.to_act is None
    assert view(state).stock_count == 0
    assert len(state.discard) == 4
    with pytest.raises(IllegalActionError, match="discard pile less its top card"):
        apply(state, Reshuffle(parse_cards("Qs Kd 3c")))
    state, events = apply(state, Reshuffle(parse_cards("Kd 7h Qs")))
    assert [c.text for c in state.discard] == ["3c", "Kd"]
    assert [c.text for c in state.stock] == ["7h", "Qs"]
    assert event_names(events)[:2] == ["reshuffled", "drew"]


def test_5_4_reshuffle_comes_from_the_injected_generator() -> None:
    state = play(position([FULL, OTHER], discard="Qs Kd 7h 3c 5c 6c"), "stock")
    first = sample_chance(state, random.Random(5))
    assert first == sample_chance(state, random.Random(5))
    assert isinstance(first, Reshuffle)
    assert sorted(first.cards) == sorted(parse_cards("Qs Kd 7h 3c 5c"))


def test_5_4_nothing_to_reshuffle_voids_the_round() -> None:
    state, events = play_events(position([FULL, OTHER], discard="Qs"), "stock")
    assert state.phase is Phase.ROUND_OVER
    assert state.round_winners == ()
    assert "round_void" in event_names(events)
    state = apply(state, sample_chance(state, random.Random(1)))[0]
    assert state.round == 2
    assert [b.size for b in state.boards] == [10, 10]


# §6 Winning a round ----------------------------------------------------------------------

def test_6_completion_wins_and_card_in_hand_is_discarded_even_if_it_could_swap() -> None:
    board = "(5c) 2h 3h 4h Jh 6h 7h 8h 9h Th"
    state, events = play_events(position([board, OTHER], stock="Ac"), "stock")
    assert state.phase is Phase.ROUND_OVER
    assert state.round_winners == (0,)
    assert state.rounds_won == (1, 0)
    assert state.discard[-1].text == "5c"
    assert up_cards(state, 0)[4] == "Jh"
    assert event_names(events)[-3:] == ["discarded", "completed", "round_won"]


def test_6_winners_board_shrinks_and_the_deal_passes_left() -> None:
    board = "(5c) 2h 3h 4h Jh 6h 7h 8h 9h Th"
    state = play(position([board, OTHER], stock="Ac"), "stock")
    dealer = state.dealer
    assert dealer is not None
    state = apply(state, sample_chance(state, random.Random(2)))[0]
    assert [b.size for b in state.boards] == [9, 10]
    assert state.dealer == (dealer + 1) % 2
    assert state.round == 2
    assert state.to_act == (dealer + 2) % 2


# §7 Winning the match --------------------------------------------------------------------

def test_7_reaching_rounds_to_win_wins_the_match() -> None:
    state = position(["(4c)", OTHER], stock="Jh", rounds_won=[9, 3])
    state = play(state, "stock")
    state, events = play_events(state, "wild 1")
    assert state.phase is Phase.MATCH_OVER
    assert state.match_winner == 0
    won = [e for e in events if isinstance(e, MatchWon)]
    assert won
    assert won[0].standings == (1, 2)
    with pytest.raises(IllegalActionError, match="match is over"):
        apply(state, Deck(Rules().match_cards(2)))
    with pytest.raises(IllegalActionError, match="match is over"):
        play(state, "stock")


def test_7_first_to_n_sets_rounds_to_win() -> None:
    assert Rules.preset_named("first-to-5").target_rounds == 5
    assert Rules.preset_named("first-to-1").target_rounds == 9


def test_7_standings_by_rounds_won_then_fewest_face_down_and_ties_share() -> None:
    state = position(["Ah (2h)", "(As) (2s) (3s)", "(Ad) (2d) (3d)", "Ac 2c (3c) 4c"],
                     rounds_won=[3, 1, 1, 1])
    state = state._replace(match_winner=0, phase=Phase.MATCH_OVER)
    assert standings(state) == (1, 3, 3, 2)


# §8 Hidden information -------------------------------------------------------------------

def test_8_face_down_cards_are_hidden_from_everyone_including_the_owner() -> None:
    state = start([FULL, OTHER], stock="Ac")
    for seat in (0, 1, None):
        v = view(state, seat)
        assert all(card is None for p in v.players for card in p.slots)
        assert not hasattr(v, "stock")
        assert v.stock_count == len(state.stock)



def test_8_after_a_reshuffle_the_stock_is_public_as_a_multiset_not_its_order() -> None:
    state = start([FULL, OTHER], stock="Ac")
    assert view(state).stock_known is None  # before a reshuffle: only the count
    state = play(position([FULL, OTHER], discard="Qs Kd 7h 3c 5c"), "stock")
    assert view(state).stock_known is None  # the reshuffle is due, not yet done
    one = apply(state, Reshuffle(parse_cards("Kd 7h Qs 3c")))[0]
    other = apply(state, Reshuffle(parse_cards("Kd Qs 3c 7h")))[0]
    assert one.stock != other.stock
    for seat in (0, 1, None):
        assert view(one, seat) == view(other, seat)  # the order stays hidden
        assert [c.text for c in view(one, seat).stock_known] == ["3c", "7h", "Qs"]
    over = one._replace(phase=Phase.ROUND_OVER, turn=None)  # the next deal ...
    dealt = apply(over, sample_chance(over, random.Random(0)))[0]
    assert view(dealt).stock_known is None  # ... makes the stock hidden again

# §9 Presets and variants -----------------------------------------------------------------

@pytest.mark.parametrize(("name", "fields"), [
    ("standard", {"wild_ranks": ("J",), "start_size": 10, "target_rounds": 10}),
    ("classic", {"wild_ranks": ("K",), "target_rounds": 1, "decks": None}),
    ("kings-wild", {"wild_ranks": ("K",), "target_rounds": 10}),
    ("all-faces-wild", {"wild_ranks": ("J", "Q", "K")}),
    ("jokers", {"jokers_per_deck": 2}),
    ("call-trash", {"call_trash": True}),
    ("kids", {"start_size": 5, "target_rounds": 5}),
    ("first-to-5", {"target_rounds": 5}),
    ("last-chance", {"last_chance": True}),
])
def test_9_presets(name: str, fields: dict[str, object]) -> None:
    rules = Rules.preset_named(name)
    for field, value in fields.items():
        assert getattr(rules, field) == value


def test_9_variants_combine_by_field() -> None:
    rules = Rules.preset_named("kings-wild").with_fields(
        {"jokers_per_deck": 2, "call_trash": True})
    assert rules.to_dict() == {"preset": "kings-wild", "jokers_per_deck": 2, "call_trash": True}
    assert Rules.from_dict(rules.to_dict()) == rules


def test_9_all_faces_wild_has_no_trash_cards() -> None:
    roles = Rules.preset_named("all-faces-wild").roles()
    assert TRASH not in roles.values()


CALL_RULES = Rules(call_trash=True)
ALMOST = "(5c) 2h 3h 4h 5h 6h 7h 8h 9h Th"


def test_9_call_is_legal_once_per_turn_in_every_decision() -> None:
    state = position([FULL, OTHER], stock="Jc Qc", rules=CALL_RULES)
    assert legal_text(state) == ["stock", "call"]
    state = play(state, "call")
    assert legal_text(state) == ["stock"]
    state = play(state, "stock")
    assert "call" not in legal_text(state)
    state = play(state, "trash")
    assert legal_text(state) == ["stock", "discard", "call"]


def test_9_call_trash_completion_with_a_call_wins_at_once() -> None:
    state = play(position([ALMOST, OTHER], stock="Ac", rules=CALL_RULES), "call", "stock")
    assert state.round_winners == (0,)


def test_9_call_trash_forgotten_call_costs_a_penalty_card_and_delays_the_claim() -> None:
    state = position([ALMOST, OTHER], stock="Ac 9s Kc", rules=CALL_RULES)
    state, events = play_events(state, "stock")
    assert state.phase is Phase.DRAW
    assert state.to_act == 1
    assert [c.text for c in state.discard] == ["5c", "9s"]
    assert any(isinstance(e, PenaltyDrawn) for e in events)
    assert state.unclaimed == (0,)
    state, events = play_events(state, "stock")  # seat 1 draws Kc: trash, turn passes
    assert [type(e) for e in events][-2:] == [Claimed, RoundWon]
    assert state.round_winners == (0,)


def test_9_call_trash_claim_is_lost_if_another_player_wins_first() -> None:
    other = "(As) 2s 3s 4s 5s 6s 7s 8s 9s Ts"
    state = position([ALMOST, other], stock="Ac 9s Ad", rules=CALL_RULES)
    state = play(state, "stock", "call", "stock")
    assert state.round_winners == (1,)
    assert state.rounds_won == (0, 1)


def test_9_call_trash_penalty_from_an_empty_stock_reshuffles() -> None:
    state = position([ALMOST, OTHER], stock="Ac", discard="Qs Kd 7h", rules=CALL_RULES)
    state = play(state, "stock")
    assert state.phase is Phase.CHANCE
    assert state.due is Due.PENALTY_RESHUFFLE
    state, events = apply(state, Reshuffle(parse_cards("Kd Qs 7h")))
    assert event_names(events)[:2] == ["reshuffled", "penalty_drawn"]
    assert [c.text for c in state.discard] == ["5c", "Kd"]
    assert state.to_act == 1


LAST = Rules(last_chance=True)


def test_9_last_chance_every_other_player_gets_one_more_turn() -> None:
    state = position([ALMOST, OTHER, OTHER], stock="Ac Kc Qc", rules=LAST)
    state = play(state, "stock")
    assert state.phase is Phase.DRAW
    assert state.to_act == 1
    assert state.round_winners == (0,)
    assert state.final_from == 0
    state = play(state, "stock")
    assert state.to_act == 2
    state = play(state, "stock")
    assert state.phase is Phase.ROUND_OVER
    assert state.round_winners == (0,)


def test_9_last_chance_all_who_complete_in_the_cycle_win_in_order() -> None:
    other = "(As) 2s 3s 4s 5s 6s 7s 8s 9s Ts"
    state = position([ALMOST, OTHER, other], stock="Ac Kc Ad", rules=LAST)
    state = play(state, "stock", "stock", "stock")
    assert state.phase is Phase.ROUND_OVER
    assert state.round_winners == (0, 2)
    assert state.rounds_won == (1, 0, 1)


def test_9_last_chance_a_match_winning_completion_ends_the_match_at_once() -> None:
    state = play(position(["(4c)", OTHER], stock="Ac", rules=LAST, rounds_won=[9, 0]), "stock")
    assert state.phase is Phase.MATCH_OVER
    assert state.match_winner == 0


def test_9_last_chance_with_call_trash_an_uncalled_completion_in_the_cycle_does_not_win() -> None:
    rules = Rules(last_chance=True, call_trash=True)
    other = "(As) 2s 3s 4s 5s 6s 7s 8s 9s Ts"
    state = position([ALMOST, other], stock="Ac Ad 9h", rules=rules)
    state = play(state, "call", "stock")
    assert state.final_from == 0
    state = play(state, "stock")  # seat 1 completes without calling: penalty, no claim
    assert state.phase is Phase.ROUND_OVER
    assert state.round_winners == (0,)
    assert state.rounds_won == (1, 0)


# §10 Actions -----------------------------------------------------------------------------

def test_10_actions_have_a_text_form_that_parses_back() -> None:
    for text in ("stock", "discard", "wild 7", "swap", "trash", "call"):
        assert str(parse_move(text)[1]) == text
    assert parse_move(" 1 :  WILD 3")[0] == 1


def test_10_out_of_turn_action_is_refused_with_the_reason() -> None:
    state = position([FULL, OTHER], stock="Ac")
    with pytest.raises(IllegalActionError, match="seat 0's turn, not seat 1's"):
        apply(state, parse_move("stock")[1], seat=1)


# §11 The Rules object --------------------------------------------------------------------

@pytest.mark.parametrize(("data", "field"), [
    ({"preset": "nope"}, "preset"),
    ({"colour": "red"}, "colour"),
    ({"start_size": 0}, "start_size"),
    ({"start_size": 11}, "start_size"),
    ({"wild_ranks": ["A"]}, "wild_ranks"),
    ({"wild_ranks": ["J", "J"]}, "wild_ranks"),
    ({"decks": 0}, "decks"),
    ({"jokers_per_deck": -1}, "jokers_per_deck"),
    ({"call_trash": "yes"}, "call_trash"),
    ({"start_size": 5, "rounds_to_win": 6}, "rounds_to_win"),
])
def test_11_bad_rules_are_refused_naming_the_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(RulesError) as info:
        Rules.from_dict(data)
    assert info.value.field == field
    assert str(info.value).startswith(field)


def test_11_rounds_to_win_follows_start_size() -> None:
    assert Rules(start_size=6).target_rounds == 6
    assert Rules.from_dict({"preset": "kids"}).target_rounds == 5


def test_5_4_a_stuck_round_ends_with_no_winner_instead_of_reshuffling_for_ever() -> None:
    # No wild rank, no Joker: every card off the boards is unplayable for both boards
    # (duplicates of face-up naturals, and Jacks, Queens and Kings are trash).
    rules = Rules(wild_ranks=())
    boards = ["Ah 2h 3h 4h 5h 6h 7h 8h 9h (Ts)", "Ac 2c 3c 4c 5c 6c 7c 8c 9c (Th)"]
    stuck = position(boards, discard="As 2s Jd Qd Kd", rules=rules)
    state, events = play_events(stuck, "stock")
    assert state.phase is Phase.ROUND_OVER
    assert state.round_winners == ()
    assert event_names(events) == ["round_void"]
    alive = position(boards, discard="As 2s Td Qd Kd", rules=rules)  # Td fits both boards
    assert play(alive, "stock").phase is Phase.CHANCE


@pytest.mark.parametrize(("name", "guess"), [
    ("kid", "kids"), ("joker", "jokers"), ("kings_wild", "kings-wild"), ("kings", None),
    ("garbage", None), ("first_to_5", None)])
def test_11_an_unknown_preset_is_refused_with_the_list_never_taken_for_another(
        name: str, guess: str | None) -> None:
    with pytest.raises(RulesError) as info:
        Rules.preset_named(name)
    text = str(info.value)
    assert f"unknown preset {name!r}" in text or "first-to-N" in text
    assert "the presets are standard, classic, kings-wild" in text
    assert (f"did you mean {guess}?" in text) == (guess is not None)


def test_11_preset_names_are_exact_but_not_case_sensitive() -> None:
    assert Rules.preset_named(" Kings-Wild ").preset == "kings-wild"
    assert Rules.preset_named("FIRST-TO-5").preset == "first-to-5"


@pytest.mark.parametrize(("data", "label"), [
    ({"preset": "standard", "rounds_to_win": 10}, "standard: "),
    ({"preset": "kids", "rounds_to_win": 5}, "kids: "),
    ({"preset": "kids", "start_size": 10, "rounds_to_win": 10}, "kids (changed: start_size): "),
    ({"preset": "standard", "rounds_to_win": 9}, "standard (changed: rounds_to_win): "),
    ({"preset": "classic", "rounds_to_win": 10}, "classic (changed: rounds_to_win): "),
])
def test_11_a_setting_equal_to_what_the_preset_means_is_not_a_change(
        data: dict[str, object], label: str) -> None:
    assert Rules.from_dict(data).describe().startswith(label)
