"""The local profile in a real browser (docs/players.md): in a static build with no
Python server, a match played on this device goes into the profile with its rating; the
profile survives a reload; its export is a file Python reads with the same ratings; a
second browser imports it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browserkit import on_this_device, play_until_round_over
from statichost import static_host

from trashcards.players.profile import Profile
from trashcards.players.ratings import interval
from trashcards.web.offline import build_static
from trashcards.web.settings import Settings

pytestmark = pytest.mark.browser


def _play_kids_match_on_device(page: Any, base: str) -> None:
    page.goto(f"{base}/")
    page.wait_for_selector("#seat-rows li")
    page.fill("#my-name", "Ana")
    page.select_option("#preset", "kids")
    page.select_option("#rounds", "1")
    page.locator("#seat-rows li").nth(1).locator(".seat-bot").select_option("greedy")
    on_this_device(page)
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/local-**")
    play_until_round_over(page)
    page.wait_for_function("document.body.dataset.phase === 'match_over'")


def _profile_shown(page: Any) -> dict[str, Any]:
    page.wait_for_function("document.body.dataset.ready === '1'")
    return dict(page.evaluate("""() => ({
        name: document.getElementById('profile-name').value,
        record: document.getElementById('record-line').textContent,
        ratings: [...document.querySelectorAll('#ratings-body tr')].map((row) =>
            [row.dataset.family || null, ...[...row.cells].map((c) => c.textContent)]),
        games: document.querySelectorAll('#games-list li').length,
        chart: document.querySelectorAll('#rating-chart polyline').length})"""))


def test_the_profile_keeps_a_match_played_offline_in_the_static_build(
        new_context: Any, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    with static_host(site) as base:
        context = new_context(accept_downloads=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script("window.trashBotDelay = 0; window.trashTestSeed = 1;")
        page.goto(f"{base}/profile/")
        empty = _profile_shown(page)
        assert empty["games"] == 0
        assert empty["chart"] == 0
        _play_kids_match_on_device(page, base)
        page.goto(f"{base}/")
        page.click("#profile-link")
        page.wait_for_url("**/profile**")
        shown = _profile_shown(page)
        assert shown["name"] == "Ana"
        assert shown["record"].startswith("1 match played")
        assert shown["games"] == 1
        assert shown["chart"] == 1
        [row] = shown["ratings"]
        assert row[0] == "kids"
        assert row[1].startswith("Kids")
        assert row[2].endswith("?")  # one match: provisional
        assert row[4] == "1"
        page.reload()
        assert _profile_shown(page) == shown  # kept in this browser's storage

        with page.expect_download() as info:
            page.click("#export-profile")
        exported = tmp_path / "profile.json"
        info.value.save_as(exported)
        profile = Profile.loads(exported.read_bytes())
        [game] = profile.games
        assert game.where == "device"
        assert game.seats == ("Ana", "bot:greedy")
        rating = profile.ratings()["kids"]
        assert row[2] == f"{rating.rating:.0f}?"
        assert row[3] == "{}–{}".format(*interval(rating))

        # offline (the service worker's copy of the page), the profile is all there
        page.goto(f"{base}/")
        page.evaluate("navigator.serviceWorker.ready")
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.goto(f"{base}/profile/")
        assert _profile_shown(page) == shown
        context.set_offline(False)

        other = new_context().new_page()
        other.goto(f"{base}/profile/")
        assert _profile_shown(other)["games"] == 0
        other.set_input_files("#import-profile", str(exported))
        other.wait_for_function("document.getElementById('file-status').textContent !== ''")
        assert other.inner_text("#file-status") == "1 match added."
        assert _profile_shown(other)["games"] == 1
        assert errors == []


def test_a_file_that_is_no_profile_is_refused_with_the_reason(page: Any, server: str,
                                                              tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "trashcards-profile/1", "name": "Ana", "created": 1,
                               "games": [{"id": "x", "at": 1}]}), encoding="utf-8")
    page.goto(f"{server}/profile")
    _profile_shown(page)
    page.set_input_files("#import-profile", str(bad))
    page.wait_for_function("document.getElementById('file-status').textContent !== ''")
    assert page.inner_text("#file-status").startswith('This file is not a profile: game "x": ')
    assert _profile_shown(page)["games"] == 0


def test_the_name_form_saves_only_a_name_the_profile_reads_back(page: Any, server: str,
                                                                 tmp_path: Path) -> None:
    """A name with a text-direction character was saved, and the profile that held it no
    longer read back: its matches were gone. (The box holds 24 UTF-16 units, maxlength;
    profile.test.mjs checks that 24 characters beyond the BMP read back.)"""
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"format": "trashcards-profile/1", "name": "Ana",
                                "created": 1.7e9, "games": [{
                                    "id": "g1", "at": 1.7e9, "where": "online",
                                    "rules": {"preset": "kids"},
                                    "seats": ["Ana", "bot:greedy"], "me": 0,
                                    "rounds_won": [1, 0], "winner": 0}]}),
                    encoding="utf-8")
    page.goto(f"{server}/profile")
    _profile_shown(page)
    page.set_input_files("#import-profile", str(good))
    page.wait_for_function("document.getElementById('file-status').textContent !== ''")
    assert _profile_shown(page)["games"] == 1

    page.fill("#profile-name", "Ana\u202eZ")
    page.click("#name-form button[type=submit]")
    assert page.inner_text("#name-status") == ("A name is 1 to 24 characters and cannot "
                                               "start with “bot:”.")
    page.reload()
    shown = _profile_shown(page)
    assert (shown["name"], shown["games"]) == ("You", 1)

    page.fill("#profile-name", "Bea")
    page.click("#name-form button[type=submit]")
    assert page.inner_text("#name-status") == "Saved."
    page.reload()
    shown = _profile_shown(page)
    assert (shown["name"], shown["games"]) == ("Bea", 1)
