"""Seats: people and bots, and a bot's seat named ``bot:KIND`` so a record remembers it."""

from __future__ import annotations

import pytest

from trashcards.ai.levels import LEVELS
from trashcards.tui.seats import Seat, SeatError, level_bots, make_seats, seats_from_names


def test_people_first_then_one_seat_per_bot_with_numbered_copies():
    seats = make_seats(["Ana"], ["greedy", "Counter", "greedy"])
    assert seats == (Seat("Ana"), Seat("bot:greedy", "greedy"), Seat("bot:counter", "counter"),
                     Seat("bot:greedy:2", "greedy"))


def test_the_names_in_a_record_give_the_seats_back():
    seats = make_seats(["Ana", "Bo"], ["kid"])
    assert seats_from_names([s.name for s in seats]) == seats


@pytest.mark.parametrize(("humans", "bots", "message"), [
    (["Ana"], ["nobody"], "unknown bot 'nobody'"),
    (["bot:greedy"], ["greedy"], "are for bots"),
    (["Ana", "ana"], [], "different name"),
    (["Ana"], [], "2 to 4 players, got 1"),
    (["A", "B", "C"], ["kid", "kid"], "got 5 (5 or more people: make two tables)"),
    ([" "], ["kid"], "cannot be empty"),
])
def test_a_table_that_cannot_be_made_says_why(humans, bots, message):
    with pytest.raises(SeatError, match=message.replace("(", r"\(").replace(")", r"\)")):
        make_seats(humans, bots)


def test_a_record_of_bots_only_is_watched_but_a_new_table_needs_a_person():
    assert seats_from_names(["bot:greedy", "bot:greedy:2"]) == (
        Seat("bot:greedy", "greedy"), Seat("bot:greedy:2", "greedy"))
    with pytest.raises(SeatError, match="nobody to play"):
        make_seats([], ["greedy", "kid"])


@pytest.mark.parametrize("name", ["Ana", "bot:wizard", "bot:greedy:x", "bot:greedy:2:3",
                                  "bot:greedy:²"])
def test_an_unknown_bot_name_in_a_record_is_refused(name):
    if name == "Ana":
        assert seats_from_names([name, "bot:kid"])[0].human
        return
    with pytest.raises(SeatError, match="the bots are"):
        seats_from_names(["Ana", name])


@pytest.mark.parametrize(("name", "message"), [
    ("A\udcff", "cannot hold the character \\\\udcff"),
    ("A\x1b[31m", "cannot hold the character \\\\x1b"),
    ("Ana\u202e", "cannot hold the character \\\\u202e"),
    ("x" * 25, "at most 24 characters"),
])
def test_a_persons_name_goes_through_the_one_name_check(name, message):
    with pytest.raises(SeatError, match=message) as caught:
        make_seats([name], ["kid"])
    assert str(caught.value).isprintable()


def test_levels_name_their_bots_and_an_unknown_level_lists_the_ladder():
    assert level_bots(["beginner", " Casual ", "good", "expert"]) == [
        "sometimes", "kid", "greedy", "expert"]
    with pytest.raises(SeatError, match="unknown level 'master'; the levels are beginner, "
                                        "casual, good, expert"):
        level_bots(["good", "master"])


def test_a_level_s_seat_is_labelled_with_its_level_and_elo_and_other_seats_are_not():
    good = next(level for level in LEVELS if level.name == "good")
    seat = Seat("bot:greedy:2", "greedy")
    assert seat.level == good
    assert seat.label == f"bot:greedy:2 (good, Elo {good.elo:.0f})"
    assert Seat("bot:counter", "counter").level is None  # off the ladder: for the lab
    assert Seat("bot:counter", "counter").label == "bot:counter"
    assert Seat("Ana").label == "Ana"
