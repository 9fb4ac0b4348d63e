"""The line mode: the match as a transcript, one prompt per decision.

For piped input (``--lines``), scripts and screen readers; the full-screen game is
:mod:`.app`. :class:`TerminalGame` drives a :class:`~.game.Game` to its end. Everything
it touches from outside comes in as an argument — the keys (:class:`~.terminal.Reader`),
the screen (a rich :class:`~rich.console.Console`), the bots, the clock's ``sleep`` and
where to save — so tests can drive a whole match in-process.

Hints: ``h`` at a decision prints the hint (:mod:`.advice`: the best move, every move's
win chance, and why); with ``hints`` every decision of a person starts with it, and the
line of every player's match-win chance (``o`` shows or hides it) comes with the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from ..errors import IllegalActionError
from ..session import Chooser, Match
from ..views import View
from .advice import Advisor, standing_chances
from .game import Batch, Decision, Game, MatchOver, Outcome, SaveError, default_save_path
from .keys import Command, InputError, parse_key
from .render import (
    chances_text,
    help_panel,
    hint_text,
    menu_text,
    round_over,
    standings_table,
    table_view,
)
from .seats import Seat
from .terminal import Reader

__all__ = ["Outcome", "TerminalGame", "default_save_path"]

#: Lines of "since your last turn" shown to the next player in hot-seat.
_RECAP_LINES = 40
#: Clears the screen and the terminal's scrollback (so the last player's screen cannot
#: be scrolled back to).
_CLEAR_ALL = "\x1b[H\x1b[2J\x1b[3J"


class _QuitRequest(Exception):  # noqa: N818 - control flow, not an error
    """A player asked to leave (q)."""


class _InputEnded(Exception):  # noqa: N818 - control flow, not an error
    """The input ran out."""


@dataclass
class TerminalGame:
    """One match played in the line mode.

    ``bots`` maps each bot's seat to its chooser; every other seat is a person.
    ``save_to``: the record is written there after every move (``None``: only when a
    player quits, to ``default_save()``; not at the end of the input). ``hotseat``:
    before each person's decision, when the person to act changes, the screen and its
    scrollback are cleared and the next player must press Enter. ``hints``: every
    decision of a person starts with the hint; ``chances``: the table comes with every
    player's match-win chance. The ``advisor`` works both out from views.
    """

    match: Match
    seats: Sequence[Seat]
    bots: Mapping[int, Chooser]
    reader: Reader
    console: Console
    save_to: Path | None = None
    default_save: Callable[[], Path] = field(default=lambda: default_save_path())
    bot_delay: float = 0.0
    hotseat: bool = False
    sleep: Callable[[float], None] = time.sleep
    hints: bool = False
    chances: bool = False
    advisor: Advisor = field(default_factory=Advisor)
    game: Game = field(init=False)
    #: Why the record could not be saved on leaving (``None``: it was, or needed not be).
    save_error: str | None = field(default=None, init=False)
    _warned: str | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.game = Game(self.match, self.seats, self.bots, self.save_to)

    @property
    def saved_path(self) -> Path | None:
        return self.game.saved_path

    @property
    def names(self) -> tuple[str, ...]:
        return self.game.names

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> Outcome:
        """Play until the match ends or a player leaves (see :class:`Outcome`)."""
        game = self.game
        try:
            self._show(game.start())
            while True:
                due = game.due()
                if isinstance(due, MatchOver):
                    self._finish()
                    return Outcome.FINISHED
                if not isinstance(due, Decision):
                    self._between_rounds()
                elif due.bot:
                    self._bot_turn(due.seat)
                else:
                    self._human_decision(due.seat)
        except _QuitRequest:
            self._leave(self.save_to or self.default_save())
            return Outcome.QUIT
        except _InputEnded:
            if self.save_to is not None:
                self._leave(self.save_to)
            else:
                self.console.print("The input ended; the match was not saved "
                                   "(give --save FILE to keep its record).")
            return Outcome.ENDED
        except KeyboardInterrupt:
            self.console.print()
            self._leave(self.save_to or self.default_save())
            return Outcome.INTERRUPTED

    def _read(self, prompt: str) -> str:
        try:
            return self.reader.read(prompt)
        except EOFError:
            raise _InputEnded from None

    # -- moves ----------------------------------------------------------------------------

    def _bot_turn(self, seat: int) -> None:
        choice = self.game.bot_choice(seat)
        if self.bot_delay:
            self.sleep(self.bot_delay)
        self._show(self.game.play(seat, choice), pace=self.bot_delay / 2)

    def _human_decision(self, seat: int) -> None:
        if self.hotseat and self.game.needs_pass(seat):
            self._pass_to(seat)
        elif self.game.hotseat:
            self.game.viewer = seat
        view = self.match.view(seat)
        self.console.print()
        self.console.print(table_view(view, [s.level_note for s in self.seats]))
        if self.chances:
            self._print_chances(view)
        if self.hints:
            self._print_hint(view)
        self.console.print(menu_text(view))
        prompt = f"{view.players[seat].name}> "
        while True:
            text = self._read(prompt)
            try:
                choice = parse_key(text, view)
            except InputError as exc:
                self.console.print(Text(str(exc), style="yellow"))
                continue
            if choice is Command.QUIT:
                raise _QuitRequest
            if choice is Command.HELP:
                self.console.print(help_panel())
                self.console.print(menu_text(view))
                continue
            if choice is Command.HINT:
                self._print_hint(view)
                self.console.print(menu_text(view))
                continue
            if choice is Command.CHANCES:
                self.chances = not self.chances
                if self.chances:
                    self._print_chances(view)
                else:
                    self.console.print("Win chances hidden (o shows them).")
                continue
            try:
                batch = self.game.play(seat, choice)
            except IllegalActionError as exc:  # parse_key allows only legal actions
                self.console.print(Text(exc.reason, style="yellow"))
                continue
            self._show(batch)
            return

    def _print_hint(self, view: View) -> None:
        advice = self.advisor.advise(view)
        self._notice(advice.notice)
        self.console.print(hint_text(advice.hint, view))

    def _print_chances(self, view: View) -> None:
        advice = self.advisor.advise(view)
        self._notice(advice.notice)
        self.console.print(chances_text(advice.chances, self.names, self.game.viewer))

    def _notice(self, notice: str | None) -> None:
        if notice is not None:
            self.console.print(Text(f"Note: {notice}.", style="yellow"))

    def _pass_to(self, seat: int) -> None:
        """Hot-seat: hide the last player's screen until the next player is ready."""
        name = self.seats[seat].name
        self._clear()
        self.console.print(Panel(Text(f"Pass to {name} — press Enter", style="bold")))
        if self._read("").strip().lower() in ("q", "quit"):
            raise _QuitRequest
        self._clear()
        recap = self.game.sit(seat)[-_RECAP_LINES:]
        if recap:
            self.console.print(Text(f"{name}, since your last turn:", style="bold"))
            for line in recap:
                self.console.print(Text("  " + line))

    def _clear(self) -> None:
        if self.console.is_terminal:
            self.console.file.write(_CLEAR_ALL)
            self.console.file.flush()
        else:
            self.console.clear()

    # -- rounds and the end ---------------------------------------------------------------

    def _between_rounds(self) -> None:
        view = self.game.view()
        self.console.print()
        self.console.print(round_over(view))
        chances = standing_chances(view) if self.chances else None
        if chances is not None:
            self.console.print(chances_text(chances, self.names, self.game.viewer))
        if self.game.people:  # a table of bots (watched) goes on by itself
            answer = self._read(f"Press Enter to deal round {view.round + 1} (q quits) ")
            if answer.strip().lower() in ("q", "quit"):
                raise _QuitRequest
        self._show(self.game.next_round())

    def _finish(self) -> None:
        view = self.game.view()
        self.console.print()
        self.console.print(table_view(view))
        self.console.print()
        self.console.print(standings_table(view))
        if self.save_to is not None and self.game.save_problem is None:
            self.console.print(f"The record is in {self.save_to}", markup=False,
                               soft_wrap=True)

    def _leave(self, path: Path) -> None:
        try:
            self.game.save(path)
        except SaveError as exc:
            self.save_error = str(exc)
            self.console.print(f"Error: {exc}", markup=False, highlight=False,
                               soft_wrap=True, style="bold red")
            return
        self.console.print(f"Saved to {path} — continue with: trashcards play --resume {path}",
                           markup=False, highlight=False, soft_wrap=True)

    # -- output ---------------------------------------------------------------------------

    def _show(self, batch: Batch, pace: float = 0.0) -> None:
        for index, step in enumerate(batch.steps(self.names, self.game.viewer)):
            if pace and index:
                self.sleep(pace)
            line = step.line
            self.console.print(Text(line, style="dim" if line.startswith("—") else ""))
        problem = self.game.save_problem
        if problem is not None and problem != self._warned:
            self.console.print(Text(f"Warning: {problem} (the game goes on; it tries again "
                                    "after every move)", style="bold red"))
        self._warned = problem
