"""The browser game's server: tables, seats, bots and the JSON/websocket protocol of
docs/protocol.md, on Starlette and uvicorn (the ``web`` extra)."""

from __future__ import annotations

from .app import create_app
from .settings import Settings, default_db_path

__all__ = ["Settings", "create_app", "default_db_path"]
