"""A player's habits compared with rated players' of their rating band, on the player's
page: read from the server's database of reviewed rated games, each band shown only
with enough other players (docs/players.md, "Habits")."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

from playertools import FAST, players_server, sign_up
from starlette.testclient import TestClient

OPTIONS = dataclasses.replace(FAST, peer_refresh=0.0, peer_min_players=5, peer_min_games=20)
NOW = time.time()


def _run(client: TestClient, query: str, params: tuple[Any, ...]) -> None:
    sql = client.app.state.players._sql()  # type: ignore[attr-defined]
    client.portal.call(sql.run, query, params)  # type: ignore[union-attr]


def _account_id(client: TestClient, name: str) -> str:
    sql = client.app.state.players._sql()  # type: ignore[attr-defined]
    rows = client.portal.call(sql.fetch, "SELECT id FROM accounts WHERE name = %s",  # type: ignore[union-attr]
                              (name,))
    return str(rows[0][0])


def _game(client: TestClient, table: str, account: str, rating: float,
          counts: dict[str, list[int]], rd: float = 60.0) -> None:
    _run(client, "INSERT INTO player_games (table_id, seat, account_id, name, family, rated, "
         "created, finished, rating_before, judged) VALUES (%s, 0, %s, %s, 'standard', 1, "
         "%s, %s, %s, %s)",
         (table, account, account, NOW - 100, NOW - 50,
          json.dumps({"rating": rating, "rd": rd, "volatility": 0.06}), json.dumps(counts)))


def _ana(client: TestClient) -> None:
    """Ana, rated 1712 in standard, drew from the stock when the discard fitted in 12 %
    of 200 chances."""
    sign_up(client, "Ana")
    ana = _account_id(client, "Ana")
    _run(client, "INSERT INTO ratings (account_id, family, rating, rd, volatility, games, "
         "last) VALUES (%s, 'standard', 1712, 60, 0.06, 40, %s)", (ana, NOW))
    for number in range(10):
        _game(client, f"ana{number}", ana, 1700.0, {"discard": [20, 3 if number < 4 else 2]})


def _others(client: TestClient, players: range, games: int = 6) -> None:
    for player in players:
        for number in range(games):
            _game(client, f"p{player}g{number}", f"other{player}", 1690.0,
                  {"discard": [25, 0 if number % 2 else 1]})


def test_a_band_with_fewer_players_than_the_minimum_is_not_shown(
        database: str | Path) -> None:
    with players_server(database, OPTIONS) as client:
        _ana(client)
        _others(client, range(4))  # 24 games of 4 players: enough games, too few players
        page = client.get("/api/players/Ana").json()
        assert page["peers"] == {"family": "standard", "band": 1700, "low": 1650,
                                 "high": 1750, "min_players": 5, "min_games": 20,
                                 "enough": False}
        assert [h["peers"] for h in page["habits"]] == [None]
        _others(client, range(4, 5))  # a fifth player: the band is shown
        page = client.get("/api/players/Ana").json()
        assert page["peers"]["enough"] is True
        assert (page["peers"]["players"], page["peers"]["games"]) == (5, 30)
        peers = page["habits"][0]["peers"]
        assert (peers["chances"], peers["misses"]) == (750, 15)  # 2 %
        assert page["habits"][0]["rate"] == 0.12  # 24 of 200: more often, beyond both ranges
        assert peers["verdict"] == "more"
        # and the level nearest 1712: good (Elo 1670), measured offline
        assert page["level"]["name"] == "good"
        assert page["habits"][0]["level"]["verdict"] in ("more", "less", "same")


def test_provisional_and_other_bands_games_do_not_count(tmp_path: Path) -> None:
    with players_server(tmp_path / "db.sqlite3", OPTIONS) as client:
        _ana(client)
        for player in range(5):
            for number in range(6):
                _game(client, f"x{player}g{number}", f"new{player}", 1700.0,
                      {"discard": [25, 1]}, rd=200.0)  # provisional then
                _game(client, f"y{player}g{number}", f"low{player}", 1640.0,
                      {"discard": [25, 1]})  # the band 1600
        assert client.get("/api/players/Ana").json()["peers"]["enough"] is False


def test_a_player_without_a_rating_is_compared_with_no_one(tmp_path: Path) -> None:
    with players_server(tmp_path / "db.sqlite3", OPTIONS) as client:
        sign_up(client, "Bo")
        page = client.get("/api/players/Bo").json()
        assert page["peers"] is None
        assert page["level"] is None
        assert page["habits"] == []
