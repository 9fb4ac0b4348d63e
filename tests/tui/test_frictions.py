"""Three things the full-screen game said wrong (issue 27), read off the screen as a
person sees it: the status line's grammar for the person called "You", a refusal that
outlived the turn it was about, and the hint's reason cut off at 80×24."""

from __future__ import annotations

import html
import random
import re
import threading

import pytest

from trashcards.actions import Dealer
from trashcards.bots import make_bot
from trashcards.record import Entry, Record
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.tui.advice import Advisor

from .apptools import make_app, settle
from .scenarios import kids
from support import stacked_deck

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def screen_text(app) -> str:
    """The screen's text, row by row, as its screenshot draws it."""
    svg = app.export_screenshot()
    rows: dict[float, list[str]] = {}
    for y, part in re.findall(r'<text[^>]*y="([\d.]+)"[^>]*>(.*?)</text>', svg):
        rows.setdefault(float(y), []).append(html.unescape(re.sub("<[^>]+>", "", part)))
    return "\n".join("".join(rows[y]).replace("\xa0", " ") for y in sorted(rows))


class HeldBot:
    """The greedy bot, which chooses only once the test lets it."""

    def __init__(self) -> None:
        self.inner = make_bot("greedy", random.Random(0))
        self.go = threading.Event()

    def choose(self, view):
        self.go.wait(30)
        return self.inner.choose(view)


@pytest.mark.slow
async def test_the_status_line_names_who_plays_the_move_on_show():
    # the bot's move is shown step by step while the person called "You" (the default
    # name) is already the next to act: the line names the bot, and never "You plays"
    match = Match(kids(2), ["You", "bot:greedy"], random.Random(5))
    app = make_app(match)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "decision"
        app.step_pace = 1.0  # each step of a move stays on screen a while
        await pilot.press("s")
        for _ in range(3000):
            if app.waiting_for is None and match.state.to_act == 0:
                break  # the bot's last move, which passes the turn, is on show
            await pilot.pause(0.01)
        else:
            raise AssertionError("the bot's move was never shown")
        await pilot.pause(0.05)
        shown = screen_text(app)
        assert "You plays" not in shown
        assert "bot:greedy plays…" in shown
        app.step_pace = 0.0
        await pilot.press("space")  # skip the rest
        await settle(pilot, app)


async def test_a_wait_refusal_is_gone_when_your_turn_comes():
    bot = HeldBot()
    match = Match(kids(2), ["Ana", "bot:greedy"], random.Random(5))
    app = make_app(match, bots={1: bot})
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(400):
            if app.waiting_for == "bot":
                break
            if app.waiting_for == "decision":
                await pilot.press("s")
            await pilot.pause(0.01)
        assert app.waiting_for == "bot"
        await pilot.press("s")  # too early: the bot is to act
        await pilot.pause()
        assert "wait: it is bot:greedy's turn" in screen_text(app)
        bot.go.set()
        assert await settle(pilot, app) == "decision"
        await pilot.pause()
        assert "wait: it is" not in screen_text(app)


async def test_the_hint_at_80x24_shows_the_best_moves_reason():
    # four boards of ten at 80×24 (the log row is short) and a wild for ten face-down
    # slots: ten equally good moves, and why
    names = ("Ana", "bot:greedy", "bot:counter", "bot:kid")
    rules = Rules().with_fields({"rounds_to_win": 1})  # short play-outs for the hint
    deck = stacked_deck(rules, 4, 2, ("Kc Kd Ks Kh Qc Qd Qs Qh Kc Kd",
                                      "As 2s 3s 4s 5s 6s 7s 8s 9s Ts",
                                      "Ac 2c 3c 4c 5c 6c 7c 8c 9c Tc",
                                      "Ad 2d 3d 4d 5d 6d 7d 8d 9d Td"), "Jh")
    record = Record(rules, names, (Entry(None, Dealer(3)), Entry(None, deck)))  # Ana first
    match = Match.from_record(record, random.Random(0))
    app = make_app(match, hints=True, advisor=Advisor(20, engine="reference"))
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "decision"
        await pilot.press("s")  # Ana draws J♥
        assert await settle(pilot, app) == "decision"
        for _ in range(6000):
            if app.advice is not None:
                break
            await pilot.pause(0.02)
        assert app.advice is not None
        await pilot.pause()
        reason = str(app.advice.hint.best.reason)
        shown = " ".join(screen_text(app).replace("│", " ").split())
        assert " ".join(reason.split()) in shown, (reason, screen_text(app))
