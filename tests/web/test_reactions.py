"""Reactions at a table (issue 31, item 6; docs/protocol.md, ``react``): a fixed set of
emotes that a seat shows to everyone at the table, spectators too, at most one every
``reaction_interval`` seconds a seat, where the creator left them on. On both backends
(the ``client`` fixture); with several processes, the owner announces a reaction to the
others in a notice."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from webtools import Socket, make_settings

from trashcards.web import create_app
from trashcards.web.postgres import notice_payload, parse_notice
from trashcards.web.protocol import EMOTES
from trashcards.web.storage import Notice

TWO_PEOPLE = [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]


def _table(client: TestClient, **options: Any) -> tuple[str, list[str]]:
    answer = client.post("/api/tables", json={"seats": TWO_PEOPLE, **options})
    assert answer.status_code == 201, answer.text
    made = answer.json()
    return made["table_id"], [s["token"] for s in made["seats"]]


def _next(sock: Socket, kind: str) -> dict[str, Any]:
    """The next frame of type ``kind`` (each checked against the protocol by Socket),
    after the ones a join brings (state, chances)."""
    for _ in range(20):
        message = sock.recv()
        if message["type"] == kind:
            return message
        assert message["type"] in ("state", "table", "events"), message
    raise AssertionError(f"no {kind} frame")


@pytest.mark.numba_compile
def test_a_reaction_reaches_every_connection_spectators_too(client: TestClient) -> None:
    table_id, tokens = _table(client)
    assert client.get(f"/api/tables/{table_id}").json()["reactions"] is True
    with client.websocket_connect(f"/ws/{table_id}") as ws0, \
            client.websocket_connect(f"/ws/{table_id}") as ws1:
        player, watcher = Socket(ws0), Socket(ws1)
        assert player.join([tokens[1]])["table"]["reactions"] is True
        watcher.join([])
        player.send({"type": "react", "token": tokens[1], "emote": "thumbs_up"})
        for sock in (player, watcher):
            assert _next(sock, "reaction") == {"type": "reaction", "seat": 1,
                                               "emote": "thumbs_up"}


@pytest.mark.numba_compile
def test_reactions_are_rate_limited_per_seat(tmp_path: Path) -> None:
    now = [0.0]
    settings = make_settings(tmp_path / "r.sqlite3", clock=lambda: now[0])
    with TestClient(create_app(settings)) as client:
        table_id, tokens = _table(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            sock.send({"type": "react", "token": tokens[0], "emote": "wave"})
            assert _next(sock, "reaction")["seat"] == 0
            now[0] += 1.5
            sock.send({"type": "react", "token": tokens[0], "emote": "wow"})
            refused = _next(sock, "error")
            assert refused["code"] == "rate_limited"
            assert refused["retry_after"] == pytest.approx(0.5)
            sock.send({"type": "react", "token": tokens[1], "emote": "clap"})  # another seat
            assert _next(sock, "reaction") == {"type": "reaction", "seat": 1,
                                                  "emote": "clap"}
            now[0] += 0.5
            sock.send({"type": "react", "token": tokens[0], "emote": "wow"})
            assert _next(sock, "reaction")["emote"] == "wow"


@pytest.mark.numba_compile
def test_a_table_whose_creator_turned_reactions_off_refuses_them(client: TestClient) -> None:
    table_id, tokens = _table(client, reactions=False)
    assert client.get(f"/api/tables/{table_id}").json()["reactions"] is False
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        assert sock.join(tokens)["table"]["reactions"] is False
        sock.send({"type": "react", "token": tokens[0], "emote": "wave"})
        assert _next(sock, "error")["code"] == "reactions_off"


@pytest.mark.parametrize(("message", "code"), [
    ({"type": "react", "token": "TOKEN", "emote": "free text"}, "bad_message"),
    ({"type": "react", "token": "TOKEN"}, "bad_message"),
    ({"type": "react", "token": "not-a-seat", "emote": "wave"}, "bad_token"),
])
@pytest.mark.numba_compile
def test_only_a_seat_sends_only_a_listed_emote(client: TestClient, message: dict[str, Any],
                                               code: str) -> None:
    table_id, tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.join([])
        if message.get("token") == "TOKEN":
            message = {**message, "token": tokens[0]}
        sock.send(message)
        assert _next(sock, "error")["code"] == code


@pytest.mark.numba_compile
def test_a_reaction_travels_in_a_notice_to_the_other_processes() -> None:
    for emote in EMOTES:
        notice = Notice("T1", 7, 7, (), reaction=(2, emote))
        assert parse_notice("T1", notice_payload(notice)) == notice
    assert parse_notice("T1", notice_payload(Notice("T1", 7, 7, ()))).reaction is None


@pytest.mark.parametrize("reactions", [True, False])
@pytest.mark.numba_compile
def test_a_party_sets_reactions_for_its_tables(client: TestClient, reactions: bool) -> None:
    seats = [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}] + [
        {"kind": "bot", "bot": "greedy"} for _ in range(3)]
    answer = client.post("/api/parties", json={"seats": seats, "reactions": reactions})
    assert answer.status_code == 201, answer.text
    party = client.get(f"/api/parties/{answer.json()['party_id']}").json()
    assert [table["reactions"] for table in party["tables"]] == [reactions, reactions]


class _Conn:
    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, text: str) -> None:
        self.sent.append(text)


class _BehindTable:
    """A followed table two moves behind its owner, with one connection."""

    def __init__(self) -> None:
        self.owner, self.owned, self.version = "other", False, 4
        self.conns = {_Conn()}


@pytest.mark.parametrize("version", [2, 6], ids=["late", "ahead"])
def test_a_reaction_reaches_a_process_whose_table_is_behind_or_ahead(version: int) -> None:
    """A reaction is of the moment: a process that must read the table again (the notice
    does not follow on from its moves) still shows it, rather than dropping it."""
    from trashcards.web.following import follow

    table = _BehindTable()
    notice = Notice("t", version, version, (), reaction=(1, "clap"))
    assert follow(table, notice) is False  # type: ignore[arg-type]  # (it reads the table)
    (conn,) = table.conns
    assert [json.loads(text) for text in conn.sent] == [
        {"type": "reaction", "seat": 1, "emote": "clap"}]
