"""The plain mode (``trashcards play --plain``): the game for screen readers, line by
line.

Nothing is drawn and nothing is redrawn: every line is printed once, as plain text with
no escape sequence, in the player's language (the browser's catalogs, :mod:`.catalog`),
and every answer is a line read from standard input (a terminal, a pipe or a script).
What happens is said as it happens, every step or one sentence a turn (``v`` switches,
as the browser's key V does); at each decision the player hears what they may do, each
choice with its key, and may ask for a board (``b``, ``n`` for the next opponent's), the
piles (``p``), the hint (``h``), every player's chance (``o``), what to do again (``r``
or an empty line) or the commands (``?``). A move that is not allowed is refused in one
line that says why, and the question comes again.

It plays a :class:`~trashcards.tui.game.Game` as the line mode and the full screen do:
the same saving after every move, the same leaving (``q`` and Ctrl-C save; the end of
the input saves only where ``--save`` asked), and views only.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Final, TextIO

from ...actions import Action
from ...errors import IllegalActionError
from ...session import Chooser, Match
from ...state import Phase
from ...views import View
from ..advice import Advisor, standing_chances
from ..game import Batch, Decision, Game, MatchOver, Outcome, SaveError, default_save_path
from ..keys import action_named, refusal_reason
from ..seats import Seat
from .catalog import Catalog
from .speech import Speaker, percent

__all__ = ["COMMANDS", "THINKING_NOTICE", "PlainGame", "Verbosity"]


#: Seconds a bot may think in silence (see :meth:`PlainGame._think`).
THINKING_NOTICE: Final = 1.0


class Verbosity(Enum):
    """How much of a move is said: each step, or one sentence a turn."""

    FULL = "full"
    BRIEF = "brief"


#: The commands besides the moves, by every word that names them.
COMMANDS: Final = {
    "b": "board", "board": "board",
    "p": "piles", "piles": "piles",
    "n": "next", "next": "next",
    "h": "hint", "hint": "hint",
    "o": "chances", "chances": "chances",
    "r": "repeat", "repeat": "repeat", "": "repeat",
    "v": "verbosity", "verbosity": "verbosity",
    "?": "help", "help": "help",
    "q": "quit", "quit": "quit", "exit": "quit",
}
#: The help, in order: the keys and the catalog key of what they do.
_HELP: Final = (
    ("s", "help.stock"), ("d", "help.discard"), ("1–9, 0", "help.slots"),
    ("w", "help.swap"), ("t", "help.trash"), ("c", "help.call"), ("h", "help.hint"),
    ("b", "help.board"), ("p", "help.piles"), ("n", "help.next"), ("o", "plain.help_chances"),
    ("r", "help.repeat"), ("v", "help.verbosity"), ("?", "help.help"), ("q", "plain.help_quit"),
)


class _Quit(Exception):  # noqa: N818 - control flow, not an error
    """The player asked to leave."""


class _Ended(Exception):  # noqa: N818 - control flow, not an error
    """The input ran out."""


@dataclass
class PlainGame:
    """One match in the plain mode. ``bots`` maps each bot's seat to its chooser; every
    other seat is a person. ``echo``: print each answer after its prompt (input that is
    not a terminal, so a transcript reads like the session). ``hints``: say the hint at
    each decision of a person."""

    match: Match
    seats: Sequence[Seat]
    bots: Mapping[int, Chooser]
    stdin: TextIO
    stdout: TextIO
    catalog: Catalog = field(default_factory=Catalog)
    save_to: Path | None = None
    default_save: Callable[[], Path] = field(default=lambda: default_save_path())
    bot_delay: float = 0.0
    sleep: Callable[[float], None] = time.sleep
    hints: bool = False
    echo: bool = False
    verbosity: Verbosity = Verbosity.FULL
    #: Seconds a bot may think before the player hears that it is playing.
    thinking_notice: float = THINKING_NOTICE
    advisor: Advisor = field(default_factory=Advisor)
    game: Game = field(init=False)
    #: Why the record could not be saved on leaving (``None``: it was, or needed not be).
    save_error: str | None = field(default=None, init=False)
    _speaker: Speaker = field(init=False)
    _warned: str | None = field(default=None, init=False)
    _next_opponent: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self.game = Game(self.match, self.seats, self.bots, self.save_to)
        self._speaker = Speaker(self.catalog, self.game.names,
                                lambda seat: seat == self.game.viewer)

    # -- output and input -----------------------------------------------------------------

    def say(self, line: str) -> None:
        """One line, printed once."""
        print(line, file=self.stdout, flush=True)

    def _read(self, prompt: str = "> ") -> str:
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.stdout.write("\n")
            raise _Ended
        answer = line.rstrip("\r\n")
        if self.echo:
            print(answer, file=self.stdout, flush=True)
        return answer

    # -- the loop -------------------------------------------------------------------------

    def run(self) -> Outcome:
        """Play until the match ends or the player leaves (see :class:`Outcome`)."""
        t = self.catalog
        game = self.game
        self.say(t("plain.ready"))
        try:
            self._tell(game.start())
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
                    self._decision(due.seat)
        except _Quit:
            self._leave(self.save_to or self.default_save())
            return Outcome.QUIT
        except _Ended:
            if self.save_to is not None:
                self._leave(self.save_to)
            else:
                self.say(t("plain.not_saved"))
            return Outcome.ENDED
        except KeyboardInterrupt:
            self.say("")
            self._leave(self.save_to or self.default_save())
            return Outcome.INTERRUPTED

    def _bot_turn(self, seat: int) -> None:
        choice = self._think(seat)
        if self.bot_delay:
            self.sleep(self.bot_delay)
        self._tell(self.game.play(seat, choice))

    def _think(self, seat: int) -> Action:
        """The bot's choice, worked out in a thread of its own; when it takes longer
        than :attr:`thinking_notice` seconds (a strong bot, the AI warming up), the
        player hears that it is playing rather than silence."""
        chosen: list[Action] = []
        failed: list[BaseException] = []
        done = threading.Event()

        def work() -> None:
            try:
                chosen.append(self.game.bot_choice(seat))
            except BaseException as exc:  # handed to the caller
                failed.append(exc)
            finally:
                done.set()

        threading.Thread(target=work, name=f"plain-bot-{seat}", daemon=True).start()
        if not done.wait(self.thinking_notice):
            self.say(self.catalog("prompt.playing", name=self._speaker.names[seat]))
            done.wait()
        if failed:
            raise failed[0]
        return chosen[0]

    def _decision(self, seat: int) -> None:
        game = self.game
        if game.needs_pass(seat):
            self._pass_to(seat)
        view = self.match.view(seat)
        turn = self._speaker.turn(view, named=game.hotseat)
        self.say(turn)
        if self.hints:
            self._hint(view)
        while True:
            text = self._read()
            word = " ".join(text.strip().lower().split())
            if word.startswith("wild "):
                word = word[5:]
            if word in COMMANDS:
                self._command(COMMANDS[word], view, turn)
                continue
            action = action_named(word)
            if action is None:
                self.say(self.catalog("prompt.with_reason", turn=turn,
                                      why=self.catalog("plain.unknown", text=text.strip())))
                continue
            if action not in view.legal:
                why = self._speaker.refused(refusal_reason(action, view))
                self.say(self.catalog("prompt.with_reason", why=why[:1].upper() + why[1:],
                                      turn=turn))
                continue
            try:
                batch = game.play(seat, action)
            except IllegalActionError as exc:  # pragma: no cover - checked against legal
                self.say(exc.reason)
                continue
            self._tell(batch)
            return

    def _command(self, command: str, view: View, turn: str) -> None:
        """A command that is not a move; ``turn``: what to do now (said by ``repeat``)."""
        t = self.catalog
        match command:
            case "board":
                seat = self.game.viewer if self.game.viewer is not None else 0
                self.say(self._speaker.board(view, seat))
            case "piles":
                self.say(self._speaker.piles(view))
            case "next":
                self._read_next_opponent(view)
            case "hint":
                self._hint(view)
            case "chances":
                self._chances(view)
            case "repeat":
                self.say(turn)
            case "verbosity":
                self.verbosity = (Verbosity.BRIEF if self.verbosity is Verbosity.FULL
                                  else Verbosity.FULL)
                self.say(t(f"announce.now_{self.verbosity.value}"))
            case "help":
                self.say(t("plain.help_title"))
                for keys, key in _HELP:
                    self.say(f"{keys}: {t(key)}")
            case "quit":
                raise _Quit

    def _read_next_opponent(self, view: View) -> None:
        """``n``: the next opponent's board, in turn order from the reader's seat, round
        and round."""
        count = len(view.players)
        home = self.game.viewer if self.game.viewer is not None else 0
        seats = [(home + step) % count for step in range(1, count)]
        seat = seats[self._next_opponent % len(seats)]
        self._next_opponent = (self._next_opponent + 1) % len(seats)
        self.say(self._speaker.board(view, seat))

    def _hint(self, view: View) -> None:
        t = self.catalog
        if view.to_act is None or view.phase not in (Phase.DRAW, Phase.WILD, Phase.SWAP):
            self.say(t("read.no_hint"))
            return
        advice = self.advisor.advise(view)
        if advice.notice is not None:
            self.say(t("plain.note", text=advice.notice))
        self.say(self._speaker.hint(advice.hint))

    def _chances(self, view: View) -> None:
        t = self.catalog
        if view.phase in (Phase.DRAW, Phase.WILD, Phase.SWAP):
            advice = self.advisor.advise(view)
            if advice.notice is not None:
                self.say(t("plain.note", text=advice.notice))
            chances: Sequence[float] | None = advice.chances
        else:
            chances = standing_chances(view)
        if chances is None:
            self.say(t("plain.no_chances"))
            return
        final = view.phase is Phase.MATCH_OVER
        players = [t("winbar.player", name=self._speaker.names[seat],
                     percent=percent(chance, final)) for seat, chance in enumerate(chances)]
        self.say(t("plain.chances", players=", ".join(players)))

    def _pass_to(self, seat: int) -> None:
        """Hot-seat: the keyboard changes hands. Nothing is hidden (every line was said
        to all, and a view holds nothing one player may know and another not), and
        from now on "you" is the player at the keyboard."""
        self.say(self.catalog("plain.pass", name=self._speaker.names[seat]))
        if COMMANDS.get(self._read().strip().lower()) == "quit":
            raise _Quit
        self.game.viewer = seat

    def _between_rounds(self) -> None:
        view = self.game.view()
        t = self.catalog
        if not self.game.people:  # a table of bots (watched) goes on by itself
            self._tell(self.game.next_round())
            return
        ask = t("plain.next_round", round=view.round + 1)
        self.say(ask)
        while True:
            word = " ".join(self._read().strip().lower().split())
            command = COMMANDS.get(word)
            if word == "":
                break
            if command is not None:  # every command works; none is a move now
                self._command(command, view, ask)
            else:
                self.say(t("prompt.with_reason", turn=ask,
                           why=t("plain.unknown", text=word)))
        self._tell(self.game.next_round())

    def _finish(self) -> None:
        t = self.catalog
        view = self.game.view()
        places = view.standings or tuple(1 for _ in view.players)
        ranked = sorted(range(len(view.players)), key=lambda seat: (places[seat], seat))
        rows = []
        for seat in ranked:
            player = view.players[seat]
            place = t("result.place", place=places[seat])
            line = t("result.score_line", name=self._speaker.names[seat],
                     count=player.rounds_won)
            rows.append(f"{place} {line}")
        self.say(f"{t('result.standings')}: {'; '.join(rows)}.")
        if self.save_to is not None and self.game.save_problem is None:
            self.say(t("plain.record", path=str(self.save_to)))

    def _leave(self, path: Path) -> None:
        try:
            self.game.save(path)
        except SaveError as exc:
            self.save_error = str(exc)
            self.say(f"Error: {exc}")
            return
        self.say(self.catalog("plain.saved", path=str(path),
                              command=f"trashcards play --plain --resume {path}"))

    # -- what happened ----------------------------------------------------------------------

    def _lines(self, batch: Batch) -> list[str]:
        if self.verbosity is Verbosity.BRIEF:
            return self._speaker.one_sentence_a_turn(batch.events, batch.before)
        return self._speaker.every_step(batch.events, batch.before)

    def _tell(self, batch: Batch) -> None:
        for line in self._lines(batch):
            self.say(line)
        problem = self.game.save_problem
        if problem is not None and problem != self._warned:
            self.say(self.catalog("plain.save_warning", problem=problem))
        self._warned = problem
