"""Five languages (the browser's by default, a switcher that persists) and an axe-core
accessibility check of every page."""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    click_and_wait,
    create_table,
    play_until_round_over,
    take_one_decision,
    wait_for_turn_or_end,
)

pytestmark = pytest.mark.browser

HEADINGS = {"en": "Play Trash", "es": "Jugar a Trash", "nl": "Speel Trash",
            "it": "Gioca a Trash", "vi": "Chơi Trash"}
RULES_TITLES = {"en": "How to play Trash", "es": "Cómo se juega a Trash",
                "nl": "Zo speel je Trash", "it": "Come si gioca a Trash",
                "vi": "Cách chơi Trash"}


def test_the_language_switch_changes_the_ui_and_is_remembered(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("#seat-rows li")
    assert page.inner_text(".intro h1") == HEADINGS["en"]
    for lang, heading in HEADINGS.items():
        page.select_option("#lang", lang)
        page.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        assert page.inner_text(".intro h1") == heading
        assert page.inner_text("#create-title") != "New table" or lang == "en"
    page.select_option("#lang", "es")
    page.wait_for_function("document.documentElement.lang === 'es'")
    assert page.inner_text("#create-form button[type=submit]") == "Crear la mesa"
    assert page.locator("#seat-rows li").first.locator(".seat-kind option:checked") \
        .inner_text() == "Yo"

    page.reload()
    page.wait_for_function("document.documentElement.lang === 'es'")
    assert page.inner_text(".intro h1") == HEADINGS["es"]

    # The table speaks the chosen language too, the live log included.
    create_table(page, server, name="Ana")
    assert wait_for_turn_or_end(page) == "act"
    assert page.inner_text("#prompt").startswith("Tu turno")
    click_and_wait(page, page.locator("button.pile.stock.legal"))
    assert "Robas" in page.inner_text("#log-list")  # your own move, in the second person
    assert "del mazo" in page.inner_text("#log-list")
    page.select_option("#lang", "nl")
    page.wait_for_function("document.documentElement.lang === 'nl'")
    assert page.inner_text("#log-title") == "Wat er gebeurde"


def test_the_browser_language_is_the_default(new_context: Any, server: str) -> None:
    tab = new_context(locale="vi-VN").new_page()
    tab.goto(f"{server}/")
    tab.wait_for_function("document.documentElement.lang === 'vi'")
    assert tab.inner_text(".intro h1") == HEADINGS["vi"]
    other = new_context(locale="fr-FR").new_page()
    other.goto(f"{server}/")
    other.wait_for_selector("#seat-rows li")
    assert other.evaluate("document.documentElement.lang") == "en"


@pytest.mark.parametrize("lang", list(RULES_TITLES))
def test_the_rules_page_exists_in_each_language(page: Any, server: str, lang: str) -> None:
    page.goto(f"{server}/rules/{lang}")
    page.wait_for_selector("#rules-text h1")
    assert page.inner_text("#rules-text h1") == RULES_TITLES[lang]
    assert page.evaluate("document.documentElement.lang") == lang


def serious_violations(page: Any) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            f"{[node['target'] for node in v['nodes']][:3]}"
            for v in results.response["violations"]
            if v["impact"] in ("serious", "critical")]


def test_axe_finds_no_serious_violations(page: Any, server: str) -> None:
    page.goto(f"{server}/")
    page.wait_for_selector("#seat-rows li")
    assert serious_violations(page) == []

    page.goto(f"{server}/rules/en")
    page.wait_for_selector("#rules-text h1")
    assert serious_violations(page) == []

    create_table(page, server)
    assert wait_for_turn_or_end(page) == "act"
    take_one_decision(page)
    wait_for_turn_or_end(page)
    assert serious_violations(page) == []

    page.keyboard.press("?")
    page.locator("#help-dialog").wait_for(state="visible")
    assert serious_violations(page) == []

    # The hot-seat "pass to …" screen and the end of a one-round match.
    create_table(page, server, seats=[("me", None), ("hotseat", "Bo")], preset="classic")
    assert wait_for_turn_or_end(page) == "pass"
    assert serious_violations(page) == []
    play_until_round_over(page)
    page.wait_for_function("document.body.dataset.phase === 'match_over'")
    assert serious_violations(page) == []


def test_a_phone_sized_screen_shows_the_whole_board(new_context: Any, server: str) -> None:
    tab = new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                      has_touch=True).new_page()
    create_table(tab, server)
    assert wait_for_turn_or_end(tab) == "act"
    width = tab.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, "nothing sticks out sideways on a phone"
    slots = tab.locator(".board.big .slot:not(.gone)")
    assert slots.count() == 10
    for index in range(10):
        box = slots.nth(index).bounding_box()
        assert box is not None
        assert box["x"] >= 0
        assert box["x"] + box["width"] <= 390
