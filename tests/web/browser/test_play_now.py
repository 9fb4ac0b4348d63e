"""Play now in Chromium (docs/players.md): two people who ask for the same game in two
browsers are taken to the same table, each to their own seat; one alone is offered the
computer after the wait they chose, and takes it."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.browser


def _ask(page: Any, base: str, name: str, wait: str = "60") -> None:
    page.goto(f"{base}/play")
    page.wait_for_function("document.body.dataset.ready === '1'")
    page.select_option("#pair-preset", "kids")
    page.fill("#pair-wait", wait)
    page.fill("#pair-name", name)
    page.click("#pair-start")


def test_two_browsers_are_seated_together_and_one_alone_gets_the_computer(
        new_context: Any, server: str) -> None:
    first = new_context().new_page()
    second = new_context().new_page()
    _ask(first, server, "Ana")
    first.wait_for_function("document.getElementById('pair-status').textContent !== ''")
    _ask(second, server, "Bo")
    for page in (first, second):
        page.wait_for_url("**/t/**")
        page.wait_for_function("document.body.dataset.seats !== undefined"
                               " && document.body.dataset.seats !== ''")
    assert first.url == second.url
    assert {first.evaluate("document.body.dataset.seats"),
            second.evaluate("document.body.dataset.seats")} == {"0", "1"}

    alone = new_context().new_page()
    _ask(alone, server, "Cy", wait="1")
    alone.wait_for_selector("#pair-bot", state="visible")
    assert alone.inner_text("#pair-bot") == "No one yet: play the computer near your rating"
    alone.click("#pair-bot")
    alone.wait_for_url("**/t/**")
    alone.wait_for_function("document.body.dataset.seats === '0'")
    assert alone.url != first.url
