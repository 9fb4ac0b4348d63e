"""What a newcomer met in the full-screen game at 80×24: the ``?`` help fits the screen
(its last line, "any key closes this help", in sight), the default name "You" is not
"You (you)" nor "You's turn", ``o`` is in the key bar, and the scoreboard keeps whole
names in the log's half of the screen."""

from __future__ import annotations

import random

import pytest
from rich.console import Console

from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.tui.app import HelpScreen
from trashcards.tui.render import scoreboard

from .apptools import make_app, settle

pytestmark = pytest.mark.anyio

FOUR = ["You", "bot:expert", "bot:greedy", "bot:counter"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_the_help_fits_80x24_with_its_closing_line_in_sight() -> None:
    app = make_app(Match(Rules(), ["Ana", "bot:greedy"], random.Random(3)), seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        box = app.screen.query_one("#help-box").region
        assert box.y >= 0
        assert box.bottom <= 24
        assert box.right <= 80
        closing = [w for w in app.screen.query("Static")
                   if "any key closes this help" in str(w.render())]
        assert len(closing) == 1
        region = closing[0].region
        assert region.y >= 0
        assert region.bottom <= box.bottom - 1  # inside the border
        lines = [w for w in app.screen.query("Static") if "draw the top card" in str(w.render())]
        assert lines[0].region.height == 14  # one line per key: nothing wraps


async def test_the_default_name_is_not_you_you_and_o_is_in_the_key_bar() -> None:
    match = Match(Rules(), FOUR, random.Random(3))
    app = make_app(match, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "decision"
        titles = [str(board.border_title) for board in app.table.query(".board")]
        assert any("]You · 0/10 won" in title for title in titles), titles
        assert not any("(you)" in title for title in titles)
        bar = str(app.table.query_one("#actions").render())
        assert "[o] chances" in bar
        assert "[h] hint" in bar


async def test_a_key_while_your_turn_is_coming_says_your_turn() -> None:
    match = Match(Rules(), ["You", "bot:greedy"], random.Random(3))
    app = make_app(match, seed=3)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "decision"
        app.turn = None  # as while an animation of our own turn still plays
        app.action_hint()
        message = str(app.table.query_one("#message").render())
        assert "it is your turn" in message
        assert "You's" not in message


def test_the_scoreboard_keeps_whole_names_in_40_columns() -> None:
    match = Match(Rules(), ["You", "bot:expert", "bot:greedy:2", "bot:counter"],
                  random.Random(1))
    console = Console(width=38, record=True)
    console.print(scoreboard(match.view(None)))
    text = console.export_text()
    for name in ("bot:expert", "bot:greedy:2", "bot:counter"):
        assert name in text
    assert "…" not in text
