"""The server's settings: one frozen value handed to :func:`trashcards.web.app.create_app`.

Everything that differs between live play, tests and benchmarks is a field here: where the
database is, how long bots "think", how long the pause between rounds lasts, the limits
per connection, and where chance and table ids come from (tests inject seeded ones).
"""

from __future__ import annotations

import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

__all__ = ["Settings", "default_db_path"]


def default_db_path() -> Path:
    """The per-user database: ``<user data dir>/trashcards/trashcards.sqlite3``."""
    return Path(platformdirs.user_data_dir("trashcards", appauthor=False)) / "trashcards.sqlite3"


def _system_random(_table_id: str) -> random.Random:
    return random.SystemRandom()


def _new_id() -> str:
    return secrets.token_urlsafe(8)


@dataclass(frozen=True)
class Settings:
    """How the server runs. The defaults are those of ``trashcards serve``."""

    #: SQLite database file (created with its directory if missing); ``":memory:"`` works.
    db_path: Path | str = field(default_factory=default_db_path)
    #: seconds a bot waits before acting in live play (0 in tests and benchmarks)
    bot_delay: float = 0.7
    #: extra random part of the bot delay, up to this many seconds
    bot_jitter: float = 0.5
    #: seconds between the end of a round and the next deal unless everyone is ready first
    round_pause: float = 6.0
    #: largest client frame accepted, in bytes
    max_message: int = 4096
    #: messages per second accepted per connection, and the burst allowed
    rate: float = 20.0
    burst: int = 40
    #: messages queued for one connection before it is dropped as too slow
    max_queue: int = 1000
    #: a reconnecting client at most this many moves behind gets events, else a state
    max_catchup: int = 500
    #: where the static files of the client are
    static_dir: Path = Path(__file__).parent / "static"
    #: the chance source of a table (default: the OS; see docs/protocol.md, "Chance")
    chance_rng: Callable[[str], random.Random] = _system_random
    #: the random generator of a bot, by table id and seat (default: the OS)
    bot_rng: Callable[[str, int], random.Random] = lambda _t, _s: random.SystemRandom()
    #: new table ids
    new_id: Callable[[], str] = _new_id
    #: the clock for rate limits
    clock: Callable[[], float] = time.monotonic
