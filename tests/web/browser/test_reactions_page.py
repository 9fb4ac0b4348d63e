"""Reactions at an online table in the browser (issue 31, item 6): a player clicks an
emote; the other player (in Dutch) and a spectator see it beside the sender's board in
their own language and hear it in the live region; a second click within the interval
sends nothing; a table whose creator turned reactions off shows no bar; axe finds
nothing on a page with the bar and a bubble."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import scenes
from axekit import violations
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def _two_people(server: str, reactions: bool = True) -> tuple[str, dict[int, str]]:
    answer = httpx.post(f"{server}/api/tables", json={
        "seats": [{"kind": "me", "name": "Ana"}, {"kind": "open"}], "reactions": reactions},
        timeout=20)
    assert answer.status_code == 201, answer.text
    table_id = answer.json()["table_id"]
    tokens = {0: answer.json()["seats"][0]["token"]}
    joined = httpx.post(f"{server}/api/tables/{table_id}/join", json={"name": "Bo"}, timeout=20)
    assert joined.status_code == 200, joined.text
    tokens[1] = joined.json()["token"]
    return table_id, tokens


def _bubble(page: Any, seat: int) -> Any:
    return page.locator(f"#game .board[data-seat='{seat}'] .reaction-bubble")


def test_a_reaction_is_seen_beside_the_senders_board_by_everyone(new_context: Any,
                                                                  server: str) -> None:
    table_id, tokens = _two_people(server)
    ana = scenes.open_page(new_context(), server, table_id, {0: tokens[0]})
    bo = scenes.open_page(new_context(locale="nl"), server, table_id, {1: tokens[1]})
    watcher = scenes.open_page(new_context(), server, table_id, None, watch=True)
    for page in (ana, bo, watcher):
        page.wait_for_selector("#game .board[data-seat='0']")
    bar = ana.get_by_role("group", name="Reactions")
    expect(bar).to_be_visible()
    expect(watcher.get_by_role("group", name="Reactions")).to_be_hidden()  # no seat
    expect(bo.get_by_role("group", name="Reacties")).to_be_visible()

    # Two clicks at once: the first goes, the second waits for the interval (nothing is
    # sent, so the server refuses nothing).
    ana.evaluate("""() => {
      const buttons = [...document.querySelectorAll('#reactions-list button')];
      for (const emote of ['thumbs_up', 'wave']) {
        buttons.find((b) => b.dataset.emote === emote).click();
      }
    }""")
    expect(_bubble(bo, 0)).to_have_text("👍Duim omhoog")
    expect(_bubble(watcher, 0)).to_have_text("👍Thumbs up")
    expect(_bubble(ana, 0)).to_have_text("👍Thumbs up")
    heard = bo.get_by_role("log", name="Meldingen")
    expect(heard).to_contain_text("Ana: Duim omhoog")
    wave = bar.get_by_role("button", name="Wave")
    expect(wave).not_to_have_attribute("aria-disabled", "true", timeout=10_000)
    wave.click()
    expect(_bubble(bo, 0)).to_have_text("👋Zwaaien")
    assert heard.inner_text().count("Ana: Zwaaien") == 1
    expect(ana.locator("#error")).to_be_hidden()
    assert violations(ana) == []
    # Bo answers: his bubble beside his board on Ana's page; it goes after a while.
    bo.get_by_role("group", name="Reacties").get_by_role("button", name="Applaus").click()
    expect(_bubble(ana, 1)).to_have_text("👏Clap")
    expect(_bubble(ana, 1)).to_have_count(0, timeout=15_000)


def test_a_table_without_reactions_shows_no_bar(new_context: Any, server: str) -> None:
    table_id, tokens = _two_people(server, reactions=False)
    page = scenes.open_page(new_context(), server, table_id, {0: tokens[0]})
    page.wait_for_selector("#game .board[data-seat='0']")
    expect(page.locator("#reactions")).to_be_hidden()
    assert page.get_by_role("group", name="Reactions").count() == 0


def test_the_lobby_turns_reactions_off_for_a_table(new_context: Any, server: str) -> None:
    page = new_context().new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("#seat-rows li")
    box = page.get_by_label("Reactions: the players may send emotes at this table")
    expect(box).to_be_checked()
    box.uncheck()
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/**")
    table_id = page.url.rstrip("/").split("/t/")[1].split("?")[0]
    info = httpx.get(f"{server}/api/tables/{table_id}", timeout=20).json()
    assert info["reactions"] is False
    expect(page.locator("#reactions")).to_be_hidden()
