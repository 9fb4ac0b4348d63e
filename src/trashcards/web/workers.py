"""The app of one worker of ``trashcards serve --workers N``: each worker is a new
process (started by uvicorn's supervisor), which builds the server's settings from the
environment variable :data:`ENVIRONMENT` that ``serve`` sets (JSON of the
:class:`~trashcards.web.settings.Settings` fields given on the command line), and the
players' settings from :data:`PLAYERS_ENVIRONMENT` (the
:class:`~trashcards.web.sessions.PlayerSettings` fields)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Final

from starlette.applications import Starlette

from .app import create_app
from .sessions import PlayerSettings
from .settings import Settings

__all__ = ["ENVIRONMENT", "PLAYERS_ENVIRONMENT", "app", "settings_text"]

#: The environment variables holding the settings of the workers, and their players'.
ENVIRONMENT: Final = "TRASHCARDS_SERVE_SETTINGS"
PLAYERS_ENVIRONMENT: Final = "TRASHCARDS_SERVE_PLAYERS"


def settings_text(values: dict[str, Any]) -> str:
    """The JSON text of simple :class:`Settings` fields (paths and tuples included)."""
    return json.dumps({k: str(v) if isinstance(v, Path) else v for k, v in values.items()})


def app() -> Starlette:
    """The server of one worker (uvicorn calls this in the worker process)."""
    values: dict[str, Any] = json.loads(os.environ[ENVIRONMENT])
    values["allowed_origins"] = tuple(values.get("allowed_origins", ()))
    values["trusted_proxies"] = tuple(values.get("trusted_proxies", ()))
    players: dict[str, Any] = json.loads(os.environ.get(PLAYERS_ENVIRONMENT, "{}"))
    players["blocked_names"] = tuple(players.get("blocked_names", ()))
    return create_app(Settings(**values), PlayerSettings(**players))
