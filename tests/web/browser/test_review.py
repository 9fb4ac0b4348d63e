"""The Review page in a real browser: a downloaded record goes in, the server reviews it
off the loop, the page draws each player's match-win chance as an SVG chart, sums up the
players, and steps through the positions."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import scenes
from playwright.sync_api import expect


def _finished_record(server: str) -> str:
    made = httpx.post(f"{server}/api/tables", json={
        "rules": {"preset": "standard", "start_size": 5, "rounds_to_win": 1},
        "seats": [{"kind": "bot", "bot": "expert"}, {"kind": "bot", "bot": "greedy"}]}).json()
    table_id = made["table_id"]
    for _ in range(600):
        if httpx.get(f"{server}/api/tables/{table_id}").json()["status"] == "over":
            break
        time.sleep(0.05)
    return httpx.get(f"{server}/api/tables/{table_id}/record").text


def test_the_review_page_charts_and_steps_through_a_record(page: Any, server: str,
                                                           tmp_path: Path) -> None:
    record = tmp_path / "match.trash.json"
    record.write_text(_finished_record(server), encoding="utf-8")
    page.goto(f"{server}/review")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#review:not([hidden])", timeout=60_000)
    assert page.locator("#chart svg path.curve").count() == 2
    assert page.locator("#summary-body tr").count() == 2
    slider = page.locator("#move-slider")
    last = int(slider.get_attribute("max"))
    assert last > 5
    assert "After the last move" in page.locator("#move-text").inner_text()
    page.click("#first-move")
    assert slider.input_value() == "0"
    page.click("#next-move")
    assert slider.input_value() == "1"
    assert "Before move 2" in page.locator("#move-text").inner_text()
    page.keyboard.press("ArrowRight")
    assert slider.input_value() == "2"
    assert page.locator("#position .review-board").count() == 2


def test_a_bad_record_gets_a_clear_message(page: Any, server: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.trash.json"
    bad.write_text('{"format": "trash/1"}', encoding="utf-8")
    page.goto(f"{server}/review")
    page.set_input_files("#record-file", str(bad))
    error = page.locator("#review-error")
    error.wait_for(state="visible", timeout=20_000)
    assert "cannot be reviewed" in error.inner_text()
    assert page.locator("#review").is_hidden()


def test_the_lobby_offers_the_levels_with_their_elo(page: Any, server: str) -> None:
    from trashcards.ai.levels import LEVELS

    page.goto(server)
    select = page.locator(".seat-bot").first
    page.wait_for_function("document.querySelector('.seat-bot option')?.textContent"
                           ".includes('Elo')")
    options = select.locator("option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == \
        [level.bot for level in LEVELS]
    texts = [options.nth(i).inner_text() for i in range(options.count())]
    for level, text in zip(LEVELS, texts, strict=True):
        assert f"Elo {round(level.elo)}" in text


def test_the_review_reads_like_a_replay_and_fits_a_phone(new_context: Any, server: str
                                                         ) -> None:
    """Issue 18: plain-language moves (the log's sentences), real names and levels, cards
    at their real shape, contrast that passes axe, nothing sideways on a phone, and the
    way there from the finished table and from "Your tables"."""
    from test_languages_and_access import serious_violations

    made = httpx.post(f"{server}/api/tables", json={
        "rules": {"preset": "standard", "start_size": 5, "rounds_to_win": 1},
        "seats": [{"kind": "me", "name": "Ana"}, {"kind": "bot", "bot": "expert"}]},
        timeout=20).json()
    table_id = made["table_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    player = scenes.Player(server, table_id, tokens)
    try:
        player.play_until(lambda s: s["phase"] == "match_over")
    finally:
        player.close()
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                        has_touch=True)
    page = scenes.open_page(phone, server, table_id, tokens)
    page.wait_for_function("document.body.dataset.phase === 'match_over'")
    # "Your tables" in the lobby lead to the review of a finished table too.
    page.goto(server + "/")
    item = page.locator(f"#mine-list li[data-table='{table_id}']")
    expect(item.locator("a.review-link")).to_have_attribute(
        "href", f"/review?table={table_id}")
    page.goto(f"{server}/t/{table_id}")
    page.locator("#review-link").click()
    page.wait_for_selector("#review:not([hidden])", timeout=60_000)

    legend = page.locator("#chart-legend").inner_text()
    assert "Computer (expert)" in legend, legend
    assert "bot:" not in page.locator("#review").inner_text()
    page.click("#first-move")
    sentences = []
    for _ in range(6):
        page.click("#next-move")
        sentences.append(page.locator("#move-text").inner_text())
    told = " ".join(sentences)
    assert "deck " not in told, told
    assert ": stock" not in told, told
    assert re.search(r"(Ana|Computer \(expert\)) (draws from the stock|takes \S+ from the "
                     r"discard pile)\.", told), told
    shapes = page.evaluate("""() => [...document.querySelectorAll('#position .card')]
        .map((c) => c.getBoundingClientRect()).map((r) => r.height / r.width)""")
    assert shapes, "no card is drawn"
    assert all(1.3 <= r <= 1.5 for r in shapes), shapes
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > 390.5)
        .map((el) => el.tagName + '.' + el.className + '#' + el.id)""")
    assert wide == [], f"sticks out sideways: {wide}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious_violations(page) == []
