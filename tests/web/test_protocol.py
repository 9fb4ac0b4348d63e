"""The websocket protocol of docs/protocol.md over a real websocket (Starlette's
TestClient): join, act, every kind of refused message, reconnecting with an old version."""

from __future__ import annotations

import json
from typing import Any

import pytest
from starlette.testclient import TestClient
from webtools import Socket, create

from trashcards import Record
from trashcards.record import loads

TWO_PEOPLE = [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]


def _table(client: TestClient, rules: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    made = create(client, TWO_PEOPLE, rules)
    return made["table_id"], [s["token"] for s in made["seats"]]


def _version(client: TestClient, table_id: str) -> int:
    version: int = client.get(f"/api/tables/{table_id}").json()["version"]
    return version


def _act(sock: Socket, token: str, action: str, version: int) -> dict[str, Any]:
    sock.send({"type": "act", "token": token, "action": action, "version": version})
    return sock.recv()


@pytest.mark.numba_compile
def test_join_gives_the_seat_and_its_view(client: TestClient) -> None:
    table_id, tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        joined = sock.join([tokens[1]])
        assert joined["seats"] == [1]
        assert joined["table"]["status"] == "playing"
        assert [s["name"] for s in joined["table"]["seats"]] == ["Ana", "Bo"]
        state = sock.recv_type("state")
        assert state["seat"] == 1
        assert state["version"] == joined["version"] == 2  # dealer and deck
        view = state["state"]
        assert "stock" not in view
        assert all(slot == {"card": None, "up": False}
                   for player in view["players"] for slot in player["slots"])


@pytest.mark.numba_compile
def test_spectator_gets_the_public_view(client: TestClient) -> None:
    table_id, _tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        assert sock.join([])["seats"] == []
        assert sock.recv_type("state")["seat"] is None


@pytest.mark.numba_compile
def test_act_sends_the_events_to_every_connection(client: TestClient) -> None:
    table_id, tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws0, \
            client.websocket_connect(f"/ws/{table_id}") as ws1:
        a, b = Socket(ws0), Socket(ws1)
        a.join([tokens[0]])
        to_act = a.recv_type("state")["state"]["to_act"]
        b.join([tokens[1]])
        b.recv_type("state")
        mover = a if to_act == 0 else b
        message = _act(mover, tokens[to_act], "stock", 2)
        assert message["type"] == "events"
        assert message["from_version"] == 2
        assert message["version"] == 3
        assert message["events"][0]["type"] == "drew"
        assert message["events"][0]["seat"] == to_act
        other = b if mover is a else a
        echoed = other.recv_type("events")
        assert echoed["events"] == message["events"]
        assert echoed["seat"] != message["seat"]
        assert echoed["state"] == {**message["state"], "seat": echoed["seat"]}
    assert _version(client, table_id) == 3


@pytest.mark.numba_compile
def test_hotseat_connection_holds_several_seats(client: TestClient) -> None:
    table_id, tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        assert sock.join(tokens)["seats"] == [0, 1]
        state = sock.recv_type("state")["state"]
        version = 2
        for _ in range(6):  # both seats play from one connection
            seat = state["to_act"]
            message = _act(sock, tokens[seat], state["legal"][0], version)
            assert message["type"] == "events", message
            version, state = message["version"], message["state"]


def _error(sock: Socket, message: dict[str, Any] | str) -> dict[str, Any]:
    sock.send(message)
    reply = sock.recv_type("error")
    assert reply["message"]
    return reply


@pytest.mark.parametrize(("frame", "code"), [
    ("{not json", "bad_json"),
    ("[1, 2]", "bad_json"),
    ('"join"', "bad_json"),
    ({"type": "fly"}, "unknown_type"),
    ({"tokens": []}, "unknown_type"),
    ({"type": "act", "action": "stock", "version": 2}, "bad_message"),
    ({"type": "act", "token": "x", "action": "stock", "version": "2"}, "bad_message"),
    ({"type": "join", "tokens": "abc"}, "bad_message"),
    ({"type": "ping", "extra": 1}, "bad_message"),
])
@pytest.mark.numba_compile
def test_malformed_messages_are_refused(client: TestClient, frame: Any, code: str) -> None:
    table_id, tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        assert _error(sock, frame)["code"] == code
        sock.join([tokens[0]])  # the connection still works
        sock.recv_type("state")
    assert _version(client, table_id) == 2


@pytest.mark.numba_compile
def test_every_refused_action_says_why_and_changes_nothing(client: TestClient) -> None:
    table_id, tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.send({"type": "act", "token": tokens[0], "action": "stock", "version": 2})
        assert sock.recv_type("error")["code"] == "not_joined"
        sock.join(tokens)
        state = sock.recv_type("state")["state"]
        me, other = state["to_act"], 1 - state["to_act"]
        record_before = client.get(f"/api/tables/{table_id}/record").text

        assert _error(sock, {"type": "act", "token": "not-a-token", "action": "stock",
                             "version": 2})["code"] == "bad_token"
        assert _error(sock, {"type": "act", "token": tokens[me], "action": "fly",
                             "version": 2})["code"] == "bad_action"
        assert _error(sock, {"type": "act", "token": tokens[me], "action": "wild 11",
                             "version": 2})["code"] == "bad_action"
        turn = _error(sock, {"type": "act", "token": tokens[other], "action": "stock",
                             "version": 2})
        assert turn["code"] == "not_your_turn"
        assert f"seat {me} is to act" in turn["message"]
        illegal = _error(sock, {"type": "act", "token": tokens[me], "action": "discard",
                                "version": 2})
        assert illegal["code"] == "illegal"
        assert "discard" in illegal["message"]
        assert _error(sock, {"type": "act", "token": tokens[me], "action": "swap",
                             "version": 2})["code"] == "illegal"
        stale = _error(sock, {"type": "act", "token": tokens[me], "action": "stock",
                              "version": 1})
        assert stale["code"] == "stale_version"
        assert sock.recv_type("state")["version"] == 2  # a fresh state follows
        assert _error(sock, {"type": "next_round", "token": tokens[me]})["code"] == "bad_phase"
        assert _error(sock, {"type": "rematch", "token": tokens[me]})["code"] == "bad_phase"
        assert _error(sock, {"type": "next_round", "token": "nope"})["code"] == "bad_token"

        assert _version(client, table_id) == 2
        assert client.get(f"/api/tables/{table_id}/record").text == record_before
        assert _act(sock, tokens[me], "stock", 2)["type"] == "events"  # still playable


@pytest.mark.numba_compile
def test_a_wrong_token_at_join_is_reported_and_the_rest_joins(client: TestClient) -> None:
    table_id, tokens = _table(client)
    other_id, other_tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.send({"type": "join", "tokens": [other_tokens[0], tokens[1]], "version": None})
        assert sock.recv_type("error")["code"] == "bad_token"  # another table's token
        assert sock.recv_type("joined")["seats"] == [1]
    assert other_id != table_id


@pytest.mark.numba_compile
def test_too_large_and_rate_limited(tmp_path: Any) -> None:
    from webtools import make_settings

    from trashcards.web import create_app

    now = [0.0]
    settings = make_settings(tmp_path / "r.sqlite3", rate=1.0, burst=3, max_message=100,
                             clock=lambda: now[0])
    with TestClient(create_app(settings)) as client:
        table_id, _tokens = _table(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            big = json.dumps({"type": "ping", "pad": "x" * 200})
            assert _error(sock, big)["code"] == "too_large"  # counted like any message
            for _ in range(2):
                sock.send({"type": "ping"})
                assert sock.recv_type("pong")
            assert _error(sock, {"type": "ping"})["code"] == "rate_limited"
            now[0] += 1.0  # one second later: one more message is allowed
            sock.send({"type": "ping"})
            assert sock.recv_type("pong")
            assert _error(sock, {"type": "ping"})["code"] == "rate_limited"


def test_a_connection_over_its_rate_is_not_read_until_it_may_send(tmp_path: Any) -> None:
    """A flood costs the server one refusal per pause, not one per frame: after a
    ``rate_limited``, the connection is not read until a message would be accepted."""
    import time

    from webtools import make_settings

    from trashcards.web import create_app

    rate, frames = 20.0, 50
    settings = make_settings(tmp_path / "f.sqlite3", rate=rate, burst=2)
    with TestClient(create_app(settings)) as client:
        table_id, _tokens = _table(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            began = time.monotonic()
            for _ in range(frames):
                sock.send({"type": "ping"})
            answers = [sock.recv()["type"] for _ in range(frames)]
            seconds = time.monotonic() - began
    refused = answers.count("error")
    assert answers.count("pong") + refused == frames  # every frame answered, in time
    assert refused >= 1
    # at most one refusal per pause of 1/rate seconds (answered at once, all 48 would be)
    assert refused <= 1 + seconds * rate, (refused, seconds)


def test_unknown_table_closes_the_socket(client: TestClient) -> None:
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect("/ws/nope") as ws, pytest.raises(WebSocketDisconnect) as exc:
        ws.receive_text()
    assert exc.value.code == 4404


def _play(sock: Socket, tokens: list[str], version: int, state: dict[str, Any],
          moves: int) -> tuple[int, dict[str, Any], list[dict[str, Any]]]:
    events: list[dict[str, Any]] = []
    for _ in range(moves):
        message = _act(sock, tokens[state["to_act"]], state["legal"][0], version)
        assert message["type"] == "events", message
        assert message["from_version"] == version
        events.extend(message["events"])
        version, state = message["version"], message["state"]
    return version, state, events


@pytest.mark.numba_compile
def test_reconnect_with_an_old_version_gets_what_it_missed(client: TestClient) -> None:
    table_id, tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.join(tokens)
        state = sock.recv_type("state")["state"]
        version, state, _ = _play(sock, tokens, 2, state, 3)
        seen = version
        version, state, missed = _play(sock, tokens, version, state, 5)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        assert sock.join([tokens[0]], version=seen)["version"] == version
        caught_up = sock.recv_type("events")
        assert caught_up["from_version"] == seen
        assert caught_up["version"] == version
        assert caught_up["events"] == missed
        assert caught_up["state"] == {**state, "seat": 0}
        # an act with the version it had before reconnecting is stale
        assert _act(sock, tokens[state["to_act"]], "stock", seen)["code"] == "stale_version"
        assert sock.recv_type("state")["version"] == version


@pytest.mark.parametrize("version", [-1, 10_000])
@pytest.mark.numba_compile
def test_reconnect_with_an_unknown_version_gets_a_fresh_state(client: TestClient,
                                                               version: int) -> None:
    table_id, tokens = _table(client)
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.join([tokens[0]], version=version)
        assert sock.recv_type("state")["version"] == 2


@pytest.mark.numba_compile
def test_reconnect_too_far_behind_gets_a_fresh_state(tmp_path: Any) -> None:
    from webtools import make_settings

    from trashcards.web import create_app

    with TestClient(create_app(make_settings(tmp_path / "c.sqlite3", max_catchup=3))) as client:
        table_id, tokens = _table(client)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            state = sock.recv_type("state")["state"]
            version, state, _ = _play(sock, tokens, 2, state, 4)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            sock.join(tokens, version=2)
            fresh = sock.recv_type("state")
            assert fresh["version"] == version
            assert fresh["state"] == state


def _play_round(sock: Socket, tokens: list[str], version: int,
                state: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    while state["phase"] not in ("round_over", "match_over"):
        version, state, _ = _play(sock, tokens, version, state, 1)
    return version, state


@pytest.mark.numba_compile
def test_next_round_waits_for_every_person(client: TestClient) -> None:
    table_id, tokens = _table(client, {"preset": "standard", "start_size": 2})
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.join(tokens)
        version, state = _play_round(sock, tokens, 2, sock.recv_type("state")["state"])
        assert state["phase"] == "round_over"
        winner = state["round_winners"][0]
        sock.send({"type": "next_round", "token": tokens[winner]})
        assert sock.recv_type("table")["table"]["ready"] == [winner]
        assert _version(client, table_id) == version  # one person is not enough
        sock.send({"type": "next_round", "token": tokens[1 - winner]})
        dealt = sock.recv_type("events")
        assert dealt["events"][0]["type"] == "dealt"
        assert dealt["state"]["round"] == 2
        assert dealt["state"]["players"][winner]["board_size"] == 1


@pytest.mark.numba_compile
def test_round_pause_deals_the_next_round(tmp_path: Any) -> None:
    from webtools import make_settings

    from trashcards.web import create_app

    settings = make_settings(tmp_path / "p.sqlite3", round_pause=0.0)
    with TestClient(create_app(settings)) as client:
        table_id, tokens = _table(client, {"preset": "standard", "start_size": 2})
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            _, state = _play_round(sock, tokens, 2, sock.recv_type("state")["state"])
            assert state["phase"] == "round_over"
            assert sock.recv_type("events")["state"]["round"] == 2


@pytest.mark.numba_compile
def test_match_over_then_rematch_with_the_same_tokens(client: TestClient) -> None:
    table_id, tokens = _table(client, {"preset": "classic", "start_size": 2})
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.join(tokens)
        _v, state = _play_round(sock, tokens, 2, sock.recv_type("state")["state"])
        assert state["phase"] == "match_over"
        assert sorted(state["standings"]) == [1, 2]
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.headers["x-trash-record"] == "complete"
        assert loads(record.text).replay().match_winner == state["match_winner"]
        sock.send({"type": "rematch", "token": tokens[0]})
        assert sock.recv_type("table")["table"]["rematch"] is not None
        new_id = sock.recv_type("rematch")["table_id"]
        sock.send({"type": "rematch", "token": tokens[1]})  # asking again: the same table
        assert sock.recv_type("rematch")["table_id"] == new_id
    with client.websocket_connect(f"/ws/{new_id}") as ws:
        sock = Socket(ws)
        assert sock.join(tokens)["seats"] == [0, 1]
        assert sock.recv_type("state")["state"]["phase"] == "draw"


@pytest.mark.numba_compile
def test_bot_plays_through_the_same_path(client: TestClient) -> None:
    made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "bot", "bot": "random"}],
                  {"preset": "classic", "start_size": 3})
    table_id, token = made["table_id"], made["seats"][0]["token"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        sock.join([token], version=0)  # from the start: the cut and the deal
        message = sock.recv_type("events")
        state, version, bot_moves = message["state"], message["version"], 0
        while state["phase"] != "match_over":
            if state["to_act"] == 0:
                message = _act(sock, token, state["legal"][-1], version)
            else:
                message = sock.recv_type("events")
                bot_moves += 1
            assert message["type"] == "events", message
            assert message["from_version"] == version
            state, version = message["state"], message["version"]
    record = Record.replay(loads(client.get(f"/api/tables/{table_id}/record").text))
    assert record.match_winner == state["match_winner"]
    assert bot_moves > 0


@pytest.mark.numba_compile
def test_partial_record_stops_before_the_current_deal(client: TestClient) -> None:
    table_id, _tokens = _table(client)
    response = client.get(f"/api/tables/{table_id}/record")
    assert response.headers["x-trash-record"] == "partial"
    assert "attachment" in response.headers["content-disposition"]
    record = loads(response.text)
    assert len(record.moves) == 1
    assert str(record.moves[0]).startswith("dealer ")
    assert "deck" not in response.text
