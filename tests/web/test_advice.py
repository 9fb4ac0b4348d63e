"""Hints, win chances, reviews and levels through the real server (websocket and HTTP).

The AI works in worker threads from views only (trashcards.web.advice): a hint goes to
the asking connection alone and only where the table allows hints; every seat's win
chances reach the spectators; the event loop answers other messages while a hint is being
computed; two positions that differ only in hidden cards get the same hint. The permuted
replays of test_leak.py check the same through whole matches.
"""

from __future__ import annotations

import contextlib
import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from webtools import Socket, create, make_settings, wait_until_warm

import trashcards.web.advice as advice
from trashcards.ai.levels import LEVELS
from trashcards.chance import sample_chance
from trashcards.engine import apply, chance_due
from trashcards.rules import Rules
from trashcards.state import Board, State, new_match
from trashcards.views import view
from trashcards.web import create_app
from trashcards.web.advice import hint_message

from support import cached_odds

#: every server here warms up the AI (its kernels)
pytestmark = pytest.mark.numba_compile

ME_AND_HOTSEAT = [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]


def _fast_client(tmp_path: Path, **changes: Any) -> TestClient:
    settings = make_settings(tmp_path / "a.sqlite3", hint_samples=60, chance_samples=60,
                             review_samples=8, **changes)
    return TestClient(create_app(settings))


def _seats(client: TestClient, seats: list[dict[str, Any]], **extra: Any
           ) -> tuple[str, list[str]]:
    response = client.post("/api/tables", json={"seats": seats, **extra})
    assert response.status_code == 201, response.text
    made = response.json()
    return made["table_id"], [s["token"] for s in made["seats"]]


def _to_act(sock: Socket) -> tuple[int, int]:
    """Join-time state: (version, seat to act)."""
    message = sock.recv_type("state")
    return message["version"], message["state"]["to_act"]


@pytest.mark.numba_compile
def test_a_hint_goes_to_the_asking_seat_only(tmp_path: Path) -> None:
    with _fast_client(tmp_path) as client:
        table_id, tokens = _seats(client, ME_AND_HOTSEAT)
        with client.websocket_connect(f"/ws/{table_id}") as a, \
                client.websocket_connect(f"/ws/{table_id}") as b, \
                client.websocket_connect(f"/ws/{table_id}") as watcher:
            socks = [Socket(a), Socket(b)]
            spectator = Socket(watcher)
            for sock, token in zip(socks, tokens, strict=True):
                assert sock.join([token])["table"]["hints"] is True  # no open seat
            spectator.join([])
            version, seat = _to_act(socks[0])
            _to_act(socks[1])
            _to_act(spectator)
            other = socks[1 - seat]
            other.send({"type": "hint", "token": tokens[1 - seat], "version": version})
            assert other.recv_type("error")["code"] == "not_your_turn"
            socks[seat].send({"type": "hint", "token": tokens[seat], "version": version})
            answer = socks[seat].recv_type("hint")
            assert answer["seat"] == seat
            assert answer["version"] == version
            assert answer["best"] == answer["actions"][0]["action"]
            assert all(line["reason"] for line in answer["actions"])
            chances = [line["match_win"] for line in answer["actions"]]
            assert chances == sorted(chances, reverse=True)
            for sock in (other, spectator):  # the next frame after a ping is its pong
                sock.send({"type": "ping"})
                assert sock.recv()["type"] == "pong"
            assert not any('"type":"hint"' in f for f in other.frames + spectator.frames)


@pytest.mark.numba_compile
def test_hints_are_refused_where_the_creator_did_not_allow_them(tmp_path: Path) -> None:
    with _fast_client(tmp_path) as client:
        refused, tokens = _seats(client, ME_AND_HOTSEAT, hints=False)
        online, _open = _seats(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}])
        assert client.get(f"/api/tables/{online}").json()["hints"] is False  # the default
        allowed, _ = _seats(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}],
                            hints=True)
        assert client.get(f"/api/tables/{allowed}").json()["hints"] is True
        with client.websocket_connect(f"/ws/{refused}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            version, _seat = _to_act(sock)
            for token in tokens:
                sock.send({"type": "hint", "token": token, "version": version})
                error = sock.recv_type("error")
                assert error["code"] == "hints_off"
            sock.send({"type": "ping"})
            assert sock.recv()["type"] == "pong"
            assert sock.chances == []  # the players of such a table see no win chances


@pytest.mark.numba_compile
def test_win_chances_reach_a_spectator_at_every_version(tmp_path: Path) -> None:
    with _fast_client(tmp_path) as client:
        table_id, tokens = _seats(client, ME_AND_HOTSEAT, hints=False)
        with client.websocket_connect(f"/ws/{table_id}") as p, \
                client.websocket_connect(f"/ws/{table_id}") as w:
            player, spectator = Socket(p), Socket(w)
            player.join(tokens)
            spectator.join([])
            version, seat = _to_act(player)
            _to_act(spectator)
            for _ in range(4):
                chances = spectator.recv_chances(version)
                assert chances["source"] == "search"
                assert len(chances["match_win"]) == 2
                assert sum(chances["match_win"]) == pytest.approx(1.0, abs=1e-3)
                player.send({"type": "act", "token": tokens[seat],
                             "action": _legal(player)[0], "version": version})
                message = player.recv_type("events")
                version, seat = message["version"], message["state"]["to_act"]
                spectator.recv_type("events")


def _legal(sock: Socket) -> list[str]:
    last = json.loads(sock.frames[-1])
    legal: list[str] = last["state"]["legal"]
    return legal


@pytest.mark.numba_compile
def test_the_event_loop_answers_while_a_hint_is_computed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started, release = threading.Event(), threading.Event()
    real = advice.hint

    def slow_hint(*args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait(20)  # a long computation in the worker thread
        return real(*args, **kwargs)

    with _fast_client(tmp_path) as client:
        wait_until_warm(client)  # the warm-up computes a hint of its own
        monkeypatch.setattr(advice, "hint", slow_hint)
        table_id, tokens = _seats(client, ME_AND_HOTSEAT)
        with client.websocket_connect(f"/ws/{table_id}") as ws, \
                client.websocket_connect(f"/ws/{table_id}") as other:
            sock, second = Socket(ws), Socket(other)
            sock.join(tokens)
            second.join([])
            version, seat = _to_act(sock)
            _to_act(second)
            sock.send({"type": "hint", "token": tokens[seat], "version": version})
            assert started.wait(20)
            for who in (sock, second, sock):  # the loop answers while the worker thinks
                who.send({"type": "ping"})
                assert who.recv()["type"] == "pong"
            assert client.get("/healthz").json()["ok"] is True
            release.set()
            assert sock.recv_type("hint")["version"] == version


def test_busy_workers_refuse_a_hint_with_a_retry(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """One worker, one address: its hints take one thread and one more may wait
    (``ai_queue=1``); the same seat and version share one computation; the next
    table's hint is ``busy``."""
    release = threading.Event()
    real = advice.hint
    with _fast_client(tmp_path, ai_workers=1, ai_queue=1) as client:
        wait_until_warm(client)  # the warm-up computes a hint of its own
        monkeypatch.setattr(advice, "hint",
                            lambda *a, **k: (release.wait(20), real(*a, **k))[1])
        table_id, tokens = _seats(client, ME_AND_HOTSEAT)
        with client.websocket_connect(f"/ws/{table_id}") as first, \
                client.websocket_connect(f"/ws/{table_id}") as second, \
                contextlib.ExitStack() as stack:
            a, b = Socket(first), Socket(second)
            a.join(tokens)
            version, seat = _to_act(a)
            a.recv_chances(version)  # the win chances no longer take a place
            a.send({"type": "hint", "token": tokens[seat], "version": version})
            time.sleep(0.2)  # the first hint holds a thread
            b.join([tokens[seat]])
            _to_act(b)
            b.send({"type": "hint", "token": tokens[seat], "version": version})
            # the same seat and version share the running computation: not busy
            others = []
            for _ in range(3):  # one waiting place, then busy
                other_table, other_tokens = _seats(client, ME_AND_HOTSEAT)
                c = Socket(stack.enter_context(client.websocket_connect(f"/ws/{other_table}")))
                c.join(other_tokens)
                v, s = _to_act(c)
                time.sleep(0.3)  # its win chances computed (not waited for: the queue
                # may be full, and then they are skipped)
                c.send({"type": "hint", "token": other_tokens[s], "version": v})
                others.append(c)
                time.sleep(0.2)
            error = others[-1].recv_type("error")
            assert error["code"] == "busy"
            assert error["retry_after"] > 0
            release.set()
            assert a.recv_type("hint") == b.recv_type("hint")
            assert others[0].recv_type("hint")["version"] == 2
            # the waiting one ran, or had waited too long and was refused with a retry
            assert others[1].recv()["type"] in ("hint", "error")


def test_queued_hints_of_closed_sockets_are_never_computed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hints wait while the threads are busy; their sockets close; the waiting ones
    leave the queue at once and are never computed (nothing stays queued)."""
    release = threading.Event()
    calls: list[int] = []
    real = advice.hint

    def slow_hint(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        release.wait(20)
        return real(*args, **kwargs)

    with _fast_client(tmp_path, ai_workers=1) as client:
        wait_until_warm(client)  # the warm-up computes a hint too: not one of these
        monkeypatch.setattr(advice, "hint", slow_hint)
        with contextlib.ExitStack() as running, contextlib.ExitStack() as queued:
            for n in range(5):  # one takes the hint thread of the address, four wait
                table_id, tokens = _seats(client, ME_AND_HOTSEAT)
                stack = running if n < 1 else queued
                sock = Socket(stack.enter_context(client.websocket_connect(f"/ws/{table_id}")))
                sock.join(tokens)
                version, seat = _to_act(sock)
                sock.recv_chances(version)
                sock.send({"type": "hint", "token": tokens[seat], "version": version})
                time.sleep(0.2)
            assert len(calls) == 1
            assert client.get("/healthz").json()["ai_jobs"]["waiting"] == 4
        # every socket closed: nothing waits, and once released nothing more runs
        for _ in range(100):
            if client.get("/healthz").json()["ai_jobs"]["waiting"] == 0:
                break
            time.sleep(0.05)
        assert client.get("/healthz").json()["ai_jobs"]["waiting"] == 0
        release.set()
        for _ in range(100):
            if client.get("/healthz").json()["ai_jobs"]["running"] == 0:
                break
            time.sleep(0.05)
        time.sleep(0.3)
        assert len(calls) == 1


def test_hints_are_rate_limited_per_connection(tmp_path: Path) -> None:
    clock = [0.0]
    with _fast_client(tmp_path, hint_rate=1.0, hint_burst=2, clock=lambda: clock[0]) as client:
        table_id, tokens = _seats(client, ME_AND_HOTSEAT)
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            sock.join(tokens)
            version, seat = _to_act(sock)
            request = {"type": "hint", "token": tokens[seat], "version": version}
            for _ in range(2):
                sock.send(request)
                assert sock.recv_type("hint")["version"] == version
            sock.send(request)
            error = sock.recv_type("error")
            assert error["code"] == "rate_limited"
            assert error["retry_after"] > 0
            clock[0] += 1.0
            sock.send(request)
            assert sock.recv_type("hint")["version"] == version


def test_hints_are_rate_limited_per_address_across_its_sockets(tmp_path: Path) -> None:
    with _fast_client(tmp_path, hint_address_rate=1.0, clock=lambda: 0.0) as client:
        table_id, tokens = _seats(client, ME_AND_HOTSEAT)
        with client.websocket_connect(f"/ws/{table_id}") as one, \
                client.websocket_connect(f"/ws/{table_id}") as two:
            a, b = Socket(one), Socket(two)
            a.join(tokens)
            b.join(tokens)
            version, seat = _to_act(a)
            _to_act(b)
            request = {"type": "hint", "token": tokens[seat], "version": version}
            a.send(request)
            b.send(request)  # the burst of the address: two
            assert a.recv_type("hint")["version"] == version
            assert b.recv_type("hint")["version"] == version
            a.send(request)
            error = a.recv_type("error")
            assert error["code"] == "rate_limited"
            assert error["retry_after"] > 0


def _dealt(seed: int) -> State:
    state = new_match(Rules.preset_named("standard"), ("Ana", "Bo"))
    rng = __import__("random").Random(seed)
    while chance_due(state) is not None:
        state, _events = apply(state, sample_chance(state, rng))
    return state


def test_a_hint_ignores_hidden_cards(tmp_path: Path) -> None:
    """Two states that differ only in hidden cards (a face-down card of each board
    swapped with a stock card) give byte-identical hint and chances messages."""
    state = _dealt(3)
    boards = list(state.boards)
    stock = list(state.stock)
    swapped = 0
    for i, board in enumerate(boards):
        cards = list(board.cards)
        for slot, up in enumerate(board.up):
            if not up and cards[slot] != stock[swapped]:
                cards[slot], stock[swapped] = stock[swapped], cards[slot]
                swapped += 1
                break
        boards[i] = Board(board.size, tuple(cards), board.up)
    other = state._replace(boards=tuple(boards), stock=tuple(stock))
    assert swapped == 2
    assert other != state
    seat = state.to_act
    assert seat is not None
    assert view(state, seat) == view(other, seat)
    first = hint_message(view(state, seat), 5, 200)
    assert first == hint_message(view(other, seat), 5, 200)
    assert advice.chances_message(view(state, None), 5, 200) == \
        advice.chances_message(view(other, None), 5, 200)


def _finished_record(client: TestClient, bots: tuple[str, str]) -> str:
    made = create(client, [{"kind": "bot", "bot": b} for b in bots],
                  {"preset": "standard", "start_size": 6, "rounds_to_win": 1})
    table_id = made["table_id"]
    for _ in range(400):
        if client.get(f"/api/tables/{table_id}").json()["status"] == "over":
            break
        time.sleep(0.05)
    response = client.get(f"/api/tables/{table_id}/record")
    assert response.headers["x-trash-record"] == "complete"
    return response.text


def test_expert_bots_play_a_match_and_its_review_comes_back(tmp_path: Path) -> None:
    cached_odds(start_size=6, rounds_to_win=1)  # a review needs the rules' table
    with _fast_client(tmp_path) as client:
        record = _finished_record(client, ("expert", "greedy"))
        for _ in range(600):  # these rules' match-odds table is computed in the background
            response = client.post("/api/review", content=record,
                                   headers={"content-type": "application/json"})
            if response.status_code != 503:
                break
            time.sleep(0.2)
        assert response.status_code == 200, response.text
        review = response.json()
        moves = len(json.loads(record)["moves"])
        assert len(review["positions"]) == moves + 1
        assert review["positions"][0]["phase"] == "chance"
        assert review["positions"][-1]["phase"] == "match_over"
        assert all(p.get("stock") is None for p in review["positions"])
        assert [s["seat"] for s in review["summary"]] == [0, 1]
        assert review["decisions"]
        assert review["curve"]
        assert review["curve"][-1]["after"] in ([1.0, 0.0], [0.0, 1.0])


def test_a_bad_record_gets_a_clear_error(tmp_path: Path) -> None:
    with _fast_client(tmp_path, max_review_body=4096) as client:
        def post(body: bytes | str, kind: str = "application/json") -> Any:
            return client.post("/api/review", content=body, headers={"content-type": kind})
        not_json = post(b"{nope")
        assert not_json.status_code == 422
        assert not_json.json()["error"] == "bad_record"
        assert "not a record" in not_json.json()["message"]
        wrong = post(json.dumps({"format": "trash/1", "rules": {"preset": "standard"},
                                 "players": ["a", "b"], "moves": ["0 stock"]}))
        assert wrong.status_code == 422
        assert wrong.json()["error"] == "bad_record"
        assert post(b"x" * 5000).json()["error"] == "too_large"
        assert post(b"{}", "text/plain").json()["error"] == "unsupported_media_type"


def test_reviews_are_rate_limited_per_address(tmp_path: Path) -> None:
    with _fast_client(tmp_path, review_rate=2.0, clock=lambda: 0.0) as client:
        codes = [client.post("/api/review", content=b"{}",
                             headers={"content-type": "application/json"}).status_code
                 for _ in range(3)]
        assert codes == [422, 422, 429]


def test_the_levels_carry_their_measured_elo(tmp_path: Path) -> None:
    with _fast_client(tmp_path) as client:
        levels = client.get("/api/levels").json()["levels"]
    assert [level["name"] for level in levels] == [level.name for level in LEVELS]
    assert [level["elo"] for level in levels] == [round(level.elo) for level in LEVELS]
    assert levels[-1]["bot"] == "expert"
