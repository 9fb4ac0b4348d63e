"""Helpers for the web server tests: deterministic settings and a websocket
client that validates every frame against the protocol models."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from trashcards.web import Settings
from trashcards.web.protocol import parse_server_message


def make_settings(db: Path | str, seed: int = 1, **changes: Any) -> Settings:
    """Settings for tests: no bot delay, no pause timer, no rate limit, seeded chance and
    bots, table ids t0, t1, …"""
    counter = itertools.count()
    values: dict[str, Any] = {
        "db_path": db, "bot_delay": 0.0, "bot_jitter": 0.0, "round_pause": 3600.0,
        "chance_rng": lambda table_id: random.Random(f"{seed}/{table_id}"),
        "bot_rng": lambda table_id, seat: random.Random(f"{seed}/{table_id}/{seat}"),
        "new_id": lambda: f"t{next(counter)}", "rate": 1e6, "burst": 1_000_000,
    }
    values.update(changes)
    return Settings(**values)


class Socket:
    """A websocket of a TestClient; :meth:`recv` checks each frame against the protocol."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.frames: list[str] = []

    def send(self, message: dict[str, Any] | str) -> None:
        if isinstance(message, str):
            self.ws.send_text(message)
        else:
            self.ws.send_text(json.dumps(message))

    def recv(self) -> dict[str, Any]:
        text = self.ws.receive_text()
        parse_server_message(text)  # raises if the frame breaks the protocol
        self.frames.append(text)
        data: dict[str, Any] = json.loads(text)
        return data

    def recv_type(self, kind: str) -> dict[str, Any]:
        message = self.recv()
        assert message["type"] == kind, message
        return message

    def join(self, tokens: list[str], version: int | None = None) -> dict[str, Any]:
        self.send({"type": "join", "tokens": tokens, "version": version})
        return self.recv_type("joined")


def create(client: TestClient, seats: list[dict[str, Any]],
           rules: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"seats": seats}
    if rules is not None:
        body["rules"] = rules
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data
