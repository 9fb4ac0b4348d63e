"""``trashcards serve``: run the browser game on this machine and print the URL to open."""

from __future__ import annotations

import socket
from pathlib import Path

import click

__all__ = ["serve"]


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0: every interface).")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535),
              help="Port to listen on (0: any free port).")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite database of the tables [default: in your user data directory].")
@click.option("--bot-delay", default=0.7, show_default=True, type=click.FloatRange(0),
              help="Seconds a bot waits before it acts (plus up to 0.5 s at random).")
@click.option("--round-pause", default=6.0, show_default=True, type=click.FloatRange(0),
              help="Seconds between rounds unless every player clicks 'next round'.")
def serve(host: str, port: int, db: Path | None, bot_delay: float, round_pause: float) -> None:
    """Serve the browser game (online tables, bots, hot-seat) and print the URL to open."""
    try:
        import uvicorn

        from ..web import Settings, create_app, default_db_path
        from ..web.store import Store, StoreBusyError
    except ImportError as exc:  # pragma: no cover - depends on the installation
        raise click.ClickException(
            f"the web server needs the web extra: pip install 'trashcards[web]' ({exc})"
        ) from None
    settings = Settings(db_path=db or default_db_path(), bot_delay=bot_delay,
                        bot_jitter=0.5 if bot_delay > 0 else 0.0, round_pause=round_pause)
    try:  # fail early, with a clear message, if another server holds the database
        Store(settings.db_path).close()
    except StoreBusyError as exc:
        raise click.ClickException(str(exc)) from None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    bound = sock.getsockname()[1]
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    shown = f"[{shown}]" if ":" in shown else shown
    click.echo(f"Trash is served at http://{shown}:{bound}/  (database: {settings.db_path})",
               )
    click.echo("Open that address in a browser; press Ctrl+C to stop.")
    # Frames are small JSON: compressing them costs more CPU than it saves.
    config = uvicorn.Config(create_app(settings), log_level="warning", ws_max_size=65536,
                            ws_per_message_deflate=False, lifespan="on")
    uvicorn.Server(config).run(sockets=[sock])
