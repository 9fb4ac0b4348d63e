"""A few pinned pictures of the full-screen game (pytest-textual-snapshot): four players
at 80×24 (compact boards) and at 120×40 (big boards), the end of a round, and a hint
with the win chances.

After a deliberate change of the screen, look at the new pictures and accept them with
``pytest tests/tui/test_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

import random

import pytest

from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.tui.advice import Advisor

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


@pytest.mark.numba_compile
def test_a_hint_and_the_win_chances_at_80x24(snap_compare):
    """--hints at a wild: the hint beside the log and the win chances above the status
    (the reference engine, so the figures do not depend on numba being installed)."""
    async def draw_the_wild(pilot) -> None:
        app = pilot.app
        await settle(pilot, app)
        await pilot.press("s")  # Ana draws J♥
        await settle(pilot, app)
        for _ in range(500):
            if app.advice is not None:
                break
            await pilot.pause(0.02)
        assert app.advice is not None
        await pilot.pause()

    match = stacked_match(boards=("Kc Kd Ks Qc Qd", "2h 3h 4h 5h As"), stock="Jh")
    app = make_app(match, hints=True, advisor=Advisor(100, engine="reference"))
    assert snap_compare(app, terminal_size=(80, 24), run_before=draw_the_wild)
