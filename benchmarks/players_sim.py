"""A simulated person at a server table, for the benchmarks that play through
``trashcards serve`` (``server.py --attack``'s victims, ``soak.py``'s players).

A :class:`Person` holds one seat of a table against a server bot, over a websocket:
greedy decides from the view JSON it receives, after thinking a while (its
:class:`Pace`), sometimes asking for a hint first; at the end of a match it asks for a
rematch and follows it. What it sees it reports to ``emit``, one sample at a time:

* ``("move", time, seconds)``: from sending an act to the ``events`` answering it;
* ``("hint", time, seconds)``: from asking a hint to the hint;
* ``("reply", time, seconds)``: the server bot's reply (from the ``events`` that made it
  the bot's turn to the ``events`` of its move);
* ``("error", time, code)``: an error frame's code (``hint too late``: a
  ``stale_version`` because the person moved before its hint was computed);
* ``("ack", table_id, version, move)``: an act of this person the server answered, in
  the record's notation (``"0: <action>"``), for a check against the database.

Times are ``time.monotonic()`` (the same clock in every process of the machine).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from trashcards.bots import make_bot
from trashcards.rules import Rules
from trashcards.web.viewjson import view_from_json

#: The phases in which a seat decides.
DECIDING = ("draw", "wild", "swap")
#: Errors after which the person sends its unanswered act again, after ``retry_after``
#: (the server asks to wait: an owner moving, a database outage, a rate).
RETRY = frozenset({"unavailable", "storage_error", "rate_limited"})


@dataclass(frozen=True)
class Pace:
    """How a person plays: seconds thought before each decision (uniform in ``think``),
    the share of decisions it asks a hint before, and whether it starts the next round
    itself (after thinking) or waits for the server's round pause."""

    think: tuple[float, float]
    hint_share: float = 1.0
    next_round: bool = False


Emit = Callable[..., None]


class Person:
    """One person (seat 0) against the server bot of seat 1, on a 2-player table of the
    standard rules; ``address``: the local address its sockets come from."""

    def __init__(self, url: str, seed: str, pace: Pace, emit: Emit,
                 address: str | None = None) -> None:
        self.url, self.pace, self.emit, self.address = url, pace, emit, address
        self.rules = Rules.preset_named("standard")
        self.person = make_bot("greedy", random.Random(f"person/{seed}"))
        self.rng = random.Random(f"think/{seed}")
        self._tasks: set[asyncio.Task[None]] = set()

    async def create(self, http: httpx.AsyncClient, bot: str) -> tuple[str, str] | None:
        """A new table against ``bot`` with hints on: (its id, this person's token), or
        None (reported as an ``error`` sample ``create STATUS``)."""
        answer = await http.post(f"{self.url}/api/tables", json={
            "rules": {"preset": "standard"}, "hints": True,
            "seats": [{"kind": "me", "name": "Person"}, {"kind": "bot", "bot": bot}]})
        if answer.status_code != 201:
            self.emit("error", time.monotonic(), f"create {answer.status_code}")
            return None
        made = answer.json()
        return str(made["table_id"]), str(made["seats"][0]["token"])

    async def play(self, table_id: str, token: str, stop: asyncio.Event) -> str | None:
        """Play the match of ``table_id`` until it is over (the rematch's table id) or
        ``stop`` (None); a broken connection raises."""
        ws_url = self.url.replace("http", "ws", 1) + f"/ws/{table_id}"
        sent: dict[int, tuple[float, str]] = {}  # version -> (sent at, move); 0: thinking
        asked: dict[int, float] = {}
        bot_since: float | None = None
        local = None if self.address is None else (self.address, 0)
        async with connect(ws_url, max_queue=None, ping_interval=None, open_timeout=60,
                           compression=None, local_addr=local) as ws:
            await ws.send(json.dumps({"type": "join", "tokens": [token], "version": None}))
            async for text in ws:
                now = time.monotonic()
                message = json.loads(text)
                kind = message["type"]
                if kind == "error":
                    self.emit("error", now, _error_code(message))
                    if message["code"] in RETRY and not stop.is_set():
                        unanswered = [v for v, (_at, move) in sent.items() if move]
                        if unanswered:  # the act (never a hint: not retried)
                            self._spawn(self._again(ws, token, max(unanswered), sent,
                                                    float(message.get("retry_after") or 1)))
                    continue
                if kind == "rematch":
                    return str(message["table_id"])
                if kind == "hint":
                    start = asked.pop(message["version"], None)
                    if start is not None:
                        self.emit("hint", now, now - start)
                    continue
                if kind not in ("state", "events"):
                    continue
                state, version = message["state"], message["version"]
                if kind == "events":
                    mine = sent.get(message["from_version"])
                    if mine is not None and mine[1]:  # the answer to this person's act
                        del sent[message["from_version"]]
                        self.emit("move", now, now - mine[0])
                        self.emit("ack", table_id, message["from_version"], mine[1])
                    elif bot_since is not None:
                        self.emit("reply", now, now - bot_since)
                    bot_since = (now if state["to_act"] == 1 and state["phase"] in DECIDING
                                 else None)
                if stop.is_set():
                    return None
                if state["phase"] == "match_over":
                    await ws.send(json.dumps({"type": "rematch", "token": token}))
                elif state["phase"] == "round_over":
                    if self.pace.next_round:
                        self._spawn(self._next_round(ws, token))
                elif state["to_act"] == 0 and state["phase"] in DECIDING \
                        and version not in sent:
                    sent[version] = (0.0, "")  # taken: one act per version
                    if self.rng.random() < self.pace.hint_share:
                        asked[version] = time.monotonic()
                        await ws.send(json.dumps({"type": "hint", "token": token,
                                                  "version": version}))
                    # think while the answers are read (a hint is timed to its arrival)
                    self._spawn(self._act(ws, token, state, version, sent))
        return None

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.ensure_future(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _think(self) -> None:
        await asyncio.sleep(self.rng.uniform(*self.pace.think))

    async def _act(self, ws: ClientConnection, token: str, state: dict[str, Any],
                   version: int, sent: dict[int, tuple[float, str]]) -> None:
        await self._think()
        action = str(self.person.choose(view_from_json(state, self.rules)))
        sent[version] = (time.monotonic(), f"0: {action}")
        with contextlib.suppress(Exception):  # the socket closed meanwhile: join again
            await ws.send(json.dumps({"type": "act", "token": token, "action": action,
                                      "version": version}))

    async def _again(self, ws: ClientConnection, token: str, version: int,
                     sent: dict[int, tuple[float, str]], wait: float) -> None:
        """Send the act at ``version`` again after ``wait`` seconds, unless answered
        meanwhile (its latency still counts from the first send)."""
        await asyncio.sleep(wait)
        if version in sent and sent[version][1]:
            action = sent[version][1].removeprefix("0: ")
            with contextlib.suppress(Exception):
                await ws.send(json.dumps({"type": "act", "token": token, "action": action,
                                          "version": version}))

    async def _next_round(self, ws: ClientConnection, token: str) -> None:
        await self._think()
        with contextlib.suppress(Exception):
            await ws.send(json.dumps({"type": "next_round", "token": token}))


def _error_code(message: dict[str, Any]) -> str:
    """An error frame's code, ``hint too late`` for the scheduler's ``stale_version``
    (the table moved on before the hint was computed: the person did not wait for it)."""
    code = str(message["code"])
    if code == "stale_version" and "moved on" in str(message.get("message", "")):
        return "hint too late"
    return code
