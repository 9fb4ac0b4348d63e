"""The full-screen game's screens: the table and the modals over it (passing the
keyboard, leaving, the keys). They post messages to the app; none of them knows it."""

from __future__ import annotations

from .confirm import ConfirmQuit
from .help import HelpScreen
from .passing import PassScreen
from .table import GAME_KEYS, OTHER_KEYS, StrayKey, TableReady, TableScreen

__all__ = ["GAME_KEYS", "OTHER_KEYS", "ConfirmQuit", "HelpScreen", "PassScreen", "StrayKey",
           "TableReady", "TableScreen"]
