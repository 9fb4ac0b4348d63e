"""Rendering a view: boards as two rows of five, backs, wild marks, the table and menus."""

from __future__ import annotations

import random

from trashcards import apply
from trashcards.actions import STOCK, SWAP, TRASH, parse_action
from trashcards.bots import make_bot
from trashcards.cards import parse_card
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.tui.render import (
    BACK,
    board_text,
    card_text,
    menu_text,
    scoreboard,
    standings_table,
    table_view,
)
from trashcards.views import PlayerView
from trashcards.views import view as view_of

from .helpers import output, recording_console
from support import start

STANDARD = Rules()
KINGS = Rules.preset_named("kings-wild")


def render(renderable, width: int = 100) -> str:
    console = recording_console(width)
    console.print(renderable)
    return output(console)


def board(slots: str, size: int | None = None) -> PlayerView:
    cards = tuple(None if word == "-" else parse_card(word) for word in slots.split())
    return PlayerView("Ana", 0, size or len(cards), cards)


def test_a_board_of_ten_is_two_rows_of_five_under_their_slot_numbers():
    text = render(board_text(board("Ah - 3c - Jh 6d - - 9s Kc"), STANDARD))
    lines = text.splitlines()
    assert lines[0].split() == ["1", "2", "3", "4", "5"]
    assert lines[1].split() == ["A♥", BACK, "3♣", BACK, "J♥*"]
    assert lines[2].split() == ["6", "7", "8", "9", "10"]
    assert lines[3].split() == ["6♦", BACK, BACK, "9♠", "K♣"]
    assert len(lines) == 4


def test_the_wild_mark_follows_the_rules_not_the_rank():
    slots = "Jh Kc - - -"
    assert board_text(board(slots, 5), STANDARD).plain.splitlines()[1].split() == [
        "J♥*", "K♣", BACK, BACK, BACK]
    assert board_text(board(slots, 5), KINGS).plain.splitlines()[1].split() == [
        "J♥", "K♣*", BACK, BACK, BACK]


def test_a_shrunk_board_shows_only_its_slots():
    lines = render(board_text(board("- - 3h - - 6s -"), STANDARD)).splitlines()
    assert lines[2].split() == ["6", "7"]
    assert lines[3].split() == ["6♠", BACK]


def test_a_joker_is_always_wild_and_red_suits_are_red():
    assert card_text(parse_card("X1"), STANDARD, on_board=True).plain == "🃏*"
    assert card_text(parse_card("X2"), STANDARD).plain == "🃏"
    assert card_text(parse_card("7h"), STANDARD).style == "red"
    assert card_text(None, STANDARD).plain == BACK


def new_match(preset: str = "standard", seed: int = 1) -> Match:
    match = Match(Rules.preset_named(preset), ["Ana", "Bo"], random.Random(seed))
    match.advance()
    return match


def test_the_table_shows_round_stock_discard_turn_and_every_board():
    match = new_match()
    seat = match.view(None).to_act
    text = render(table_view(match.view(seat)))
    assert "Round 1 · stock 32 cards · discard empty" in text
    assert "standard: J wild, boards of 10, first to 10 rounds" in text
    assert text.count("◀ to act") == 1
    assert text.count("(you)") == 1
    assert "Ana — rounds won 0 of 10 · board 10 · 10 face down" in text
    assert "Bo — rounds won 0 of 10 · board 10 · 10 face down" in text
    assert text.count(BACK) == 20


def test_the_table_after_a_move_shows_the_top_discard_and_the_pile_size():
    match = new_match()
    first = match.view(None).to_act
    match.play(STOCK, first)
    while match.view(None).to_act == first:  # finish the turn: place any wild on slot 1…
        view = match.view(first)
        match.play(view.legal[0], first)
    view = match.view(None)
    text = render(table_view(view))
    top = view.top_discard
    assert top is not None
    assert f"discard {top.pretty()} (pile of 1 card)" in text
    assert text.count(BACK) == sum(p.face_down for p in view.players)


def test_the_menu_lists_the_legal_actions_with_their_keys():
    view = new_match().view(None)
    assert view.legal == (STOCK,)
    assert render(menu_text(view)).splitlines() == [
        "[s] draw from the stock", "[h] hint  [o] chances  [q] quit (saves)  [?] help"]


def test_the_menu_groups_the_wild_slots_and_names_the_swap():
    # Ana draws J♥, puts it on slot 7 and turns up J♠; that goes on slot 2 and turns up
    # 7♥, which may swap out the J♥ on slot 7.
    state = start(["Ad 7h 3h 4h 5h 6h Js 8h 9h Th", "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc"],
                  stock="Jh", names=["Ana", "Bo"])
    state, _ = apply(state, STOCK)
    wild_menu = render(menu_text(view_of(state, 0)))
    assert "[1 2 3 4 5 6 7 8 9 0] put J♥ on that face-down slot (0 = slot 10)" in wild_menu
    assert "[t] trash J♥: discard it, end the turn" in wild_menu
    state, _ = apply(state, parse_action("wild 7"))
    assert "[1 2 3 4 5 6 8 9 0] put J♠ on that face-down slot" in render(
        menu_text(view_of(state, 0)))
    state, _ = apply(state, parse_action("wild 2"))
    current = view_of(state, 0)
    assert current.legal == (SWAP, TRASH)
    assert "[w] swap: 7♥ takes slot 7, the wild J♥ comes back to hand" in render(
        menu_text(current))
    assert "Your turn — in hand: 7♥" in render(table_view(current))
    assert "Ana to act — in hand: 7♥" in render(table_view(view_of(state, None)))


def test_scoreboard_and_standings():
    match = Match(Rules.preset_named("kids").with_fields({"rounds_to_win": 1}),
                  ["Ana", "Bo"], random.Random(4))
    match.advance()
    bots = [make_bot("greedy", random.Random(0)), make_bot("greedy", random.Random(1))]
    while not match.over:
        seat = match.view(None).to_act
        match.play(bots[seat].choose(match.view(seat)), seat)
        match.advance()
    view = match.view(None)
    winner = view.match_winner
    assert winner is not None
    standings = render(standings_table(view))
    rows = [line for line in standings.splitlines() if "Ana" in line or "Bo" in line]
    assert view.players[winner].name in rows[0]
    assert rows[0].split("│")[1].strip() == "1"
    board = render(scoreboard(view))
    assert "+1" in board
    assert "next board" in board
