"""The lobby, the party page and the table page's edges (issue 8): names refused in the
reader's language, "Your tables" with each table's game, players and status, parties of
five at two tables with a final, a table that does not exist, the spectator link that
copies, and the record's file name."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import scenes
from browserkit import create_table, wait_for_turn_or_end
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def lobby(page: Any, server: str, name: str = "") -> None:
    page.goto(server + "/")
    page.wait_for_selector("#seat-rows li")
    page.fill("#my-name", name)


@pytest.mark.parametrize(("lang", "bad", "message"), [
    ("en", "An\u202ena", "cannot hold control, line-break or text-direction characters"),
    ("en", "bot:greedy", "are for the computer's seats"),
    ("es", "Ana\u0007", "no puede contener caracteres de control"),
])
def test_a_name_the_server_would_refuse_is_refused_in_the_readers_language(
        new_context: Any, server: str, lang: str, bad: str, message: str) -> None:
    page = new_context(locale=lang).new_page()
    lobby(page, server, bad)
    page.click("#create-submit")
    expect(page.locator("#create-error")).to_contain_text(message)
    assert "/t/" not in page.url


def test_two_seats_with_one_name_are_refused(page: Any, server: str) -> None:
    lobby(page, server, "Ana")
    page.select_option("#seat-rows li:nth-child(2) .seat-kind", "hotseat")
    page.fill("#seat-rows li:nth-child(2) .seat-name", "ana")
    page.click("#create-submit")
    expect(page.locator("#create-error")).to_contain_text("cannot have the same name")


def test_joining_an_open_table_with_no_name_says_why(page: Any, server: str) -> None:
    scenes.create(server, [{"kind": "me", "name": "Host"}, {"kind": "open"}])
    lobby(page, server, "")
    page.locator("#open-list button").first.click()
    expect(page.locator("#open-error")).to_contain_text("Type your name")
    assert page.url.rstrip("/") == server


def test_your_tables_tell_the_game_the_players_and_whose_turn_and_rejoin(
        page: Any, server: str) -> None:
    create_table(page, server, name="Ana")
    assert wait_for_turn_or_end(page) == "act"
    table_url = page.url
    page.goto(server + "/")
    item = page.locator("#mine-list li.mine-item").first
    expect(item).to_contain_text("Standard · you, Computer (good) · round 1: your turn")
    item.locator("a.button").click()
    page.wait_for_url(table_url)
    page.wait_for_function("document.body.dataset.acting === '0'")


def test_a_party_of_five_plays_at_two_tables_and_its_winners_meet_at_the_final(
        new_context: Any, server: str) -> None:
    page = new_context().new_page()
    lobby(page, server, "Ana")
    page.select_option("#preset", "kids")
    page.select_option("#start-size", "1")  # one slot: each match is over in a few turns
    for _ in range(3):
        page.click("#add-seat")
    expect(page.locator("#party-note")).to_have_text(
        "5 players: two tables of 3 and 2, each its own match.")
    expect(page.locator("#create-submit")).to_have_text("Create the party")
    page.click("#create-submit")
    page.wait_for_url("**/p/**")
    party_id = page.url.rsplit("/", 1)[1]
    # Two tables (and the final at once, if the computers win Ana's one-slot match
    # before her first turn).
    expect(page.locator(".party-table[data-table]").nth(1)).to_be_visible()
    info = httpx.get(f"{server}/api/parties/{party_id}", timeout=20).json()
    assert sorted(table["players"] for table in info["tables"]) == [2, 3]
    mine = page.locator(".party-table:has(a.button.primary)").first
    expect(mine).to_contain_text("Ana (you)")

    # Ana plays her table to its end; the other table is the server's bots.
    mine.locator("a.button.primary").click()
    page.wait_for_url("**/t/**")
    table_id = page.url.rsplit("/", 1)[1]
    tokens = {s["seat"]: s["token"] for s in page.evaluate(
        "(id) => JSON.parse(localStorage.getItem('trash.table.' + id)).seats", table_id)}
    player = scenes.Player(server, table_id, tokens)
    try:
        player.play_until(lambda s: s["phase"] == "match_over")
    finally:
        player.close()
    winner = httpx.get(f"{server}/api/tables/{table_id}", timeout=20).json()[
        "progress"]["match_winner"]
    page.goto(f"{server}/p/{party_id}")
    final = page.locator(".party-table[data-table]").nth(2)
    expect(final).to_contain_text("Final table")
    if winner in tokens:  # Ana won her table: the page hands her the final's seat
        expect(page.locator("#party-status")).to_have_text("The final table is playing.")
        expect(final.locator("a.button.primary")).to_have_text("Play at this table")
        final.locator("a.button.primary").click()
        page.wait_for_function("document.body.dataset.seats === '0'")
    else:  # two computers play the final by themselves
        expect(page.locator("#party-status")).to_contain_text("wins the party!")
        expect(final.locator("a.button.primary")).to_have_count(0)

    # A spectator of the party sees the three tables and only "Watch".
    watcher = new_context().new_page()
    watcher.goto(f"{server}/p/{party_id}?watch=1")
    expect(watcher.locator(".party-table[data-table]")).to_have_count(3)
    expect(watcher.locator(".party-table a.button.primary")).to_have_count(0)


def test_a_table_that_does_not_exist_gets_one_message_and_the_way_back(
        page: Any, server: str) -> None:
    page.goto(server + "/t/no-such-table")
    gone = page.locator("#gone")
    expect(gone).to_be_visible()
    expect(page.locator("#gone-title")).to_have_text("This table does not exist")
    expect(page.locator("#status")).to_be_hidden()
    expect(page.locator("#error")).to_be_hidden()
    gone.locator("a.button").click()
    page.wait_for_url(server + "/")


def test_the_spectator_link_copies_and_the_record_has_the_servers_file_name(
        new_context: Any, server: str) -> None:
    context = new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    create_table(page, server, name="Ana")
    assert wait_for_turn_or_end(page) == "act"
    table_url = page.url
    page.click("#watch-open")
    expect(page.locator("#watch-text")).to_have_text("Link copied")
    assert page.url == table_url, "the player's own tab stays the player's"
    assert page.evaluate("navigator.clipboard.readText()") == table_url + "?watch=1"
    table_id = table_url.rsplit("/", 1)[1]
    answer = httpx.get(f"{server}/api/tables/{table_id}/record", timeout=20)
    sent = answer.headers["content-disposition"].split("filename=")[1].strip('"')
    assert page.get_attribute("#download", "download") == sent
    with page.expect_download() as download:
        page.click("#download")
    assert download.value.suggested_filename == sent
