"""Take the README screenshots: ``python tests/web/browser/take_screenshots.py``.

Starts ``trashcards serve`` on a temporary database, opens the lobby and a table in play
(a person against three bots, a few turns in, with the hint docked beside the board, at
1366×768 and on a 390×844 phone with the hint's sheet at the bottom: the sizes issue 8
checks), a finished match's Review page and a party's page in Debian's chromium, and
writes ``docs/screenshots/lobby.png``, ``table.png``, ``table-phone.png``,
``review.png`` and ``party.png``.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from browserkit import CHROMIUM_ARGS, create_table, serve, take_one_decision, wait_for_turn_or_end
from playwright.sync_api import sync_playwright

OUT = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
TURNS = 4


def main() -> int:
    executable = shutil.which("chromium")
    if executable is None:
        print("chromium is not installed (apt-get install chromium)", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, serve(Path(tmp) / "t.sqlite3") as base, \
            sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        laptop = browser.new_context(viewport={"width": 1366, "height": 768}, locale="en-US",
                                     reduced_motion="reduce", device_scale_factor=1)
        page = laptop.new_page()
        page.goto(f"{base}/")
        page.wait_for_selector("#seat-rows li")
        page.fill("#my-name", "Ana")
        page.click("#add-seat")
        page.locator("#seat-rows li").nth(2).locator(".seat-bot").select_option("kid")
        page.evaluate("window.scrollTo(0, 0)")
        page.locator("#my-name").blur()
        page.screenshot(path=str(OUT / "lobby.png"), full_page=True)
        url = create_table(page, base, name="Ana",
                           seats=[("me", None), ("bot", "greedy"), ("bot", "kid"),
                                  ("bot", "sometimes")])
        # A few turns in, stopped at a real choice: a wild to place or a swap to take.
        for turn in range(200):
            state = wait_for_turn_or_end(page)
            if state == "round_over":
                page.click("#next-round")
                page.wait_for_function("document.body.dataset.phase !== 'round_over'")
                continue
            phase = page.evaluate("document.body.dataset.phase")
            if turn >= TURNS and phase in ("wild", "swap"):
                break
            take_one_decision(page)
        show_hint(page)
        page.screenshot(path=str(OUT / "table.png"))  # the window: the table never scrolls

        phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                                    has_touch=True, locale="en-US", reduced_motion="reduce")
        other = phone.new_page()
        other.goto(base + "/")
        other.evaluate("(e) => localStorage.setItem(e[0], e[1])",
                       [f"trash.table.{url.rsplit('/', 1)[1]}",
                        page.evaluate("localStorage.getItem("
                                      f"'trash.table.{url.rsplit('/', 1)[1]}')")])
        other.goto(url)
        wait_for_turn_or_end(other)
        show_hint(other)
        other.screenshot(path=str(OUT / "table-phone.png"))

        review = laptop.new_page()
        review.goto(f"{base}/review?table={finished_table(base)}")
        review.wait_for_selector("#review:not([hidden])", timeout=120_000)
        first = review.locator("#lessons li .lesson-where").first
        if first.count():
            first.click()  # the position of the first mistake
        review.screenshot(path=str(OUT / "review.png"), full_page=True)

        party = laptop.new_page()
        party.goto(f"{base}/")
        party.wait_for_selector("#seat-rows li")
        party.fill("#my-name", "Ana")
        for _ in range(3):
            party.click("#add-seat")
        rows = party.locator("#seat-rows li")
        rows.nth(1).locator(".seat-kind").select_option("open")
        party.click("#create-submit")
        party.wait_for_url("**/p/**")
        party.wait_for_selector(".party-table[data-table] >> nth=1")
        party.screenshot(path=str(OUT / "party.png"), full_page=True)
        browser.close()
    print(f"screenshots written to {OUT}")
    return 0


def show_hint(page: Any) -> None:
    """Open the hint on the decision in front of the page (docked, never over the table)."""
    page.click("#hint-button")
    page.wait_for_selector("#hint-panel .hint-best", timeout=60_000)


def finished_table(base: str) -> str:
    """A two-round match of the casual computer (kid: it forgets the discard pile now and
    then, mistakes for the review to tell) against the good one, played to its end."""
    made = httpx.post(f"{base}/api/tables", timeout=20, json={
        "rules": {"preset": "standard", "start_size": 5, "rounds_to_win": 2},
        "seats": [{"kind": "bot", "bot": "kid"}, {"kind": "bot", "bot": "greedy"}]}).json()
    table_id: str = made["table_id"]
    for _ in range(1200):
        if httpx.get(f"{base}/api/tables/{table_id}", timeout=20).json()["status"] == "over":
            break
        time.sleep(0.1)
    return table_id


if __name__ == "__main__":
    sys.exit(main())
