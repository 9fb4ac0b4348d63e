"""An account end to end in Chromium, with the browser's virtual authenticator (the
DevTools protocol's WebAuthn domain): sign up with a passkey, play a rated game against a
level, see the rating move; sign in with the same passkey in a second browser (a synced
passkey: the credential copied to its own authenticator) and see the same history;
delete the account (its game stays, the name replaced)."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browserkit import play_until_round_over, serve

pytestmark = pytest.mark.browser

AUTHENTICATOR = {"protocol": "ctap2", "transport": "internal", "hasResidentKey": True,
                 "hasUserVerification": True, "isUserVerified": True,
                 "automaticPresenceSimulation": True}


def _authenticator(context: Any, page: Any) -> tuple[Any, str]:
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send("WebAuthn.addVirtualAuthenticator", {"options": AUTHENTICATOR})
    return cdp, str(made["authenticatorId"])


def _profile_ready(page: Any) -> None:
    page.wait_for_function("document.body.dataset.ready === '1' && "
                           "document.getElementById('account-box').dataset.ready === '1'")


def _get(url: str) -> tuple[int, Any]:
    try:
        with urllib.request.urlopen(url) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, None


def test_a_passkey_account_plays_a_rated_game_on_two_browsers_then_is_deleted(
        new_context: Any, tmp_path: Path) -> None:
    with serve(tmp_path / "db.sqlite3") as served:
        # Passkeys need a domain name (no IP address) in a secure context: localhost is one
        base = served.replace("127.0.0.1", "localhost")
        errors: list[str] = []
        first = new_context()
        page = first.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        cdp, first_key = _authenticator(first, page)
        page.goto(f"{base}/profile")
        _profile_ready(page)
        page.fill("#account-name", "Ana")
        page.click("#signup-passkey")
        page.wait_for_selector("#signed-in-as")
        assert page.inner_text("#signed-in-as") == "Signed in as Ana"
        [credential] = cdp.send("WebAuthn.getCredentials",
                                {"authenticatorId": first_key})["credentials"]
        assert credential["isResidentCredential"] is True

        # A rated game against the beginner: classic, one round decides it.
        page.goto(f"{base}/play")
        page.wait_for_function("document.body.dataset.ready === '1'")
        assert page.is_visible("#rated-form")
        page.select_option("#rated-preset", "classic")
        page.select_option("#rated-level", "beginner")
        page.click("#rated-start")
        page.wait_for_url("**/t/**")
        table_id = page.url.rsplit("/", 1)[1]
        play_until_round_over(page)
        page.wait_for_function("document.body.dataset.phase === 'match_over'")

        # The rating moves within the rater's interval (5 s): the public page shows it.
        def rated() -> Any:
            status, body = _get(f"{served}/api/players/Ana")
            return body if status == 200 and body["games"] else None

        page.wait_for_timeout(100)
        for _ in range(300):
            found = rated()
            if found:
                break
            page.wait_for_timeout(100)
        assert found, "the game was not rated"
        short = found["ratings"]["short"]
        assert short["games"] == 1
        assert short["rating"] != 1500
        page.goto(f"{base}/player/Ana")
        page.wait_for_function("document.body.dataset.ready === '1'")
        assert page.inner_text("#player-title") == "Ana"
        row = page.locator("#ratings-body tr[data-family=short] .rating-value").inner_text()
        assert row == f"{round(short['rating'])}?"
        assert page.locator("#games-list li").count() == 1
        assert page.locator("#rating-chart polyline").count() == 1

        # The profile page: the match is in this device's profile, synced to the account.
        page.goto(f"{base}/profile")
        _profile_ready(page)
        assert page.locator("#games-list li").count() == 1

        # A second browser: the same passkey (synced), its own authenticator.
        second = new_context()
        other = second.new_page()
        other.on("pageerror", lambda error: errors.append(str(error)))
        other_cdp, second_key = _authenticator(second, other)
        other_cdp.send("WebAuthn.addCredential", {"authenticatorId": second_key,
                                                  "credential": credential})
        other.goto(f"{base}/profile")
        _profile_ready(other)
        assert other.locator("#games-list li").count() == 0
        other.click("#login-passkey")
        other.wait_for_selector("#signed-in-as")
        other.wait_for_function("document.querySelectorAll('#games-list li').length === 1")
        assert "Review" in other.inner_text("#games-list li")
        assert other.get_attribute("#games-list li a", "href").endswith(f"table={table_id}")

        # Delete the account from the second browser: the game stays, renamed.
        other.fill("#delete-confirm", "Ana")
        other.click("#delete-account")
        other.wait_for_selector("#login-passkey")
        assert _get(f"{served}/api/players/Ana")[0] == 404
        with urllib.request.urlopen(f"{served}/api/tables/{table_id}/record") as response:
            record = json.loads(response.read())
        assert record["players"] == ["Deleted player 1", "bot:sometimes"]
        # the first browser's session ended with the account
        page.goto(f"{base}/profile")
        _profile_ready(page)
        assert page.is_visible("#login-passkey")
        assert errors == []
