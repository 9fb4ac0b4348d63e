"""A few pinned pictures of the full-screen game (pytest-textual-snapshot): four players
at 80×24 (compact boards) and at 120×40 (big boards), and the end of a round.

After a deliberate change of the screen, look at the new pictures and accept them with
``pytest tests/tui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import random

import pytest

from trashcards.rules import Rules
from trashcards.session import Match

from .apptools import make_app, settle
from .scenarios import stacked_match

pytest.importorskip("pytest_textual_snapshot")

FOUR = ["Ana", "bot:greedy", "bot:counter", "bot:kid"]


async def _ready(pilot) -> None:
    await settle(pilot, pilot.app)


def four_players(seed: int = 3):
    match = Match(Rules(), FOUR, random.Random(seed))
    return make_app(match, seed=seed,
                    opening=["Trash — four players — seed 3", "Players: " + ", ".join(FOUR)])


def test_four_players_at_80x24(snap_compare):
    assert snap_compare(four_players(), terminal_size=(80, 24), run_before=_ready)


def test_four_players_at_120x40(snap_compare):
    assert snap_compare(four_players(), terminal_size=(120, 40), run_before=_ready)


def test_the_end_of_a_round_shows_the_winners_board_at_80x24(snap_compare):
    async def win_the_round(pilot) -> None:
        await settle(pilot, pilot.app)
        await pilot.press("s")  # the stacked deck: one draw fills Ana's board
        await settle(pilot, pilot.app)

    app = make_app(stacked_match(rounds_to_win=2))
    assert snap_compare(app, terminal_size=(80, 24), run_before=win_the_round)
