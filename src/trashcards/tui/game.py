"""One match at this terminal, whatever draws it: the line mode (:mod:`.loop`) and the
full-screen game (:mod:`.app`) both play through a :class:`Game`.

A :class:`Game` owns the :class:`~trashcards.session.Match`, knows which seats are people
and which are bots, saves the record after every move when asked to, and keeps every
move's events with the table before them (a :class:`Batch`), so the log can be told to
whoever sits at the keyboard: in the second person to them, by name to the others. It
does no input and no output, and reads no clock: the front ends do. Bots and people see
only ``match.view(seat)``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from pathlib import Path

from ..actions import Action
from ..events import Event
from ..record import Record
from ..session import Chooser, Match
from ..state import Phase
from ..views import View
from .narrate import Step, narrate_steps
from .scene import Scene
from .seats import Seat

__all__ = ["Batch", "Decision", "Game", "MatchOver", "Outcome", "RoundOver", "SaveError",
           "default_save_path", "save_record"]


class Outcome(StrEnum):
    """How a game at the terminal ended."""

    FINISHED = "finished"  # the match was played to its end
    QUIT = "quit"  # a player chose to leave: saved
    INTERRUPTED = "interrupted"  # Ctrl-C: saved
    ENDED = "input ended"  # the input ran out: saved only where --save asked


class SaveError(Exception):
    """The record could not be written; the message says where and why."""


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


def save_record(record: Record, path: Path) -> None:
    """Write ``record`` to ``path`` whole or not at all: on failure no temporary file is
    left behind and :class:`SaveError` says why."""
    try:
        record.dump(path)
    except (OSError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SaveError(f"cannot save the record to {path}: {reason}") from None


@dataclass(frozen=True, slots=True)
class Decision:
    """``seat`` must decide; ``bot`` says whether a bot does."""

    seat: int
    bot: bool


@dataclass(frozen=True, slots=True)
class RoundOver:
    """The round is over; the next one is dealt when the players are ready."""

    round: int


@dataclass(frozen=True, slots=True)
class MatchOver:
    """The match is over."""

    winner: int | None


@dataclass(frozen=True, slots=True)
class Batch:
    """The events of one move (with the chance moves it made due) and the table just
    before them."""

    before: Scene
    events: tuple[Event, ...]
    actor: int | None = None

    def steps(self, names: Sequence[str], you: int | None) -> list[Step]:
        return narrate_steps(self.events, names, self.before, you)


@dataclass
class Game:
    """A match with its seats, bots and saving. ``save_to``: the record is written there
    after every move (``None``: only when a front end calls :meth:`save`)."""

    match: Match
    seats: Sequence[Seat]
    bots: Mapping[int, Chooser]
    save_to: Path | None = None
    #: Every batch shown since this session began, oldest first.
    history: list[Batch] = field(default_factory=list, init=False)
    #: The seat spoken to as "you": the one person, or in hot-seat the person at the
    #: keyboard now (``None``: nobody, e.g. a table of bots).
    viewer: int | None = field(default=None, init=False)
    #: Where the record was last written.
    saved_path: Path | None = field(default=None, init=False)
    #: Why the last automatic save failed (``None``: it did not).
    save_problem: str | None = field(default=None, init=False)
    _last_turn: dict[int, int] = field(default_factory=dict, init=False)

    def __post_init__(self) -> None:
        people = self.people
        if len(people) == 1:
            self.viewer = people[0]

    # -- who is at the table --------------------------------------------------------------

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.seats)

    @property
    def people(self) -> tuple[int, ...]:
        return tuple(index for index, seat in enumerate(self.seats) if seat.human)

    @property
    def hotseat(self) -> bool:
        """Two or more people share this keyboard."""
        return len(self.people) >= 2

    def view(self) -> View:
        """The table as the person at the keyboard sees it (a spectator's view when
        nobody is)."""
        return self.match.view(self.viewer)

    # -- what is due ------------------------------------------------------------------------

    def due(self) -> Decision | RoundOver | MatchOver:
        public = self.match.view(None)
        if public.phase is Phase.MATCH_OVER:
            return MatchOver(public.match_winner)
        if public.phase is Phase.ROUND_OVER:
            return RoundOver(public.round)
        seat = public.to_act
        assert seat is not None, "a decision is due when no chance move is"
        return Decision(seat, seat in self.bots)

    def needs_pass(self, seat: int) -> bool:
        """Hot-seat: whether the keyboard must change hands before ``seat`` decides."""
        return self.hotseat and self.seats[seat].human and seat != self.viewer

    def sit(self, seat: int) -> list[str]:
        """``seat`` takes the keyboard; the lines of what happened since their last turn,
        told to them."""
        self.viewer = seat
        since = self._last_turn.get(seat, 0)
        return [step.line for batch in self.history[since:]
                for step in batch.steps(self.names, seat)]

    # -- moves ------------------------------------------------------------------------------

    def start(self) -> Batch:
        """The chance moves due when the session begins (the cut and the first deal)."""
        before = self._scene()
        return self._record(None, self.match.advance(next_round=False), before)

    def bot_choice(self, seat: int) -> Action:
        """The bot's decision (it sees only its view). Slow for a strong bot: the
        full-screen game calls this in a worker thread; it changes nothing."""
        return self.bots[seat].choose(self.match.view(seat))

    def play(self, seat: int, action: Action) -> Batch:
        """Play ``action`` for ``seat`` and the chance moves it makes due, then save;
        raises :class:`~trashcards.errors.IllegalActionError` (nothing changed)."""
        before = self._scene()
        events = self.match.play(action, seat)
        events += self.match.advance(next_round=False)
        if self.seats[seat].human:
            self._last_turn[seat] = len(self.history) + 1
        return self._record(seat, events, before)

    def next_round(self) -> Batch:
        """Deal the next round."""
        before = self._scene()
        return self._record(None, self.match.advance(next_round=True), before)

    def _scene(self) -> Scene:
        return Scene.from_view(self.match.view(None))

    def _record(self, actor: int | None, events: tuple[Event, ...], before: Scene) -> Batch:
        batch = Batch(before, events, actor)
        self.history.append(batch)
        if events and self.save_to is not None:
            self.autosave()
        return batch

    # -- saving -----------------------------------------------------------------------------

    def autosave(self) -> None:
        """Write the record to ``save_to``; a failure is kept in :attr:`save_problem`
        (the game goes on, and the next save tries again)."""
        assert self.save_to is not None
        try:
            self.save(self.save_to)
        except SaveError as exc:
            self.save_problem = str(exc)
        else:
            self.save_problem = None

    def save(self, path: Path) -> Path:
        """Write the record to ``path`` (raises :class:`SaveError`)."""
        save_record(self.match.record, path)
        self.saved_path = path
        return path
