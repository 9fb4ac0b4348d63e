"""Driving the full-screen game headless with Textual's Pilot."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path

from textual.pilot import Pilot

from trashcards.bots import make_bot
from trashcards.session import Chooser, Match
from trashcards.tui.app import TrashApp
from trashcards.tui.game import Game
from trashcards.tui.seats import seats_from_names


def bots_for(match: Match, seed: int) -> dict[int, Chooser]:
    """The bots of a match, seeded as ``trashcards play --seed`` seeds them."""
    seats = seats_from_names(match.record.players)
    return {index: make_bot(seat.bot, random.Random(f"{seed}/bot/{index}"))
            for index, seat in enumerate(seats) if seat.bot is not None}


def make_app(match: Match, seed: int = 0, save_to: Path | None = None,
             bots: dict[int, Chooser] | None = None, default_save: Path | None = None,
             **options: object) -> TrashApp:
    seats = seats_from_names(match.record.players)
    game = Game(match, seats, bots if bots is not None else bots_for(match, seed), save_to)
    target = default_save or Path("/nonexistent/default.trash.json")
    return TrashApp(game, default_save=lambda: target, **options)  # type: ignore[arg-type]


async def settle(pilot: Pilot[object], app: TrashApp,
                 waiting: Sequence[str] = ("decision", "next round", "leave", "pass"),
                 steps: int = 2000) -> str:
    """Let the app run until it waits for a person (or has exited); what it waits for."""
    for _ in range(steps):
        if not app.is_running:
            return "exited"
        if app.waiting_for in waiting:
            return app.waiting_for
        await pilot.pause()
    raise AssertionError(f"the app never waited for {waiting}; it waits for {app.waiting_for}")
