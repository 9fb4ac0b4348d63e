"""A person plays Trash in a real browser against a real ``trashcards serve``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    ServerProcess,
    click_and_wait,
    create_table,
    next_round,
    play_until_round_over,
    press_and_wait,
    screen,
    take_one_decision,
    wait_for_turn_or_end,
)
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_a_person_creates_a_table_against_a_bot_and_plays_a_round_by_clicking(
        page: Any, server: str) -> None:
    create_table(page, server, name="Ana", seats=[("me", None), ("bot", "greedy")])
    page.wait_for_selector("#game:not([hidden])")
    assert page.locator(".board").count() == 2
    assert page.locator(".board.big .board-name").inner_text() == "Ana (you)"
    assert page.locator(".board.big .slot:not(.gone)").count() == 10

    decisions = play_until_round_over(page)

    assert decisions > 0
    result = page.locator("#result")
    result.wait_for(state="visible")
    assert re.search(r"won round 1!", page.inner_text("#result-title"))
    assert page.locator("#log-list li").count() > decisions
    # The round's winner has a complete board: no face-down slot left.
    winner = page.locator(".board:has(.fact.winner)")
    assert winner.count() == 1
    assert winner.locator(".slot:not(.gone) .card.back").count() == 0
    # Next round deals again, with the winner's board one slot smaller.
    page.click("#next-round")
    page.wait_for_function("document.body.dataset.phase === 'draw'")
    sizes = page.locator(".board .fact.size").all_inner_texts()
    assert sorted(sizes) == ["board of 10", "board of 9"]


def test_keyboard_plays_and_the_help_overlay_lists_the_keys(page: Any, server: str) -> None:
    create_table(page, server)
    assert wait_for_turn_or_end(page) == "act"
    page.keyboard.press("?")
    help_dialog = page.locator("#help-dialog")
    help_dialog.wait_for(state="visible")
    assert "Draw from the stock" in help_dialog.inner_text()
    page.keyboard.press("Escape")
    help_dialog.wait_for(state="hidden")
    assert page.evaluate("document.body.dataset.phase") == "draw"
    press_and_wait(page, "s")
    # Your own moves are told to you in the second person.
    expect(page.locator("#log-list")).to_contain_text("You draw")


def test_two_browsers_play_each_other(new_context: Any, server: str) -> None:
    ana = new_context().new_page()
    create_table(ana, server, name="Ana", seats=[("me", None), ("open", None)])
    ana.wait_for_selector("#waiting:not([hidden])")
    invite = ana.input_value("#invite-link")
    assert "/t/" in invite

    bo = new_context().new_page()
    bo.goto(invite)
    bo.wait_for_selector("#join-form:not([hidden])")
    bo.fill("#join-name", "Bo")
    bo.click("#join-form button[type=submit]")

    for tab in (ana, bo):
        tab.wait_for_selector("#game:not([hidden])")
    assert ana.locator(".board.big .board-name").inner_text() == "Ana (you)"
    assert bo.locator(".board.big .board-name").inner_text() == "Bo (you)"

    # A spectator sees the same table and can do nothing.
    spectator = new_context().new_page()
    spectator.goto(invite + "?watch=1")
    spectator.wait_for_selector("#game:not([hidden])")
    assert "You are watching" in spectator.inner_text("#info")

    for _ in range(400):
        states = {name: wait_for_any(tab) for name, tab in (("ana", ana), ("bo", bo))}
        if all(state in ("round_over", "match_over") for state in states.values()):
            break
        for tab, state in ((ana, states["ana"]), (bo, states["bo"])):
            if state == "act":
                take_one_decision(tab)
    else:
        raise AssertionError("the round did not end")
    assert ana.inner_text("#result-title") == bo.inner_text("#result-title")
    spectator.wait_for_function("document.body.dataset.phase === 'round_over'")
    assert spectator.locator("#game .legal").count() == 0
    assert spectator.locator("#next-round").is_hidden()


def wait_for_any(tab: Any) -> str:
    """This tab's situation without waiting for its own turn: "act", "wait" or the phase
    at the end of a round."""
    tab.wait_for_function("document.body.dataset.busy === '0'")
    phase = tab.evaluate("document.body.dataset.phase")
    if phase in ("round_over", "match_over"):
        return str(phase)
    return "act" if tab.evaluate("document.body.dataset.acting") != "" else "wait"


def test_reloading_in_the_middle_of_a_decision_brings_back_the_same_screen(
        page: Any, server: str) -> None:
    create_table(page, server)
    # Play until a real choice is on screen: a wild to place or a swap to take.
    for _ in range(300):
        state = wait_for_turn_or_end(page)
        if state == "round_over":
            next_round(page)
            continue
        assert state == "act"
        if page.evaluate("document.body.dataset.phase") in ("wild", "swap"):
            break
        click_and_wait(page, page.locator("button.pile.stock.legal"))
    before = screen(page)
    assert before["phase"] in ("wild", "swap"), before
    assert before["legal"], "a decision shows its legal actions"

    page.reload()
    page.wait_for_function("(v) => document.body.dataset.version === v",
                           arg=before["version"])
    page.wait_for_selector("#game .legal")
    assert screen(page) == before


def test_hot_seat_shows_a_pass_screen_between_the_players(page: Any, server: str) -> None:
    create_table(page, server, name="Ana", seats=[("me", None), ("hotseat", "Bo")])
    seen: set[str] = set()
    trail: list[str] = []  # what the page showed, for the failure message
    for _ in range(200):
        state = wait_for_turn_or_end(page)
        trail.append(state)
        if state == "round_over":  # some deals end in the first turn: deal again
            next_round(page)
            continue
        if state == "pass":
            title = page.inner_text("#pass-title")
            assert re.fullmatch(r"Pass the device to (Ana|Bo)", title)
            # The previous player's decision is hidden behind the screen.
            assert page.locator("#game .legal").count() == 0
            assert page.evaluate("document.getElementById('game').inert") is True
            page.click("#pass-button")
            page.wait_for_function("document.body.dataset.pass === '0'")
            acting = page.evaluate("document.body.dataset.acting")
            big = page.locator(".board.big").get_attribute("data-seat")
            assert acting == big, "the player whose turn it is sees their board largest"
            seen.add(title)
            trail.append(title)
            if len(seen) == 2:
                break
            continue
        if state != "act":
            break
        take_one_decision(page)
    assert seen == {"Pass the device to Ana", "Pass the device to Bo"}, trail


def test_a_one_round_match_ends_with_standings_a_record_and_play_again(
        page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("#seat-rows li")
    page.select_option("#preset", "classic")
    assert page.input_value("#rounds") == "1"
    assert page.input_value("#wilds") == "K"
    create_table(page, server, name="Ana", preset="classic")
    expect(page.locator("#info")).to_contain_text("Classic")

    play_until_round_over(page)
    page.wait_for_function("document.body.dataset.phase === 'match_over'")
    assert page.inner_text("#result-title").endswith("wins the match!")
    rows = page.locator("#standings-body tr")
    assert rows.count() == 2
    assert rows.first.locator("td").first.inner_text() == "1."
    assert page.locator("#next-round").is_hidden()

    record = page.request.get(server + page.get_attribute("#download", "href")).json()
    assert record["format"] == "trash/1"
    assert record["rules"]["preset"] == "classic"
    assert record["players"][0] == "Ana"

    old = page.url
    page.click("#play-again")
    page.wait_for_function("(u) => location.href !== u", arg=old)
    page.wait_for_selector("#game:not([hidden])")
    assert wait_for_turn_or_end(page) in ("act", "round_over", "match_over")
    assert page.locator(".board.big .board-name").inner_text() == "Ana (you)"


def test_the_page_reconnects_by_itself_after_the_server_is_killed_and_restarted(
        new_context: Any, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "tables.sqlite3")
    base = server.start()
    try:
        page = new_context().new_page()
        create_table(page, base)
        assert wait_for_turn_or_end(page) == "act"
        before = screen(page)

        server.kill()
        page.wait_for_function("document.getElementById('conn').dataset.online === '0'")
        # Offline, nothing is offered: a click could not reach the server.
        assert page.locator("#game .legal").count() == 0
        server.start()
        page.wait_for_function("document.getElementById('conn').dataset.online === '1'")
        page.wait_for_function("document.body.dataset.acting !== ''")
        assert screen(page) == before
        take_one_decision(page)  # the game goes on where it was
    finally:
        server.stop()


def test_call_trash_is_offered_in_that_variant_and_the_c_key_calls(
        page: Any, server: str) -> None:
    create_table(page, server, preset="call-trash")
    assert wait_for_turn_or_end(page) == "act"
    call = page.locator("button.action-call")
    expect(call).to_be_visible()
    press_and_wait(page, "c")
    expect(page.locator("#log-list")).to_contain_text("You call “Trash!”")
    expect(call).to_have_count(0)  # once per turn
