"""The players' numbers (docs/players.md): quick pairing's time to a seat under many
simulated players, the delay from a rated game's end to its rating on the leaderboard,
and the weight of the profile page beside the lobby's.

    python benchmarks/players.py --players 200 --arrivals 60 --rated 5

* **Pairing.** ``--players`` simulated people arrive at random (a Poisson stream over
  ``--arrivals`` seconds) at one ``trashcards serve`` (SQLite), each asking for a
  two-player game of one of three presets with a rating drawn around 1550 and a wait of
  20 s, and polling once a second as the page does. Time to a seat is the server's own
  count (``waited`` in the answer); those offered the computer after their 20 s take it.
  Prints p50/p90/p99 of the time to a seat with people, and how many took a bot.
* **Leaderboard delay.** ``--rated`` accounts each play a rated game against a level to
  its end over the websocket; the delay is from the last move's frame to the rating
  showing on the account's page (the leaderboards read the same row; a rating shows on
  a leaderboard once it is no longer provisional).
* **Page weight.** The bytes a first visit loads for /profile (the page, its scripts by
  their imports, the styles, the English catalog), raw and gzipped, against the lobby's
  (a ratio, the same way on any machine).
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from servetools import drain, launch, stop, wait_healthy

from quantiles import percentile
from trashcards.web.settings import Settings

PRESETS = ("standard", "kids", "classic")


async def _person(url: str, number: int, delay: float, rng: random.Random,
                  seated: list[float], bots: list[float], failed: list[str]) -> None:
    await asyncio.sleep(delay)
    try:
        await _ask(url, number, rng, seated, bots)
    except (httpx.HTTPError, RuntimeError) as exc:
        failed.append(f"person {number}: {type(exc).__name__} {exc}")


async def _ask(url: str, number: int, rng: random.Random, seated: list[float],
               bots: list[float]) -> None:
    # each person from an address of their own (the server trusts this machine's
    # forwarding, --trusted-proxy): the per-address limits are per person
    forwarded = {"X-Forwarded-For": f"10.1.{number // 250}.{number % 250 + 1}"}
    # a connection per request: a kept-alive one that the server closes after 5 s idle
    # could be reused by a client that the loaded machine held up that long (a reset)
    async with httpx.AsyncClient(base_url=url, timeout=60, headers=forwarded,
                                 limits=httpx.Limits(max_keepalive_connections=0)) as http:
        csrf = (await http.get("/api/account")).json()["csrf"]
        headers = {"X-Trash-CSRF": csrf}
        asked = await http.post("/api/pair", headers=headers, json={
            "preset": rng.choice(PRESETS), "players": 2, "name": f"P{number}",
            "rating": rng.gauss(1550, 80), "wait": 20})
        ticket = asked.json()["ticket"]
        while True:
            await asyncio.sleep(1.0)
            answer = (await http.post(f"/api/pair/{ticket}", headers=headers, json={})).json()
            if "status" not in answer:
                raise RuntimeError(f"person {number}: {answer}")
            if answer["status"] == "seated":
                seated.append(float(answer["waited"]))
                return
            if answer.get("bot"):
                await http.post(f"/api/pair/{ticket}/bot", headers=headers, json={})
                bots.append(float(answer["waited"]))
                return


async def pairing(url: str, players: int, arrivals: float, seed: int) -> None:
    rng = random.Random(seed)
    delays, at = [], 0.0
    for _ in range(players):
        at += rng.expovariate(players / arrivals)
        delays.append(at)
    seated: list[float] = []
    bots: list[float] = []
    failed: list[str] = []
    began = time.perf_counter()
    await asyncio.gather(*(_person(url, n, d, random.Random(seed * 1000 + n), seated, bots,
                                   failed) for n, d in enumerate(delays)))
    for line in failed[:5]:
        print("  failed:", line)
    print(f"pairing: {players} players arriving over {arrivals:.0f} s "
          f"({time.perf_counter() - began:.0f} s in all)")
    if seated:
        print(f"  seated with people: {len(seated)}; time to a seat p50 "
              f"{percentile(seated, 0.5):.2f} s, p90 {percentile(seated, 0.9):.2f} s, "
              f"p99 {percentile(seated, 0.99):.2f} s, max {max(seated):.2f} s")
    print(f"  took the computer after their 20 s: {len(bots)}; failed: {len(failed)}")


def _play(url: str, table_id: str, token: str) -> float:
    """Play a seat to the end (first legal action); the time the last frame came."""
    import json

    from websockets.sync.client import connect

    with connect(url.replace("http", "ws", 1) + f"/ws/{table_id}") as ws:
        ws.send(json.dumps({"type": "join", "tokens": [token]}))
        seat = None
        while True:
            message = json.loads(ws.recv(timeout=60))
            if message["type"] == "joined":
                seat = message["seats"][0]
            if message["type"] not in ("state", "events"):
                continue
            state, version = message["state"], message["version"]
            if state["phase"] == "match_over":
                return time.time()
            if state["phase"] == "round_over":
                ws.send(json.dumps({"type": "next_round", "token": token}))
            elif state["to_act"] == seat and state["legal"]:
                ws.send(json.dumps({"type": "act", "token": token,
                                    "action": state["legal"][0], "version": version}))


def leaderboard_delay(url: str, accounts: int) -> None:
    delays = []
    for number in range(accounts):
        http = httpx.Client(base_url=url, timeout=60,
                            headers={"X-Forwarded-For": f"10.2.0.{number + 1}"})
        headers = {"X-Trash-CSRF": http.get("/api/account").json()["csrf"]}
        name = f"Rated{number}"
        made = http.post("/api/account/signup", headers=headers,
                         json={"name": name, "password": "a long password"})
        headers = {"X-Trash-CSRF": made.headers["X-Trash-CSRF"]}
        game = http.post("/api/rated", headers=headers,
                         json={"preset": "classic", "players": 2, "level": "casual"}).json()
        ended = _play(url, game["table_id"], game["token"])
        while not http.get(f"/api/players/{name}").json()["games"]:
            time.sleep(0.05)
        delays.append(time.time() - ended)
    print(f"leaderboard delay over {accounts} rated games: mean "
          f"{statistics.mean(delays):.2f} s, max {max(delays):.2f} s (the rater looks "
          "every 5 s)")


def _module_closure(js: Path, first: str) -> list[Path]:
    seen: list[Path] = []
    todo = [js / first]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.append(path)
        text = path.read_text(encoding="utf-8")
        for name in re.findall(r'(?:import|from)\s*\(?\s*"(\./[^"]+\.js)"', text):
            todo.append((path.parent / name).resolve())
    return seen


def page_weight(url: str) -> None:
    static = Settings().static_dir
    rows = []
    for page, script, css in (("/", "lobby.js", ["app.css"]),
                              ("/profile", "profilepage.js", ["app.css", "players.css"])):
        html = httpx.get(url + page).content
        files = [p.read_bytes() for p in _module_closure(static / "js", script)]
        files += [(static / "css" / name).read_bytes() for name in css]
        files.append((static / "i18n" / "en.json").read_bytes())
        raw = len(html) + sum(len(f) for f in files)
        zipped = len(gzip.compress(html)) + sum(len(gzip.compress(f)) for f in files)
        rows.append((page, raw, zipped, len(files) + 1))
    for page, raw, zipped, count in rows:
        print(f"page weight {page}: {count} files, {raw / 1024:.0f} kB raw, "
              f"{zipped / 1024:.0f} kB gzipped")
    print(f"  profile / lobby: {rows[1][1] / rows[0][1]:.2f} raw, "
          f"{rows[1][2] / rows[0][2]:.2f} gzipped")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--arrivals", type=float, default=60.0)
    parser.add_argument("--rated", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        proc, url = launch(Path(folder) / "db.sqlite3",
                           ("--bot-delay", "0", "--trusted-proxy", "127.0.0.1/32",
                            # 200 people behind one proxy address: its HTTP connections
                            "--max-http-connections", "1000"))
        try:
            wait_healthy(url, proc)
            drain(proc)  # its log, read so that it never blocks on a full pipe
            page_weight(url)
            leaderboard_delay(url, args.rated)
            asyncio.run(pairing(url, args.players, args.arrivals, args.seed))
        finally:
            stop(proc)


if __name__ == "__main__":
    main()
