"""Lone surrogates in every string field, NUL bytes in every id (issue 23): every record
field, every field of every HTTP body and websocket message, with a lone surrogate
(``"\\ud800"`` escaped) put into it, is refused with the one clear error (a record:
``RecordFormatError``; the server: ``bad_json``, or ``bad_record`` for a review), never a
500, an ``internal`` error or a closed socket; an id with a NUL byte anywhere is no such
table or party (404, close 4404) on SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fuzzkit import CORPUS, tally

pytest.importorskip("starlette")
from pgtools import PostgresMissingError, running_cluster
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webtools import create, make_settings

from trashcards.errors import RecordFormatError
from trashcards.record import loads
from trashcards.web import create_app

SEED = 23
#: The two halves a lone surrogate can be.
SURROGATES = ("\ud800", "\udbff", "\udc00", "\udfff")

Path_ = tuple[Any, ...]


def string_paths(value: Any, path: Path_ = ()) -> Iterator[tuple[Path_, bool]]:
    """Every string in ``value``: its path and whether it is an object's key."""
    if isinstance(value, str):
        yield path, False
    elif isinstance(value, dict):
        for key, item in value.items():
            yield (*path, key), True
            yield from string_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from string_paths(item, (*path, index))


def with_surrogate(value: Any, path: Path_, is_key: bool, rng: random.Random) -> str:
    """``value`` as JSON text (ASCII: the surrogate as an escape) with a lone surrogate
    put at a random place of the string at ``path``."""
    value = json.loads(json.dumps(value))
    parent = value
    for step in path[:-1]:
        parent = parent[step]
    last = path[-1]
    old = last if is_key else parent[last]
    at = rng.randrange(len(old) + 1)
    new = old[:at] + rng.choice(SURROGATES) + old[at:]
    if is_key:
        parent[new] = parent.pop(last)
    else:
        parent[last] = new
    text = json.dumps(value)  # ensure_ascii: "\ud800" as the six characters of its escape
    assert "\\ud" in text
    return text


def test_a_lone_surrogate_in_any_string_of_any_record_is_unreadable() -> None:
    result = tally("records with a lone surrogate in a string")
    rng = random.Random(SEED)
    for source in CORPUS:
        record = json.loads(source)
        for path, is_key in string_paths(record):
            text = with_surrogate(record, path, is_key, rng)
            try:
                loads(text)
            except RecordFormatError as exc:
                if "lone surrogate" in str(exc):
                    str(exc).encode("utf-8")
                    result.ok("unreadable: lone surrogate")
                else:
                    result.fail(repr(path), f"another reason: {exc}")
            except Exception as exc:
                result.fail(repr(path), f"{type(exc).__name__}: {exc}")
            else:
                result.fail(repr(path), "read")
    assert result.failures == []
    assert result.tried > 500  # every move of every record, every name, every key


def _bodies() -> list[tuple[str, dict[str, Any]]]:
    seats = [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"},
             {"kind": "bot", "bot": "greedy"}, {"kind": "open"}]
    return [("/api/tables", {"rules": {"preset": "standard", "wild_ranks": ["J"]},
                             "seats": seats}),
            ("/api/parties", {"rules": {"preset": "standard"}, "seats": [
                {"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"},
                {"kind": "bot", "bot": "greedy"}, {"kind": "open"}, {"kind": "open"}]}),
            ("join", {"name": "Cy"}),
            ("/api/review", json.loads(CORPUS[0]))]


def test_a_lone_surrogate_in_any_field_of_any_body_is_refused(tmp_path: Path) -> None:
    result = tally("HTTP bodies with a lone surrogate in a string")
    rng = random.Random(SEED)
    settings = make_settings(tmp_path / "b.sqlite3", review_samples=4)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        table = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}])
        for url, body in _bodies():
            if url == "join":
                url = f"/api/tables/{table['table_id']}/join"
            for path, is_key in string_paths(body):
                for _ in range(3):
                    text = with_surrogate(body, path, is_key, rng)
                    response = client.post(url, content=text,
                                           headers={"content-type": "application/json"})
                    error = response.json().get("error") if response.status_code >= 400 \
                        else None
                    want = "bad_record" if url == "/api/review" else "bad_json"
                    if error == want and response.status_code in (400, 422):
                        result.ok(f"{response.status_code} {error}")
                    else:
                        result.fail(f"{url} {path!r}", f"{response.status_code} "
                                                        f"{response.text[:200]}")
    assert result.failures == []


@pytest.mark.numba_compile
def test_a_lone_surrogate_in_any_field_of_any_message_is_bad_json(tmp_path: Path) -> None:
    result = tally("websocket messages with a lone surrogate in a string")
    rng = random.Random(SEED)
    with TestClient(create_app(make_settings(tmp_path / "m.sqlite3"))) as client:
        table = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "hotseat",
                                                                "name": "Bo"}])
        token = table["seats"][0]["token"]
        messages = [{"type": "join", "tokens": [token], "version": 0, "history": True},
                    {"type": "act", "token": token, "action": "stock", "version": 1},
                    {"type": "next_round", "token": token},
                    {"type": "rematch", "token": token},
                    {"type": "history", "before": 3},
                    {"type": "hint", "token": token, "version": 1},
                    {"type": "ping"}]
        with client.websocket_connect(f"/ws/{table['table_id']}") as ws:
            ws.send_text(json.dumps({"type": "join", "tokens": [token]}))
            while json.loads(ws.receive_text())["type"] != "joined":
                pass
            for message in messages:
                for path, is_key in string_paths(message):
                    ws.send_text(with_surrogate(message, path, is_key, rng))
                    while True:  # the answer comes after what the table sends anyway
                        reply = json.loads(ws.receive_text())
                        if reply["type"] == "error":
                            break
                    if reply["code"] == "bad_json" and "lone surrogate" in reply["message"]:
                        result.ok("error bad_json")
                    else:
                        result.fail(f"{message['type']} {path!r}", repr(reply)[:200])
            ws.send_text(json.dumps({"type": "ping"}))
            while json.loads(ws.receive_text())["type"] != "pong":
                pass
    assert result.failures == []
    assert result.tried >= 15


def _nul_ids(rng: random.Random) -> list[str]:
    ids = ["%00", "t0%00", "%00t0", "t%000", "%00" * 11, "x" * 60 + "%00"]
    for _ in range(10):
        chars = [rng.choice("abcXYZ019_-") for _ in range(rng.randrange(1, 12))]
        chars.insert(rng.randrange(len(chars) + 1), "%00")
        ids.append("".join(chars))
    return ids


@pytest.fixture(scope="module")
def postgres_url() -> Iterator[str | None]:
    """A PostgreSQL database of a throwaway cluster (``None`` without PostgreSQL)."""
    try:
        with running_cluster() as cluster:
            yield cluster.database()
    except PostgresMissingError:
        yield None


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.numba_compile
def test_a_nul_byte_anywhere_in_an_id_is_no_such_table(
        tmp_path: Path, backend: str, postgres_url: str | None) -> None:
    if backend == "postgres" and postgres_url is None:
        pytest.skip("PostgreSQL is not installed")
    result = tally(f"ids with a NUL byte ({backend})")
    db: str | Path = tmp_path / "n.sqlite3" if backend == "sqlite" else str(postgres_url)
    with TestClient(create_app(make_settings(db)), raise_server_exceptions=False) as client:
        create(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}])
        for table_id in _nul_ids(random.Random(SEED)):
            answers = [client.get(f"/api/tables/{table_id}").status_code,
                       client.get(f"/api/tables/{table_id}/record").status_code,
                       client.get(f"/api/parties/{table_id}").status_code,
                       client.post(f"/api/tables/{table_id}/join",
                                   json={"name": "Bo"}).status_code]
            try:
                with client.websocket_connect(f"/ws/{table_id}") as ws:
                    ws.receive_text()
                code = None
            except WebSocketDisconnect as exc:
                code = exc.code
            if answers == [404] * 4 and code == 4404:
                result.ok("404, close 4404")
            else:
                result.fail(table_id, f"{answers} close {code}")
        assert client.get("/api/tables/t0").status_code == 200
    assert result.failures == []
