"""A static copy of the app with no game server behind it (``trashcards build-static``
on any static host): the lobby offers only what works there, and says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import scenes
from browserkit import press_and_wait
from playwright.sync_api import expect
from statichost import static_host

from trashcards.web.offline import build_static
from trashcards.web.settings import Settings


def test_with_no_server_the_lobby_creates_a_table_on_this_device_with_its_defaults(
        new_context: Any, tmp_path: Path) -> None:
    # Before: "Create the table" with the lobby's defaults sent the form to the static
    # host, which answered "HTTP 501".
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    with static_host(site) as base:
        page = new_context().new_page()
        page.add_init_script("window.trashBotDelay = 0; window.trashTestSeed = 3;")
        page.goto(f"{base}/")
        page.wait_for_selector("#no-server", state="visible")
        assert page.is_checked("#on-device")
        assert page.is_disabled("#on-device")
        assert "need a server" in page.inner_text("#no-server")
        # a friend's seat by link cannot work here: offered disabled; the expert plays
        # on this device (below)
        assert page.evaluate("[...document.querySelectorAll("
                             "'.seat-kind option[value=open]')].every(o => o.disabled)")
        expert = page.locator(".seat-bot option[value=expert]").first
        assert expert.is_enabled()
        assert "server" not in expert.inner_text()
        assert "server" in page.inner_text("#open-empty")
        page.click("#create-form button[type=submit]")  # the defaults, untouched
        page.wait_for_url("**/t/local-**")
        page.wait_for_function("document.body.dataset.acting === '0'")
        assert "501" not in page.inner_text("body")


def test_in_dutch_the_no_server_note_is_translated(new_context: Any, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    with static_host(site) as base:
        page = new_context(locale="nl-NL").new_page()
        page.goto(f"{base}/")
        page.wait_for_selector("#no-server", state="visible")
        assert "server" in page.inner_text("#no-server")
        assert "apparaat" in page.inner_text("#no-server")


def test_with_no_server_the_expert_plays_on_this_device(new_context: Any, tmp_path: Path
                                                       ) -> None:
    # Before: the expert was offered disabled ("needs a server") and a local table with
    # it was refused (issue 31, item 5).
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    with static_host(site) as base:
        page = new_context().new_page()
        page.add_init_script("window.trashBotDelay = 0; window.trashTestSeed = 4;")
        page.goto(f"{base}/")
        page.wait_for_selector("#no-server", state="visible")
        page.locator("#seat-rows li").nth(1).locator(".seat-bot").select_option("expert")
        page.click("#create-form button[type=submit]")
        page.wait_for_url("**/t/local-**")
        log = page.locator("#log-list")
        expect(log).to_contain_text("Computer (expert)", timeout=30_000)  # the deal
        expert_moves = 0
        for _ in range(60):  # play with the keys the prompt offers until the expert moved
            page.wait_for_function("document.body.dataset.acting === '0'"
                                   " || document.getElementById('result').hidden === false",
                                   timeout=60_000)
            # the expert's moves: the log's lines of kind "move" that name it
            expert_moves = log.locator("li.log-move", has_text="Computer (expert)").count()
            if expert_moves >= 3 or not page.evaluate("document.body.dataset.acting === '0'"):
                break
            key = scenes.key_for_prompt(page.inner_text("#prompt"))
            assert key is not None, page.inner_text("#prompt")
            press_and_wait(page, key)
        assert expert_moves >= 3, page.inner_text("#log-list")
        assert page.locator("#error").is_hidden()


def test_a_lobby_that_loses_its_network_says_why_no_table_is_open(new_context: Any,
                                                                  server: str) -> None:
    # Issue 31: with no network the lobby said "No table is waiting for players right
    # now", as if the server had answered that none was.
    context = new_context()
    page = context.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("#seat-rows li")
    expect(page.locator("#open-empty")).to_have_text(
        "No table is waiting for players right now.")
    context.set_offline(True)
    expect(page.locator("#no-server")).to_be_visible()
    expect(page.locator("#open-empty")).to_have_text(
        "Open tables need a trashcards server, and none answers here.")
    assert page.is_checked("#on-device")
    context.set_offline(False)
    expect(page.locator("#no-server")).to_be_hidden()
    expect(page.locator("#open-empty")).to_have_text(
        "No table is waiting for players right now.")
