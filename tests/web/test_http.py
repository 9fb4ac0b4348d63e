"""The HTTP side of the server: creating, listing and joining tables, presets, bots,
records, pages, and the guard against two servers on one database."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from webtools import Socket, create, make_settings

from trashcards.record import loads
from trashcards.web import create_app
from trashcards.web.store import Store, StoreBusyError


@pytest.mark.numba_compile
def test_create_returns_tokens_only_for_the_creators_seats(client: TestClient) -> None:
    made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "bot", "bot": "counter"},
                           {"kind": "open"}, {"kind": "hotseat"}])
    assert [s["seat"] for s in made["seats"]] == [0, 3]
    assert made["seats"][1]["name"] == "Player 4"
    assert len({s["token"] for s in made["seats"]}) == 2
    assert all(len(s["token"]) >= 32 for s in made["seats"])
    assert made["invite"] == f"/t/{made['table_id']}"
    assert made["spectate"] == f"/t/{made['table_id']}?watch=1"
    info = client.get(f"/api/tables/{made['table_id']}").json()
    assert info["status"] == "waiting"
    assert info["open"] == [2]
    assert info["seats"][1] == {"seat": 1, "kind": "bot", "name": "bot:counter",
                                "taken": True, "bot": "counter"}


@pytest.mark.parametrize(("body", "code", "field"), [
    ({"seats": [{"kind": "me"}]}, "bad_request", "seats"),
    ({"seats": [{"kind": "me"}] * 5}, "bad_request", "seats"),
    ({"seats": [{"kind": "robot"}, {"kind": "me"}]}, "bad_request", "kind"),
    ({"seats": [{"kind": "bot", "bot": "genius"}, {"kind": "me"}]}, "bad_request", "genius"),
    ({"seats": [{"kind": "me", "name": "x" * 25}, {"kind": "me"}]}, "bad_name", "at most 24"),
    ({"seats": [{"kind": "me", "name": "A\x1b[2J"}, {"kind": "me"}]}, "bad_name", "\\x1b"),
    ({"seats": [{"kind": "me", "name": "  "}, {"kind": "me"}]}, "bad_name", "empty"),
    ({"rules": {"preset": "nope"}, "seats": [{"kind": "me"}, {"kind": "me"}]},
     "bad_rules", "preset"),
    ({"rules": {"start_size": 11}, "seats": [{"kind": "me"}, {"kind": "me"}]},
     "bad_rules", "start_size"),
    ({"rules": {"colour": "red"}, "seats": [{"kind": "me"}, {"kind": "me"}]},
     "bad_rules", "colour"),
    ({"rules": {"decks": 1, "jokers_per_deck": 0, "start_size": 10},
      "seats": [{"kind": "me"}] * 4 + []}, None, None),
])
@pytest.mark.numba_compile
def test_bad_tables_are_refused_with_the_reason(client: TestClient, body: dict[str, Any],
                                                code: str | None, field: str | None) -> None:
    response = client.post("/api/tables", json=body)
    if code is None:
        assert response.status_code == 201
        return
    assert response.status_code == 400
    assert response.json()["error"] == code
    assert field in response.json()["message"]


@pytest.mark.numba_compile
def test_bad_bodies(client: TestClient) -> None:
    json_type = {"Content-Type": "application/json"}
    response = client.post("/api/tables", content=b"{nope", headers=json_type)
    assert (response.status_code, response.json()["error"]) == (400, "bad_json")
    response = client.post("/api/tables", content=b"x" * 20_000, headers=json_type)
    assert (response.status_code, response.json()["error"]) == (413, "too_large")
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/tables/nope/join", json={}).json()["error"] == "no_table"


@pytest.mark.numba_compile
def test_joining_open_seats_starts_the_match(client: TestClient) -> None:
    made = create(client, [{"kind": "me", "name": "Ana"}, {"kind": "open"}, {"kind": "open"}])
    table_id = made["table_id"]
    listed = client.get("/api/tables").json()["tables"]
    assert [t["table_id"] for t in listed] == [table_id]
    with client.websocket_connect(f"/ws/{table_id}") as ws:
        sock = Socket(ws)
        joined = sock.join([made["seats"][0]["token"]])
        assert joined["version"] == 0
        assert joined["table"]["status"] == "waiting"
        sock.send({"type": "act", "token": made["seats"][0]["token"], "action": "stock",
                   "version": 0})
        assert sock.recv_type("error")["code"] == "not_started"
        bo = client.post(f"/api/tables/{table_id}/join", json={"name": "Bo", "seat": 2}).json()
        assert (bo["seat"], bo["name"]) == (2, "Bo")
        assert sock.recv_type("table")["table"]["open"] == [1]
        taken = client.post(f"/api/tables/{table_id}/join", json={"seat": 2})
        assert (taken.status_code, taken.json()["error"]) == (409, "seat_taken")
        cy = client.post(f"/api/tables/{table_id}/join", json={"name": "Cy"}).json()
        assert cy["seat"] == 1
        assert sock.recv_type("table")["table"]["status"] == "playing"
        started = sock.recv_type("events")
        assert [e["type"] for e in started["events"]][:2] == ["dealer_chosen", "dealt"]
        assert [p["name"] for p in started["state"]["players"]] == ["Ana", "Cy", "Bo"]
    full = client.post(f"/api/tables/{table_id}/join", json={"name": "Di"})
    assert (full.status_code, full.json()["error"]) == (409, "no_open_seat")
    assert client.get("/api/tables").json()["tables"] == []
    with client.websocket_connect(f"/ws/{table_id}") as ws:  # Bo's token works
        sock = Socket(ws)
        assert sock.join([bo["token"]])["seats"] == [2]


@pytest.mark.numba_compile
def test_presets_and_bots(client: TestClient) -> None:
    presets = {p["name"]: p for p in client.get("/api/presets").json()["presets"]}
    assert {"standard", "classic", "kings-wild", "jokers", "call-trash", "kids",
            "last-chance", "all-faces-wild", "first-to-5"} <= set(presets)
    assert presets["classic"]["rules"]["wild_ranks"] == ["K"]
    assert presets["standard"]["summary"].startswith("standard: ")
    bots = [b["name"] for b in client.get("/api/bots").json()["bots"]]
    assert {"random", "greedy", "counter", "kid"} <= set(bots)


@pytest.mark.numba_compile
def test_record_download(client: TestClient) -> None:
    made = create(client, [{"kind": "bot"}, {"kind": "bot"}],
                  {"preset": "classic", "start_size": 2})
    table_id = made["table_id"]
    with client.websocket_connect(f"/ws/{table_id}") as ws:  # watch to the end
        sock = Socket(ws)
        sock.join([], version=0)
        while sock.recv()["state"]["phase"] != "match_over":
            pass
    response = client.get(f"/api/tables/{table_id}/record")
    assert response.headers["x-trash-record"] == "complete"
    assert response.headers["content-disposition"] == \
        f'attachment; filename="trash-{table_id}.trash.json"'
    record = loads(response.text)
    assert record.players == ("bot:greedy", "bot:greedy:2")  # as `play --resume` reads them
    assert record.replay().match_winner is not None


@pytest.mark.numba_compile
def test_pages_are_the_templates_and_static_files_are_served_as_they_are(
        tmp_path: Path) -> None:
    static = tmp_path / "static"
    static.mkdir()
    (static / "app.js").write_text("<!-- app.js -->")
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "base.html").write_text("<head>one head</head>{% block main %}{% endblock %}")
    for name in ("index.html", "table.html", "rules.html"):
        (templates / name).write_text(
            '{% extends "base.html" %}{% block main %}<!-- ' + name + ' -->{% endblock %}')
    settings = make_settings(tmp_path / "p.sqlite3", static_dir=static,
                             templates_dir=templates)
    with TestClient(create_app(settings)) as client:
        assert client.get("/").text == "<head>one head</head><!-- index.html -->"
        assert client.get("/t/abc?watch=1").text == "<head>one head</head><!-- table.html -->"
        assert client.get("/rules").text == "<head>one head</head><!-- rules.html -->"
        assert client.get("/rules/vi").text == "<head>one head</head><!-- rules.html -->"
        assert client.get("/").headers["cache-control"] == "no-cache"
        assert client.get("/static/app.js").text == "<!-- app.js -->"
        assert client.get("/static/nope.js").status_code == 404
        assert client.get("/healthz").json()["ok"] is True
    (templates / "index.html").unlink()
    with TestClient(create_app(settings)) as client:
        assert client.get("/").status_code == 404


@pytest.mark.numba_compile
def test_every_page_shares_one_head_and_top_bar(tmp_path: Path) -> None:
    """Issue 22: the six pages are one template (templates/base.html) and their own main
    part; no page keeps a copy of the head or the top bar."""
    import re

    settings = make_settings(tmp_path / "p.sqlite3")
    parts: dict[str, set[str]] = {"head": set(), "brand": set(), "language": set()}
    with TestClient(create_app(settings)) as client:
        for path in ("/", "/t/abc", "/p/abc", "/review", "/rules", "/rules/es"):
            page = client.get(path)
            assert page.status_code == 200, path
            parts["head"].add(page.text.split('<link rel="stylesheet"')[0])
            brand = re.search(r'<a class="brand".*?</a>', page.text, re.S)
            language = re.search(r'<label class="lang">.*?</label>', page.text, re.S)
            assert brand is not None, path
            assert language is not None, path
            parts["brand"].add(brand.group(0))
            parts["language"].add(language.group(0))
    assert {name: len(found) for name, found in parts.items()} == \
        {"head": 1, "brand": 1, "language": 1}
    client_dir = settings.static_dir
    assert not list(client_dir.glob("*.html")), "a page is still a copy in static/"
def test_two_servers_cannot_share_a_database(tmp_path: Path) -> None:
    db = tmp_path / "one.sqlite3"
    first = Store(db)
    try:
        with pytest.raises(StoreBusyError):
            Store(db)
    finally:
        first.close()
    Store(db).close()  # free again once the first one is gone


@pytest.mark.numba_compile
def test_tables_survive_a_new_app_on_the_same_database(tmp_path: Path) -> None:
    db = tmp_path / "same.sqlite3"
    with TestClient(create_app(make_settings(db))) as client:
        made = create(client, [{"kind": "me"}, {"kind": "open"}])
    with TestClient(create_app(make_settings(db))) as client:
        info = client.get(f"/api/tables/{made['table_id']}").json()
        assert info["open"] == [1]
        with client.websocket_connect(f"/ws/{made['table_id']}") as ws:
            assert Socket(ws).join([made["seats"][0]["token"]])["seats"] == [0]


@pytest.mark.numba_compile
def test_a_table_whose_last_seat_was_taken_before_a_crash_starts(tmp_path: Path) -> None:
    db = tmp_path / "crash.sqlite3"
    with TestClient(create_app(make_settings(db))) as client:
        made = create(client, [{"kind": "me"}, {"kind": "open"}])
    store = Store(db)  # the seat was written, the server died before the first deal
    store.take_seat(made["table_id"], 1, "Bo", "0" * 64)
    store.close()
    with TestClient(create_app(make_settings(db))) as client:
        info = client.get(f"/api/tables/{made['table_id']}").json()
        assert (info["status"], info["version"]) == ("playing", 2)


def test_a_connection_that_cannot_keep_up_is_dropped() -> None:
    from trashcards.web.connection import TOO_SLOW, Connection

    conn = Connection(max_queue=3)
    for n in range(5):
        conn.send(f"frame {n}")
    queued = [conn.queue.get_nowait() for _ in range(conn.queue.qsize())]
    assert queued == [TOO_SLOW]  # what it could not read is dropped: close the socket
    assert conn.dropped
    assert conn.queued == 0
    conn = Connection(max_queue=100, max_bytes=20)  # the memory bound: 20 characters
    conn.send("x" * 15)
    assert not conn.dropped
    conn.send("y" * 10)
    assert conn.dropped


@pytest.mark.numba_compile
def test_a_finished_table_shows_its_last_state_to_new_watchers(tmp_path: Path) -> None:
    with TestClient(create_app(make_settings(tmp_path / "f.sqlite3"))) as client:
        made = create(client, [{"kind": "bot"}, {"kind": "bot"}],
                      {"preset": "classic", "start_size": 2})
        table_id = made["table_id"]
        with client.websocket_connect(f"/ws/{table_id}") as ws:
            sock = Socket(ws)
            sock.join([], version=0)
            while (last := sock.recv())["state"]["phase"] != "match_over":
                pass
        with client.websocket_connect(f"/ws/{table_id}") as ws:  # loaded from the database
            sock = Socket(ws)
            sock.join([], version=None)
            assert sock.recv_type("state")["state"] == last["state"]
