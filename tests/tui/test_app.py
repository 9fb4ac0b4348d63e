"""The full-screen game, headless: Textual's Pilot presses the keys and clicks."""

from __future__ import annotations

import random
import threading
import time

import pytest

from trashcards.actions import Dealer, Verb
from trashcards.record import Entry, Record, load
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.state import Phase
from trashcards.tui.app import ConfirmQuit, HelpScreen, PassScreen
from trashcards.tui.game import Outcome
from trashcards.tui.keys import action_key
from trashcards.tui.loop import TerminalGame
from trashcards.tui.seats import seats_from_names

from .apptools import bots_for, make_app, settle
from .helpers import CYCLE_KIDS, ScriptReader, recording_console
from .scenarios import kids, stacked_match
from support import stacked_deck

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def log_text(app) -> str:
    return "\n".join(strip.text for strip in app.table.query_one("#log").lines)


async def play_by_keys(app, keys=CYCLE_KIDS, size=(80, 24), limit: int = 3000):
    """Press the cycle of keys at every decision, Enter between rounds, until the end."""
    pressed: list[str] = []
    async with app.run_test(size=size) as pilot:
        index = 0
        for _ in range(limit):
            waiting = await settle(pilot, app)
            if waiting == "exited":
                break
            key = "enter" if waiting in ("next round", "leave", "pass") \
                else keys[index % len(keys)]
            index += waiting == "decision"
            pressed.append(key)
            await pilot.press(key)
        else:
            raise AssertionError("the match did not end")
    return pressed


@pytest.mark.slow
async def test_pilot_plays_a_whole_seeded_match_by_keys(tmp_path):
    save = tmp_path / "full.trash.json"
    match = Match(kids(2), ["Ana", "bot:greedy"], random.Random(7))
    app = make_app(match, seed=7, save_to=save)
    pressed = await play_by_keys(app)
    assert app.return_value is Outcome.FINISHED
    record = load(save)
    assert record.dumps() == match.record.dumps()
    assert record.replay().phase is Phase.MATCH_OVER
    assert "enter" in pressed  # the round-over and the end waited for Enter
    assert any(line.startswith(("You win the match!", "bot:greedy wins the match!"))
               for line in app.farewell)
    assert f"The record is in {save}" in app.farewell


@pytest.mark.slow
async def test_the_full_screen_and_the_line_mode_play_the_same_game(tmp_path):
    """The same seed and the same decisions give the same record in both front ends."""
    seed = 11
    screen_match = Match(kids(2), ["Ana", "bot:counter"], random.Random(seed))
    app = make_app(screen_match, seed=seed)
    await play_by_keys(app)
    assert screen_match.over
    # the person's decisions, as keys, with an Enter for each round-over
    keys: list[str] = []
    for entry in screen_match.record.moves:
        if entry.seat == 0:
            keys.append(action_key(entry.move))  # type: ignore[arg-type]
        elif entry.seat is None and type(entry.move).__name__ == "Deck" and keys:
            keys.append("")
    line_match = Match(kids(2), ["Ana", "bot:counter"], random.Random(seed))
    seats = seats_from_names(line_match.record.players)
    game = TerminalGame(match=line_match, seats=seats, bots=bots_for(line_match, seed),
                        reader=ScriptReader(keys), console=recording_console())
    assert game.run() is Outcome.FINISHED
    assert line_match.record.dumps() == screen_match.record.dumps()


def standard_record(boards, stock):
    rules = Rules()
    deck = stacked_deck(rules, 2, 1, boards, stock)
    return Record(rules, ("Ana", "bot:greedy"), (Entry(None, Dealer(1)), Entry(None, deck)))


TENS = ("Ks 2h 3h 4h 5h 6h 7h 8h 9h Th", "Kc Kd 9s Qc Qd 2c 3c 4c 5c 6c")


@pytest.mark.parametrize(("keys", "slot"), [
    (("right", "right", "left", "right"), 3),  # along the row
    (("down", "right"), 7),  # down a row: slot 1 → 6, then 7
    (("left",), 10),  # round the end
    (("down", "up", "up"), 1),  # up from the top row stays
])
async def test_arrows_and_enter_pick_a_slot_for_the_wild(keys, slot):
    # Ana draws J♥ (the stock's top card) and must place it: the arrows walk the
    # face-down slots, Enter places it where they point.
    match = Match.from_record(standard_record(TENS, "Jh"), random.Random(0))
    app = make_app(match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await settle(pilot, app)
        assert match.view(0).phase is Phase.WILD
        await pilot.press(*keys)
        await pilot.press("enter")
        await settle(pilot, app)
    placed = [e.move for e in match.record.moves if e.seat == 0][1]
    assert placed.verb is Verb.WILD
    assert placed.slot == slot


def slot_offset(app, slot: int) -> tuple[int, int]:
    """Where a slot's card is inside its board (frame included), big or compact."""
    row, column = divmod(slot - 1, 5)
    if app._big:  # numbers, box top, face, box bottom per row; 6 columns a slot
        return 1 + column * 6 + 2, 1 + row * 4 + 2
    return 1 + column * 7 + 4, 1 + row  # "  3 ░░░ ": 7 columns a slot


async def test_a_click_on_a_slot_places_the_wild_and_a_click_on_the_stock_draws():
    match = stacked_match(boards=("Ks 2h 3h 4h 5h", "Kc Kd 9s Qc Qd"), stock="Jh",
                          rounds_to_win=2)
    app = make_app(match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        assert await pilot.click("#stock")
        await settle(pilot, app)
        assert match.view(0).in_hand is not None
        assert await pilot.click("#board-0", offset=slot_offset(app, 3))
        await settle(pilot, app)
    moves = [str(e.move) for e in match.record.moves if e.seat == 0]
    assert moves[:2] == ["stock", "wild 3"]


async def test_a_refused_key_or_click_says_why_on_the_message_line():
    match = stacked_match(rounds_to_win=2)
    app = make_app(match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("d")
        assert app.table.query_one("#message").text == "the discard pile is empty: s, q"
        await pilot.press("x")
        assert app.table.query_one("#message").text.startswith("'x' is not a key here: s, q")
        await pilot.click("#board-1", offset=slot_offset(app, 1))
        assert app.table.query_one("#message").text == "that is bot:greedy's board"
        assert len(match.record.moves) == 2  # nothing was played


async def test_quitting_asks_first_and_saves(tmp_path):
    target = tmp_path / "left.trash.json"
    match = Match(kids(2), ["Ana", "bot:kid"], random.Random(3))
    app = make_app(match, default_save=target)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("q")
        assert isinstance(app.screen, ConfirmQuit)
        await pilot.press("n")
        assert not isinstance(app.screen, ConfirmQuit)
        assert app.is_running
        await pilot.press("s")
        await settle(pilot, app)
        await pilot.press("q", "y")
        await pilot.pause()
    assert app.return_value is Outcome.QUIT
    assert load(target).dumps() == match.record.dumps()
    assert app.farewell == [f"Saved to {target} — continue with: trashcards play --resume "
                            f"{target}"]


async def test_ctrl_c_leaves_at_once_and_saves(tmp_path):
    save = tmp_path / "c.trash.json"
    match = Match(kids(2), ["Ana", "bot:kid"], random.Random(3))
    app = make_app(match, save_to=save)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_value is Outcome.INTERRUPTED
    assert load(save).dumps() == match.record.dumps()


async def test_hotseat_hides_the_table_and_the_log_until_the_next_player_is_ready():
    match = Match(kids(2), ["Ana", "Bo"], random.Random(2))
    app = make_app(match)
    async with app.run_test(size=(80, 24)) as pilot:
        assert await settle(pilot, app) == "pass"
        assert isinstance(app.screen, PassScreen)
        first = app.screen.player
        await pilot.press("enter")
        assert await settle(pilot, app) == "decision"
        log = log_text(app)
        assert log.startswith(f"{first}, since your last turn:")
        titles = [str(board.border_title) for board in app.table.query(".board")]
        assert f"{first} (you) · 0/2 won" in titles[0] + titles[1]
        for key in CYCLE_KIDS:  # play until the turn passes
            await pilot.press(key)
            if await settle(pilot, app) == "pass":
                break
        assert isinstance(app.screen, PassScreen)
        second = app.screen.player
        assert second != first
        await pilot.press("enter")
        await settle(pilot, app)
        log = log_text(app)
        assert log.startswith(f"{second}, since your last turn:")
        assert f"{first} drew " in log or f"{first} called" in log  # told by name
        assert "You drew" not in log.split("\n", 3)[1]


class SlowBot:
    """Greedy that takes its time, and notes the thread it thinks in."""

    def __init__(self, seconds: float) -> None:
        from trashcards.bots import make_bot
        self.inner = make_bot("greedy", random.Random(0))
        self.seconds = seconds
        self.threads: set[int] = set()

    def choose(self, view):
        self.threads.add(threading.get_ident())
        time.sleep(self.seconds)
        return self.inner.choose(view)


async def test_a_thinking_bot_never_blocks_the_screen():
    bot = SlowBot(3.0)  # thinks far longer than the help takes to open, even under load
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
        await pilot.press("question_mark")  # the help opens while the bot thinks
        assert isinstance(app.screen, HelpScreen)
        assert app.waiting_for == "bot"  # and the bot is still thinking: never blocked
        await pilot.press("escape")
        await settle(pilot, app)
    assert bot.threads
    assert threading.get_ident() not in bot.threads


async def test_jokers_show_as_joker_and_the_glyph_never_x1():
    rules = kids(2).with_fields({"jokers_per_deck": 1})
    deck = stacked_deck(rules, 2, 1, ("Ks 2h 3h 4h 5h", "Kc Kd 9s Qc Qd"), "X1")
    record = Record(rules, ("Ana", "bot:greedy"), (Entry(None, Dealer(1)), Entry(None, deck)))
    match = Match.from_record(record, random.Random(0))
    app = make_app(match)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("s")
        await settle(pilot, app)
        assert "🃏" in str(app.table.query_one("#hand").render())  # in hand
        await pilot.press("1")
        await settle(pilot, app)
        board = str(app.table.query_one("#board-0").render())
        log = log_text(app)
    assert "You drew Joker from the stock" in log
    assert "You placed the wild Joker on slot 1, turned up K♠" in log
    assert "🃏*" in board
    assert "X1" not in log
    assert "X1" not in board


async def test_four_players_fit_80x24_and_a_big_terminal_gets_big_boards():
    names = ["Ana", "bot:greedy", "bot:counter", "bot:kid"]
    for size, big in (((80, 24), False), ((120, 40), True), ((100, 30), False)):
        match = Match(kids(2), names, random.Random(4))
        app = make_app(match, seed=4)
        async with app.run_test(size=size) as pilot:
            await settle(pilot, app)
            assert app._big is big
            for seat in range(4):
                board = app.table.query_one(f"#board-{seat}")
                assert board.region.bottom <= size[1]
                assert board.region.right <= size[0]
            actions = app.table.query_one("#actions")
            assert actions.region.bottom <= size[1]
            assert actions.region.height >= 1


async def test_a_terminal_too_small_for_the_table_says_so():
    match = Match(Rules(), ["Ana", "bot:greedy", "bot:counter", "bot:kid"], random.Random(4))
    app = make_app(match, seed=4)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot, app)
        notice = app.table.query_one("#message").text
        assert notice == ("this terminal (60×20) is too small for the table: make it "
                          "80×24 or more, or play with --lines")
