"""Keys to actions: one key per decision, only what ``view.legal`` allows, and a refused
key says why."""

from __future__ import annotations

import pytest

from trashcards import apply
from trashcards.actions import CALL, DISCARD, STOCK, SWAP, TRASH, parse_action, wild
from trashcards.cards import parse_card
from trashcards.rules import Rules
from trashcards.state import Phase, PlayerView
from trashcards.tui.keys import Command, InputError, action_key, parse_key
from trashcards.views import View
from trashcards.views import view as view_of

from support import start

BOARDS = ["Ad 7h 3h 4h 5h 6h Js 8h 9h Th", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc"]


def draw_view() -> View:
    """Ana to draw; the discard pile is empty."""
    return view_of(start(BOARDS, stock="Jh", names=["Ana", "Bo"]), 0)


def wild_views() -> tuple[View, View, View]:
    """Ana holds J♥ (every slot face down); then J♠ (slot 7 up); then 7♥ to swap."""
    state = start(BOARDS, stock="Jh", names=["Ana", "Bo"])
    state, _ = apply(state, STOCK)
    first = view_of(state, 0)
    state, _ = apply(state, parse_action("wild 7"))
    second = view_of(state, 0)
    state, _ = apply(state, parse_action("wild 2"))
    return first, second, view_of(state, 0)


def with_legal(view: View, legal: tuple) -> View:
    return view._replace(legal=legal)


@pytest.mark.parametrize(("text", "expected"), [
    ("s", STOCK), ("S", STOCK), ("stock", STOCK), (" s ", STOCK),
    ("q", Command.QUIT), ("?", Command.HELP), ("help", Command.HELP),
    ("h", Command.HINT), ("hint", Command.HINT), ("o", Command.CHANCES),
    ("chances", Command.CHANCES),
])
def test_a_key_chooses_a_legal_action_when_drawing(text, expected):
    assert parse_key(text, draw_view()) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("4", wild(4)), ("0", wild(10)), ("10", wild(10)), ("wild 2", wild(2)), ("t", TRASH),
    ("quit", Command.QUIT),
])
def test_a_key_places_the_wild(text, expected):
    assert parse_key(text, wild_views()[0]) == expected


def test_w_swaps_and_c_calls():
    *_, swap = wild_views()
    assert parse_key("w", swap) == SWAP
    called = with_legal(swap, (SWAP, TRASH, CALL))
    assert parse_key("c", called) == CALL


def test_every_action_has_the_key_that_parses_back_to_it():
    base = draw_view()
    for action in (STOCK, DISCARD, SWAP, TRASH, CALL, *(wild(k) for k in range(1, 11))):
        assert parse_key(action_key(action), with_legal(base, (action,))) == action


def test_an_unknown_key_names_the_keys_that_work():
    with pytest.raises(InputError, match=r"'x' is not a key here: s, q"):
        parse_key("x", draw_view())


def test_an_arrow_or_function_key_is_refused_without_echoing_its_escape_code():
    for raw in ("\x1b[A", "\x1bOP", "\x1b"):
        with pytest.raises(InputError) as caught:
            parse_key(raw, draw_view())
        assert "\x1b" not in str(caught.value)
        assert "\\x1b" not in str(caught.value)
        assert str(caught.value).startswith("that key is not used here: s, q")


def test_the_discard_refused_when_the_pile_is_empty():
    with pytest.raises(InputError, match="the discard pile is empty: s, q"):
        parse_key("d", draw_view())


def test_a_top_discard_that_does_not_fit_says_which_slot_holds_what():
    base = draw_view()
    ana = base.players[0]
    board = (None, None, None, None, None, None, None, None, parse_card("9d"), None)
    view = base._replace(discard=(parse_card("9c"),),
                         players=(PlayerView("Ana", 0, 10, board), base.players[1]))
    with pytest.raises(InputError, match="the top discard 9♣ does not fit your board: "
                                         "slot 9 already holds 9♦: s, q"):
        parse_key("d", view)
    small = base._replace(discard=(parse_card("8c"),),
                          players=(PlayerView("Ana", 5, 5, ana.slots[:5]), base.players[1]))
    with pytest.raises(InputError, match="it has no slot 8"):
        parse_key("d", small)
    trash = base._replace(discard=(parse_card("Qs"),))
    with pytest.raises(InputError, match="the top discard Q♠ is a trash card"):
        parse_key("d", trash)


def test_a_wild_on_a_face_up_slot_or_off_the_board_is_refused():
    _, second, _ = wild_views()
    with pytest.raises(InputError, match=r"slot 7 is already face up: 1, 2, 3, 4, 5, 6, 8, "
                                         r"9, 0, t, q"):
        parse_key("7", second)


def test_drawing_again_with_a_card_in_hand_is_refused():
    first, *_ = wild_views()
    with pytest.raises(InputError, match="you already hold J♥: play it first"):
        parse_key("s", first)
    with pytest.raises(InputError, match="J♥ is a wild: put it on a face-down slot"):
        parse_key("w", first)


def test_a_digit_before_drawing_and_a_non_wild_on_a_slot_are_refused():
    with pytest.raises(InputError, match="draw a card first: s, q"):
        parse_key("7", draw_view())
    *_, swap = wild_views()
    with pytest.raises(InputError, match="7♥ is not a wild"):
        parse_key("3", swap)


def test_a_card_from_the_discard_pile_cannot_be_trashed():
    first, *_ = wild_views()
    must = first._replace(must_play=True, legal=tuple(a for a in first.legal if a != TRASH))
    with pytest.raises(InputError, match="J♥ came from the discard pile, so it must be played"):
        parse_key("t", must)


def test_calling_without_the_rule_says_so():
    with pytest.raises(InputError, match='calling "Trash!" is not in these rules'):
        parse_key("c", draw_view())
    called = draw_view()._replace(rules=Rules(call_trash=True), called=True)
    with pytest.raises(InputError, match='you already called "Trash!" this turn'):
        parse_key("c", called)


def test_a_joker_in_hand_is_named_joker_never_x1():
    first, *_ = wild_views()
    joker = first._replace(in_hand=parse_card("X1"), phase=Phase.WILD)
    with pytest.raises(InputError, match="you already hold Joker: play it first"):
        parse_key("s", joker)


@pytest.mark.parametrize("text", ["", "   ", "s d", "11", "wild", "stock please"])
def test_empty_or_several_words_are_refused(text):
    with pytest.raises(InputError):
        parse_key(text, draw_view())
