"""``trashcards serve``: run the browser game on this machine and print the URL to open;
``serve --check`` checks the database instead. ``--workers N`` runs N server processes
on one port, sharing a PostgreSQL database (docs/deploy.md)."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any

import click

from .playeroptions import player_options, player_values

__all__ = ["serve"]


def _settings_defaults() -> dict[str, Any]:
    """The defaults of :class:`trashcards.web.Settings`, the one place they live."""
    try:
        from ..web.settings import Settings
    except ImportError:  # pragma: no cover - the web extra is missing: serve says so
        return {}
    return {f.name: f.default for f in dataclasses.fields(Settings)
            if f.default is not dataclasses.MISSING}


_DEFAULT = _settings_defaults()


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--db", "db", default=None, metavar="FILE|URL",
              help="The tables' database: an SQLite file [default: in your user data "
                   "directory], or a PostgreSQL URL (postgresql://user@host/name), which "
                   "several serve processes may share.")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 256),
              help="Server processes on this port (more than 1 needs a PostgreSQL --db: "
                   "each table has one owner process, and another takes it over if it dies).")
@click.option("--check", is_flag=True,
              help="Check the database instead of serving: replay every table, list the "
                   "ones that cannot be replayed (quarantined); exit status 1 if any.")
@click.option("--bot-delay", default=0.7, show_default=True, type=click.FloatRange(0),
              help="Seconds a bot waits before it acts (plus up to 0.5 s at random).")
@click.option("--round-pause", default=6.0, show_default=True, type=click.FloatRange(0),
              help="Seconds between rounds unless every player clicks 'next round'.")
@click.option("--create-rate", default=_DEFAULT.get("create_rate"), show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="N",
              help="Tables one client address may create per minute.")
@click.option("--join-rate", default=_DEFAULT.get("join_rate"), show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="N",
              help="Seats taken plus websocket joins per minute per client address.")
@click.option("--max-connections", default=_DEFAULT.get("max_connections"), show_default=True,
              type=click.IntRange(1), metavar="N", help="Open websockets per client address.")
@click.option("--max-http-connections", default=64, show_default=True, type=click.IntRange(1),
              metavar="N", help="Open HTTP connections per client address, whatever they "
                                 "are doing, with the full --request-timeout (more get 2 s; "
                                 "beyond 8 times N, none).")
@click.option("--request-timeout", "--header-timeout", "request_timeout", default=30.0,
              show_default=True, type=click.FloatRange(min=0, min_open=True),
              metavar="SECONDS",
              help="A connection that has not sent a whole request (headers and body) by "
                   "then, after connecting or after its last answer, is closed.")
@click.option("--http-rate", default=_DEFAULT.get("http_rate"), show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="N",
              help="HTTP requests per second per client address (bursts of 5 times as "
                   "many); more are answered 429.")
@click.option("--join-timeout", default=_DEFAULT.get("join_timeout"), show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="SECONDS",
              help="A websocket that has not joined a table by then is closed.")
@click.option("--message-rate", default=_DEFAULT.get("rate"), show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="N",
              help="Messages per second accepted per websocket (bursts of twice as many).")
@click.option("--max-message", default=_DEFAULT.get("max_message"), show_default=True,
              type=click.IntRange(64), metavar="BYTES",
              help="Largest websocket message read (larger: a too_large error).")
@click.option("--max-frame", default=_DEFAULT.get("max_frame"), show_default=True,
              type=click.IntRange(64), metavar="BYTES",
              help="Largest websocket frame taken in at all (larger: the socket is closed).")
@click.option("--max-body", default=_DEFAULT.get("max_body"), show_default=True,
              type=click.IntRange(64), metavar="BYTES", help="Largest HTTP request body.")
@click.option("--max-queue-bytes", default=_DEFAULT.get("max_queue_bytes"), show_default=True,
              type=click.IntRange(1024), metavar="N",
              help="Characters queued for one websocket before it is dropped as too slow.")
@click.option("--waiting-ttl", default=_DEFAULT.get("waiting_ttl", 86400) / 3600, show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="HOURS",
              help="A table still waiting for players after this long is deleted.")
@click.option("--retention", default=_DEFAULT.get("retention", 2592000) / 86400, show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="DAYS",
              help="A finished table is deleted this long after its end "
                   "('trashcards export' saves the records first).")
@click.option("--ai-workers", default=_DEFAULT.get("ai_workers"), show_default=True,
              type=click.IntRange(1), metavar="N",
              help="Threads computing hints, win chances, reviews and expert bots.")
@click.option("--hint-rate", default=_DEFAULT.get("hint_rate"), show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="N",
              help="Hint requests per second per websocket (bursts of twice as many).")
@click.option("--review-rate", default=_DEFAULT.get("review_rate"), show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="N",
              help="Game reviews per minute per client address.")
@click.option("--review-deadline", default=_DEFAULT.get("review_deadline"), show_default=True,
              type=click.FloatRange(min=0, min_open=True), metavar="S",
              help="Seconds a game review may take, waiting included, before it is "
                   "stopped and answered busy.")
@click.option("--max-sockets", default=_DEFAULT.get("max_sockets"), show_default=True,
              type=click.IntRange(1), metavar="N",
              help="Open websockets of the whole server (per process).")
@click.option("--max-tables", default=_DEFAULT.get("max_tables"), show_default=True,
              type=click.IntRange(1), metavar="N",
              help="Tables held in memory (per process); new ones beyond are refused busy.")
@click.option("--abandoned-ttl", default=_DEFAULT.get("abandoned_ttl", 86400) / 3600,
              show_default=True, type=click.FloatRange(min=0, min_open=True), metavar="HOURS",
              help="Hours a table still playing is kept with no one connected and no "
                   "move made; then it expires.")
@click.option("--trusted-proxy", "trusted_proxies", multiple=True, metavar="CIDR",
              help="A reverse proxy's address or network (10.0.0.0/8): from there the "
                   "client address is read from X-Forwarded-For; repeatable.")
@click.option("--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
              help="Also let pages of ORIGIN (https://example.org) use the server; "
                   "repeatable; '*' allows any. The server's own pages always may.")
@player_options
@click.option("--test-seed", type=int, default=None, hidden=True,
              help="Tests only: seed every shuffle and bot, table ids t0, t1, … (anyone "
                   "knowing the seed knows every stock; one process only).")
def serve(host: str, port: int, db: str | None, workers: int, check: bool, bot_delay: float,
          round_pause: float, create_rate: float, join_rate: float, max_connections: int,
          max_http_connections: int, request_timeout: float, http_rate: float,
          join_timeout: float,
          message_rate: float, max_message: int, max_frame: int,
          max_body: int, max_queue_bytes: int, waiting_ttl: float, retention: float,
          ai_workers: int, hint_rate: float, review_rate: float, review_deadline: float,
          max_sockets: int, max_tables: int, abandoned_ttl: float,
          trusted_proxies: tuple[str, ...], allow_origins: tuple[str, ...],
          test_seed: int | None, **players: Any) -> None:
    """Serve the browser game (online tables, bots, hot-seat) and print the URL to open.

    Every limit has a sensible default; docs/protocol.md ("Limits") explains each, and
    docs/players.md ("Serving players") the players' options (accounts, ratings, Play
    now, habits, leaderboards).
    """
    import uvicorn

    from ..web import Settings, create_app, default_db_path, guard
    from ..web.limits import proxy_networks
    from ..web.sessions import PlayerSettings
    from ..web.settings import seeded_sources
    from ..web.storage import is_postgres
    from ..web.store import StoreError
    from ..web.workers import ENVIRONMENT, PLAYERS_ENVIRONMENT, settings_text
    logging.basicConfig(level=logging.WARNING, format="trashcards serve: %(message)s")
    logging.getLogger("trashcards.web.warmup.lines").setLevel(logging.INFO)  # "warming up …"
    db_path: Path | str = default_db_path() if db is None else db
    if not is_postgres(db_path):
        db_path = Path(db_path)
    if workers > 1 and not is_postgres(db_path):
        raise click.ClickException(
            "--workers needs a PostgreSQL database (--db postgresql://…): an SQLite file "
            "is written by one server process, which then owns every table")
    values: dict[str, Any] = {
        "db_path": db_path, "bot_delay": bot_delay,
        "bot_jitter": 0.5 if bot_delay > 0 else 0.0, "round_pause": round_pause,
        "create_rate": create_rate, "join_rate": join_rate, "http_rate": http_rate,
        "http_burst": max(1, round(5 * http_rate)),
        "max_connections": max_connections, "join_timeout": join_timeout,
        "rate": message_rate, "burst": max(1, round(2 * message_rate)),
        "max_message": max_message, "max_frame": max(max_frame, max_message),
        "max_body": max_body, "max_queue_bytes": max_queue_bytes,
        "waiting_ttl": waiting_ttl * 3600, "retention": retention * 86400,
        "allowed_origins": allow_origins, "ai_workers": ai_workers, "hint_rate": hint_rate,
        "hint_burst": max(1, round(2 * hint_rate)),
        "hint_address_rate": max(hint_rate, _DEFAULT.get("hint_address_rate", 10.0)),
        "review_rate": review_rate,
        "review_deadline": review_deadline, "max_sockets": max_sockets,
        "max_tables": max_tables, "abandoned_ttl": abandoned_ttl * 3600,
        "trusted_proxies": trusted_proxies}
    try:
        proxy_networks(trusted_proxies)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--trusted-proxy") from None
    if test_seed is not None and workers > 1:
        raise click.ClickException("--test-seed runs one process only (not with --workers)")
    seeded = {} if test_seed is None else seeded_sources(test_seed)
    settings = Settings(**values, **seeded)
    player_fields = player_values(players)
    player_settings = PlayerSettings(**player_fields)
    if check:
        sys.exit(asyncio.run(_check(settings)))
    try:  # fail early, with a clear message, if the database cannot be used
        asyncio.run(_probe(settings.db_path))
    except StoreError as exc:
        raise click.ClickException(str(exc)) from None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    sock.listen(2048)  # connections made while the server starts wait, not refused
    bound = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    where = _shown_db(settings.db_path)
    processes = f", {workers} processes" if workers > 1 else ""
    click.echo(f"Trash is served at http://{shown}:{bound}/  (database: {where}{processes})")
    click.echo("Open that address in a browser; press Ctrl+C to stop.")
    # Frames are small JSON: compressing them costs more CPU than it saves. uvicorn does
    # not read X-Forwarded-For: the app does, from --trusted-proxy peers only.
    options: dict[str, Any] = {"log_level": "warning", "ws_max_size": settings.max_frame,
                               "ws_per_message_deflate": False, "lifespan": "on",
                               "proxy_headers": False, "http": guard.PROTOCOL}
    # slow clients: a whole-request deadline and a per-address cap (every worker reads
    # them)
    os.environ[guard.ENVIRONMENT] = guard.limits_text(
        guard.HttpLimits(request_timeout, max_http_connections))
    if workers == 1:
        config = uvicorn.Config(create_app(settings, player_settings), **options)
        uvicorn.Server(config).run(sockets=[sock])
        return
    from uvicorn.supervisors import Multiprocess

    # Each worker is a new Python process: it builds the same settings from the
    # environment (the app is named, not passed); the supervisor restarts dead workers.
    os.environ[ENVIRONMENT] = settings_text(values)
    os.environ[PLAYERS_ENVIRONMENT] = settings_text(player_fields)
    config = uvicorn.Config("trashcards.web.workers:app", factory=True, workers=workers,
                            **options)
    Multiprocess(config, sockets=[sock]).run()


def _shown_db(db: Path | str) -> str:
    """The database as shown: a path, or a URL without its password."""
    from ..web.storage import is_postgres

    if not is_postgres(db):
        return str(db)
    from ..web.postgres import hide_password

    return hide_password(str(db))


async def _probe(db: Path | str) -> None:
    """Open the database (creating or upgrading its schema) and read its list of tables;
    raises ``StoreError`` with what is wrong."""
    from ..web.backends import open_storage

    store = await open_storage(db, readonly=False)
    try:
        await store.ids(("waiting", "playing", "over"))  # every row of the list is readable
    finally:
        await store.close()


async def _check(settings: Any) -> int:
    """``serve --check``: 0 when every table replays, 1 otherwise (2: no database)."""
    from ..names import printable
    from ..web.backends import open_storage
    from ..web.hub import Hub
    from ..web.store import StoreError

    logging.getLogger("trashcards.web").setLevel(logging.CRITICAL)  # listed below instead
    try:
        store = await open_storage(settings.db_path, readonly=True)
    except StoreError as exc:
        click.echo(f"trashcards serve --check: {exc}", err=True)
        return 2
    try:
        damage = await store.integrity()
        fine, quarantined = await Hub(settings, store).check()
    except StoreError as exc:
        click.echo(f"trashcards serve --check: {exc}", err=True)
        return 2
    finally:
        await store.close()
    for problem in damage:
        click.echo(f"database: {printable(problem)}")
    for table_id, reason in sorted(quarantined.items()):
        click.echo(f"quarantined {printable(table_id)}: {printable(reason)}")
    click.echo(f"{_shown_db(settings.db_path)}: {fine} table(s) replay, "
               f"{len(quarantined)} quarantined"
               + (", the file is damaged" if damage else ""))
    return 1 if quarantined or damage else 0
