"""The terminal game loop: rounds, turns, bots and people, saving as it goes.

:class:`TerminalGame` drives a :class:`~trashcards.session.Match` to its end. Everything
it touches from outside comes in as an argument — the keys (:class:`~.terminal.Reader`),
the screen (a rich :class:`~rich.console.Console`), the bots, the clock's ``sleep`` and
where to save — so tests can drive a whole match in-process. People and bots alike see
only ``match.view(seat)``; the loop itself asks only the spectator's view what is due.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path

from rich.console import Console
from rich.panel import Panel
from rich.text import Text

from ..errors import IllegalActionError
from ..events import Event
from ..session import Chooser, Match
from ..state import Phase
from .keys import Command, InputError, parse_key
from .narrate import narrate
from .render import help_panel, menu_text, scoreboard, standings_table, table_view
from .seats import Seat
from .terminal import Reader

__all__ = ["Outcome", "TerminalGame", "default_save_path"]

#: Lines of "since your last turn" shown to the next player in hot-seat.
_RECAP_LINES = 40


def default_save_path(directory: Path | None = None) -> Path:
    """A new file in ``directory`` (the current one) named after the time."""
    base = directory or Path.cwd()
    stem = f"trash-{datetime.now():%Y%m%d-%H%M%S}"
    path = base / f"{stem}.trash.json"
    copy = 2
    while path.exists():
        path = base / f"{stem}-{copy}.trash.json"
        copy += 1
    return path


class Outcome(StrEnum):
    """How a game in the terminal ended."""

    FINISHED = "finished"  # the match was played to its end
    QUIT = "quit"  # a player typed q (or the input ended): saved
    INTERRUPTED = "interrupted"  # Ctrl-C: saved


class _QuitRequest(Exception):  # noqa: N818 - control flow, not an error
    """A player asked to leave (q, end of input)."""


@dataclass
class TerminalGame:
    """One match played in the terminal.

    ``bots`` maps each bot's seat to its chooser; every other seat is a person.
    ``save_to``: the record is written there after every move (``None``: only on quit,
    to ``default_save()``). ``hotseat``: before each person's decision, when the person to
    act changes, the screen is cleared and the next player must press a key.
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
    saved_path: Path | None = field(default=None, init=False)
    _log: list[str] = field(default_factory=list, init=False)
    _seen: dict[int, int] = field(default_factory=dict, init=False)
    _last_human: int | None = field(default=None, init=False)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> Outcome:
        """Play until the match ends or a player leaves; the record is saved on leaving."""
        try:
            self._show(self.match.advance(next_round=False))
            while True:
                public = self.match.view(None)
                if public.phase is Phase.MATCH_OVER:
                    self._finish()
                    return Outcome.FINISHED
                if public.phase is Phase.ROUND_OVER:
                    self._between_rounds()
                    continue
                seat = public.to_act
                assert seat is not None, "a decision is due when no chance move is"
                if seat in self.bots:
                    self._bot_turn(seat)
                else:
                    self._human_decision(seat)
        except _QuitRequest:
            self._leave()
            return Outcome.QUIT
        except KeyboardInterrupt:
            self.console.print()
            self._leave()
            return Outcome.INTERRUPTED

    def _read(self, prompt: str) -> str:
        try:
            return self.reader.read(prompt)
        except EOFError:
            raise _QuitRequest from None

    # -- moves ----------------------------------------------------------------------------

    def _after_move(self, events: tuple[Event, ...], pace: float = 0.0) -> None:
        events += self.match.advance(next_round=False)
        if self.save_to is not None:
            self._save(self.save_to)
        self._show(events, pace)

    def _bot_turn(self, seat: int) -> None:
        choice = self.bots[seat].choose(self.match.view(seat))
        if self.bot_delay:
            self.sleep(self.bot_delay)
        self._after_move(self.match.play(choice, seat), pace=self.bot_delay / 2)

    def _human_decision(self, seat: int) -> None:
        if self.hotseat and seat != self._last_human:
            self._pass_to(seat)
        self._last_human = seat
        view = self.match.view(seat)
        self.console.print()
        self.console.print(table_view(view))
        self.console.print(menu_text(view))
        prompt = f"{view.players[seat].name}> "
        while True:
            text = self._read(prompt)
            try:
                choice = parse_key(text, view.legal)
            except InputError as exc:
                self.console.print(Text(str(exc), style="yellow"))
                continue
            if choice is Command.QUIT:
                raise _QuitRequest
            if choice is Command.HELP:
                self.console.print(help_panel())
                self.console.print(menu_text(view))
                continue
            try:
                events = self.match.play(choice, seat)
            except IllegalActionError as exc:  # parse_key allows only legal actions
                self.console.print(Text(exc.reason, style="yellow"))
                continue
            self._after_move(events)
            self._seen[seat] = len(self._log)
            return

    def _pass_to(self, seat: int) -> None:
        """Hot-seat: hide the last player's screen until the next player is ready."""
        name = self.seats[seat].name
        self.console.clear()
        self.console.print(Panel(Text(f"Pass to {name} — press Enter", style="bold")))
        if self._read("").strip().lower() in ("q", "quit"):
            raise _QuitRequest
        self.console.clear()
        recap = self._log[self._seen.get(seat, 0):][-_RECAP_LINES:]
        if recap:
            self.console.print(Text(f"Since {name}'s last turn:", style="bold"))
            for line in recap:
                self.console.print(Text("  " + line))

    # -- rounds and the end ---------------------------------------------------------------

    def _between_rounds(self) -> None:
        view = self.match.view(None)
        self.console.print()
        self.console.print(scoreboard(view))
        answer = self._read(f"Press Enter to deal round {view.round + 1} (q quits) ")
        if answer.strip().lower() in ("q", "quit"):
            raise _QuitRequest
        self._show(self.match.advance(next_round=True))
        if self.save_to is not None:
            self._save(self.save_to)

    def _finish(self) -> None:
        view = self.match.view(None)
        self.console.print()
        self.console.print(table_view(view))
        self.console.print()
        self.console.print(standings_table(view))
        if self.save_to is not None:
            self._save(self.save_to)
            self.console.print(f"The record is in {self.save_to}", markup=False,
                               soft_wrap=True)

    def _leave(self) -> None:
        path = self.save_to or self.default_save()
        self._save(path)
        self.console.print(f"Saved to {path} — continue with: trashcards play --resume {path}",
                           markup=False, highlight=False, soft_wrap=True)

    def _save(self, path: Path) -> None:
        self.match.record.dump(path)
        self.saved_path = path

    # -- output ---------------------------------------------------------------------------

    def _show(self, events: tuple[Event, ...], pace: float = 0.0) -> None:
        for index, line in enumerate(narrate(events, self.names)):
            if pace and index:
                self.sleep(pace)
            self._log.append(line)
            self.console.print(Text(line, style="dim" if line.startswith("—") else ""))
