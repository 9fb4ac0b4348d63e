"""Hints and win chances at the terminal: worked out from views only (two deals that differ
only in hidden cards get the same hint), in a thread so the screen never waits, the
fallback engine announced once; ``h`` and ``o`` through the full screen (Textual's Pilot)
and the line mode."""

from __future__ import annotations

import random
import threading
import time

import pytest

import trashcards.ai.compare as compare_module
import trashcards.ai.evaluate as evaluate_module
from trashcards.actions import TRASH, wild
from trashcards.ai.hints import hint
from trashcards.record import Record
from trashcards.session import Match
from trashcards.state import Phase
from trashcards.tui.advice import Advice, Advisor, standing_chances
from trashcards.tui.app import HelpScreen
from trashcards.tui.game import Outcome
from trashcards.tui.loop import TerminalGame
from trashcards.tui.seats import seats_from_names

from .apptools import bots_for, make_app, settle
from .helpers import CYCLE_KIDS, ScriptReader, output, recording_console
from .scenarios import kids, stacked_record

pytestmark = pytest.mark.anyio

#: Ana holds a wild after one draw; the two deals differ only in the face-down cards.
BOARDS_A = ("2h 3h 4h 5h As", "Kc Kd Ks Qc Qd")
BOARDS_B = ("Kc Kd Ks Qc Qd", "2h 3h 4h 5h As")
SAMPLES = 60


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def wild_in_hand(boards: tuple[str, str]) -> Match:
    """A kids match where Ana (seat 0) has just drawn J♥ from the stock."""
    record = stacked_record(boards=boards, stock="Jh")
    match = Match.from_record(record, random.Random(0))
    match.play(match.view(0).legal[0], 0)  # the stock: the only draw
    match.advance(next_round=False)
    return match


def hint_text_of(app) -> str:
    return str(app.table.query_one("#hint").render())


async def wait_for_advice(pilot, app, steps: int = 600) -> None:
    for _ in range(steps):
        if app.advice is not None:
            await pilot.pause()
            return
        await pilot.pause(0.02)
    raise AssertionError("the advice never came")


# -- the advisor ------------------------------------------------------------------------

@pytest.mark.numba_compile
def test_two_deals_that_differ_only_in_hidden_cards_get_the_same_hint():
    a, b = wild_in_hand(BOARDS_A), wild_in_hand(BOARDS_B)
    assert a.state != b.state  # the hidden cards differ …
    assert a.view(0) == b.view(0)  # … and nothing public does
    first = Advisor(SAMPLES).advise(a.view(0))
    second = Advisor(SAMPLES).advise(b.view(0))
    assert first.hint.to_json() == second.hint.to_json()
    assert first.chances == second.chances


@pytest.mark.numba_compile
def test_the_advice_is_the_hint_command_s_with_every_player_s_chance():
    view = wild_in_hand(BOARDS_A).view(0)
    advice = Advisor(SAMPLES).advise(view)
    expected = hint(view, SAMPLES, 0)
    assert advice.hint.to_json() == expected.to_json()
    assert {line.action for line in advice.hint.lines} == set(view.legal)
    assert advice.chances == expected.best.value.match_wins
    assert sum(advice.chances) == pytest.approx(1.0)
    assert [line.reason for line in advice.hint.lines] == [
        line.reason for line in expected.lines]


@pytest.mark.numba_compile
def test_the_advisor_answers_a_view_once_and_keeps_it():
    calls: list[object] = []
    advisor = Advisor(SAMPLES)
    view = wild_in_hand(BOARDS_A).view(0)
    original = compare_module.compare

    def counting(*args, **kwargs):
        calls.append(args[0])
        return original(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("trashcards.ai.hints.compare", counting)
        first = advisor.advise(view)
        second = advisor.advise(view)
    assert len(calls) == 1
    assert first.hint is second.hint


def test_without_the_fast_engine_the_reference_one_is_used_and_said_once(monkeypatch):
    monkeypatch.setattr(evaluate_module, "fast_problem", lambda: "numba is not installed")
    advisor = Advisor(SAMPLES)
    match = wild_in_hand(BOARDS_B)
    first = advisor.advise(match.view(0))
    match.play(wild(1), 0)  # turns up K♣, a trash card: the bot's turn
    match.advance(next_round=False)
    assert match.view(1).to_act == 1
    second = advisor.advise(match.view(1))
    assert first.hint.evaluation.engine == second.hint.evaluation.engine == "reference"
    assert first.notice is not None
    assert "numba is not installed" in first.notice
    assert second.notice is None


def test_between_rounds_the_chances_come_from_the_match_odds_table():
    match = Match.from_record(stacked_record(rounds_to_win=2), random.Random(0))
    match.play(match.view(0).legal[0], 0)  # A♥ fills Ana's board: she wins round 1
    match.advance(next_round=False)
    view = match.view(0)
    assert view.phase is Phase.ROUND_OVER
    chances = standing_chances(view)
    assert chances is not None
    assert chances[0] > 0.5 > chances[1]
    assert sum(chances) == pytest.approx(1.0)
    assert standing_chances(wild_in_hand(BOARDS_A).view(0)) is None  # a round is on


# -- the full screen ----------------------------------------------------------------------

def app_at_the_wild(boards: tuple[str, str], **options: object):
    match = Match.from_record(stacked_record(boards=boards, stock="Jh"), random.Random(0))
    return make_app(match, advisor=Advisor(SAMPLES), **options)


async def press_h_at_the_wild(boards: tuple[str, str]) -> str:
    app = app_at_the_wild(boards)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("s")  # Ana draws J♥
        await settle(pilot, app)
        assert not app.table.query_one("#hint-box").display  # no hint until asked
        await pilot.press("h")
        await wait_for_advice(pilot, app)
        assert app.table.query_one("#hint-box").display
        return hint_text_of(app)


@pytest.mark.numba_compile
async def test_h_shows_the_best_move_every_move_s_chance_and_the_reasons():
    shown = await press_h_at_the_wild(BOARDS_A)
    view = wild_in_hand(BOARDS_A).view(0)
    expected = hint(view, SAMPLES, 0)
    key = "t" if expected.best.action == TRASH else str(expected.best.action.slot)
    assert shown.startswith((f"Best: [{key}] ", f"Equally good: [{key}] "))
    for line in expected.lines:
        assert line.reason in shown
        assert f"{line.value.match_win.value * 100:.1f} %" in shown
        assert f"{line.value.round_win.value * 100:.1f} % round" in shown
    assert "Throws the wild J♥ away" in shown  # the trash option's reason


@pytest.mark.numba_compile
async def test_the_hint_on_screen_is_the_same_whatever_the_hidden_cards():
    assert await press_h_at_the_wild(BOARDS_A) == await press_h_at_the_wild(BOARDS_B)


class SlowAdvisor(Advisor):
    """An advisor that takes its time."""

    def __init__(self, seconds: float) -> None:
        super().__init__(SAMPLES)
        self.seconds = seconds

    def advise(self, view) -> Advice:
        time.sleep(self.seconds)
        return super().advise(view)


class GatedAdvisor(Advisor):
    """An advisor that works out nothing until the test opens its gate, and notes the
    threads it works in."""

    def __init__(self) -> None:
        super().__init__(SAMPLES)
        self.gate = threading.Event()
        self.threads: set[int] = set()

    def advise(self, view) -> Advice:
        self.threads.add(threading.get_ident())
        assert self.gate.wait(120), "the test never opened the gate"
        return super().advise(view)


@pytest.mark.numba_compile
async def test_a_hint_is_worked_out_in_a_thread_and_the_screen_never_waits():
    advisor = GatedAdvisor()
    match = Match.from_record(stacked_record(boards=BOARDS_A, stock="Jh"), random.Random(0))
    app = make_app(match, advisor=advisor, hints=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert "Working out a hint" in hint_text_of(app)  # --hints: it opens by itself
        # the hint is held back, and the screen still answers: the help opens and closes
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert app.advice is None
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)
        assert app.advice is None
        advisor.gate.set()
        await wait_for_advice(pilot, app)
        assert hint_text_of(app).startswith("Best: [s] ")
    assert advisor.threads
    assert threading.get_ident() not in advisor.threads


@pytest.mark.numba_compile
async def test_hints_open_at_every_decision_with_the_win_chances_and_o_hides_them():
    app = app_at_the_wild(BOARDS_A, hints=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await wait_for_advice(pilot, app)
        chances = app.table.query_one("#chances")
        assert chances.display
        line = str(chances.render())
        assert line.startswith("Win chances: You ")
        assert " · bot:greedy " in line
        await pilot.press("s")  # the next decision (the wild) opens its own hint
        await settle(pilot, app)
        await wait_for_advice(pilot, app)
        assert "Throws the wild J♥ away" in hint_text_of(app)
        await pilot.press("o")
        assert not chances.display
        await pilot.press("h")  # h closes the hint of this decision
        assert "h shows the hint for this decision" in hint_text_of(app)
        assert "Hints come at your turn" not in hint_text_of(app)  # it is our turn
        await pilot.press("o")
        assert chances.display


class SlowBot:
    """Greedy that takes its time."""

    def __init__(self, seconds: float) -> None:
        from trashcards.bots import make_bot
        self.inner = make_bot("greedy", random.Random(0))
        self.seconds = seconds

    def choose(self, view):
        time.sleep(self.seconds)
        return self.inner.choose(view)


async def test_h_when_it_is_not_your_turn_says_whose_it_is():
    record = stacked_record(names=("bot:greedy", "Ana"))  # the bot plays first
    match = Match.from_record(record, random.Random(0))
    app = make_app(match, bots={0: SlowBot(1.0)}, advisor=Advisor(SAMPLES))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(200):
            if app.waiting_for == "bot":
                break
            await pilot.pause(0.01)
        assert app.waiting_for == "bot"
        await pilot.press("h")
        assert "wait: it is bot:greedy's turn" in str(app.table.query_one("#message").render())
        assert not app.table.query_one("#hint-box").display


async def test_a_level_s_seat_shows_its_level_and_elo():
    match = Match.from_record(stacked_record(names=("Ana", "bot:kid")), random.Random(0))
    app = make_app(match)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        subtitle = str(app.table.query_one("#board-1").border_subtitle)
        assert subtitle.startswith("casual, Elo 1596 · ")
        assert str(app.table.query_one("#board-0").border_subtitle) == "5 face down"


# -- the line mode ------------------------------------------------------------------------

def line_game(record: Record, answers: list[str], **options: object) -> TerminalGame:
    match = Match.from_record(record, random.Random(0))
    return TerminalGame(match=match, seats=seats_from_names(record.players),
                        bots=bots_for(match, 0), reader=ScriptReader(answers),
                        console=recording_console(120), advisor=Advisor(SAMPLES),
                        **options)  # type: ignore[arg-type]


@pytest.mark.numba_compile
def test_h_in_the_line_mode_prints_the_hint_and_asks_again(tmp_path):
    game = line_game(stacked_record(boards=BOARDS_A, stock="Jh"), ["s", "h", "o", "o"],
                     save_to=tmp_path / "h.trash.json")
    assert game.run() is Outcome.ENDED
    text = output(game.console)
    view = wild_in_hand(BOARDS_A).view(0)
    expected = hint(view, SAMPLES, 0)
    assert "Best: [" in text or "Equally good: [" in text
    for line in expected.lines:
        assert line.reason in text
    assert "Win chances: You " in text
    assert "Win chances hidden (o shows them)." in text
    assert game.reader.prompts == ["Ana> "] * 5  # the prompt came back after h and o


@pytest.mark.numba_compile
def test_hints_in_the_line_mode_come_before_every_decision(tmp_path):
    record = stacked_record(boards=BOARDS_A, stock="Jh")
    game = line_game(record, ["s", "1"], hints=True, chances=True,
                     save_to=tmp_path / "h.trash.json")
    assert game.run() is Outcome.FINISHED  # the wild on slot 1 sets off the winning chain
    text = output(game.console)
    assert game.reader.prompts == ["Ana> "] * 2  # the draw and the wild
    heads = text.count("Best: [") + text.count("Equally good: [")
    assert heads == text.count("Win chances: You ") == 2
    assert text.index("Best: [s] draw from the stock") < text.index("You drew J♥")
    assert "Best: [" in text[text.index("You drew J♥"):] or \
        "Equally good: [" in text[text.index("You drew J♥"):]


class CountingAdvisor(SlowAdvisor):
    """A slow advisor that notes how many evaluations ran at once."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.active = 0
        self.most = 0
        self.calls = 0
        self._count_lock = threading.Lock()

    def advise(self, view) -> Advice:
        with self._count_lock:
            self.active += 1
            self.calls += 1
            self.most = max(self.most, self.active)
        try:
            return super().advise(view)
        finally:
            with self._count_lock:
                self.active -= 1


@pytest.mark.numba_compile
async def test_one_evaluation_at_a_time_and_the_latest_position_wins():
    advisor = CountingAdvisor(0.15)
    match = Match(kids(2), ["Ana", "bot:greedy"], random.Random(7))
    app = make_app(match, seed=7, hints=True, advisor=advisor)
    async with app.run_test(size=(100, 30)) as pilot:
        decisions = 0
        for index in range(400):
            waiting = await settle(pilot, app)
            if waiting == "exited" or decisions == 12:
                break
            decisions += waiting == "decision"
            await pilot.press("enter" if waiting != "decision"
                              else CYCLE_KIDS[index % len(CYCLE_KIDS)])
        if app.waiting_for == "decision":
            await wait_for_advice(pilot, app)
            assert app.advice is not None
            assert app.advice.hint.to_act == 0  # the advice shown is for this decision
            assert {line.action for line in app.advice.hint.lines} == set(
                app.game.match.view(0).legal)
    assert advisor.most == 1
    assert advisor.calls >= 3


async def test_without_numba_the_full_screen_says_so_once_in_the_log(monkeypatch):
    monkeypatch.setattr(evaluate_module, "fast_problem", lambda: "numba is not installed")
    app = app_at_the_wild(BOARDS_A, hints=True)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await wait_for_advice(pilot, app)
        await pilot.press("s")  # the wild: a second hint, on the same engine
        await settle(pilot, app)
        await wait_for_advice(pilot, app)
        assert app.advice is not None
        assert app.advice.hint.evaluation.engine == "reference"
        log = " ".join(" ".join(strip.text for strip in app.table.query_one("#log").lines)
                       .split())  # the log wraps its lines
    assert log.count("numba is not installed") == 1
    assert "rollouts by the rules engine" in log
