"""Habits on a player's page: each finished game of an account is reviewed once by the
coach in the background and its judgements added up on the player's page."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from playertools import FAST, play_out, players_server, post, sign_up, wait_for


@pytest.mark.numba_compile
@pytest.mark.slow
def test_a_finished_game_is_reviewed_once_into_the_players_habits(tmp_path: Path) -> None:
    options = dataclasses.replace(FAST, habit_interval=0.05, habit_samples=8)
    with players_server(tmp_path / "db.sqlite3", options) as client:
        sign_up(client, "Ana")
        made = post(client, "/api/rated", {"preset": "classic", "players": 2,
                                           "level": "good"}).json()
        play_out(client, made["table_id"], made["token"])
        page = wait_for(lambda: (lambda p: p if p["habits"] else None)(
            client.get("/api/players/Ana").json()), timeout=300)
        habits = {h["kind"]: h for h in page["habits"]}
        assert habits  # a classic round has decisions where the best was stock or discard
        for habit in habits.values():
            assert 0 <= habit["misses"] <= habit["chances"]
            assert habit["low"] <= habit["rate"] <= habit["high"]
            assert habit["games"] == 1
        players = client.app.state.players  # type: ignore[attr-defined]
        assert client.portal.call(players.coaching.judge_one) is False  # type: ignore[union-attr]
