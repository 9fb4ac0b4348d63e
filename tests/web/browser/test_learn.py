"""The guided first game in a real browser (issue 31, item 1; docs/rules.md, "Learn by
playing"): offered on a first visit, played to its end in each of the five languages on
a table "On this device" with the keyboard, each step's sentence the language's
catalog's (on the panel and in the polite live region), a wrong move answered gently
and not played, skippable, not offered again once done or declined, and played from a
static build with no server (axe's check of it is in test_access.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from statichost import static_host

from trashcards import tutorial
from trashcards.web.offline import build_static
from trashcards.web.settings import Settings

pytestmark = pytest.mark.browser

CATALOGS = Path(__file__).resolve().parents[3] / "src" / "trashcards" / "web" / "static" / "i18n"
LANGUAGES = ("en", "es", "nl", "it", "vi")
#: The key that plays each scripted action (js/keys.js).
KEYS = {"stock": "s", "discard": "d", "wild 2": "2"}
#: A wrong move at each decision, where there is one (the first draw has no other).
WRONG = {"discard": "s", "wild 2": "5"}


def _catalog(lang: str) -> dict[str, Any]:
    return dict(json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8")))


#: The opponent's cards that stay face down until the round is over.
NEVER_SEEN = ("7c", "8d", "6h", "Kc")


def _page(new_context: Any, lang: str, frames: list[dict[str, Any]] | None = None
          ) -> tuple[Any, list[str]]:
    context = new_context(locale=lang)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script("window.trashBotDelay = 0;")
    if frames is not None:  # every frame the worker hands the page (js/local/transport.js)
        page.expose_function("keepFrame", lambda text: frames.append(json.loads(text)))
        page.add_init_script("window.addEventListener('trash-local-frame', (event) => {"
                             " window.keepFrame(JSON.stringify(event.detail)); });")
    return page, errors


def _text_is(page: Any, selector: str, text: str) -> None:
    page.wait_for_function("([s, t]) => document.querySelector(s)?.textContent === t",
                           arg=[selector, text])


def _said(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#announcer p", "ps => ps.map((p) => p.textContent)"))


def _walk(page: Any, words: dict[str, Any], wrong_moves: bool = True) -> None:
    """Play the guided game from its first step to its end."""
    count = len(tutorial.STEPS)
    for number, step in enumerate(tutorial.STEPS, start=1):
        _text_is(page, "#learn-text", words[step.key])
        progress = words["learn.progress"].format(n=number, count=count)
        assert page.text_content("#learn-progress") == progress
        assert words[step.key] in _said(page), f"{step.key} was not said"
        if step.do is None:
            expect(page.locator("#learn-next")).to_be_visible()
            page.click("#learn-next")
            continue
        expect(page.locator("#learn-next")).to_be_hidden()
        # the table takes keys once it is this browser's turn and nothing is in flight
        page.wait_for_function("document.body.dataset.acting === '0' && "
                               "document.body.dataset.busy === '0'")
        if wrong_moves and step.do in WRONG:
            version = page.evaluate("document.body.dataset.version")
            page.keyboard.press(WRONG[step.do])
            assert step.try_key is not None
            _text_is(page, "#learn-try", words[step.try_key])
            assert words[step.try_key] in _said(page)
            assert page.evaluate("document.body.dataset.version") == version, \
                "the wrong move was played"
        page.wait_for_function("document.body.dataset.acting === '0' && "
                               "document.body.dataset.busy === '0'")
        page.keyboard.press(KEYS[step.do])
    _text_is(page, "#learn-text", words["learn.done"])
    assert page.is_visible("#learn-back")
    assert not page.is_visible("#learn-skip")
    assert page.evaluate("localStorage.getItem('trash.learn')") == "done"
    assert page.evaluate("document.body.dataset.phase") == "match_over"


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guided_game_is_offered_played_to_its_end_and_not_offered_again(
        new_context: Any, server: str, lang: str) -> None:
    words = _catalog(lang)
    frames: list[dict[str, Any]] = []
    page, errors = _page(new_context, lang, frames)
    page.goto(f"{server}/")
    page.wait_for_selector("#learn-offer:not([hidden])")
    assert page.text_content("#learn-offer p") == words["learn.offer"]
    page.click("#learn-offer-start")
    page.wait_for_url("**/t/local-**")
    _walk(page, words)
    # hidden stays hidden: the page got views only, and until the round was over no
    # frame named a card of the opponent's that was face down
    assert frames
    playing = [f for f in frames if f.get("state", {}).get("phase") not in (None, "match_over")]
    assert any('"3h"' in json.dumps(f) for f in playing), "the frames name cards so"
    for frame in playing:
        text = json.dumps(frame)
        assert not [card for card in NEVER_SEEN if f'"{card}"' in text], frame
    page.click("#learn-back")
    page.wait_for_selector("#seat-rows li")
    page.wait_for_selector("#learn-start")
    assert page.is_hidden("#learn-offer"), "offered again once done"
    # asked for again, it plays again (and stays done)
    page.click("#learn-start")
    page.wait_for_url("**/t/local-**")
    _text_is(page, "#learn-text", words["learn.step.draw"])
    assert errors == []


@pytest.mark.slow
def test_declining_the_offer_or_skipping_the_guided_game_is_remembered(
        new_context: Any, server: str) -> None:
    page, errors = _page(new_context, "en")
    page.goto(f"{server}/")
    page.wait_for_selector("#learn-offer:not([hidden])")
    assert page.is_hidden("#learn-start"), "the offer has the same button"
    page.click("#learn-offer-skip")
    assert page.is_hidden("#learn-offer")
    assert page.is_visible("#learn-start"), "Learn to play stays in the lobby"
    page.reload()
    page.wait_for_selector("#seat-rows li")
    assert page.is_hidden("#learn-offer"), "offered again once declined"
    assert page.evaluate("localStorage.getItem('trash.learn')") == "skipped"

    page, errors = _page(new_context, "en")  # a new browser: skipped at the table
    page.goto(f"{server}/")
    page.click("#learn-offer-start")
    page.wait_for_url("**/t/local-**")
    _text_is(page, "#learn-text", _catalog("en")["learn.step.draw"])
    page.click("#learn-skip")
    page.wait_for_selector("#learn", state="hidden")
    assert page.evaluate("localStorage.getItem('trash.learn')") == "skipped"
    page.wait_for_function("document.body.dataset.acting === '0'")
    page.keyboard.press("s")  # the game goes on, unguided
    page.wait_for_function("document.body.dataset.version !== '2'")
    page.reload()
    page.wait_for_selector("#game:not([hidden])")
    assert page.is_hidden("#learn")
    page.goto(f"{server}/")
    page.wait_for_selector("#seat-rows li")
    assert page.is_hidden("#learn-offer")
    assert errors == []


@pytest.mark.slow
def test_a_reload_mid_way_comes_back_at_the_same_step(new_context: Any, server: str) -> None:
    words = _catalog("en")
    page, errors = _page(new_context, "en")
    page.goto(f"{server}/")
    page.click("#learn-offer-start")
    page.wait_for_url("**/t/local-**")
    _text_is(page, "#learn-text", words["learn.step.draw"])
    page.keyboard.press("s")
    _text_is(page, "#learn-text", words["learn.step.place"])
    page.click("#learn-next")
    _text_is(page, "#learn-text", words["learn.step.chain"])
    page.reload()
    _text_is(page, "#learn-text", words["learn.step.chain"])
    assert errors == []


@pytest.mark.slow
def test_the_guided_game_plays_with_no_server(new_context: Any, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    with static_host(site) as base:
        page, errors = _page(new_context, "nl")
        page.goto(f"{base}/")
        page.wait_for_selector("#learn-offer:not([hidden])")
        page.click("#learn-offer-start")
        page.wait_for_url("**/t/local-**")
        _walk(page, _catalog("nl"), wrong_moves=False)
        assert errors == []
