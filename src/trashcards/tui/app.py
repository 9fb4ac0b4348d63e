"""The full-screen game: one fixed screen, redrawn in place (Textual).

The screen, top to bottom (``app.tcss`` styles it):

* ``#header`` — the round and the rules;
* ``#boards`` — every seat's board in a grid, two columns where they fit; compact boards
  (one line per row of five) at 80×24 with four players, big ones (each card a small
  box) when the terminal has room;
* ``#piles`` — the stock, the discard pile and the card in hand (click to draw);
* ``#chances`` — every player's chance of winning the match (``o`` shows or hides it;
  on with ``--hints``);
* ``#status`` — whose turn, the card in hand, a pending claim, the last-chance lap;
* ``#log-row`` — the log of every step (``#log``), told to the person at the keyboard,
  and beside it the hint (``#hint-box``: at every decision of a person with
  ``--hints``, or when ``h`` asks for one);
* ``#actions`` — the legal actions with their keys (click to play);
* ``#message`` — why a key was refused, and save warnings.

The match runs in one async worker, :meth:`TrashApp.conduct`: it asks the
:class:`~.game.Game` what is due, awaits a person's key (a future that the key, click
and arrow handlers resolve) or a bot's choice (a thread worker, so a slow bot never
blocks the screen), then animates the move's steps in place from the events, with a
:class:`~.scene.Scene` per step.

Hints and win chances come from an :class:`~.advice.Advisor`, which is handed views
only. :meth:`TrashApp.decision_started` is the one place a person's decision begins:
the hint for that view is worked out there in a thread worker (:meth:`TrashApp.advise`),
so the screen never waits for it; a bot's decision and the end of a round start the same
worker for the win chances alone. An answer for a position that has moved on is dropped.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import ClassVar

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual import events, work
from textual.app import App
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.screen import Screen
from textual.widgets import RichLog, Static
from textual.worker import WorkerCancelled, WorkerFailed

from ..actions import DISCARD, STOCK, SWAP, Action, Verb, wild
from ..state import Phase
from ..views import View
from .advice import Advice, Advisor, standing_chances
from .game import Batch, Decision, Game, MatchOver, Outcome, SaveError, default_save_path
from .keys import Command, InputError, parse_key, refusal
from .narrate import card_label, status_lines
from .render import (
    BIG_HEIGHT,
    BIG_WIDTH,
    COMPACT_WIDTH,
    action_entries,
    card_text,
    chances_text,
    hint_text,
    scoreboard,
    standings_table,
)
from .scene import Scene
from .screens import (
    GAME_KEYS,
    ConfirmQuit,
    HelpScreen,
    PassScreen,
    StrayKey,
    TableReady,
    TableScreen,
)
from .widgets import BoardState, BoardView, Notice, PilePicked, SlotPicked

__all__ = ["ConfirmQuit", "HelpScreen", "PassScreen", "TrashApp", "Turn"]

#: Lines the screen needs besides the boards: header, piles, status, two of actions,
#: message, and at least five of log.
_RESERVED_LINES = 11
#: Lines of a compact board inside its frame.
COMPACT_LINES = 2


@dataclass
class Turn:
    """The decision under way: whose, their view, the future a key, click or Enter
    resolves, and what the arrow keys move between (and point at)."""

    seat: int
    view: View
    choice: asyncio.Future[Action]
    targets: list[Action]
    cursor: int = 0

    @property
    def target(self) -> Action | None:
        return self.targets[self.cursor] if self.targets else None


class TrashApp(App[Outcome]):
    """One match, full screen. ``run()`` returns the :class:`~.game.Outcome`;
    :attr:`farewell` holds the lines to print once the screen is gone (where the record
    was saved, the result)."""

    CSS_PATH = "app.tcss"
    TITLE = "trashcards"
    ENABLE_COMMAND_PALETTE = False
    AUTO_FOCUS = None
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(key, f"choose('{key}')", show=False) for key in GAME_KEYS),
        Binding("left", "cursor(-1)", show=False),
        Binding("right", "cursor(1)", show=False),
        Binding("up", "cursor(-5)", show=False),
        Binding("down", "cursor(5)", show=False),
        Binding("enter", "pick", show=False),
        Binding("space", "skip", show=False),
        Binding("question_mark,f1", "help", show=False),
        Binding("h", "hint", show=False),
        Binding("o", "chances", show=False),
        Binding("q", "quit_asked", show=False),
        Binding("ctrl+q", "quit_asked", show=False, priority=True),
        Binding("ctrl+c", "interrupt", show=False, priority=True),
    ]

    def __init__(self, game: Game, *, opening: list[str] | None = None,
                 bot_delay: float = 0.0, step_pace: float = 0.0,
                 default_save: Callable[[], Path] = default_save_path,
                 hints: bool = False, advisor: Advisor | None = None) -> None:
        super().__init__()
        self.game = game
        self.opening = opening or []
        self.bot_delay = bot_delay
        self.step_pace = step_pace
        self.default_save = default_save
        #: Lines for the terminal once the screen is gone.
        self.farewell: list[str] = []
        #: Why the record could not be saved on leaving (``None``: it was, or needed not).
        self.save_error: str | None = None
        #: What the conductor waits for (for tests and the status line): ``"decision"``,
        #: ``"bot"``, ``"pass"``, ``"next round"``, ``"leave"`` or ``None`` (animating).
        self.waiting_for: str | None = None
        self._scene = Scene.from_view(game.view())
        #: the decision under way (``None``: no person is deciding)
        self.turn: Turn | None = None
        self._continue: asyncio.Future[None] | None = None
        #: the move being shown step by step (``None`` at rest)
        self._on_show: Batch | None = None
        self._touched: tuple[int, int] | None = None
        self._skip = False
        self._big = False
        self._warned: str | None = None
        #: ``--hints``: the hint opens at every decision of a person, and the win chances
        #: are shown (``o`` toggles :attr:`show_chances`).
        self.hints = hints
        self.show_chances = hints
        self.advisor = advisor or Advisor()
        #: The hint panel is open for the decision under way.
        self.hint_open = False
        #: The latest advice for the decision under way (``None``: being worked out).
        self.advice: Advice | None = None
        self._advice_for: View | None = None
        self._chances: tuple[float, ...] | None = None
        self._hint_problem: str | None = None
        self._advising = False
        #: The table's screen; every widget is looked up there, whatever modal is on top.
        self.table: TableScreen = TableScreen(0)
        self._table_up = False

    # -- the screen -----------------------------------------------------------------------

    def get_default_screen(self) -> Screen[None]:
        self.table = TableScreen(len(self.game.seats))
        return self.table

    @property
    def _notice(self) -> Notice:
        return self.table.query_one("#message", Notice)

    def on_table_ready(self, _message: TableReady) -> None:
        """The table's widgets exist: start the match."""
        self._table_up = True
        log = self.table.query_one("#log", RichLog)
        for line in self.opening:
            log.write(Text(line, style="dim"))
        self._fit(self.size)
        self._paint()
        self.call_after_refresh(self.conduct)  # the table is laid out first

    def on_resize(self, event: events.Resize) -> None:
        if not self._table_up:
            return
        self._fit(event.size)
        self._paint()

    def _fit(self, size: Size) -> None:
        """Big boards when they fit, else compact; two columns of boards when they fit."""
        players = len(self.game.seats)

        def rows(width_needed: int) -> int:
            return math.ceil(players / self._columns(size.width, width_needed))

        reserved = _RESERVED_LINES + (1 if self.show_chances else 0)
        big_lines = rows(BIG_WIDTH) * (BIG_HEIGHT + 2) + reserved
        self._big = big_lines <= size.height
        width = BIG_WIDTH if self._big else COMPACT_WIDTH
        boards = self.table.query_one("#boards")
        boards.styles.grid_size_columns = self._columns(size.width, width)
        self.set_class(self._big, "big")
        compact_lines = rows(COMPACT_WIDTH) * (COMPACT_LINES + 2) + reserved - 3
        notice = self._notice
        if compact_lines > size.height:
            notice.say(f"this terminal ({size.width}×{size.height}) is too small for the "
                       "table: make it 80×24 or more, or play with --lines")
        elif notice.text.startswith("this terminal ("):
            notice.say("")

    def _columns(self, width: int, needed: int) -> int:
        players = len(self.game.seats)
        return 2 if players > 1 and width >= 2 * (needed + 4) else 1

    def _paint(self) -> None:
        """Draw everything from the scene (mid-animation) and the view (at rest)."""
        scene, view = self._scene, self.game.view()
        names = self.game.names
        self.table.query_one("#header", Static).update(
            Text.assemble((f"Round {scene.round}", "bold"), " · ",
                          (view.rules.describe(), "dim")))
        cursor_slot = self._cursor_slot()
        target = view.rules.target_rounds
        deciding = self.turn.seat if self.turn is not None else None
        for board in self.table.query(BoardView):
            seat = board.seat
            touched = self._touched[1] if self._touched and self._touched[0] == seat else None
            title = Text(names[seat], style="bold")
            if seat == self.game.viewer and names[seat].casefold() != "you":
                title.append(" (you)")  # not "You (you)" for the default name
            title.append(f" · {scene.rounds_won[seat]}/{target} won")
            if seat == scene.dealer:
                title.append(" · dealer")
            down = scene.slots[seat].count(None)
            level = self.game.seats[seat].level_note
            board.state = BoardState(
                slots=scene.slots[seat], rules=view.rules, big=self._big,
                cursor=cursor_slot if seat == deciding else None, touched=touched,
                title=title,
                subtitle=(f"{level} · " if level else "") + (
                    f"{down} face down" if scene.slots[seat] else "not dealt"),
                to_act=seat == scene.to_act,
                winner=seat in view.round_winners
                and view.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER))
        for name, part in zip(("#stock", "#discard", "#hand"), self._piles(), strict=True):
            self.table.query_one(name, Static).update(part)
        self.table.query_one("#status", Static).update(self._status(view))
        self._paint_advice()
        self.table.query_one("#actions", Static).update(self._actions(view))

    def _piles(self) -> tuple[Text, Text, Text]:
        """The stock, the discard pile and the card in hand."""
        scene = self._scene
        target = self.turn.target if self.turn is not None else None
        stock = Text.assemble(("Stock ", "bold"), card_text(None, scene.rules),
                              f" {scene.stock_count}")
        top = scene.top_discard
        pile = Text.assemble(("Discard ", "bold"),
                             card_text(top, scene.rules) if top else Text("empty", "dim"),
                             f" ({len(scene.discard)})" if top else "")
        for part, action in ((stock, STOCK), (pile, DISCARD)):
            if target == action:
                part.stylize("reverse bold green")
        hand = Text("In hand: ", style="bold")
        if scene.in_hand is not None:
            hand.append_text(card_text(scene.in_hand, scene.rules))
            if scene.rules.roles()[scene.in_hand] == 0:
                hand.append(" (wild)")
        else:
            hand.append("–", style="dim")
        return stock, pile, hand

    def _status(self, view: View) -> Text:
        names = self.game.names
        you = self.game.viewer
        text = Text()
        deciding = self.turn.seat if self.turn is not None else None
        if self.waiting_for == "decision" and deciding is not None:
            turn = "Your turn" if deciding == you else f"{names[deciding]} to act"
            text.append(turn, style="bold green")
            if view.in_hand is not None:
                text.append(f" — {card_label(view.in_hand)} in hand")
                if view.must_play:
                    text.append(" (from the discard pile: it must be played)")
            if view.called:
                text.append(' — called "Trash!"')
        elif self.waiting_for == "bot" and view.to_act is not None:
            text.append(f"{names[view.to_act]} is thinking…", style="bold")
        elif self.waiting_for == "next round":
            won = ", ".join("you" if s == you else names[s] for s in view.round_winners)
            text.append(f"Round {view.round} won by {won}" if won
                        else f"Round {view.round} is void", style="bold green")
            text.append(f" — Enter deals round {view.round + 1}, q quits")
        elif self.waiting_for == "leave":
            winner = view.match_winner
            if winner is not None:
                text.append("You win the match!" if winner == you
                            else f"{names[winner]} wins the match!", style="bold green")
            text.append(" — Enter leaves")
        elif (actor := self._on_show.actor if self._on_show is not None and
              self._on_show.actor is not None else view.to_act) is not None:
            # the move on show is its actor's (the state may already be the next seat's)
            text.append("You play…" if actor == you else f"{names[actor]} plays…",
                        style="bold")
        for line in status_lines(view, you):
            text.append(f"\n{line}", style="yellow")
        return text

    def _actions(self, view: View) -> Text:
        def entry(keys: str, label: str, action: str) -> Text:
            part = Text.assemble((f"[{keys}]", "bold"), f" {label}")
            part.stylize(Style(meta={"@click": action}))
            return part

        parts: list[Text] = []
        if self.waiting_for == "decision":
            for keys, label in action_entries(view):
                first = keys.split()[0]
                parts.append(entry(keys, label, f"app.choose('{first}')"))
            parts.append(entry("h", "hint", "app.hint"))
        elif self.waiting_for in ("next round", "leave"):
            what = "deal the next round" if self.waiting_for == "next round" else "leave"
            parts.append(entry("Enter", what, "app.pick"))
        parts.append(entry("o", "chances", "app.chances"))
        parts.append(entry("q", "quit", "app.quit_asked"))
        parts.append(entry("?", "help", "app.help"))
        return Text("  ").join(parts)

    def _paint_advice(self) -> None:
        """The win-chance line and the hint panel."""
        chances = self.table.query_one("#chances", Static)
        chances.display = self.show_chances
        if self.show_chances:
            chances.update(chances_text(self._chances, self.game.names, self.game.viewer))
        box = self.table.query_one("#hint-box", VerticalScroll)
        box.display = self.hints or self.hint_open
        if not box.display:
            return
        hint = self.table.query_one("#hint", Static)
        view = self._advice_for
        deciding = self.turn.seat if self.turn is not None else None
        if deciding is None or view is None:
            hint.update(Text("Hints come at your turn (h hides or shows them).", style="dim"))
        elif not self.hint_open:
            hint.update(Text("h shows the hint for this decision.", style="dim"))
        elif self._hint_problem is not None:
            hint.update(Text(f"No hint: {self._hint_problem}", style="yellow"))
        elif self.advice is None or self.advice.hint.to_act != deciding:
            hint.update(Text("Working out a hint…", style="dim"))
        else:
            hint.update(hint_text(self.advice.hint, view))

    def _cursor_slot(self) -> int | None:
        action = self.turn.target if self.turn is not None else None
        if action is None:
            return None
        if action.verb is Verb.WILD:
            return action.slot
        if action.verb is Verb.SWAP and self._scene.in_hand is not None:
            return self._scene.rules.roles()[self._scene.in_hand]
        return None

    def _write_log(self, line: str | RenderableType) -> None:
        text = Text(line, style="dim" if line.startswith("—") else "") \
            if isinstance(line, str) else line
        self.table.query_one("#log", RichLog).write(text, scroll_end=True)

    def _say(self, message: str, passing: bool = False) -> None:
        """A notice under the actions; a refusal (``passing``) goes when the turn moves
        on, a warning stays."""
        self._notice.say(message, passing)

    # -- the match ------------------------------------------------------------------------

    @work(exclusive=True, group="conduct")
    async def conduct(self) -> None:
        """Play the match to its end: the one place that decides what happens next."""
        game = self.game
        await self._show_steps(game.start(), 0.0)
        while True:
            due = game.due()
            if isinstance(due, MatchOver):
                self._write_log(standings_table(game.view()))
                await self._wait_for("leave")
                self._finish()
                return
            if not isinstance(due, Decision):
                self._write_log(scoreboard(game.view()))
                if self.show_chances:
                    self.advise(game.view())
                if game.people:
                    await self._wait_for("next round")
                else:  # a table of bots, watched: the next round comes by itself
                    await asyncio.sleep(self.bot_delay * 4)
                await self._show_steps(game.next_round(), 0.0)
                continue
            if due.bot:
                action = await self._bot_choice(due.seat)
            else:
                action = await self._person_choice(due.seat)
            await self._show_steps(game.play(due.seat, action), self.step_pace)

    async def _bot_choice(self, seat: int) -> Action:
        self.waiting_for = "bot"
        if self.show_chances:
            self.advise(self.game.match.view(seat))
        self._paint()
        worker = self.run_worker(partial(self.game.bot_choice, seat), thread=True,
                                 group="bot", name=f"bot {seat}")
        action = await worker.wait()
        if self.bot_delay:
            await asyncio.sleep(self.bot_delay)
        return action

    async def _person_choice(self, seat: int) -> Action:
        game = self.game
        if game.needs_pass(seat):
            self.waiting_for = "pass"
            await self.push_screen_wait(PassScreen(game.names[seat]))
            recap = game.sit(seat)
            log = self.table.query_one("#log", RichLog)
            log.clear()  # the last player's log goes: the next one sees their recap
            self._write_log(Text(f"{game.names[seat]}, since your last turn:", style="bold"))
            for line in recap[-200:]:
                self._write_log("  " + line)
        elif game.hotseat:
            game.viewer = seat
        view = game.match.view(seat)
        turn = Turn(seat, view, asyncio.get_running_loop().create_future(), _targets(view))
        self.turn = turn
        self._scene = Scene.from_view(view)
        self.waiting_for = "decision"
        self._notice.moved_on()  # a refusal said before this turn is not about it
        self.decision_started(view)
        self._paint()
        try:
            return await turn.choice
        finally:
            self.turn = None
            self.waiting_for = None

    def decision_started(self, view: View) -> None:
        """A person's decision begins with ``view`` (their own): the hint opens with
        ``--hints``, and the advice is worked out when the hint or the chances show."""
        self.hint_open = self.hints
        if self.hint_open or self.show_chances:
            self.advise(view)

    def advise(self, view: View) -> None:
        """Work out the advice at ``view`` (the hint and the chances at a decision, the
        chances between rounds) in a thread; what it shows replaces the last. One
        evaluation runs at a time: a request made meanwhile waits, and only the latest
        waiting one is worked out (so fast bots never pile up threads)."""
        self._advice_for = view
        self.advice = None
        self._hint_problem = None
        if not self._advising:
            self._advising = True
            self._advise()

    @work(group="advice")
    async def _advise(self) -> None:
        try:
            while self._advice_for is not None:
                view = self._advice_for
                decision = view.to_act is not None and view.phase in (
                    Phase.DRAW, Phase.WILD, Phase.SWAP)
                job = partial(self.advisor.advise, view) if decision else partial(
                    standing_chances, view)
                worker = self.run_worker(job, thread=True, group="advice-thread",
                                         name="advice", exit_on_error=False)
                result: Advice | tuple[float, ...] | WorkerFailed | None
                try:
                    result = await worker.wait()
                except WorkerCancelled:  # the app is closing
                    return
                except WorkerFailed as exc:
                    result = exc
                if isinstance(result, Advice) and result.notice is not None:
                    self._write_log(Text(f"Note: {result.notice}.", style="yellow"))
                if view == self._advice_for:
                    self._show_advice(result)
                    return
        finally:
            self._advising = False

    def _show_advice(self, result: Advice | tuple[float, ...] | WorkerFailed | None) -> None:
        if isinstance(result, WorkerFailed):
            self._hint_problem = str(result.error)
        elif isinstance(result, Advice):
            self.advice = result
            self._chances = result.chances
        elif result is not None:
            self._chances = result
        self._paint_advice()

    def submit(self, action: Action) -> None:
        """A person chose ``action`` (from a key, a click or Enter)."""
        if self.turn is not None and not self.turn.choice.done():
            self._say("")
            self.hint_open = False
            self.turn.choice.set_result(action)

    async def _wait_for(self, what: str) -> None:
        self._continue = asyncio.get_running_loop().create_future()
        self.waiting_for = what
        self._paint()
        try:
            await self._continue
        finally:
            self._continue = None
            self.waiting_for = None

    async def _show_steps(self, batch: Batch, pace: float) -> None:
        """Show a move step by step in place: the boards, the piles and the log."""
        self._skip = False
        self.waiting_for = None
        self._on_show = batch
        try:
            for index, step in enumerate(batch.steps(self.game.names, self.game.viewer)):
                if index and pace and not self._skip:
                    await asyncio.sleep(pace)
                self._scene = step.scene
                self._touched = step.scene.last
                self._write_log(step.line)
                self._paint()
        finally:
            self._touched = None
            self._on_show = None
            self._scene = Scene.from_view(self.game.view())
            self._paint()
        problem = self.game.save_problem
        if problem is not None and problem != self._warned:
            self._say(f"Warning: {problem} (it tries again after every move)")
        self._warned = problem

    # -- keys and clicks ------------------------------------------------------------------

    def _deciding_view(self) -> View | None:
        return self.turn.view if self.turn is not None else None

    def _not_now(self) -> None:
        view = self.game.view()
        if self.waiting_for in ("next round", "leave"):
            self._say("press Enter to go on (q quits)", passing=True)
        elif view.to_act is not None and self.waiting_for != "pass":
            whose = ("your" if view.to_act == self.game.viewer
                     else f"{self.game.names[view.to_act]}'s")
            self._say(f"wait: it is {whose} turn", passing=True)

    def action_choose(self, key: str) -> None:
        view = self._deciding_view()
        if view is None:
            self._not_now()
            return
        try:
            choice = parse_key(key, view)
        except InputError as exc:
            self._say(str(exc), passing=True)
            return
        if isinstance(choice, Command):  # pragma: no cover - q and ? are bound apart
            return
        self.submit(choice)

    def action_slot(self, seat: int, slot: int) -> None:
        view = self._deciding_view()
        if view is None:
            self._not_now()
            return
        if self.turn is None or seat != self.turn.seat:
            self._say(f"that is {self.game.names[seat]}'s board", passing=True)
            return
        if wild(slot) in view.legal:
            self.submit(wild(slot))
        elif SWAP in view.legal and view.in_hand is not None \
                and view.rules.roles()[view.in_hand] == slot:
            self.submit(SWAP)
        else:
            action = SWAP if view.phase is Phase.SWAP else wild(slot)
            self._say(refusal(action, view), passing=True)

    def action_cursor(self, step: int) -> None:
        turn = self.turn
        if turn is None or not turn.targets:
            return
        if abs(step) == 5:
            slots = [a.slot if a.verb is Verb.WILD else None for a in turn.targets]
            current = slots[turn.cursor]
            if current is not None:
                wanted = current + step
                candidates = [i for i, s in enumerate(slots) if s is not None
                              and (s >= wanted if step > 0 else s <= wanted)]
                if candidates:
                    turn.cursor = min(candidates, key=lambda i: abs((slots[i] or 0) - wanted))
            self._paint()
            return
        turn.cursor = (turn.cursor + step) % len(turn.targets)
        self._paint()

    def action_pick(self) -> None:
        if self._continue is not None and not self._continue.done():
            self._continue.set_result(None)
        elif self.turn is not None and self.turn.target is not None:
            self.submit(self.turn.target)
        else:
            self._skip = True

    def action_skip(self) -> None:
        self._skip = True

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    def action_hint(self) -> None:
        """``h``: open (or close) the hint for the decision under way."""
        view = self._deciding_view()
        if view is None:
            self._not_now()
            return
        self.hint_open = not self.hint_open
        if self.hint_open and self._advice_for != view:
            self.advise(view)
        self._paint_advice()

    def action_chances(self) -> None:
        """``o``: show or hide every player's match-win chance."""
        self.show_chances = not self.show_chances
        view = self.game.match.view(None)
        if self.show_chances and view.to_act is not None:
            self.advise(self.game.match.view(view.to_act))
        elif self.show_chances:
            self.advise(self.game.view())
        self._fit(self.size)
        self._paint()

    def action_quit_asked(self) -> None:
        if self.waiting_for == "leave":
            self._finish()
            return
        if isinstance(self.screen, ConfirmQuit):
            return
        path = self.game.save_to
        where = (f"The match is saved to {path}; continue later with "
                 f"trashcards play --resume {path}." if path is not None else
                 "The match will be saved to a new trash-….trash.json file here, to "
                 "continue later with trashcards play --resume.")

        def answered(leave: bool | None) -> None:
            if leave:
                self._leave(Outcome.QUIT)

        self.push_screen(ConfirmQuit(where), answered)

    def action_interrupt(self) -> None:
        if self.waiting_for == "leave":
            self._finish()
        else:
            self._leave(Outcome.INTERRUPTED)

    def on_stray_key(self, message: StrayKey) -> None:
        """A printable key that no binding took: say which keys work."""
        view = self._deciding_view()
        if view is None:
            self._not_now()
            return
        try:
            parse_key(message.character, view)
        except InputError as exc:
            self._say(str(exc), passing=True)

    def on_slot_picked(self, message: SlotPicked) -> None:
        """A click on a slot of a board."""
        self.action_slot(message.seat, message.slot)

    def on_pile_picked(self, message: PilePicked) -> None:
        """A click on the stock or the discard pile."""
        self.action_choose(message.key)

    # -- leaving --------------------------------------------------------------------------

    def _leave(self, outcome: Outcome) -> None:
        path = self.game.save_to or self.default_save()
        try:
            self.game.save(path)
        except SaveError as exc:
            self.save_error = str(exc)
            self.farewell.append(f"Error: {exc}")
        else:
            self.farewell.append(f"Saved to {path} — continue with: "
                                 f"trashcards play --resume {path}")
        self.exit(outcome)

    def _finish(self) -> None:
        view = self.game.view()
        names = self.game.names
        if view.match_winner is not None:
            winner = view.match_winner
            self.farewell.append("You win the match!" if winner == self.game.viewer
                                 else f"{names[winner]} wins the match!")
        places = view.standings
        if places is not None:
            order = sorted(range(len(names)), key=lambda s: (places[s], s))
            self.farewell.append("Final standings: " + ", ".join(
                f"{places[s]}. {names[s]}" for s in order))
        if self.game.save_to is not None and self.game.save_problem is None:
            self.farewell.append(f"The record is in {self.game.save_to}")
        self.exit(Outcome.FINISHED)


def _targets(view: View) -> list[Action]:
    """What the arrow keys move between: the stock and a playable discard, the
    face-down slots for a wild, or the slot a swap would take."""
    if view.phase is Phase.DRAW:
        return [a for a in view.legal if a in (STOCK, DISCARD)]
    if view.phase is Phase.WILD:
        return [a for a in view.legal if a.verb is Verb.WILD]
    return [a for a in view.legal if a == SWAP]
