"""Text that is not text, and names the server would refuse, from every way in (issue
23): lone surrogates in records, bodies and frames; names in imported records."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from webtools import Socket, create, make_settings

from trashcards.cli.restore import import_records
from trashcards.web import create_app

DATA = Path(__file__).parent.parent / "data"


def _record(**changes: Any) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((DATA / "classic-2p.trash.json").read_text())
    record.update(changes)
    return record


def _surrogate_bodies() -> dict[str, str]:
    """A record with a lone surrogate escape in a move, a name, a rules key."""
    moves = _record()["moves"]
    return {"move": json.dumps(_record(moves=[*moves[:4], "1: discard\ud800", *moves[5:]])),
            "name": json.dumps(_record(players=["Ana\udc00", "Bo"])),
            "rules": json.dumps(_record(rules={"preset": "classic", "\ud800": 1}))}


@pytest.mark.parametrize("where", ["move", "name", "rules"])
@pytest.mark.numba_compile
def test_a_review_of_a_record_with_a_lone_surrogate_is_a_bad_record(
        tmp_path: Path, where: str) -> None:
    body = _surrogate_bodies()[where]
    assert "\\ud" in body
    settings = make_settings(tmp_path / "r.sqlite3", review_samples=4)
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        response = client.post("/api/review", content=body,
                               headers={"content-type": "application/json"})
    assert response.status_code == 422, response.text
    assert response.json()["error"] == "bad_record"
    assert "lone surrogate" in response.json()["message"]


@pytest.mark.numba_compile
def test_lone_surrogates_in_bodies_and_frames_are_bad_json(tmp_path: Path) -> None:
    """A table, a party and a join with a surrogate name are refused with 400, a frame
    with one gets a ``bad_json`` error and the connection goes on."""
    settings = make_settings(tmp_path / "s.sqlite3")
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        for path, body in [
                ("/api/tables", '{"seats": [{"kind": "me", "name": "\\ud800"}, '
                                '{"kind": "bot"}]}'),
                ("/api/parties", '{"seats": [{"kind": "me", "name": "A\\udfffB"}, '
                                 '{"kind": "bot"}]}')]:
            response = client.post(path, content=body,
                                   headers={"content-type": "application/json"})
            assert response.status_code == 400, (path, response.text)
            assert response.json()["error"] == "bad_json"
            assert "lone surrogate" in response.json()["message"]
        table = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}])
        response = client.post(f"/api/tables/{table['table_id']}/join",
                               content='{"name": "\\ud83d"}',
                               headers={"content-type": "application/json"})
        assert (response.status_code, response.json()["error"]) == (400, "bad_json")
        token = table["seats"][0]["token"]
        with client.websocket_connect(f"/ws/{table['table_id']}") as ws:
            sock = Socket(ws)
            sock.send('{"type": "join", "tokens": ["\\ud800"]}')
            error = sock.recv_type("error")
            assert (error["code"], "lone surrogate" in error["message"]) == ("bad_json", True)
            state = sock.join([token])
            sock.send('{"type": "act", "token": "' + token + '", "action": "stock\\udc00", '
                      f'"version": {state["version"]}}}')
            error = sock.recv_type("error")
            assert error["code"] == "bad_json"
            sock.send({"type": "ping"})
            assert sock.recv_type("pong") == {"type": "pong"}


@pytest.mark.numba_compile
def test_import_refuses_lone_surrogates_and_names_the_server_would_refuse(
        tmp_path: Path, database: str | Path) -> None:
    """On both backends: a record with a lone surrogate, a 5,000-character name, a name
    with a control character or a text-direction override is named and left out; a name
    with surrounding spaces goes in trimmed."""
    folder = tmp_path / "in"
    folder.mkdir()
    bad = {"surrogate": _surrogate_bodies()["name"],
           "long": json.dumps(_record(players=["A" * 5000, "Bo"])),
           "control": json.dumps(_record(players=["Ana", "B\x1b[2Jo"])),
           "bidi": json.dumps(_record(players=["\u202eAna", "Bo"])),
           "empty": json.dumps(_record(players=["Ana", "   "]))}
    for name, text in bad.items():
        (folder / f"trash-{name}.trash.json").write_text(text, encoding="utf-8")
    (folder / "trash-good.trash.json").write_text(
        json.dumps(_record(players=["  Ana  ", "Bo \U0001f600"])), encoding="utf-8")
    result = CliRunner().invoke(import_records, [str(folder), "--db", str(database)])
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output
    for name in bad:
        assert f"trash-{name}.trash.json: not imported" in result.output, name
    assert "lone surrogate" in result.output
    assert "the name of seat 0: a name is at most 24 characters" in result.output
    assert "the name of seat 1: a name cannot hold the character \\x1b" in result.output
    assert "imported 1 record(s); 5 not imported" in result.output
    with TestClient(create_app(make_settings(database))) as client:
        assert client.get("/api/tables/long").status_code == 404
        info = client.get("/api/tables/good").json()
        assert [seat["name"] for seat in info["seats"]] == ["Ana", "Bo \U0001f600"]


@pytest.mark.parametrize("table_id", ["t0%00", "%00", "a%00b" * 5])
@pytest.mark.numba_compile
def test_a_nul_in_an_id_is_no_such_table_on_every_backend(client: TestClient,
                                                          table_id: str) -> None:
    create(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}])
    for path in (f"/api/tables/{table_id}", f"/api/tables/{table_id}/record",
                 f"/api/parties/{table_id}"):
        response = client.get(path)
        assert response.status_code == 404, (path, response.text)
        assert response.json()["error"] in ("no_table", "no_party")
    joined = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo"})
    assert (joined.status_code, joined.json()["error"]) == (404, "no_table")
    with pytest.raises(WebSocketDisconnect) as info, \
            client.websocket_connect(f"/ws/{table_id}") as ws:
        ws.receive_text()
    assert info.value.code == 4404
    assert client.get("/api/tables/t0").status_code == 200  # the server goes on
