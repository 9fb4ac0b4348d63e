"""A player's habits compared with rated players' of their rating band, on the player's
page: read from the server's database of reviewed rated games, each band shown only
with enough other players (docs/players.md, "Habits")."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from playertools import FAST, habits_and_band, judged_game, players_server, sign_up

OPTIONS = dataclasses.replace(FAST, peer_refresh=0.0, peer_min_players=5, peer_min_games=20)


def test_a_band_with_fewer_players_than_the_minimum_is_not_shown(
        database: str | Path) -> None:
    with players_server(database, OPTIONS) as client:
        habits_and_band(client, range(4))  # 24 games of 4 players: too few players
        page = client.get("/api/players/Ana").json()
        assert page["peers"] == {"family": "standard", "band": 1700, "low": 1650,
                                 "high": 1750, "min_players": 5, "min_games": 20,
                                 "enough": False}
        assert [h["peers"] for h in page["habits"]] == [None]
        habits_and_band(client, range(4, 5))  # a fifth player: the band is shown
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
        habits_and_band(client, range(0))
        for player in range(5):
            for number in range(6):
                judged_game(client, f"x{player}g{number}", f"new{player}", 1700.0,
                            {"discard": [25, 1]}, rd=200.0)  # provisional then
                judged_game(client, f"y{player}g{number}", f"low{player}", 1640.0,
                            {"discard": [25, 1]})  # the band 1600
        assert client.get("/api/players/Ana").json()["peers"]["enough"] is False


def test_a_player_without_a_rating_is_compared_with_no_one(tmp_path: Path) -> None:
    with players_server(tmp_path / "db.sqlite3", OPTIONS) as client:
        sign_up(client, "Bo")
        page = client.get("/api/players/Bo").json()
        assert page["peers"] is None
        assert page["level"] is None
        assert page["habits"] == []
