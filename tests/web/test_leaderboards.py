"""Leaderboards (docs/players.md): per family, the active rated players whose rating is
no longer provisional, highest first, at most 100; hidden players are left out; the
signed-in player sees their rank; a rated game's rating reaches the board by the rater's
next look."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from playertools import players_server, post, sign_up
from starlette.testclient import TestClient


def _rate(client: TestClient, name: str, rating: float, rd: float, days_ago: float = 0.0,
          family: str = "standard") -> None:
    """Give the account ``name`` a stored rating (as the rater writes them)."""
    players = client.app.state.players  # type: ignore[attr-defined]

    async def write() -> None:
        sql = players.accounts.sql
        [[account]] = await sql.fetch("SELECT id FROM accounts WHERE name = %s", (name,))
        await sql.run("INSERT INTO ratings (account_id, family, rating, rd, volatility, games, "
                      "last) VALUES (%s, %s, %s, %s, 0.06, 30, %s)",
                      (account, family, rating, rd, time.time() - days_ago * 86400))

    client.portal.call(write)  # type: ignore[union-attr]


def _board(client: TestClient, family: str = "standard") -> dict[str, Any]:
    answer: dict[str, Any] = client.get(f"/api/leaderboard/{family}").json()
    return answer


def test_the_board_lists_active_settled_visible_players_highest_first(tmp_path: Path) -> None:
    with players_server(tmp_path / "db.sqlite3") as client:
        for name, rating, rd, days in (("Ana", 1650, 60, 1), ("Bo", 1700, 70, 2),
                                       ("Cy", 1800, 200, 0), ("Di", 1750, 60, 45),
                                       ("Ed", 1600, 50, 3)):
            sign_up(client, name)
            _rate(client, name, rating, rd, days)
            post(client, "/api/account/logout")
        _rate(client, "Ed", 1900, 50, 0, family="kids")
        board = _board(client)
        # Cy is provisional (deviation 200), Di has not played for 45 days
        assert [(p["rank"], p["name"]) for p in board["players"]] == [
            (1, "Bo"), (2, "Ana"), (3, "Ed")]
        assert board["players"][0]["low"] < 1700 < board["players"][0]["high"]
        assert board["you"] is None
        assert [p["name"] for p in _board(client, "kids")["players"]] == ["Ed"]
        assert client.get("/api/leaderboard/chess").status_code == 404

        post(client, "/api/account/login", {"name": "Ana", "password": "correct horse battery"})
        assert _board(client)["you"]["rank"] == 2
        assert post(client, "/api/account/hidden", {"hidden": True}).json() == {"hidden": True}
        hidden = _board(client)
        assert [p["name"] for p in hidden["players"]] == ["Bo", "Ed"]
        assert hidden["you"] is None
        # hidden from the boards, not from the game: the player's page is still there
        assert client.get("/api/players/Ana").json()["ratings"]["standard"]["games"] == 30


@pytest.mark.numba_compile
def test_the_board_holds_at_most_100(tmp_path: Path) -> None:
    with players_server(tmp_path / "db.sqlite3") as client:
        players = client.app.state.players  # type: ignore[attr-defined]

        async def accounts() -> None:  # made directly: 103 password hashes take a while
            for number in range(103):
                await players.accounts.sql.run(
                    "INSERT INTO accounts (id, name, name_key, created) VALUES (%s, %s, %s, 0)",
                    (f"id{number}", f"P{number}", f"p{number}"))

        client.portal.call(accounts)  # type: ignore[union-attr]
        for number in range(103):
            _rate(client, f"P{number}", 1500 + number, 60)
        board = _board(client)
        assert len(board["players"]) == 100
        assert board["ranked"] == 103
        assert board["players"][0]["name"] == "P102"
