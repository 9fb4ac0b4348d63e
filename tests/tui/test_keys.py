"""Keys to actions: one key per decision, only what ``view.legal`` allows."""

from __future__ import annotations

import pytest

from trashcards.actions import CALL, DISCARD, STOCK, SWAP, TRASH, wild
from trashcards.tui.keys import Command, InputError, action_key, parse_key

DRAW = (STOCK, DISCARD)
WILD_PHASE = (wild(2), wild(4), wild(10), TRASH, CALL)


@pytest.mark.parametrize(("text", "legal", "expected"), [
    ("s", DRAW, STOCK),
    ("S", DRAW, STOCK),
    ("stock", DRAW, STOCK),
    (" d ", DRAW, DISCARD),
    ("4", WILD_PHASE, wild(4)),
    ("0", WILD_PHASE, wild(10)),
    ("10", WILD_PHASE, wild(10)),
    ("wild 2", WILD_PHASE, wild(2)),
    ("t", WILD_PHASE, TRASH),
    ("c", WILD_PHASE, CALL),
    ("w", (SWAP, TRASH), SWAP),
    ("q", DRAW, Command.QUIT),
    ("quit", WILD_PHASE, Command.QUIT),
    ("?", DRAW, Command.HELP),
])
def test_a_key_chooses_a_legal_action(text, legal, expected):
    assert parse_key(text, legal) == expected


def test_every_action_has_the_key_that_parses_back_to_it():
    for action in (STOCK, DISCARD, SWAP, TRASH, CALL, *(wild(k) for k in range(1, 11))):
        assert parse_key(action_key(action), (action,)) == action


def test_an_unknown_key_names_the_keys_that_work():
    with pytest.raises(InputError, match=r"'x' is not a key here: s, d, q"):
        parse_key("x", DRAW)


def test_a_known_key_that_is_not_legal_now_is_refused():
    with pytest.raises(InputError, match="discard is not possible now: s, q"):
        parse_key("d", (STOCK,))


def test_a_wild_on_a_face_up_slot_lists_the_face_down_slots():
    with pytest.raises(InputError, match=r"slot 3 is not a face-down slot.*choose 2 4 0"):
        parse_key("3", WILD_PHASE)


def test_a_digit_without_a_wild_in_hand_is_refused():
    with pytest.raises(InputError, match="no wild card to place now"):
        parse_key("7", DRAW)


@pytest.mark.parametrize("text", ["", "   ", "s d", "11", "wild", "stock please"])
def test_empty_or_several_words_are_refused(text):
    with pytest.raises(InputError):
        parse_key(text, DRAW)
