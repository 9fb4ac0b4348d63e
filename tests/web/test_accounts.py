"""Accounts on both backends (docs/players.md): sign-up, sign-in, sign-out with a
password; names by the rules and the block list; a rated game against a level moves the
rating and shows on the player's page; the profile syncs; change the name, download the
data, delete the account (its games stay, the name replaced). The security tests are in
test_account_security.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playertools import csrf, play_out, players_server, post, sign_up, wait_for
from starlette.testclient import TestClient

from trashcards.players.profile import Game, Profile
from trashcards.rules import Rules


@pytest.mark.numba_compile
def test_sign_up_sign_out_and_in_again_with_a_password(database: str | Path) -> None:
    with players_server(database) as client:
        assert client.get("/api/account").json()["signed_in"] is False
        sign_up(client, "Ana")
        shown = client.get("/api/account").json()
        assert shown["signed_in"] is True
        assert shown["account"]["name"] == "Ana"
        assert shown["account"]["password"] is True
        assert shown["account"]["passkeys"] == 0
        assert post(client, "/api/account/logout").json() == {"signed_in": False}
        assert client.get("/api/account").json()["signed_in"] is False
        wrong = post(client, "/api/account/login", {"name": "ana", "password": "nope nope"})
        assert wrong.status_code == 401
        assert wrong.json()["error"] == "wrong_password"
        right = post(client, "/api/account/login",
                     {"name": "ANA", "password": "correct horse battery"})
        assert right.status_code == 200, right.text
        assert client.get("/api/account").json()["account"]["name"] == "Ana"


@pytest.mark.parametrize(("name", "error"), [
    ("", "bad_name"), ("bot:greedy", "bad_name"), ("a" * 25, "bad_name"),
    ("Sh1tface", "bad_name"), ("admin", "bad_name"), ("Ana\u202e", "bad_name"),
    ("àna", "name_taken")])
@pytest.mark.numba_compile
def test_names_follow_the_rules_the_block_list_and_are_unique(tmp_path: Path, name: str,
                                                              error: str) -> None:
    with players_server(tmp_path / "db.sqlite3") as client:
        sign_up(client, "Ana")
        post(client, "/api/account/logout")
        refused = post(client, "/api/account/signup", {"name": name, "password": "x" * 12})
        assert refused.json()["error"] == error, refused.text
        assert refused.status_code == (409 if error == "name_taken" else 400)


@pytest.mark.numba_compile
def test_a_short_password_is_refused(tmp_path: Path) -> None:
    with players_server(tmp_path / "db.sqlite3") as client:
        refused = post(client, "/api/account/signup", {"name": "Ana", "password": "short"})
        assert refused.status_code == 400
        assert refused.json()["message"] == "a password is at least 8 characters"


def _rated_game_against(client: TestClient, level: str, preset: str = "standard") -> str:
    response = post(client, "/api/rated", {"preset": preset, "players": 2, "level": level})
    assert response.status_code == 201, response.text
    data = response.json()
    play_out(client, data["table_id"], data["token"])
    return str(data["table_id"])


@pytest.mark.numba_compile
def test_a_rated_game_against_a_level_moves_the_rating_and_is_on_the_page(
        database: str | Path) -> None:
    with players_server(database) as client:
        sign_up(client, "Ana")
        assert post(client, "/api/rated", {"preset": "standard", "players": 2,
                                           "level": "good"}).status_code == 201
        table = _rated_game_against(client, "beginner", "kids")
        page = wait_for(lambda: (lambda p: p if p["games"] else None)(
            client.get("/api/players/ana").json()))
        [game] = page["games"]  # the first table is not finished: not on the page
        assert game["table_id"] == table
        assert game["rated"] is True
        assert game["family"] == "kids"
        assert game["seats"] == ["Ana", "bot:sometimes"]
        kids = page["ratings"]["kids"]
        assert kids["games"] == 1
        assert kids["provisional"] is True
        assert kids["rating"] != 1500  # it moved, one way or the other
        assert (kids["rating"] > 1500) == game["won"]
        assert game["before"]["rating"] == 1500
        assert game["after"]["rating"] == pytest.approx(kids["rating"], abs=0.1)
        assert page["summary"]["by_level"] == {
            "beginner": {"won": int(game["won"]), "drawn": 0, "lost": int(not game["won"])}}
        assert set(page) == {"name", "ratings", "games", "summary", "habits", "peers", "level"}


@pytest.mark.numba_compile
def test_the_profile_syncs_between_devices(tmp_path: Path) -> None:
    rules = Rules.preset_named("standard").to_dict()
    phone = Profile("Ana", 1.7e9, [Game("a", 1.7e9, "device", rules, ("Ana", "bot:kid"), 0,
                                        (10, 2), 0)])
    laptop = Profile("Ana", 1.7e9, [Game("b", 1.8e9, "device", rules, ("Ana", "bot:kid"), 0,
                                         (1, 10), 1)])
    with players_server(tmp_path / "db.sqlite3") as client:
        sign_up(client, "Ana")
        first = post(client, "/api/account/profile", {"profile": phone.to_json()})
        assert [g["id"] for g in first.json()["profile"]["games"]] == ["a"]
        second = post(client, "/api/account/profile", {"profile": laptop.to_json()})
        assert [g["id"] for g in second.json()["profile"]["games"]] == ["a", "b"]
        stored = client.get("/api/account").json()["account"]["profile"]
        assert [g["id"] for g in stored["games"]] == ["a", "b"]
        bad = post(client, "/api/account/profile", {"profile": {"format": "x"}})
        assert bad.status_code == 400
        assert bad.json()["error"] == "bad_profile"


@pytest.mark.numba_compile
def test_change_name_download_data_and_delete_keeping_the_games(database: str | Path) -> None:
    with players_server(database) as client:
        sign_up(client, "Ana")
        table = _rated_game_against(client, "casual")
        wait_for(lambda: client.get("/api/players/Ana").json()["games"])
        renamed = post(client, "/api/account/name", {"name": "Ana Maria"})
        assert renamed.json() == {"name": "Ana Maria"}
        assert client.get("/api/players/Ana").status_code == 404
        assert client.get("/api/players/ana maria").json()["name"] == "Ana Maria"

        data = client.get("/api/account/data")
        assert data.headers["content-disposition"].startswith("attachment")
        everything = data.json()
        assert everything["format"] == "trashcards-account/1"
        assert everything["account"]["name"] == "Ana Maria"
        assert [g["table_id"] for g in everything["games"]] == [table]
        assert [r["family"] for r in everything["ratings"]] == ["standard"]
        text = data.text
        assert "argon2" not in text  # no password hash
        assert client.cookies["trash_session"] not in text  # no session token

        assert post(client, "/api/account/delete", {"confirm": "Ana"}).status_code == 400
        assert post(client, "/api/account/delete", {"confirm": "Ana Maria"}).json() == {
            "deleted": True}
        assert client.get("/api/account").json()["signed_in"] is False
        assert client.get("/api/players/Ana Maria").status_code == 404
        info = client.get(f"/api/tables/{table}").json()
        assert info["status"] == "over"
        record = json.loads(client.get(f"/api/tables/{table}/record").text)
        assert record["players"][0] == "Deleted player 1"
        assert record["players"][1] == "bot:kid"
        # the name is free again
        csrf(client)
        sign_up(client, "Ana Maria")
