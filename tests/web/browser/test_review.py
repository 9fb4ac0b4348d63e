"""The Review page in a real browser: a downloaded record goes in, the server reviews it
off the loop, the page draws each player's match-win chance as an SVG chart, sums up the
players, and steps through the positions."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx


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
