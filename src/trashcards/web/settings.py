"""The server's settings: one frozen value handed to :func:`trashcards.web.app.create_app`.

Everything that differs between live play, tests and benchmarks is a field here: where the
database is, how long bots "think", how long the pause between rounds lasts, every limit
(per message, per connection, per client address; docs/protocol.md, "Limits"), how long
tables are kept, and where chance, table ids, the clocks and the store come from (tests
inject seeded, fake or failing ones).
"""

from __future__ import annotations

import itertools
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import platformdirs

from .store import Store

__all__ = ["Settings", "default_db_path", "seeded_sources"]


def default_db_path() -> Path:
    """The per-user database: ``<user data dir>/trashcards/trashcards.sqlite3``."""
    return Path(platformdirs.user_data_dir("trashcards", appauthor=False)) / "trashcards.sqlite3"


def _system_random(_table_id: str) -> random.Random:
    return random.SystemRandom()


def _new_id() -> str:
    return secrets.token_urlsafe(8)


def seeded_sources(seed: int) -> dict[str, Any]:
    """The fields of :class:`Settings` that make a server's play reproducible: table ids
    ``t0``, ``t1``, … in creation order, and chance and bots seeded from ``seed`` and the
    table id. For tests only (``trashcards serve --test-seed``, a hidden option): anyone
    who knows the seed knows every stock."""
    counter = itertools.count()
    return {
        "chance_rng": lambda table_id: random.Random(f"{seed}/{table_id}"),
        "bot_rng": lambda table_id, seat: random.Random(f"{seed}/{table_id}/{seat}"),
        "new_id": lambda: f"t{next(counter)}",
        "coarse_when_busy": False,
        "odds_in_background": False,
    }


@dataclass(frozen=True)
class Settings:
    """How the server runs. The defaults are those of ``trashcards serve``."""

    #: SQLite database file (created with its directory if missing); ``":memory:"`` works;
    #: or a PostgreSQL URL (``postgresql://…``), which several processes may share
    db_path: Path | str = field(default_factory=default_db_path)
    #: seconds a bot waits before acting in live play (0 in tests and benchmarks)
    bot_delay: float = 0.7
    #: extra random part of the bot delay, up to this many seconds
    bot_jitter: float = 0.5
    #: seconds between the end of a round and the next deal unless everyone is ready first
    round_pause: float = 6.0
    #: largest client message read, in bytes (larger ones get ``too_large``)
    max_message: int = 4096
    #: largest websocket frame the server takes in at all, in bytes: a larger one closes
    #: the connection (1009); set on the ASGI server by ``trashcards serve``
    max_frame: int = 65536
    #: largest HTTP request body, in bytes
    max_body: int = 16384
    #: deepest nesting of arrays and objects in a message or a body
    max_depth: int = 16
    #: messages per second accepted per connection, and the burst allowed
    rate: float = 20.0
    burst: int = 40
    #: frames queued for one connection, and their total size in characters, before it
    #: is dropped as too slow (the memory bound of a connection)
    max_queue: int = 1000
    max_queue_bytes: int = 1 << 20
    #: seconds one frame may take to be written before the connection is dropped
    send_timeout: float = 10.0
    #: a reconnecting client at most this many moves behind gets events, else a state
    max_catchup: int = 500
    #: tables each client address may create per minute (a burst of as many)
    create_rate: float = 20.0
    #: seats taken (HTTP) plus websocket joins per minute per client address
    join_rate: float = 120.0
    #: HTTP requests per second per client address, and the burst allowed (beyond:
    #: 429 ``rate_limited``)
    http_rate: float = 100.0
    http_burst: int = 500
    #: open websockets per client address, and on the whole server
    max_connections: int = 32
    max_sockets: int = 10_000
    #: tables this process holds in memory at most: a new table beyond it is refused
    #: ``busy`` (finished ones nobody watches are let go first)
    max_tables: int = 5_000
    #: networks of reverse proxies (``127.0.0.1/32``, ``10.0.0.0/8``) whose
    #: ``X-Forwarded-For`` names the client address; from any other peer it is ignored
    trusted_proxies: tuple[str, ...] = ()
    #: seconds a websocket may stay open without joining a table
    join_timeout: float = 10.0
    #: seconds a table waits for its open seats before it expires (and is deleted)
    waiting_ttl: float = 24 * 3600.0
    #: seconds a table still playing is kept once no one is connected and no move was
    #: made (abandoned: it expires and is deleted)
    abandoned_ttl: float = 24 * 3600.0
    #: seconds a finished table is kept (``trashcards export`` saves the records first)
    retention: float = 30 * 24 * 3600.0
    #: seconds between two sweeps for expired and old tables
    sweep_interval: float = 300.0
    #: origins (``https://example.org``) whose pages may open websockets and post, besides
    #: the server's own; ``"*"`` allows any
    allowed_origins: tuple[str, ...] = ()
    #: a failed write is tried this many times more, after ``write_backoff`` seconds,
    #: then twice that, …; bots and timers then try again every ``retry_max`` seconds
    #: at most until the storage works again
    write_retries: int = 3
    write_backoff: float = 0.05
    retry_max: float = 30.0
    #: several processes on one PostgreSQL database: seconds between two looks for
    #: tables whose owner is gone (a takeover takes about this long), and seconds a
    #: process waits for a table's owner to answer a forwarded move
    claim_interval: float = 1.0
    forward_timeout: float = 2.0
    #: worker processes for hints, win chances, reviews and expert bots, less one (never
    #: on the event loop, never under its interpreter lock; ``ai_processes`` False:
    #: threads of this process instead, for tests): win chances and reviews may take
    #: ``ai_workers`` of them, hints and bots one more; and the jobs of each kind that
    #: may wait before more are answered ``busy`` (win-chance updates: skipped)
    ai_workers: int = 2
    ai_processes: bool = True
    ai_queue: int = 64
    #: until the AI's warm-up is done (a first start compiles the fast engine), hints and
    #: win chances answer on the reference engine with fewer deals (saying so), expert
    #: bots search with it and reviews are refused ``busy``, instead of waiting for it;
    #: ``False``: they wait (tests that need the same answer in every run)
    ai_answer_while_warming: bool = True
    #: AI jobs of each kind one client address may have waiting (hints, chances of the
    #: tables it watches, reviews), more are answered ``busy``
    ai_per_address: int = 8
    #: seconds after its last real activity (a person's move, the last connection
    #: leaving) that a table with nobody connected stops its bots (they go on when
    #: someone joins)
    bot_grace: float = 120.0
    #: seconds a review may take in all (waiting included) before it is stopped and
    #: answered ``busy``, and the deals it may sample in all (a long record gets fewer per
    #: decision, at least 8)
    review_deadline: float = 20.0
    review_deals: int = 40_000
    #: deals sampled per hint and per win-chance update, and per decision of a review
    hint_samples: int = 300
    chance_samples: int = 200
    review_samples: int = 100
    #: whether a hint or a win-chance update takes fewer deals (saying so) when AI work
    #: of its kind is waiting, and whether the match-odds table of rules that ship none
    #: is computed in the background (until then their positions are played out with
    #: fewer deals, saying so). Tests turn both off (``--test-seed`` too), so that no
    #: answer depends on the machine's load or on how far a background job has got
    coarse_when_busy: bool = True
    odds_in_background: bool = True
    #: hint requests per second accepted per connection, and the burst allowed
    hint_rate: float = 2.0
    hint_burst: int = 4
    #: hint requests per second accepted per client address, all its connections
    #: together (a burst of twice as many)
    hint_address_rate: float = 10.0
    #: seconds between two reactions of one seat (``react``)
    reaction_interval: float = 2.0
    #: reviews per minute per client address (a burst of as many)
    review_rate: float = 6.0
    #: largest record a review takes, in bytes and in moves
    max_review_body: int = 262144
    max_review_moves: int = 4000
    #: where the static files of the client are
    static_dir: Path = Path(__file__).parent / "static"
    #: where the pages' templates are (``base.html``: every page's head and top bar)
    templates_dir: Path = Path(__file__).parent / "templates"
    #: the chance source of a table (default: the OS; see docs/protocol.md, "Chance")
    chance_rng: Callable[[str], random.Random] = _system_random
    #: the random generator of a bot, by table id and seat (default: the OS)
    bot_rng: Callable[[str, int], random.Random] = lambda _t, _s: random.SystemRandom()
    #: new table ids
    new_id: Callable[[], str] = _new_id
    #: the clock for rate limits
    clock: Callable[[], float] = time.monotonic
    #: the wall clock for expiry and retention (seconds since the epoch)
    wall_clock: Callable[[], float] = time.time
    #: opens the database, called as ``store(db_path, clock=wall_clock)`` (tests inject
    #: a store that fails on purpose)
    store: Callable[..., Store] = Store
