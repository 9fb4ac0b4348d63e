"""``trashcards play``: Trash in the terminal — people against bots, or hot-seat.

Seats: the people first (``--name``/``--names``, or ``--hotseat`` for 2–4 people at one
keyboard), then one bot per name in ``--bots``. A bot's seat is named ``bot:KIND`` in the
record, so ``--resume`` knows which seats are bots. With two or more people at the table,
the screen is hidden between their turns (hot-seat).
"""

from __future__ import annotations

import random
import sys
from collections.abc import Iterable
from pathlib import Path

import click
from rich.console import Console

from ..bots import BOTS, make_bot
from ..errors import RecordError, RulesError
from ..record import load
from ..rules import Rules
from ..session import Chooser, Match
from ..tui.loop import Outcome, TerminalGame, default_save_path
from ..tui.seats import Seat, SeatError, make_seats, seats_from_names
from ..tui.terminal import KeyPressReader, LineReader, Reader
from .options import parse_rules

__all__ = ["play"]

#: Seconds a bot waits before each move on a real terminal (so people can follow).
DEFAULT_BOT_DELAY = 0.6


def _split_names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


def _new_table(names: str | None, hotseat: str | None, bots: str | None, preset: str,
               rules_items: Iterable[str]) -> tuple[Rules, tuple[Seat, ...]]:
    if names is not None and hotseat is not None:
        raise click.UsageError("give either --names or --hotseat, not both")
    if hotseat is not None:
        humans = _split_names(hotseat)
        if len(humans) < 2:
            raise click.UsageError("--hotseat needs 2 to 4 names, e.g. --hotseat Ana,Bo")
        bot_kinds = _split_names(bots) if bots is not None else []
    else:
        humans = _split_names(names) if names is not None else ["You"]
        bot_kinds = _split_names(bots) if bots is not None else ["counter"]
    try:
        seats = make_seats(humans, bot_kinds)
    except SeatError as exc:
        raise click.UsageError(str(exc)) from None
    try:
        rules = parse_rules(preset, rules_items)
        rules.check_players(len(seats))
    except RulesError as exc:
        raise click.UsageError(f"rules: {exc}") from None
    return rules, seats


def _resume(path: Path, rng: random.Random) -> tuple[Match, tuple[Seat, ...]]:
    try:
        record = load(path)
        seats = seats_from_names(record.players)
        match = Match.from_record(record, rng)
    except (RecordError, SeatError) as exc:
        click.echo(f"cannot resume {path}: {exc}", err=True)
        status = exc.exit_status if isinstance(exc, RecordError) else 2
        raise SystemExit(status) from None
    return match, seats


@click.command()
@click.option("--name", "--names", "names", metavar="NAMES",
              help="The people playing, comma separated (default: You).")
@click.option("--bots", metavar="KINDS",
              help=f"One bot per extra seat, comma separated: {', '.join(BOTS)} "
                   "(default: counter; none with --hotseat).")
@click.option("--hotseat", metavar="NAMES",
              help="2 to 4 people taking turns at this keyboard, e.g. Ana,Bo,Cy.")
@click.option("--preset", default="standard", show_default=True,
              help="Rules preset or variant (see `trashcards presets`).")
@click.option("--rules", "rules_items", multiple=True, metavar="FIELD=VALUE",
              help="Change a rules field, e.g. call_trash=true, wild_ranks=K,Q; "
                   "repeatable, and more FIELD=VALUE words may follow.")
@click.argument("more_rules", nargs=-1, metavar="[FIELD=VALUE]...")
@click.option("--seed", type=int, help="Seed for the shuffles and the bots (same seed, "
                                       "same deals).")
@click.option("--save", "save", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the record (trash/1) to this file after every move.")
@click.option("--resume", type=click.Path(dir_okay=False, exists=True, path_type=Path),
              help="Continue a saved match where it stopped (saves back to it).")
@click.option("--bot-delay", type=click.FloatRange(min=0), metavar="SECONDS",
              help=f"Pause before each bot move (default {DEFAULT_BOT_DELAY} on a terminal, "
                   "0 when input is piped).")
@click.option("--keys/--lines", "single_keys", default=None,
              help="Read single key presses, or whole lines (default: keys on a terminal).")
def play(names: str | None, bots: str | None, hotseat: str | None, preset: str,
         rules_items: tuple[str, ...], more_rules: tuple[str, ...], seed: int | None,
         save: Path | None, resume: Path | None, bot_delay: float | None,
         single_keys: bool | None) -> None:
    """Play Trash in the terminal: you against bots, or hot-seat.

    \b
    Keys: s stock, d discard, 1-9 and 0 a wild on slot 1-10, w swap, t trash,
    c call "Trash!", q quit (the match is saved), ? help.

    A bot's seat is named bot:KIND in the record (bot:counter, bot:greedy:2),
    so --resume knows which seats are bots. With two or more people, the
    screen is hidden between their turns.
    """
    interactive = sys.stdin.isatty()
    console = Console(highlight=False)
    if seed is None:
        seed = random.SystemRandom().randrange(10**9)
    rng = random.Random(seed)
    if resume is not None:
        if names or bots or hotseat or rules_items or more_rules or preset != "standard":
            raise click.UsageError("--resume takes the players and the rules from the "
                                   "record: drop --names, --bots, --hotseat, --preset, --rules")
        match, seats = _resume(resume, rng)
        save = save or resume
        console.print(f"Resuming {resume} at move {len(match.record.moves)} "
                      f"— {match.record.rules.describe()} — seed {seed}", markup=False)
    else:
        rules, seats = _new_table(names, hotseat, bots, preset, (*rules_items, *more_rules))
        match = Match(rules, [seat.name for seat in seats], rng)
        console.print(f"Trash — {rules.describe()} — seed {seed}", markup=False)
        console.print("Players: " + ", ".join(seat.name for seat in seats)
                      + "  (? for help, q to quit and save)", markup=False)
    choosers: dict[int, Chooser] = {
        index: make_bot(seat.bot, random.Random(f"{seed}/bot/{index}"))
        for index, seat in enumerate(seats) if seat.bot is not None
    }
    use_keys = interactive if single_keys is None else single_keys
    reader: Reader = (KeyPressReader(console) if use_keys
                      else LineReader(sys.stdin, console, echo=not interactive))
    game = TerminalGame(
        match=match, seats=seats, bots=choosers, reader=reader, console=console,
        save_to=save, default_save=default_save_path,
        bot_delay=(DEFAULT_BOT_DELAY if interactive else 0.0) if bot_delay is None
        else bot_delay,
        hotseat=sum(seat.human for seat in seats) >= 2,
    )
    outcome = game.run()
    if outcome is Outcome.INTERRUPTED:
        raise SystemExit(130)
