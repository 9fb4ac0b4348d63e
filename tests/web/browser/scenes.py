"""Tables set up without clicking through the lobby, for the layout and look checks: made
over the HTTP API, played forward over a websocket by a bot standing in for the person
(through the same path as people), then opened in the browser as that person or as a
spectator.
"""

from __future__ import annotations

import json
import random
import re
import time
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

import httpx

from trashcards.bots import make_bot
from trashcards.rules import Rules
from trashcards.web.viewjson import view_from_json

State = dict[str, Any]

#: The three screen sizes of issue 8: two laptops and a phone.
SIZES = {"1366x768": (1366, 768), "1280x800": (1280, 800), "390x844": (390, 844)}


def create(base: str, seats: list[dict[str, Any]], rules: dict[str, Any] | None = None
           ) -> dict[str, Any]:
    """A table made over the API; returns the answer (table id, the creator's tokens)."""
    body: dict[str, Any] = {"seats": seats}
    if rules is not None:
        body["rules"] = rules
    answer = httpx.post(f"{base}/api/tables", json=body, timeout=20)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def party(base: str, seats: list[dict[str, Any]], rules: dict[str, Any] | None = None,
          final: bool = True) -> dict[str, Any]:
    body: dict[str, Any] = {"seats": seats, "final": final}
    if rules is not None:
        body["rules"] = rules
    answer = httpx.post(f"{base}/api/parties", json=body, timeout=20)
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


class Player:
    """A websocket to one table holding some seat tokens, playing them with a bot."""

    def __init__(self, base: str, table_id: str, tokens: dict[int, str], seed: int = 0
                 ) -> None:
        from websockets.sync.client import connect

        self.table_id = table_id
        self.tokens = tokens
        self._stack = ExitStack()
        self.ws = self._stack.enter_context(
            connect(base.replace("http", "ws", 1) + f"/ws/{table_id}", open_timeout=20))
        info = httpx.get(f"{base}/api/tables/{table_id}", timeout=20).json()
        self.rules = Rules.from_dict(info["rules"])
        self.bot = make_bot("greedy", random.Random(seed))
        self.ws.send(json.dumps({"type": "join", "tokens": list(tokens.values()),
                                 "version": None}))
        self.version = 0
        self.state: State | None = None
        while self.state is None:
            self._read()

    def _read(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=20))
        if message["type"] in ("state", "events"):
            self.state = message["state"]
            self.version = message["version"]
        return message

    def settle(self) -> State:
        """Read until the table waits for one of our seats, or the round/match is over."""
        assert self.state is not None
        while not (self.state["phase"] in ("round_over", "match_over")
                   or self.state["to_act"] in self.tokens):
            self._read()
        return self.state

    def play_until(self, done: Callable[[State], bool], limit: int = 3000) -> State:
        """Play our seats (and ask for the next rounds) until ``done(state)``; the other
        seats are bots of the server."""
        for _ in range(limit):
            state = self.settle()
            if done(state):
                return state
            if state["phase"] == "match_over":
                raise AssertionError("the match ended first")
            if state["phase"] == "round_over":
                ready = [json.dumps({"type": "next_round", "token": token})
                         for token in self.tokens.values()]
                for text in ready:
                    self.ws.send(text)
                while self.state is not None and self.state["phase"] == "round_over":
                    message = self._read()
                    if message["type"] == "error" and message["code"] == "rate_limited":
                        time.sleep(float(message.get("retry_after") or 0.1))  # as a page would
                        for text in ready:
                            self.ws.send(text)
                continue
            seat = state["to_act"]
            action = self.bot.choose(view_from_json(state, self.rules))
            act = json.dumps({"type": "act", "token": self.tokens[seat],
                              "action": str(action), "version": self.version})
            self.ws.send(act)
            before = self.version
            while self.version == before:
                message = self._read()
                if message["type"] == "error" and message["code"] == "rate_limited":
                    time.sleep(float(message.get("retry_after") or 0.1))  # as a page would
                    self.ws.send(act)
                    continue
                assert message["type"] != "error", message
        raise AssertionError("the state was never reached")

    def close(self) -> None:
        self._stack.close()


def open_page(context: Any, base: str, table_id: str, tokens: dict[int, str] | None,
              watch: bool = False, path: str | None = None) -> Any:
    """A page of ``context`` at the table (or at ``path``), holding ``tokens`` as the
    lobby would have stored them."""
    page = context.new_page()
    page.goto(f"{base}/healthz")
    if tokens:
        entry = {"seats": [{"seat": s, "token": tok} for s, tok in sorted(tokens.items())],
                 "version": None, "shown": None, "created": 1}
        page.evaluate("([k, v]) => localStorage.setItem(k, v)",
                      [f"trash.table.{table_id}", json.dumps(entry)])
    page.goto(base + (path or f"/t/{table_id}" + ("?watch=1" if watch else "")))
    return page


def wild_or_swap(seat: int) -> Callable[[State], bool]:
    """A decision with the most on screen: a card in hand and its choices."""
    return lambda s: s["to_act"] == seat and s["phase"] in ("wild", "swap")


#: A choice's key in a prompt: "(S)", "(T)", "(1, 2, 5–8, 0)".
PROMPT_KEYS = re.compile(r"\(([SDWTC]|[0-9][0-9–, ]*)\)")
#: The keys tried first: a swap, a wild's slot, the discard, the stock, then trash.
PREFERENCE = ("W", "slot", "D", "S", "T")


def key_for_prompt(prompt: str) -> str | None:
    """The key to press for a prompt that asks for a decision (as a player who reads only
    the prompt would), or None when it asks for none."""
    offered = PROMPT_KEYS.findall(prompt)
    for wanted in PREFERENCE:
        for keys in offered:
            if wanted == "slot" and keys[0].isdigit():
                return re.split(r"[–, ]", keys)[0]
            if keys == wanted:
                return keys
    return None
