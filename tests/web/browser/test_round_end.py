"""Rounds and matches that end properly (issue 18): the round-over panel stays up for the
whole pause between rounds, counted from when the page shows it (the winning chain plays
first); the prompt says the next deal is on while it plays; the match-over panel shows
whole names and links "Review this game".
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import scenes
from browserkit import next_round, serve, take_one_decision, wait_for_turn_or_end
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PAUSE_S = 2.5

#: Watches the result panel and the prompt at every animation frame.
WATCH = """() => {
  window.shown = []; window.prompts = [];
  let since = null;
  const tick = () => {
    const panel = document.getElementById('result');
    const up = !panel.hidden && document.body.dataset.phase === 'round_over';
    const now = performance.now();
    if (up && since === null) since = now;
    if (!up && since !== null) { window.shown.push(now - since); since = null; }
    if (!up && document.body.dataset.busy === '1') {
      window.prompts.push(document.getElementById('prompt').textContent);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


#: Each reveal tag: its text, whether it is drawn inside the window, and the contrast of
#: its text on its background (WCAG's formula).
REVEAL_TAGS = """() => {
  const lum = (css) => {
    const [r, g, b] = css.match(/[\\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return [...document.querySelectorAll('#game .reveal-tag')].map((tag) => {
    const style = getComputedStyle(tag);
    const [a, b] = [lum(style.color), lum(style.backgroundColor)];
    const box = tag.getBoundingClientRect();
    return {text: tag.textContent, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05),
            visible: box.width > 0 && box.height > 0 && box.left >= 0 && box.top >= 0
              && box.right <= innerWidth && box.bottom <= innerHeight};
  });
}"""
#: The cards turned up on each board (by seat): [slot, the card's short text].
REVEALED_CARDS = """() => Object.fromEntries([...document.querySelectorAll('#game .board')]
  .map((b) => [b.dataset.seat, [...b.querySelectorAll('.slot.revealed')].map((s) => {
    const card = s.querySelector('.card');
    return [s.dataset.slot, card.querySelector('.rank').textContent
      + card.querySelector('.suit').textContent];
  })]).filter(([, cards]) => cards.length))"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose pause between rounds is short and real (not "until everyone clicks
    next round")."""
    db = tmp_path_factory.mktemp("round_end") / "tables.sqlite3"
    with serve(db, options=["--round-pause", str(PAUSE_S)]) as base:
        yield base


def test_the_round_over_panel_stays_the_whole_pause_and_the_match_links_its_review(
        new_context: Any, server: str) -> None:
    answer = scenes.create(server, [{"kind": "me", "name": "Annemarie-Josephine"},
                                    {"kind": "bot", "bot": "greedy"}],
                           rules={"preset": "kids", "start_size": 2})
    table_id = answer["table_id"]
    tokens = {s["seat"]: s["token"] for s in answer["seats"]}
    context = new_context(viewport={"width": 1280, "height": 800},
                          reduced_motion="no-preference")
    page = scenes.open_page(context, server, table_id, tokens)
    page.wait_for_selector("#center .pile.stock")
    page.evaluate(WATCH)
    for _ in range(600):  # Ana plays; she never clicks "Next round"
        state = wait_for_turn_or_end(page)
        if state == "match_over":
            break
        if state == "round_over":
            page.wait_for_function("document.body.dataset.phase !== 'round_over'",
                                   timeout=30_000)
            continue
        take_one_decision(page)
    else:
        raise AssertionError("the match did not end")

    shown = page.evaluate("window.shown")
    assert shown, "no round-over panel was seen"
    assert min(shown) >= PAUSE_S * 1000 - 250, f"the panel was cut short: {shown} ms"
    prompts = page.evaluate("window.prompts")
    assert not [p for p in prompts if p.startswith("Round over")], \
        "the prompt said 'Round over' while the next deal played"

    # The match is over: whole names in the standings, and the way to its review.
    expect(page.locator("#standings")).to_be_visible()
    cells = page.evaluate("""() => [...document.querySelectorAll('#standings th')].map(
        (c) => [c.textContent, c.scrollWidth <= c.clientWidth + 1])""")
    assert all(fits for _text, fits in cells), f"cut in the standings: {cells}"
    names = [text for text, _fits in cells]
    assert "Annemarie-Josephine (you)" in names or "Annemarie-Josephine" in names, names
    review = page.locator("#review-link")
    expect(review).to_have_text("Review this game")
    review.click()
    page.wait_for_url(f"**/review?table={table_id}")


def test_the_face_down_cards_are_turned_up_when_the_round_ends(
        new_context: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Between rounds every slot that stayed face down shows its card (marked as turned
    up, not played), and the next deal turns the new boards face down again."""
    db = tmp_path_factory.mktemp("reveal") / "tables.sqlite3"
    with serve(db) as base:  # the pause lasts until Ana clicks "Next round"
        answer = scenes.create(base, [{"kind": "me", "name": "Ana"},
                                      {"kind": "bot", "bot": "greedy"}],
                               rules={"preset": "kids", "start_size": 3})
        tokens = {s["seat"]: s["token"] for s in answer["seats"]}
        page = scenes.open_page(new_context(), base, answer["table_id"], tokens)
        page.wait_for_selector("#center .pile.stock")
        assert page.locator(".slot.revealed").count() == 0
        for _ in range(300):
            state = wait_for_turn_or_end(page)
            if state in ("round_over", "match_over"):
                break
            take_one_decision(page)
        else:
            raise AssertionError("the round did not end")
        page.wait_for_function("document.body.dataset.busy !== '1'")
        slots = page.evaluate("""() => [...document.querySelectorAll('#game .slot:not(.gone)')]
            .map((s) => [s.classList.contains('revealed'), s.getAttribute('aria-label'),
                         s.querySelector('.card').classList.contains('back')])""")
        turned = [label for revealed, label, _back in slots if revealed]
        assert turned, f"nothing turned up at the round's end: {slots}"
        assert all("turned up at the round's end" in label for label in turned), turned
        # no card is left face down: each slot shows its card, played or turned up
        assert not [label for _r, label, back in slots if back], slots
        # Issue 31: the turned-up cards say so in words (a tag on the card, readable
        # without colour), the played ones do not; the result panel says what the tag
        # means; the log says what was under each player's slots.
        tags = page.evaluate(REVEAL_TAGS)
        assert len(tags) == len(turned), tags
        for tag in tags:
            assert tag["text"] == "face down", tag
            assert tag["visible"], tag
            assert tag["contrast"] >= 4.5, tag
        assert page.locator(".slot:not(.revealed) .reveal-tag").count() == 0
        expect(page.locator("#result-revealed")).to_be_visible()  # (not on a phone)
        log = page.inner_text("#log-list")
        for seat, cards in page.evaluate(REVEALED_CARDS).items():
            line = [text for text in log.splitlines() if text.startswith(
                "Under your face-down cards:" if seat == "0" else "Under ")]
            assert line, f"no log line says what was under seat {seat}'s slots: {log}"
            for slot, card in cards:
                assert any(f"slot {slot} {card}" in text for text in line), (seat, slot, line)
        # A page opened after the round ended shows the same (its boards were all backs).
        page.reload()
        page.wait_for_selector("#result:not([hidden])")
        expect(page.locator("#game .reveal-tag")).to_have_count(len(turned))
        if state == "round_over":
            next_round(page)
            wait_for_turn_or_end(page)
            assert page.locator(".slot.revealed").count() == 0
