"""The accounts' security, each threat its own test (docs/players.md, "Security"):
CSRF is refused, a session cannot be fixed, the rate limits and the lockout hold with a
clear message, another player's data is unreachable by guessing ids, no secret reaches
a log, the cookies have their flags."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from pathlib import Path

import pytest
from playertools import FAST, csrf, players_server, post, sign_up
from starlette.testclient import TestClient
from webtools import addressed, make_settings

from trashcards.web import create_app
from trashcards.web.players import PlayerSettings

PASSWORD = "correct horse battery"
STATE_CHANGING = ["/api/account/signup", "/api/account/login", "/api/account/logout",
                  "/api/account/name", "/api/account/hidden", "/api/account/profile",
                  "/api/account/delete", "/api/account/password",
                  "/api/account/passkey/signup/options", "/api/account/passkey/login/options",
                  "/api/account/passkey/add/options", "/api/pair", "/api/rated"]


def plant(client: TestClient, session: str) -> None:
    """Put ``session`` in the browser's session cookie (as a page of another site, or
    someone at the keyboard, could)."""
    client.cookies.delete("trash_session")
    client.cookies.set("trash_session", session, domain="testserver.local")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with players_server(tmp_path / "db.sqlite3") as test_client:
        yield test_client


@pytest.mark.parametrize("path", STATE_CHANGING)
@pytest.mark.numba_compile
def test_csrf_a_request_without_the_pages_token_is_refused(client: TestClient,
                                                           path: str) -> None:
    sign_up(client, "Ana")
    body = {"name": "Ana", "password": PASSWORD, "confirm": "Ana", "hidden": True}
    without = client.post(path, json=body)
    assert without.status_code == 403, without.text
    assert without.json()["error"] == "csrf"
    wrong = client.post(path, json=body, headers={"X-Trash-CSRF": secrets.token_urlsafe(32)})
    assert wrong.status_code == 403
    # another site's page, even with the token (it cannot have it, but say it did)
    foreign = client.post(path, json=body, headers={"X-Trash-CSRF": csrf(client),
                                                    "Origin": "https://evil.example"})
    assert foreign.status_code == 403
    assert foreign.json()["error"] == "bad_origin"
    # a form (the one request another site can make without CORS) is not JSON
    form = client.post(path, data={"name": "Ana"}, headers={"X-Trash-CSRF": csrf(client)})
    assert form.status_code == 415
    assert client.get("/api/account").json()["account"]["name"] == "Ana"  # nothing changed


@pytest.mark.numba_compile
def test_session_fixation_a_session_the_server_did_not_make_is_never_taken(
        client: TestClient) -> None:
    planted = secrets.token_urlsafe(32)
    plant(client, planted)
    assert client.get("/api/account").json()["signed_in"] is False
    sign_up(client, "Ana")
    assert client.cookies["trash_session"] != planted
    plant(client, planted)
    assert client.get("/api/account").json()["signed_in"] is False


@pytest.mark.numba_compile
def test_session_fixation_signing_in_ends_the_session_the_browser_had(
        client: TestClient) -> None:
    sign_up(client, "Mallory")
    mallorys = client.cookies["trash_session"]
    # Mallory leaves her own live session in Ana's browser; Ana signs in
    sign_up_other = post(client, "/api/account/signup", {"name": "Ana", "password": PASSWORD})
    assert sign_up_other.status_code == 201
    anas = client.cookies["trash_session"]
    assert anas != mallorys
    plant(client, mallorys)
    assert client.get("/api/account").json()["signed_in"] is False  # ended at sign-in
    plant(client, anas)
    assert client.get("/api/account").json()["account"]["name"] == "Ana"


@pytest.mark.numba_compile
def test_signing_in_gives_a_new_csrf_token(client: TestClient) -> None:
    before = csrf(client)
    sign_up(client, "Ana")
    after = client.cookies["trash_csrf"]
    assert after != before
    assert client.post("/api/account/hidden", json={"hidden": True},
                       headers={"X-Trash-CSRF": before}).status_code == 403


@pytest.mark.numba_compile
def test_rate_limit_per_address_holds_with_a_clear_message(tmp_path: Path) -> None:
    options = PlayerSettings(login_rate=3.0, signup_rate=2.0)
    app = addressed(create_app(make_settings(tmp_path / "db.sqlite3"), options))
    with TestClient(app) as client:
        here = {"X-Test-Address": "10.0.0.1"}
        for _ in range(3):
            assert post(client, "/api/account/login", {"name": "x", "password": "y" * 8},
                        **here).status_code == 401
        limited = post(client, "/api/account/login", {"name": "x", "password": "y" * 8},
                       **here)
        assert limited.status_code == 429
        assert limited.json()["message"].startswith("too many sign-in attempts from your "
                                                    "address: try again in ")
        assert int(limited.headers["Retry-After"]) >= 1
        # another address is not held back
        assert post(client, "/api/account/login", {"name": "x", "password": "y" * 8},
                    **{"X-Test-Address": "10.0.0.2"}).status_code == 401
        for name in ("Ana", "Bo"):
            assert post(client, "/api/account/signup", {"name": name, "password": PASSWORD},
                        **here).status_code == 201
        assert post(client, "/api/account/signup", {"name": "Cy", "password": PASSWORD},
                    **here).json()["error"] == "rate_limited"


@pytest.mark.numba_compile
def test_rate_limit_per_account_locks_its_password_from_any_address(tmp_path: Path) -> None:
    options = PlayerSettings(account_failures=3, lockout=900.0, login_rate=1000.0,
                             signup_rate=1000.0)
    app = addressed(create_app(make_settings(tmp_path / "db.sqlite3"), options))
    with TestClient(app) as client:
        sign_up(client, "Ana")
        post(client, "/api/account/logout")
        for number in range(3):  # three addresses, one wrong password each
            wrong = post(client, "/api/account/login", {"name": "Ana", "password": "x" * 9},
                         **{"X-Test-Address": f"10.0.1.{number}"})
            assert wrong.status_code == 401
        locked = post(client, "/api/account/login", {"name": "Ana", "password": PASSWORD},
                      **{"X-Test-Address": "10.0.2.1"})
        assert locked.status_code == 429
        assert locked.json()["error"] == "locked"
        assert locked.json()["message"] == ("too many wrong passwords for this account: its "
                                            "password is locked for 15 more minute(s); a "
                                            "passkey still signs in")
        assert client.get("/api/account").json()["signed_in"] is False


def test_another_players_data_is_unreachable_by_guessing_ids(client: TestClient) -> None:
    sign_up(client, "Ana")
    anas_id = client.get("/api/account").json()["account"]["id"]
    assert len(anas_id) >= 22  # 128 random bits
    ticket = post(client, "/api/pair", {"preset": "standard", "players": 2, "wait": 60}
                  ).json()["ticket"]
    post(client, "/api/account/logout")
    sign_up(client, "Bo")
    # Bo's own data only, whatever he adds to the address
    data = client.get("/api/account/data", params={"id": anas_id}).json()
    assert data["account"]["name"] == "Bo"
    assert anas_id not in client.get("/api/account/data").text
    # the public page shows no id, no profile, no unfinished game
    page = client.get("/api/players/Ana").json()
    assert anas_id not in str(page)
    assert set(page) == {"name", "ratings", "games", "summary", "habits", "peers", "level"}
    # requests to play are reached by their secret ticket only
    for guess in (anas_id, "1", "t0", secrets.token_urlsafe(24)):
        assert post(client, f"/api/pair/{guess}").status_code == 404
    assert post(client, f"/api/pair/{ticket}").json()["status"] == "waiting"
    # signed out, nothing private answers
    post(client, "/api/account/logout")
    assert client.get("/api/account/data").status_code == 401
    assert post(client, "/api/account/name", {"name": "Eve"}).status_code == 401


@pytest.mark.numba_compile
def test_no_secret_reaches_any_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    with players_server(tmp_path / "db.sqlite3", FAST) as client:
        sign_up(client, "Ana", "a very secret password")
        session = client.cookies["trash_session"]
        token = client.cookies["trash_csrf"]
        post(client, "/api/account/password", {"password": "another secret password"})
        post(client, "/api/account/logout")
        post(client, "/api/account/login", {"name": "Ana", "password": "wrong secret words"})
        post(client, "/api/account/login", {"name": "Ana", "password": "another secret password"})
        ticket = post(client, "/api/pair", {"preset": "standard", "players": 2}).json()["ticket"]
    text = "\n".join(f"{r.getMessage()} {r.args!r}" for r in caplog.records)
    assert "an account was made" in text  # the log was captured
    for secret in ("a very secret password", "another secret password", "wrong secret words",
                   session, token, ticket):
        assert secret not in text


@pytest.mark.numba_compile
def test_cookies_are_http_only_same_site_and_secure_over_tls(tmp_path: Path) -> None:
    app = create_app(make_settings(tmp_path / "db.sqlite3"), FAST)
    for base, secure in (("http://testserver", False), ("https://testserver", True)):
        with TestClient(app, base_url=base) as client:
            token = client.get("/api/account").json()["csrf"]
            response = client.post("/api/account/signup",
                                   json={"name": f"Ana{int(secure)}", "password": PASSWORD},
                                   headers={"X-Trash-CSRF": token})
            cookies = response.headers.get_list("set-cookie")
            session = next(c for c in cookies if c.startswith("trash_session="))
            csrf_cookie = next(c for c in cookies if c.startswith("trash_csrf="))
            for cookie, same_site in ((session, "lax"), (csrf_cookie, "strict")):
                flags = [part.strip().lower() for part in cookie.split(";")]
                assert "httponly" in flags
                assert f"samesite={same_site}" in flags
                assert ("secure" in flags) is secure
