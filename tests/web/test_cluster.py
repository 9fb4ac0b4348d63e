"""Several real ``trashcards serve`` processes on one real PostgreSQL database: clients
on different processes share a table, the owner of a table is killed with SIGKILL
again and again while a person plays and bots play (no acknowledged move lost or
applied twice, versions without gaps, a takeover within 5 s), an owner cut off from the
database stops writing, and concurrent joins for the last seat have one winner.

``TRASHCARDS_FAILOVER_CYCLES`` sets how many owners the kill test kills (default 12;
the long run in docs/deploy.md uses 200).
"""

from __future__ import annotations

import json
import os
import random
import signal
import statistics
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import httpx
import pytest
import servetools
from pgtools import Cluster
from webtools import Client

from trashcards.record import loads

pytestmark = pytest.mark.slow

#: Owners killed by the failover test (more in the long run: docs/deploy.md).
CYCLES = int(os.environ.get("TRASHCARDS_FAILOVER_CYCLES", "12"))
#: The longest a takeover may take.
TAKEOVER_LIMIT = 5.0


@dataclass
class Server:
    proc: subprocess.Popen[str]
    url: str


def start_server(db: str, bot_delay: float = 0.0, round_pause: float = 3600.0) -> Server:
    """``trashcards serve --db URL`` on a free port, up (its health check answers), its
    output echoed to stderr."""
    proc, url = servetools.launch(db, (
        "--bot-delay", str(bot_delay), "--round-pause", str(round_pause), "--join-rate", "1e9",
        "--create-rate", "1e9", "--max-connections", "100000", "--message-rate", "1000"))
    servetools.drain(proc)
    servetools.wait_healthy(url, proc)
    return Server(proc, url)


def stop(server: Server) -> None:
    servetools.stop(server.proc)


@contextmanager
def servers(db: str, count: int, bot_delay: float = 0.0,
            round_pause: float = 3600.0) -> Iterator[list[Server]]:
    started: list[Server] = []
    try:
        with ThreadPoolExecutor(count) as pool:
            started += pool.map(lambda _n: start_server(db, bot_delay, round_pause),
                                range(count))
        yield started
    finally:
        for server in started:
            stop(server)


def owner_pid(cluster: Cluster, db: str, table_id: str) -> int | None:
    """The operating-system process id of the table's owner, if that owner is alive."""
    rows = cluster.sql(db, "SELECT p.pid FROM tables t JOIN processes p ON p.id = t.owner "
                           "WHERE t.id = %s AND p.id IN (SELECT id FROM live_processes)",
                       table_id)
    return int(rows[0][0]) if rows else None  # type: ignore[call-overload]


def stored_moves(cluster: Cluster, db: str, table_id: str) -> list[str]:
    return [str(r[0]) for r in cluster.sql(
        db, "SELECT move FROM moves WHERE table_id = %s ORDER BY idx", table_id)]


def _bots_go_on(cluster: Cluster, db: str, table_id: str, before: int,
                limit: float = 15.0) -> None:
    """The bots of ``table_id`` store a move past the ``before`` stored ones within
    ``limit`` seconds (the new owner may still be loading its AI on a busy machine)."""
    deadline = time.monotonic() + limit
    while len(stored_moves(cluster, db, table_id)) <= before:
        assert time.monotonic() < deadline, f"the bots stopped at {before} moves"
        time.sleep(0.05)


def _people_table(url: str) -> tuple[str, list[str]]:
    """Two people at a long match (boards of 10, ten rounds to win)."""
    made = httpx.post(f"{url}/api/tables", json={
        "rules": {"preset": "standard", "start_size": 10, "rounds_to_win": 10},
        "seats": [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]}).json()
    return made["table_id"], [s["token"] for s in made["seats"]]


def _bot_table(url: str) -> str:
    made = httpx.post(f"{url}/api/tables", json={
        "rules": {"preset": "standard", "start_size": 10, "rounds_to_win": 10},
        "seats": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}]}).json()
    return str(made["table_id"])


def test_clients_on_different_processes_play_one_table(pg_url: str, pg_cluster: Cluster) -> None:
    """Seat 0 plays from process 1, seat 1 from process 2, a spectator watches on process 3
    (the owner): every move reaches all three in order, from whichever process it was
    made on; a seat is taken through a process that does not own the table."""
    with servers(pg_url, 3) as (owner, one, two):
        table_id, tokens = _people_table(owner.url)
        assert owner_pid(pg_cluster, pg_url, table_id) == owner.proc.pid
        clients = [Client(one.url, table_id), Client(two.url, table_id),
                   Client(owner.url, table_id)]
        for client, joined in zip(clients, ([tokens[0]], [tokens[1]], []), strict=True):
            client.send({"type": "join", "tokens": joined, "version": None})
            client.recv("joined")
        states = [c.recv("state") for c in clients]
        version = states[0]["version"]
        assert {s["version"] for s in states} == {version}
        state = states[0]["state"]
        for _ in range(30):
            if state["to_act"] is None:
                break
            seat = state["to_act"]
            clients[seat].send({"type": "act", "token": tokens[seat],
                                "action": state["legal"][-1], "version": version})
            heard = [c.recv("events") for c in clients]
            assert {(m["from_version"], m["version"]) for m in heard} == {
                (version, heard[0]["version"])}
            assert len({str(m["events"]) for m in heard}) == 1  # the same events everywhere
            version, state = heard[0]["version"], heard[0]["state"]
        # a move at an old version is refused by the owner; a fresh state follows
        clients[1].send({"type": "act", "token": tokens[1], "action": "stock", "version": 1})
        assert clients[1].recv("error")["code"] == "stale_version"
        assert clients[1].recv("state")["version"] == version
        for client in clients:
            client.close()

        waiting = httpx.post(f"{owner.url}/api/tables", json={
            "seats": [{"kind": "me", "name": "Cy"}, {"kind": "open"}]}).json()["table_id"]
        taken = httpx.post(f"{two.url}/api/tables/{waiting}/join", json={"name": "Di"})
        assert taken.status_code == 200, taken.text
        assert httpx.get(f"{one.url}/api/tables/{waiting}").json()["status"] == "playing"
        record = httpx.get(f"{two.url}/api/tables/{table_id}/record").text
        assert len(loads(record).moves) <= version  # stops before the current deal


def test_a_reaction_reaches_the_connections_of_every_process(pg_url: str) -> None:
    """Seat 0 on a process that does not own the table sends a reaction: the owner takes
    it (forwarded) and sends it to its spectator, and its notice brings it back to the
    seat's own process (issue 31, item 6)."""
    with servers(pg_url, 2) as (owner, other):
        table_id, tokens = _people_table(owner.url)
        clients = [Client(other.url, table_id), Client(owner.url, table_id)]
        for client, joined in zip(clients, ([tokens[0]], []), strict=True):
            client.send({"type": "join", "tokens": joined, "version": None})
            client.recv("joined")
            client.recv("state")
        clients[0].send({"type": "react", "token": tokens[0], "emote": "clap"})
        for client in clients:
            assert client.recv("reaction") == {"type": "reaction", "seat": 0, "emote": "clap"}
        for client in clients:
            client.close()


def test_concurrent_joins_for_the_last_seat_have_one_winner(pg_url: str) -> None:
    with servers(pg_url, 3) as procs:
        for round_number in range(3):
            made = httpx.post(f"{procs[0].url}/api/tables", json={
                "seats": [{"kind": "me", "name": "Ana"}, {"kind": "open"}]}).json()
            table_id = made["table_id"]
            barrier = threading.Barrier(9)

            def join(n: int, table_id: str = table_id,
                     barrier: threading.Barrier = barrier) -> httpx.Response:
                url = procs[n % 3].url
                barrier.wait()
                return httpx.post(f"{url}/api/tables/{table_id}/join",
                                  json={"seat": 1, "name": f"P{n}"}, timeout=30)

            with ThreadPoolExecutor(9) as pool:
                answers = list(pool.map(join, range(9)))
            codes = sorted(a.status_code for a in answers)
            assert codes == [200] + [409] * 8, (round_number, [a.text for a in answers])
            assert {a.json()["error"] for a in answers if a.status_code == 409} == {"seat_taken"}
            winner = next(a.json() for a in answers if a.status_code == 200)
            # another process follows the table through the database's notices: it may
            # answer from just before the join, but once it has a name, it is the winner's
            seated = _seated_name(procs[1].url, table_id, 1)
            assert seated == winner["name"]


def _seated_name(url: str, table_id: str, seat: int, wait: float = 20) -> str | None:
    """The name in ``seat`` of the table as the server at ``url`` sees it, once it has one
    (``None`` if none came within ``wait`` seconds)."""
    deadline = time.monotonic() + wait
    while True:
        name: str | None = httpx.get(f"{url}/api/tables/{table_id}").json()["seats"][seat]["name"]
        if name is not None or time.monotonic() > deadline:
            return name
        time.sleep(0.05)


@dataclass
class Player:
    """A person playing both seats of a table over one websocket at a steady pace,
    reconnecting to any live server when the socket breaks, trying again after
    ``unavailable``; when a match ends it opens a new table and plays on. It keeps
    every move acknowledged (its ``events`` arrived) and every version it saw, by table."""

    urls: list[str]
    think: float = 0.01
    #: whether it sends "next round" (else the round timer starts the next round)
    clicks_next: bool = True
    table_id: str = ""
    tokens: list[str] = field(default_factory=list)
    played: list[str] = field(default_factory=list)
    acknowledged: dict[tuple[str, int], str] = field(default_factory=dict)
    sent: dict[tuple[str, int], str] = field(default_factory=dict)
    gaps: list[str] = field(default_factory=list)
    reconnects: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    error: BaseException | None = None
    version: int | None = None
    state: dict[str, Any] | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def live_urls(self) -> list[str]:
        with self.lock:
            urls = list(self.urls)
        random.shuffle(urls)
        return urls

    def new_table(self) -> None:
        for _attempt in range(100):
            for url in self.live_urls():
                try:
                    table_id, tokens = _people_table(url)
                except (httpx.TransportError, KeyError, ValueError):
                    continue
                with self.lock:
                    self.table_id, self.tokens, self.version, self.state = (
                        table_id, tokens, None, None)
                    self.played.append(table_id)
                return
            time.sleep(0.1)
        raise AssertionError("no server would make a table")

    def run(self) -> None:
        try:
            self.new_table()
            while not self.stop.is_set():
                self._session()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _connect(self) -> Client | None:
        for url in self.live_urls():
            try:
                return Client(url, self.table_id)
            except Exception:
                continue
        time.sleep(0.1)
        return None

    def _session(self) -> None:
        client = self._connect()
        if client is None:
            return
        table_id = self.table_id
        try:
            client.send({"type": "join", "tokens": self.tokens, "version": self.version})
            client.recv("joined")
            self._take(client.recv("state", "events"))
            pending: tuple[int, str] | None = None
            while not self.stop.is_set():
                state, version = self.state, self.version
                assert state is not None
                assert version is not None
                if state["phase"] == "match_over":
                    self.new_table()
                    return
                if pending is None and (state["to_act"] is not None or self.clicks_next):
                    time.sleep(self.think)
                    if state["to_act"] is None:
                        for token in self.tokens:
                            client.send({"type": "next_round", "token": token})
                        pending = (version, "next_round")
                    else:
                        action = random.choice(state["legal"])
                        seat = state["to_act"]
                        self.sent[table_id, version] = f"{seat}: {action}"
                        client.send({"type": "act", "token": self.tokens[seat],
                                     "action": action, "version": version})
                        pending = (version, self.sent[table_id, version])
                message = client.recv("events", "error", "state", "table")
                if message["type"] == "error":
                    if message["code"] in ("unavailable", "storage_error"):
                        time.sleep(0.2)
                        pending = None  # nothing changed unless events say so: try again
                    elif message["code"] not in ("stale_version", "bad_phase"):
                        raise AssertionError(message)
                    continue
                if message["type"] == "table":
                    continue
                self._take(message)
                if pending is not None and self.version is not None and \
                        self.version > pending[0]:
                    pending = None
        except (OSError, TimeoutError, ConnectionError):
            self.reconnects += 1
        except Exception as exc:
            if type(exc).__module__.startswith("websockets"):
                self.reconnects += 1
            else:
                raise
        finally:
            client.close()

    def _take(self, message: dict[str, Any]) -> None:
        if message["type"] == "events":
            if self.version is not None and message["from_version"] != self.version:
                self.gaps.append(f"events from {message['from_version']} at {self.version}")
            start = (self.table_id, message["from_version"])
            if start in self.sent and message["version"] > start[1]:
                self.acknowledged[start] = self.sent[start]
        elif self.version is not None and message["version"] < self.version:
            self.gaps.append(f"state {message['version']} after {self.version}")
        self.version, self.state = message["version"], message["state"]


def test_killing_the_owner_again_and_again_loses_no_acknowledged_move(
        pg_url: str, pg_cluster: Cluster) -> None:
    """Three processes; a person plays (table after table) and bots play another table;
    the owner of the person's table is killed (SIGKILL) at a random moment, CYCLES
    times, and a fresh process replaces it. Checked: every acknowledged move is in the
    database at its index, no move of the person is there twice (each index holds the
    move sent for that version), the versions the person saw have no gap, the bots go
    on, every takeover took under 5 s, and the records replay."""
    rng = random.Random(11)
    with servers(pg_url, 3, bot_delay=0.05) as live:
        bots = _bot_table(live[1].url)
        player = Player([s.url for s in live])
        thread = threading.Thread(target=player.run, daemon=True)
        thread.start()
        takeovers: list[float] = []
        bots_moved: list[int] = []
        try:
            for _cycle in range(CYCLES):
                time.sleep(rng.uniform(0.2, 1.2))  # the kill lands anywhere in a move
                assert player.error is None, player.error
                with player.lock:
                    table_id = player.table_id
                pid = owner_pid(pg_cluster, pg_url, table_id)
                if pid is None:  # the match just ended (or the table is new): wait
                    continue
                victim = next(s for s in live if s.proc.pid == pid)
                bots_before = len(stored_moves(pg_cluster, pg_url, bots))
                killed_at = time.monotonic()
                victim.proc.send_signal(signal.SIGKILL)
                victim.proc.wait(timeout=30)
                live.remove(victim)
                with player.lock:
                    player.urls[:] = [s.url for s in live]
                replacement = ThreadPoolExecutor(1).submit(start_server, pg_url, 0.05)
                try:
                    while owner_pid(pg_cluster, pg_url, table_id) is None:
                        status = pg_cluster.sql(pg_url, "SELECT status FROM tables WHERE "
                                                "id = %s", table_id)
                        if status == [("over",)]:
                            break
                        assert time.monotonic() - killed_at < 30, "nobody took the table over"
                        time.sleep(0.01)
                    else:
                        takeovers.append(time.monotonic() - killed_at)
                finally:
                    live.append(replacement.result(timeout=60))
                with player.lock:
                    player.urls[:] = [s.url for s in live]
                seen = len(player.acknowledged)
                deadline = time.monotonic() + 20
                while len(player.acknowledged) < seen + 2:
                    assert time.monotonic() < deadline, "the person's moves stopped"
                    assert player.error is None, player.error
                    time.sleep(0.02)
                bots_moved.append(len(stored_moves(pg_cluster, pg_url, bots)) - bots_before)
        finally:
            player.stop.set()
            thread.join(timeout=30)
        assert player.error is None, player.error
        lost, doubled = [], []
        for table_id in player.played:
            moves = stored_moves(pg_cluster, pg_url, table_id)
            lost += [(t, v) for (t, v), move in player.acknowledged.items()
                     if t == table_id and (v >= len(moves) or moves[v] != move)]
            doubled += [(table_id, i, m) for i, m in enumerate(moves)
                        if m[:2] in ("0:", "1:") and player.sent.get((table_id, i)) != m]
        times = takeovers or [float("nan")]
        summary = (f"{len(takeovers)} kills, takeover min {min(times):.2f} s, median "
                   f"{statistics.median(times):.2f} s, max {max(times):.2f} s; "
                   f"{len(player.acknowledged)} acknowledged moves at {len(player.played)} "
                   f"tables, {player.reconnects} reconnects, {len(lost)} lost, "
                   f"{len(doubled)} doubled")
        print(summary)
        assert not lost, (lost, summary)
        assert not doubled, (doubled, summary)
        assert not player.gaps, player.gaps
        assert len(takeovers) >= CYCLES // 2, summary
        assert max(takeovers) < TAKEOVER_LIMIT, summary
        assert sum(bots_moved) > 0  # the bots went on
        url = live[0].url
        for table in (*player.played, bots):
            record = httpx.get(f"{url}/api/tables/{table}/record").text
            loads(record).replay()  # every stored move is legal, in order


def test_the_round_timer_goes_on_at_the_new_owner(pg_url: str, pg_cluster: Cluster) -> None:
    """A person plays but never clicks "next round" (the pause is 1 s); the table's owner
    is killed during a pause: the process that takes the table over starts the next
    round on its own timer."""
    with servers(pg_url, 2, round_pause=1.0) as live:
        player = Player([s.url for s in live], clicks_next=False)
        thread = threading.Thread(target=player.run, daemon=True)
        thread.start()
        try:
            deadline = time.monotonic() + 60
            while True:  # until a round is over and the next one not dealt yet
                assert time.monotonic() < deadline, "no pause between rounds"
                assert player.error is None, player.error
                with player.lock:
                    table_id, state = player.table_id, player.state
                if state is not None and state["phase"] == "round_over":
                    paused_at = len(stored_moves(pg_cluster, pg_url, table_id))
                    if paused_at == player.version:
                        break
                time.sleep(0.01)
            pid = owner_pid(pg_cluster, pg_url, table_id)
            old = next(s for s in live if s.proc.pid == pid)
            old.proc.send_signal(signal.SIGKILL)
            killed_at = time.monotonic()
            old.proc.wait(timeout=30)
            if len(stored_moves(pg_cluster, pg_url, table_id)) != paused_at:
                pytest.skip("the old owner dealt the next round just before it was killed")
            while len(stored_moves(pg_cluster, pg_url, table_id)) <= paused_at:
                assert time.monotonic() - killed_at < TAKEOVER_LIMIT + 1.0, \
                    "no next round within the takeover limit and the pause"
                time.sleep(0.02)
            survivor = next(s for s in live if s is not old)
            assert owner_pid(pg_cluster, pg_url, table_id) == survivor.proc.pid
            assert stored_moves(pg_cluster, pg_url, table_id)[paused_at].startswith("deck")
        finally:
            player.stop.set()
            thread.join(timeout=30)
        assert player.error is None, player.error


def _backends(cluster: Cluster, db: str, pid: int) -> list[int]:
    return [int(r[0]) for r in cluster.sql(  # type: ignore[call-overload]
        db, "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
        f"trashcards {pid}")]


def _frozen_owner_is_fenced_off(pg_url: str, pg_cluster: Cluster, *, cut: bool) -> Any:
    """A bots' table's owner is frozen (SIGSTOP), its database connections terminated
    when ``cut``: the other process takes the table over within the goal and the bots go
    on there. Woken up, the old owner writes nothing (the epoch moved on) and follows;
    the record stays one legal sequence of moves. Returns the old owner, still up."""
    with servers(pg_url, 2, bot_delay=0.05) as (old, new):
        table_id = _bot_table(old.url)
        time.sleep(0.5)
        assert owner_pid(pg_cluster, pg_url, table_id) == old.proc.pid
        old.proc.send_signal(signal.SIGSTOP)
        try:
            frozen_at = time.monotonic()
            if cut:
                for backend in _backends(pg_cluster, pg_url, old.proc.pid):
                    pg_cluster.sql(pg_url, "SELECT pg_terminate_backend(%s)", backend)
            while owner_pid(pg_cluster, pg_url, table_id) != new.proc.pid:
                assert time.monotonic() - frozen_at < TAKEOVER_LIMIT, "no takeover in 5 s"
                time.sleep(0.02)
            epoch = pg_cluster.sql(pg_url, "SELECT epoch FROM tables WHERE id = %s", table_id)
            before = len(stored_moves(pg_cluster, pg_url, table_id))
            _bots_go_on(pg_cluster, pg_url, table_id, before)
        finally:
            old.proc.send_signal(signal.SIGCONT)
        time.sleep(2.0)  # the old owner runs again, with bot moves it meant to make
        assert owner_pid(pg_cluster, pg_url, table_id) == new.proc.pid
        assert pg_cluster.sql(pg_url, "SELECT epoch FROM tables WHERE id = %s",
                              table_id) == epoch  # it never took the table back
        moves = stored_moves(pg_cluster, pg_url, table_id)
        text = httpx.get(f"{new.url}/api/tables/{table_id}/record").text
        record = loads(text)
        record.replay()
        # the stored moves are one legal sequence: nothing of the old owner slipped in
        loads(json.dumps({**json.loads(text), "moves": moves})).replay()
        # the record and the stored moves (read first) agree as far as both go: the
        # record of a running table may stop early (it shows no hidden card), and its
        # bots may have made moves since that are not stored yet
        shown = [str(m) for m in record.moves]
        common = min(len(shown), len(moves))
        assert shown[:common] == moves[:common]
        info = httpx.get(f"{old.url}/api/tables/{table_id}").json()  # it follows now
        assert info["version"] >= len(moves) - 5
        return httpx.get(f"{old.url}/healthz").json()


def test_an_owner_cut_off_from_the_database_stops_writing(pg_url: str,
                                                          pg_cluster: Cluster) -> None:
    """The owner of a bots' table is frozen (SIGSTOP) and its database connections are
    terminated, as a partition would: the other process takes the table over and the
    bots go on there. Woken up, the old owner finds its connection gone, writes nothing
    and follows the new owner; the record stays one legal sequence of moves."""
    health = _frozen_owner_is_fenced_off(pg_url, pg_cluster, cut=True)
    assert health["ok"] is True  # and serves again


def test_a_frozen_owner_loses_its_tables_within_the_goal_and_writes_nothing(
        pg_url: str, pg_cluster: Cluster) -> None:
    """The owner of a bots' table is frozen (SIGSTOP) with its database connections left
    open: its lease runs out (its owner connection says nothing), the other process takes
    the table over within the goal and the bots go on there. Woken up, the old owner's
    writes are fenced off (the epoch moved on): it writes nothing and follows."""
    _frozen_owner_is_fenced_off(pg_url, pg_cluster, cut=False)


def test_workers_share_one_port_and_a_dead_worker_is_replaced(pg_url: str,
                                                              pg_cluster: Cluster) -> None:
    proc, url, line = servetools.launch_with_banner(pg_url, ("--workers", "2",
                                                             "--bot-delay", "0.02"))
    try:
        assert "2 processes" in line, line
        servetools.drain(proc)
        deadline = time.monotonic() + 60
        workers: set[str] = set()
        while len(workers) < 2:
            assert time.monotonic() < deadline, workers
            try:
                workers.add(httpx.get(f"{url}/healthz", timeout=5).json()["process"])
            except httpx.TransportError:
                time.sleep(0.1)
        table_id = _bot_table(url)
        time.sleep(0.3)
        pid = owner_pid(pg_cluster, pg_url, table_id)
        assert pid is not None
        assert pid != proc.pid
        os.kill(pid, signal.SIGKILL)
        killed_at = time.monotonic()
        while owner_pid(pg_cluster, pg_url, table_id) in (None, pid):
            assert time.monotonic() - killed_at < TAKEOVER_LIMIT
            time.sleep(0.02)
        before = len(stored_moves(pg_cluster, pg_url, table_id))
        _bots_go_on(pg_cluster, pg_url, table_id, before)
        live = pg_cluster.sql(pg_url, "SELECT count(*) FROM live_processes")[0][0]
        deadline = time.monotonic() + 60
        while live != 2:  # the supervisor started a new worker
            assert time.monotonic() < deadline
            time.sleep(0.2)
            live = pg_cluster.sql(pg_url, "SELECT count(*) FROM live_processes")[0][0]
    finally:
        servetools.stop(proc, grace=20)


def test_workers_need_postgresql(tmp_path: Any) -> None:
    done = subprocess.run(servetools.command("--db", str(tmp_path / "a.sqlite3"),
                                             "--workers", "2"),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode != 0
    assert "--workers needs a PostgreSQL database" in done.stderr
    assert "Traceback" not in done.stderr
