"""A real ``trashcards serve`` process is killed with SIGKILL mid-game and started again on
the same database: every table is back exactly where it was, no move is lost, bots go on
playing, and clients just reconnect."""

from __future__ import annotations

import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from webtools import Client, server

from trashcards.record import loads


def _move(client: Client, tokens: list[str], state: dict[str, Any],
          version: int) -> dict[str, Any]:
    """The person to act takes their last legal action; returns the events message."""
    client.send({"type": "act", "token": tokens[state["to_act"]], "action": state["legal"][-1],
                 "version": version})
    message = client.recv("events")
    assert message["from_version"] == version
    return message


@pytest.mark.numba_compile
def test_kill_9_mid_game_loses_nothing(tmp_path: Path) -> None:
    db = tmp_path / "tables.sqlite3"
    with server(db) as (proc, url):
        made = httpx.post(f"{url}/api/tables", json={
            "seats": [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]}).json()
        people, people_tokens = made["table_id"], [s["token"] for s in made["seats"]]
        made = httpx.post(f"{url}/api/tables", json={
            "rules": {"preset": "classic", "start_size": 3},
            "seats": [{"kind": "me", "name": "Cy"}, {"kind": "bot", "bot": "greedy"}]}).json()
        vs_bot, bot_token = made["table_id"], made["seats"][0]["token"]

        client = Client(url, people)
        client.send({"type": "join", "tokens": people_tokens, "version": None})
        client.recv("joined")
        seen = client.recv("state")
        state, version = seen["state"], seen["version"]
        for _ in range(12):  # a lucky chain may end the round early: then stop there
            if state["to_act"] is None:
                break
            message = _move(client, people_tokens, state, version)
            state, version = message["state"], message["version"]
        proc.send_signal(signal.SIGKILL)  # mid-game, right after a move was answered
        proc.wait(timeout=30)
        client.close()

    with server(db) as (_proc, url):
        assert httpx.get(f"{url}/api/tables/{people}").json()["version"] == version
        client = Client(url, people)
        client.send({"type": "join", "tokens": people_tokens, "version": version})
        assert client.recv("joined")["version"] == version
        again = client.recv("state")
        assert again["version"] == version
        assert again["state"] == state  # exactly the same position
        if state["to_act"] is None:  # the round was over: both people want the next one
            for token in people_tokens:
                client.send({"type": "next_round", "token": token})
            client.recv("table")
            message = client.recv("events")
        else:
            message = _move(client, people_tokens, state, version)  # and it goes on
        assert message["from_version"] == version
        assert message["version"] > version
        client.close()

        client = Client(url, vs_bot)  # the bot plays on after the restart
        client.send({"type": "join", "tokens": [bot_token], "version": None})
        client.recv("joined")
        seen = client.recv("state")
        state, version = seen["state"], seen["version"]
        while state["phase"] != "match_over":
            if state["to_act"] == 0:
                message = _move(client, [bot_token], state, version)
            else:
                message = client.recv("events")
            state, version = message["state"], message["version"]
        client.close()
        record = httpx.get(f"{url}/api/tables/{vs_bot}/record")
        assert record.headers["x-trash-record"] == "complete"
        assert loads(record.text).replay().match_winner == state["match_winner"]


@pytest.mark.numba_compile  # its serve subprocess warms up (compiles) the AI
def test_kill_9_with_bots_playing_resumes_every_table(tmp_path: Path) -> None:
    """Kill the server while bot-only tables play (bots wait 0.05 s a move, so a match
    lasts seconds); after the restart each table has at least the moves any client saw,
    and every match still finishes. Where the kill lands does not matter to the checks."""
    db = tmp_path / "bots.sqlite3"
    seen: dict[str, int] = {}
    with server(db, bot_delay=0.05) as (proc, url):
        tables = [httpx.post(f"{url}/api/tables", json={
            "rules": {"preset": "standard", "start_size": 4, "rounds_to_win": 3},
            "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]}
        ).json()["table_id"] for _ in range(3)]
        for table_id in tables:
            client = Client(url, table_id)
            client.send({"type": "join", "tokens": [], "version": None})
            client.recv("joined")
            seen[table_id] = client.recv("state")["version"]
            client.close()
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    with server(db, bot_delay=0.0) as (_proc, url):
        for table_id in tables:
            client = Client(url, table_id)
            client.send({"type": "join", "tokens": [], "version": seen[table_id]})
            assert client.recv("joined")["version"] >= seen[table_id]
            message = client.recv("events", "state")
            assert message.get("from_version", seen[table_id]) == seen[table_id]
            while message["state"]["phase"] != "match_over":  # bots only: no round pause
                version = message["version"]
                message = client.recv("events")
                assert message["from_version"] == version
            client.close()
            record = loads(httpx.get(f"{url}/api/tables/{table_id}/record").text)
            assert record.replay().match_winner == message["state"]["match_winner"]
