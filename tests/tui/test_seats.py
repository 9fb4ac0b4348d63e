"""Seats: people and bots, and a bot's seat named ``bot:KIND`` so a record remembers it."""

from __future__ import annotations

import pytest

from trashcards.tui.seats import Seat, SeatError, make_seats, seats_from_names


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


def test_a_record_of_bots_only_or_an_unknown_bot_cannot_be_played():
    with pytest.raises(SeatError, match="nobody to play"):
        seats_from_names(["bot:greedy", "bot:kid"])
    with pytest.raises(SeatError, match="the bots are"):
        seats_from_names(["Ana", "bot:wizard"])
