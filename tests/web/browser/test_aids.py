"""Issue 12 in the browser: the table page's Hint button and win-chance bar. Against the
computer the player's decision shows a Hint button; pressing it (or H) shows the best
move, every legal move's chances and the reason. An online table whose creator did not
allow hints shows no Hint button. A spectator sees the win bar move as the table plays.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
import scenes
from browserkit import take_one_decision
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PERCENT = re.compile(r"\d+ % \(\d+–\d+\)")  # "hint.chance": "{percent} % ({low}–{high})"


def _me_and_bot(server: str) -> tuple[str, dict[int, str]]:
    answer = scenes.create(server, [{"kind": "me", "name": "Ana"},
                                    {"kind": "bot", "bot": "greedy"}])
    return answer["table_id"], {s["seat"]: s["token"] for s in answer["seats"]}


def test_a_forced_move_gets_a_one_line_hint(new_context: Any, server: str) -> None:
    table_id, tokens = _me_and_bot(server)
    player = scenes.Player(server, table_id, tokens)
    try:  # a decision with one legal move: draw from the stock
        player.play_until(lambda s: s["to_act"] == 0 and s["legal"] == ["stock"])
    finally:
        player.close()
    page = scenes.open_page(new_context(viewport={"width": 1366, "height": 768}), server,
                            table_id, tokens)
    page.wait_for_function("document.body.dataset.acting === '0'")
    expect(page.locator("#game .legal")).to_have_count(1)
    page.click("#hint-button")
    panel = page.locator("#hint-panel")
    expect(panel.locator(".hint-best")).to_have_text(re.compile(r"^Only one move: .+\.$"),
                                                     timeout=30_000)
    expect(panel.locator(".hint-table")).to_have_count(0)
    expect(page.locator("#game .hint-pick")).to_have_count(1)


def _unfold(panel: Any) -> None:
    """Show every move of the hint: docked beside the board, a hint whose rows would not
    fit starts folded to the best move (issue 31)."""
    expect(panel.locator(".hint-best")).to_be_visible(timeout=30_000)
    fold = panel.locator(".hint-fold")
    if fold.count() and fold.get_attribute("aria-expanded") == "false":
        fold.click()


def test_the_hint_button_against_the_computer_shows_the_best_move_and_its_chances(
        new_context: Any, server: str) -> None:
    table_id, tokens = _me_and_bot(server)
    player = scenes.Player(server, table_id, tokens)
    try:  # a decision with a choice: the card in hand is a wild
        player.play_until(scenes.wild_or_swap(0))
    finally:
        player.close()
    page = scenes.open_page(new_context(viewport={"width": 1366, "height": 768}), server,
                            table_id, tokens)
    page.wait_for_function("document.body.dataset.acting === '0'")
    button = page.locator("#hint-button")
    expect(button).to_be_visible()
    expect(button).to_be_enabled()
    legal = page.evaluate("document.body.dataset.version")
    button.click()
    panel = page.locator("#hint-panel")
    _unfold(panel)
    expect(panel.locator(".hint-table")).to_be_visible(timeout=30_000)
    expect(panel.locator("h2")).to_have_text("Hint")
    rows = panel.locator(".hint-table tbody tr")
    assert rows.count() >= 1
    best = rows.first
    expect(best).to_have_class("best")
    cells = best.locator("td")
    expect(cells.nth(0)).to_have_text(PERCENT)  # the match
    expect(cells.nth(1)).to_have_text(PERCENT)  # the round
    reason = cells.nth(2).inner_text().strip()
    assert reason, "the best move gives no reason"
    assert not reason.startswith("reason."), f"an untranslated reason code: {reason}"
    expect(panel.locator(".hint-best")).to_have_text(re.compile(r"^(Best: |Equally good: )"))
    # Still on the same decision: the answer is for this version, and the page fits.
    assert page.evaluate("document.body.dataset.version") == legal
    seen = page.evaluate("[document.documentElement.scrollHeight, innerHeight]")
    assert seen[0] <= seen[1], f"the hint makes the page scroll: {seen}"
    # The player sees the bar too where hints are allowed.
    expect(page.locator("#winbar .winbar-part")).to_have_count(2, timeout=30_000)

    # Closing it and pressing H asks again.
    panel.locator(".hint-close").click()
    expect(panel).to_be_hidden()
    page.locator("#prompt").focus()
    page.keyboard.press("h")
    _unfold(panel)
    expect(panel.locator(".hint-table")).to_be_visible(timeout=30_000)

    # Playing the move takes the answer away (it was for the old version).
    take_one_decision(page)
    expect(panel).to_be_hidden()


def test_the_hint_lists_every_legal_move_of_the_view(new_context: Any, server: str) -> None:
    table_id, tokens = _me_and_bot(server)
    player = scenes.Player(server, table_id, tokens, seed=3)
    try:
        state = player.play_until(scenes.wild_or_swap(0))
        page = scenes.open_page(new_context(), server, table_id, tokens)
        page.wait_for_function("document.body.dataset.acting === '0'")
        page.click("#hint-button")
        _unfold(page.locator("#hint-panel"))
        rows = page.locator("#hint-panel .hint-table tbody tr")
        expect(rows.first).to_be_visible(timeout=30_000)
        actions = [rows.nth(i).get_attribute("data-action") for i in range(rows.count())]
        assert sorted(actions) == sorted(state["legal"])
    finally:
        player.close()


def test_no_hint_button_where_the_creator_of_an_online_table_did_not_allow_hints(
        new_context: Any, server: str) -> None:
    answer = scenes.create(server, [{"kind": "me", "name": "Host"}, {"kind": "open"}])
    table_id = answer["table_id"]
    tokens = {s["seat"]: s["token"] for s in answer["seats"]}
    assert httpx.get(f"{server}/api/tables/{table_id}", timeout=20).json()["hints"] is False
    joined = httpx.post(f"{server}/api/tables/{table_id}/join", json={"name": "Guest"},
                        timeout=20)
    assert joined.status_code == 200, joined.text
    guest = {joined.json()["seat"]: joined.json()["token"]}
    pages = [scenes.open_page(new_context(), server, table_id, held)
             for held in (tokens, guest)]
    info = httpx.get(f"{server}/api/tables/{table_id}", timeout=20).json()
    seat = info["progress"]["to_act"]
    acting = pages[seat]
    acting.wait_for_function("(s) => document.body.dataset.acting === s", arg=str(seat))
    expect(acting.locator("#hint-button")).to_be_hidden()
    assert acting.evaluate("document.body.dataset.hint") == "0"
    acting.keyboard.press("h")  # the key does nothing either
    acting.wait_for_timeout(500)
    expect(acting.locator("#hint-panel")).to_be_hidden()
    for page in pages:
        expect(page.locator("#aids")).to_be_hidden()  # no chances for the players either


def test_a_spectator_sees_the_win_bar_move_as_the_table_plays(
        new_context: Any, server: str) -> None:
    table_id, tokens = _me_and_bot(server)
    player = scenes.Player(server, table_id, tokens, seed=5)
    try:
        page = scenes.open_page(new_context(), server, table_id, None, watch=True)
        bar = page.locator("#winbar")
        expect(bar.locator(".winbar-part")).to_have_count(2, timeout=30_000)
        expect(page.locator("#hint-button")).to_be_hidden()  # a spectator has no decision
        first = int(bar.get_attribute("data-version") or "-1")
        chances = [float(bar.locator(".winbar-part").nth(i).get_attribute("data-chance")
                         or "nan") for i in range(2)]
        assert abs(sum(chances) - 1) < 0.02, chances
        legend = bar.locator(".winbar-legend li")
        expect(legend.first).to_contain_text("Ana")
        start = player.version
        player.play_until(lambda s: player.version >= start + 6)
        page.wait_for_function(
            "(v) => Number(document.querySelector('#winbar').dataset.version) > v",
            arg=first, timeout=30_000)
        later = int(bar.get_attribute("data-version") or "-1")
        assert later > first
        assert later <= player.version
    finally:
        player.close()



def test_the_lobby_chooses_hints_per_table_and_spectators_are_told_what_the_bar_is(
        new_context: Any, server: str) -> None:
    page = new_context().new_page()
    page.goto(server + "/")
    page.wait_for_selector("#seat-rows li")
    page.fill("#my-name", "Ana")
    hints = page.locator("#table-hints")
    expect(hints).to_be_checked()  # against the computer: on
    second = page.locator("#seat-rows li").nth(1).locator(".seat-kind")
    second.select_option("open")
    expect(hints).not_to_be_checked()  # a friend by link: off unless the creator says
    hints.check()
    second.select_option("bot")
    expect(hints).to_be_checked()
    hints.uncheck()  # the creator's choice stays
    page.click("#create-submit")
    page.wait_for_url("**/t/**")
    table_id = page.url.rsplit("/", 1)[1]
    assert httpx.get(f"{server}/api/tables/{table_id}", timeout=20).json()["hints"] is False
    page.wait_for_function("document.body.dataset.acting === '0'")
    expect(page.locator("#hint-button")).to_be_hidden()

    # Spectators see the live bar and are told plainly whether the players see it too.
    secret = new_context().new_page()
    secret.goto(f"{server}/t/{table_id}?watch=1")
    expect(secret.locator("#aids-note")).to_have_text(
        "Live chances, for spectators only: the players do not see them.", timeout=30_000)
    open_id, _tokens = _me_and_bot(server)
    shared = new_context().new_page()
    shared.goto(f"{server}/t/{open_id}?watch=1")
    expect(shared.locator("#aids-note")).to_have_text(
        "Live chances: the players see them too.", timeout=30_000)
    # Players are not told (the note is for spectators).
    expect(page.locator("#aids-note")).to_be_hidden()
