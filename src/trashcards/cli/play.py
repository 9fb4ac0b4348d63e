"""``trashcards play``: Trash in the terminal — people against bots, or hot-seat.

Seats: the people first (``--name``/``--names``, or ``--hotseat`` for 2–4 people at one
keyboard), then one opponent per level in ``--level`` (the ladder of
:mod:`trashcards.ai.levels`, shown with its measured Elo), or for people who study bots
one per kind in ``--bots``. A bot's seat is named ``bot:KIND`` in the record, so
``--resume`` knows which seats are bots (a record of bots only, such as one of
``simulate --records``, is watched). ``--learn`` plays the guided first game instead
(:mod:`trashcards.cli.learn`). ``--hints`` shows the hint at every decision of a
person and every player's match-win chance (:mod:`trashcards.tui.advice`). On a terminal
the game is full screen (:mod:`trashcards.tui.app`); ``--lines`` and piped input give the
line mode, ``--keys`` the line mode read by single key presses, and ``--plain`` the plain
mode for screen readers (:mod:`trashcards.tui.plain`: sentences, line by line).
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

import click
from rich.console import Console

from ..ai.levels import LEVELS
from ..bots import BOTS, make_bot
from ..errors import RecordError, RulesError
from ..names import NameRefusedError, check_name
from ..record import load
from ..rules import Rules
from ..session import Chooser, Match
from ..tui.game import Game, Outcome, default_save_path
from ..tui.loop import TerminalGame
from ..tui.seats import Seat, SeatError, level_bots, make_seats, seats_from_names
from ..tui.terminal import KeyPressReader, LineReader, Reader
from . import registered  # noqa: F401  (every bot by name)
from .learn import LANGUAGES, suggestion
from .learn import learn as run_lesson
from .options import rules_given, rules_options
from .profiles import default_profile_path, remember
from .records import fail

__all__ = ["play"]

#: Seconds a bot waits before each move on a real terminal (so people can follow).
DEFAULT_BOT_DELAY = 0.6
#: The longest pause between two steps of a chain in the full-screen game.
MAX_STEP_PACE = 0.25
#: The opponent of a new match when neither --level nor --bots names one.
DEFAULT_LEVEL = "good"


def _ladder() -> str:
    """The levels for the help text: ``beginner (Elo 1535 ± 4), …``."""
    return ", ".join(level.label for level in LEVELS)


def _split_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _people(text: str, option: str) -> list[str]:
    """The names of ``--name``/``--hotseat``, each checked as a person's name: an empty
    one is refused for what it is, not counted away (``--name ""`` once said "a table
    has 2 to 4 players, got 1")."""
    names = [name.strip() for name in text.split(",")]
    for name in names:
        try:
            check_name(name)
        except NameRefusedError as exc:
            raise click.BadParameter(f"{exc} (got {text!r})", param_hint=option) from None
    return names


def _new_table(names: str | None, hotseat: str | None, levels: str | None,
               bots: str | None, rules: Rules) -> tuple[Seat, ...]:
    if names is not None and hotseat is not None:
        raise click.UsageError("give either --names or --hotseat, not both")
    if levels is not None and bots is not None:
        raise click.UsageError("give either --level (opponents by strength) or --bots "
                               "(bots by kind), not both")
    if hotseat is not None:
        humans = _people(hotseat, "--hotseat")
        if len(humans) < 2:
            raise click.UsageError("--hotseat needs 2 to 4 names, e.g. --hotseat Ana,Bo")
    else:
        humans = _people(names, "--name") if names is not None else ["You"]
    if bots is not None:
        bot_kinds = _split_names(bots)
    else:
        wanted = levels if levels is not None else (None if hotseat else DEFAULT_LEVEL)
        try:
            bot_kinds = level_bots(_split_names(wanted)) if wanted is not None else []
        except SeatError as exc:
            raise click.BadParameter(str(exc), param_hint="--level") from None
    try:
        seats = make_seats(humans, bot_kinds)
    except SeatError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        rules.check_players(len(seats))
    except RulesError as exc:
        raise click.UsageError(f"rules: {exc}") from None
    return seats


def _resume(path: Path, rng: random.Random) -> tuple[Match, tuple[Seat, ...]]:
    try:
        record = load(path)
        seats = seats_from_names(record.players)
        match = Match.from_record(record, rng)
    except RecordError as exc:
        fail(f"cannot resume {path}: {exc}", exc.exit_status)
    except SeatError as exc:
        fail(f"cannot resume {path}: {exc}")
    return match, seats


def _check_save(path: Path, force: bool, resume: Path | None) -> None:
    """Refuse at once a ``--save`` file that could not be written, or one that exists
    (unless ``--force``, or it is the file being resumed)."""
    folder = path.absolute().parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise click.BadParameter(f"the folder {folder} {what}", param_hint="--save")
    if not os.access(folder, os.W_OK):
        raise click.BadParameter(f"cannot write in the folder {folder}", param_hint="--save")
    resuming_it = resume is not None and path.exists() and path.samefile(resume)
    there = path.exists() or path.is_symlink()  # a link counts, even to nowhere
    if there and not force and not resuming_it:
        raise click.BadParameter(
            f"{path} already exists (it may hold a finished match): add --force to "
            "overwrite it, or choose another file", param_hint="--save")


def _mode(requested: str | None) -> str:
    """The mode to run: ``screen`` on a terminal, ``lines`` for piped input."""
    terminal = sys.stdin.isatty() and sys.stdout.isatty()
    if requested is None:
        dumb = os.environ.get("TERM", "") in ("", "dumb")
        return "screen" if terminal and not dumb else "lines"
    if requested in ("screen", "keys") and not terminal:
        raise click.UsageError(f"--{requested} needs a terminal; use --lines for piped input")
    return requested


@click.command()
@click.option("--name", "--names", "names", metavar="NAMES",
              help="The people playing, comma separated (default: You).")
@click.option("--level", "levels", metavar="LEVELS",
              help="One computer opponent per level, comma separated, weakest first: "
                   f"{_ladder()} — Elo measured by `trashcards analyze skill` "
                   f"(default: {DEFAULT_LEVEL}; none with --hotseat). The expert is not "
                   "measurably stronger than good.")
@click.option("--bots", metavar="KINDS",
              help="For studying bots, instead of --level: one bot per extra seat by kind, "
                   f"comma separated: {', '.join(BOTS)}.")
@click.option("--hints", is_flag=True,
              help="At each of your decisions show the best move, every move's chance of "
                   "winning the match and the round, and why (h shows it at any decision "
                   "without this), and every player's match-win chance (o shows or hides "
                   "it). Worked out from what the players can see only.")
@click.option("--hotseat", metavar="NAMES",
              help="2 to 4 people taking turns at this keyboard, e.g. Ana,Bo,Cy.")
@rules_options
@click.option("--seed", type=int, help="Seed for the shuffles and the bots (same seed, "
                                       "same deals).")
@click.option("--save", "save", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the record (trash/1) to this file after every move; an existing "
                   "file needs --force.")
@click.option("--force", is_flag=True, help="Let --save overwrite an existing file.")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Continue a saved match where it stopped (saves back to it). A record "
                   "of bots only is watched.")
@click.option("--bot-delay", type=click.FloatRange(min=0), metavar="SECONDS",
              help=f"Pause before each bot move (default {DEFAULT_BOT_DELAY} on a terminal, "
                   "0 when input is piped); the full screen shows a chain's steps at up to "
                   f"half that pace (at most {MAX_STEP_PACE} s a step).")
@click.option("--profile", "profile", type=click.Path(dir_okay=False, path_type=Path),
              help="The profile file that remembers your finished matches, results and "
                   "rating (default: profile.json in your data folder; `trashcards "
                   "profile` shows it).")
@click.option("--no-profile", is_flag=True, help="Do not record this match in a profile.")
@click.option("--learn", is_flag=True,
              help="Play the guided first game: a short scripted deal against the computer "
                   "that tells you what to do at each step (docs/rules.md, Learn by playing).")
@click.option("--lang", type=click.Choice(LANGUAGES), metavar="LANG",
              help="The language of --learn's sentences: " + ", ".join(LANGUAGES)
                   + " (default: the locale's, else en).")
@click.option("--screen", "mode", flag_value="screen",
              help="The full-screen game (the default on a terminal).")
@click.option("--keys", "mode", flag_value="keys",
              help="The line mode, one key press per answer (for screen readers).")
@click.option("--lines", "mode", flag_value="lines",
              help="The line mode, one line per answer (the default for piped input).")
@click.option("--plain", "mode", flag_value="plain",
              help="For screen readers: every event said in a sentence, line by line, "
                   "never redrawn; commands read your board (b), the piles (p), the next "
                   "opponent (n), the hint (h); v: every step or one sentence a turn. "
                   "In your locale's language (LANGUAGE or LANG: en, es, nl, it, vi).")
def play(names: str | None, levels: str | None, bots: str | None, hints: bool,
         hotseat: str | None, rules: Rules, seed: int | None, save: Path | None,
         force: bool, resume: Path | None, bot_delay: float | None,
         profile: Path | None, no_profile: bool, learn: bool, lang: str | None,
         mode: str | None) -> None:
    """Play Trash in the terminal: you against bots, or hot-seat.

    \b
    Keys: s stock, d discard, 1-9 and 0 a wild on slot 1-10, w swap, t trash,
    c call "Trash!", h hint, o show or hide the win chances, q quit (the
    match is saved), ? help. Full screen: also the arrows and Enter to pick
    a slot, and the mouse.

    A bot's seat is named bot:KIND in the record (bot:counter, bot:greedy:2),
    so --resume knows which seats are bots. With two or more people, the
    screen is hidden between their turns.
    """
    if learn:
        if levels or bots or hotseat or resume or save or rules_given():
            raise click.UsageError("--learn plays the guided game alone: drop --level, "
                                   "--bots, --hotseat, --resume, --save, --preset, --rules")
        run_lesson(lang, names, Console(highlight=False))
        return
    mode = _mode(mode)
    if no_profile and profile is not None:
        raise click.UsageError("give either --profile or --no-profile, not both")
    profile = None if no_profile else (profile or default_profile_path())
    if save is not None:
        _check_save(save, force, resume)
    console = Console(highlight=False)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    rng = random.Random(seed)
    if resume is not None:
        if names or levels or bots or hotseat or rules_given():
            raise click.UsageError("--resume takes the players and the rules from the "
                                   "record: drop --names, --level, --bots, --hotseat, "
                                   "--preset, --rules")
        match, seats = _resume(resume, rng)
        save = save or resume
        opening = [f"Resuming {resume} at move {len(match.record.moves)} "
                   f"— {match.record.rules.describe()} — seed {seed}"]
    else:
        seats = _new_table(names, hotseat, levels, bots, rules)
        match = Match(rules, [seat.name for seat in seats], rng)
        opening = [f"Trash — {rules.describe()} — seed {seed}",
                   "Players: " + ", ".join(seat.label for seat in seats)
                   + "  (? for help, h for a hint, q to quit and save)", *suggestion()]
    choosers: dict[int, Chooser] = {
        index: make_bot(seat.bot, random.Random(f"{seed}/bot/{index}"))
        for index, seat in enumerate(seats) if seat.bot is not None
    }
    notices = {getattr(bot, "notice", None) for bot in choosers.values()}
    opening += sorted(f"Note: {notice}" for notice in notices if isinstance(notice, str))
    interactive = sys.stdin.isatty()
    delay = (DEFAULT_BOT_DELAY if interactive else 0.0) if bot_delay is None else bot_delay
    if mode == "screen":
        game = Game(match, seats, choosers, save)
        outcome = _play_full_screen(game, console, opening, delay, hints)
        match = game.match
    elif mode == "plain":
        for line in opening:
            print(line, flush=True)
        outcome = _play_plain(match, seats, choosers, save, delay, hints)
    else:
        for line in opening:
            console.print(line, markup=False)
        outcome = _play_lines(match, seats, choosers, console, save, delay, mode, hints)
    if profile is not None and outcome is Outcome.FINISHED:
        for line in remember(profile, match.state, [seat.name for seat in seats],
                             [seat.human for seat in seats]):
            console.print(line, markup=False, soft_wrap=mode == "plain")
    if outcome is Outcome.INTERRUPTED:
        raise SystemExit(130)


def _play_lines(match: Match, seats: tuple[Seat, ...], choosers: dict[int, Chooser],
                console: Console, save: Path | None, delay: float, mode: str,
                hints: bool) -> Outcome:
    interactive = sys.stdin.isatty()
    reader: Reader = (KeyPressReader(console) if mode == "keys"
                      else LineReader(sys.stdin, console, echo=not interactive))
    game = TerminalGame(
        match=match, seats=seats, bots=choosers, reader=reader, console=console,
        save_to=save, default_save=default_save_path, bot_delay=delay,
        hotseat=sum(seat.human for seat in seats) >= 2, hints=hints, chances=hints,
    )
    outcome = game.run()
    if game.save_error is not None:
        raise SystemExit(1)
    return outcome


def _play_plain(match: Match, seats: tuple[Seat, ...], choosers: dict[int, Chooser],
                save: Path | None, delay: float, hints: bool) -> Outcome:
    from ..tui.plain import Catalog, PlainGame, language_from_environment

    game = PlainGame(match=match, seats=seats, bots=choosers, stdin=sys.stdin,
                     stdout=sys.stdout, catalog=Catalog(language_from_environment(os.environ)),
                     save_to=save, default_save=default_save_path, bot_delay=delay,
                     hints=hints, echo=not sys.stdin.isatty())
    outcome = game.run()
    if game.save_error is not None:
        raise SystemExit(1)
    return outcome


def _play_full_screen(game: Game, console: Console, opening: list[str],
                      delay: float, hints: bool) -> Outcome:
    try:
        from ..tui.app import TrashApp
    except ImportError as exc:  # Textual is a dependency; a broken install falls back
        console.print(f"note: the full-screen game needs Textual ({exc}); playing in the "
                      "line mode instead", markup=False)
        for line in opening:
            console.print(line, markup=False)
        return _play_lines(game.match, tuple(game.seats), dict(game.bots), console,
                           game.save_to, delay, "keys", hints)
    app = TrashApp(game, opening=opening, bot_delay=delay,
                   step_pace=min(delay / 2, MAX_STEP_PACE), default_save=default_save_path,
                   hints=hints)
    outcome = app.run() or Outcome.QUIT
    for line in app.farewell:
        console.print(line, markup=False, soft_wrap=True)
    if app.save_error is not None:
        raise SystemExit(1)
    return outcome
