"""Quick pairing (docs/players.md, "Play now"): the window rule; people who ask for the
same are seated together and their seats work; a bot near one's rating is offered after
the chosen wait and rated for an account; 20 clients at once are all seated in one pass
of the matcher, on one process and across three processes on PostgreSQL; a killed
process loses no one's place."""

from __future__ import annotations

import json
import urllib.request
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import pytest
from playertools import play_out, players_server, post, sign_up, wait_for
from servetools import launch, stop, wait_healthy

from trashcards.web.pairing import Seeker, group
from trashcards.web.players import PlayerSettings


def seeker(name: str, rating: float, created: float = 0.0, account: str | None = None
           ) -> Seeker:
    return Seeker(name, account, name, rating, created)


def test_the_window_widens_with_waiting_and_must_cover_both() -> None:
    near, far = seeker("a", 1500), seeker("b", 1650)
    assert group([near, far], 2, now=0.0, base=100, widen=10) == []
    # after 5 s both windows are 150: they meet
    assert group([near, far], 2, now=5.0, base=100, widen=10) == [[near, far]]
    late = seeker("c", 1650, created=5.0)  # just asked: its window is still 100
    assert group([near, late], 2, now=5.0, base=100, widen=10) == []


def test_the_oldest_is_seated_first_with_the_nearest() -> None:
    old, close, closer = seeker("a", 1500), seeker("b", 1580, 1.0), seeker("c", 1510, 2.0)
    assert group([closer, close, old], 2, now=3.0, base=100, widen=0) == [[old, closer]]


def test_an_account_is_never_seated_against_itself() -> None:
    one, again = seeker("a", 1500, account="x"), seeker("b", 1500, account="x")
    assert group([one, again], 2, now=0.0, base=100, widen=0) == []


def test_a_table_of_three_needs_every_pair_within_their_windows() -> None:
    low, mid, high = seeker("a", 1400), seeker("b", 1480), seeker("c", 1560)
    assert group([low, mid, high], 3, now=0.0, base=100, widen=0) == []
    assert group([low, mid, high], 3, now=0.0, base=160, widen=0) == [[low, mid, high]]


def _ask(client: Any, body: dict[str, Any]) -> str:
    response = post(client, "/api/pair", body)
    assert response.status_code == 201, response.text
    return str(response.json()["ticket"])


@pytest.mark.numba_compile
def test_two_who_ask_for_the_same_are_seated_together(database: str | Path) -> None:
    with players_server(database) as client:
        first = _ask(client, {"preset": "kids", "players": 2, "name": "Ana", "wait": 60})
        other = _ask(client, {"preset": "standard", "players": 2, "name": "Cy", "wait": 60})
        second = _ask(client, {"preset": "kids", "players": 2, "name": "Bo", "wait": 60})
        seated = [wait_for(lambda t=t: (lambda r: r if r["status"] == "seated" else None)(
            post(client, f"/api/pair/{t}").json())) for t in (first, second)]
        assert seated[0]["table_id"] == seated[1]["table_id"]
        assert {s["seat"] for s in seated} == {0, 1}
        info = client.get(f"/api/tables/{seated[0]['table_id']}").json()
        assert info["rules"]["preset"] == "kids"
        assert {s["name"] for s in info["seats"]} == {"Ana", "Bo"}
        assert info["hints"] is False
        assert post(client, f"/api/pair/{other}").json()["status"] == "waiting"
        with client.websocket_connect(f"/ws/{seated[0]['table_id']}") as ws:
            ws.send_text(json.dumps({"type": "join", "tokens": [seated[0]["token"]]}))
            assert json.loads(ws.receive_text())["seats"] == [seated[0]["seat"]]


@pytest.mark.numba_compile
def test_two_with_one_name_are_seated_as_two(tmp_path: Path) -> None:
    with players_server(tmp_path / "db.sqlite3") as client:
        tickets = [_ask(client, {"preset": "standard", "players": 2, "name": "A" * 24,
                                 "wait": 60}) for _ in range(2)]
        seated = [wait_for(lambda t=t: (lambda r: r if r["status"] == "seated" else None)(
            post(client, f"/api/pair/{t}").json())) for t in tickets]
        info = client.get(f"/api/tables/{seated[0]['table_id']}").json()
        assert [s["name"] for s in info["seats"]] == ["A" * 24, "A" * 21 + " 2"]


@pytest.mark.numba_compile
def test_after_the_chosen_wait_a_level_near_the_rating_is_offered_and_rated(
        database: str | Path) -> None:
    with players_server(database) as client:
        sign_up(client, "Ana")
        ticket = _ask(client, {"preset": "standard", "players": 2, "wait": 0})
        polled = post(client, f"/api/pair/{ticket}").json()
        assert polled["status"] == "waiting"
        assert polled["bot"] is True
        taken = post(client, f"/api/pair/{ticket}/bot").json()
        assert taken["level"] == "beginner"  # a newcomer's 1500 is nearest 1535
        assert post(client, f"/api/pair/{ticket}").status_code == 404  # left the pool
        play_out(client, taken["table_id"], taken["token"])
        page = wait_for(lambda: (lambda p: p if p["games"] else None)(
            client.get("/api/players/Ana").json()))
        assert page["games"][0]["rated"] is True
        assert page["ratings"]["standard"]["games"] == 1


@pytest.mark.numba_compile
def test_the_bot_is_not_offered_before_the_wait(tmp_path: Path) -> None:
    with players_server(tmp_path / "db.sqlite3") as client:
        ticket = _ask(client, {"preset": "standard", "players": 2, "wait": 600})
        assert post(client, f"/api/pair/{ticket}").json()["bot"] is False
        early = post(client, f"/api/pair/{ticket}/bot")
        assert early.status_code == 409
        assert early.json()["error"] == "too_early"


@pytest.mark.numba_compile
def test_20_clients_at_once_are_seated_in_one_pass_of_the_matcher(tmp_path: Path) -> None:
    # The matcher runs once an hour here: the test runs it itself, once.
    options = PlayerSettings(pair_interval=3600.0, login_rate=1e6, signup_rate=1e6)
    with players_server(tmp_path / "db.sqlite3", options) as client:
        players = client.app.state.players  # type: ignore[attr-defined]
        tickets = [_ask(client, {"preset": "standard", "players": 2, "name": f"P{n}",
                                 "rating": 1400 + 10 * n, "wait": 60}) for n in range(20)]
        assert client.portal.call(players.pairing.match) == 20  # type: ignore[union-attr]
        answers = [post(client, f"/api/pair/{t}").json() for t in tickets]
        assert all(a["status"] == "seated" for a in answers)
        tables = Counter(a["table_id"] for a in answers)
        assert len(tables) == 10
        assert set(tables.values()) == {2}


# -- several processes on PostgreSQL --------------------------------------------------------


class Browser:
    """A browser of one person against one server process: its cookies and CSRF token."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=30)
        self.token = self.http.get("/api/account").json()["csrf"]

    def post(self, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
        return self.http.post(path, json=body or {}, headers={"X-Trash-CSRF": self.token})

    def move_to(self, url: str) -> None:
        """The same browser, now answered by another process (a load balancer's
        choice): the cookies go with it."""
        cookies = self.http.cookies
        self.http = httpx.Client(base_url=url, timeout=30, cookies=cookies)


@pytest.mark.postgres
@pytest.mark.slow
def test_20_clients_across_3_processes_are_seated_and_a_killed_one_loses_no_place(
        pg_url: str) -> None:
    procs = [launch(pg_url, ("--bot-delay", "0")) for _ in range(3)]
    try:
        urls = [url for _proc, url in procs]
        for proc, url in procs:
            wait_healthy(url, proc)
        browsers = [Browser(urls[n % 3]) for n in range(20)]
        tickets = [b.post("/api/pair", {"preset": "standard", "players": 2, "name": f"P{n}",
                                        "rating": 1500 + n, "wait": 120}).json()["ticket"]
                   for n, b in enumerate(browsers)]

        def answers() -> list[dict[str, Any]] | None:
            got = [b.post(f"/api/pair/{t}").json() for b, t in zip(browsers, tickets,
                                                                    strict=True)]
            return got if all(a["status"] == "seated" for a in got) else None

        seated = wait_for(answers, timeout=60)
        tables = Counter(a["table_id"] for a in seated)
        assert len(tables) == 10
        assert set(tables.values()) == {2}
        # every process knows every table (the owner made it; the others read it)
        for url in urls:
            with urllib.request.urlopen(f"{url}/api/tables/{seated[0]['table_id']}") as r:
                assert json.loads(r.read())["players"] == 2

        # A request taken by process 0, which is then killed: its place is in the
        # database; the browser's next poll goes to process 1, and a partner asking at
        # process 2 is seated with it.
        alone = Browser(urls[0])
        ticket = alone.post("/api/pair", {"preset": "kids", "players": 2, "name": "Ana",
                                          "wait": 120}).json()["ticket"]
        stop(procs[0][0])
        alone.move_to(urls[1])
        assert alone.post(f"/api/pair/{ticket}").json()["status"] == "waiting"
        partner = Browser(urls[2])
        other = partner.post("/api/pair", {"preset": "kids", "players": 2, "name": "Bo",
                                           "wait": 120}).json()["ticket"]
        mine = wait_for(lambda: (lambda r: r if r["status"] == "seated" else None)(
            alone.post(f"/api/pair/{ticket}").json()), timeout=60)
        theirs = partner.post(f"/api/pair/{other}").json()
        assert theirs["table_id"] == mine["table_id"]
    finally:
        for proc, _url in procs:
            stop(proc)
