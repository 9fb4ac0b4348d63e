"""The guided first game in the terminal (``trashcards play --learn``): the script of
:mod:`trashcards.tutorial` played on the rules engine, line by line, against the
computer, with each step's sentence in the chosen language.

The sentences are the browser's catalogs (``web/static/i18n/<lang>.json``, the keys
``learn.*``), read as data; the table and the log of what happened are the line mode's
own (English, as the rest of the terminal game). At a decision the learner is told what
to do; any other key is not played but answered with a gentle sentence naming the move
(``learn.try.*``). A step that tells what the last move did waits for Enter. ``q`` leaves
the lesson (it counts as skipped); finishing it counts as done. Either is remembered in
``tutorial.json`` in the data folder (beside ``profile.json``), so ``trashcards play``
stops suggesting it; ``--learn`` plays it again whenever asked.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import platformdirs
from rich.console import Console
from rich.text import Text

from ..bots import make_bot
from ..files import write_whole
from ..session import Match
from ..tutorial import LEARNER, OPPONENT, STEPS, Step, record
from .game import Batch, Decision, Game
from .keys import Command, InputError, parse_key
from .render import action_entries, help_panel, table_view
from .seats import seats_from_names
from .terminal import Reader

__all__ = ["LANGUAGES", "Lesson", "catalog", "language_from_env", "learned", "remember",
           "tutorial_path"]

#: The languages of the catalogs, as the browser's language menu lists them.
LANGUAGES: Final = ("en", "es", "nl", "it", "vi")
_CATALOGS: Final = Path(__file__).resolve().parents[1] / "web" / "static" / "i18n"


def catalog(lang: str) -> dict[str, str]:
    """The ``learn.*`` messages of one language (every one is plain text)."""
    data = json.loads((_CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    return {key: value for key, value in data.items()
            if key.startswith("learn.") and isinstance(value, str)}


def language_from_env(env: Mapping[str, str]) -> str:
    """The language of the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``,
    as gettext reads them), when it is one of :data:`LANGUAGES`; else English."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            for part in value.split(":"):
                code = part.split("_")[0].split(".")[0].lower()
                if code in LANGUAGES:
                    return code
            return "en"
    return "en"


def tutorial_path() -> Path:
    """Where the terminal remembers that the guided game was done or skipped."""
    return Path(platformdirs.user_data_dir("trashcards", appauthor=False)) / "tutorial.json"


def learned(path: Path) -> bool:
    """Whether the guided game was done or skipped (a file that cannot be read: no)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(data, dict) and data.get("tutorial") in ("done", "skipped")


def remember(path: Path, how: str) -> str | None:
    """Write ``{"tutorial": how}`` to ``path``; the reason it could not, or None."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, (json.dumps({"tutorial": how}) + "\n").encode())
    except OSError as exc:
        return f"could not remember it in {path}: {exc.strerror or exc}"
    return None


class _Leave(Exception):  # noqa: N818 - control flow, not an error
    """The learner left: ``how`` is "skipped" (q) or None (the input ended)."""

    def __init__(self, how: str | None) -> None:
        super().__init__(how)
        self.how = how


@dataclass
class Lesson:
    """One walk through the script: ``sentences`` are the ``learn.*`` messages of one
    language; the learner is ``name``."""

    reader: Reader
    console: Console
    sentences: Mapping[str, str]
    name: str = "You"
    seed: int = 0
    _step: int = field(default=0, init=False)

    def run(self) -> str | None:
        """Play the script: "done" when the learner finished it, "skipped" when they left
        with q, None when the input ended first."""
        match = Match.from_record(record(self.name), random.Random(self.seed))
        seats = seats_from_names(match.record.players)
        bot = 1 - LEARNER
        game = Game(match, seats, {bot: make_bot(OPPONENT.removeprefix("bot:"),
                                                 random.Random(self.seed))})
        self._title("learn.heading")
        self._show(game, game.start())
        try:
            while isinstance(due := game.due(), Decision):
                if due.bot:
                    self._show(game, game.play(due.seat, game.bot_choice(due.seat)))
                else:
                    self._decide(game, due.seat)
                    self._tell()
        except _Leave as left:
            return left.how
        self.console.print()
        self.console.print(table_view(game.view()))
        self._say(self.sentences["learn.done"])
        return "done"

    def _decide(self, game: Game, seat: int) -> None:
        step = STEPS[self._step]
        assert step.do is not None, f"the script expects no decision at step {step.name}"
        view = game.match.view(seat)
        self.console.print()
        self.console.print(table_view(view))
        self._say(self._sentence(step))
        for keys, label in action_entries(view):
            self.console.print(Text.assemble((f"[{keys}]", "bold"), f" {label}"))
        self.console.print(Text.assemble(("[q]", "bold"), " leave the guided game  ",
                                         ("[?]", "bold"), " help"))
        while True:
            text = self._read(f"{self.name}> ")
            try:
                choice = parse_key(text, view)
            except InputError:
                choice = None
            if choice is Command.QUIT:
                raise _Leave("skipped")
            if choice is Command.HELP:
                self.console.print(help_panel())
                continue
            if choice is None or isinstance(choice, Command) or str(choice) != step.do:
                assert step.try_key is not None
                self.console.print(Text(self.sentences[step.try_key], style="yellow"))
                continue
            self._step += 1
            self._show(game, game.play(seat, choice))
            return

    def _tell(self) -> None:
        """The steps that tell what the move did, one sentence each, Enter between."""
        while self._step < len(STEPS) and STEPS[self._step].do is None:
            step = STEPS[self._step]
            self._step += 1
            self._say(self._sentence(step))
            if self._step < len(STEPS):
                answer = self._read(f"({self.sentences['learn.next']}: Enter) ")
                if answer.strip().lower() in ("q", "quit"):
                    raise _Leave("skipped")

    def _sentence(self, step: Step) -> str:
        progress = self.sentences["learn.progress"].format(n=self._number(step),
                                                           count=len(STEPS))
        return f"[{progress}] {self.sentences[step.key]}"

    @staticmethod
    def _number(step: Step) -> int:
        return STEPS.index(step) + 1

    def _title(self, key: str) -> None:
        self.console.print(Text(self.sentences[key], style="bold"))

    def _say(self, text: str) -> None:
        self.console.print(Text("» " + text, style="bold cyan"))

    def _read(self, prompt: str) -> str:
        try:
            return self.reader.read(prompt)
        except EOFError:
            raise _Leave(None) from None

    def _show(self, game: Game, batch: Batch) -> None:
        for step in batch.steps(game.names, game.viewer):
            self.console.print(Text(step.line, style="dim" if step.line.startswith("—")
                                    else ""))

