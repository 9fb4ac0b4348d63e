"""``trashcards review``: every decision of a record judged, with a summary per player."""

from __future__ import annotations

import json
import os
from itertools import pairwise
from pathlib import Path

import click

from ..ai.evaluate import ENGINES
from ..ai.review import DEFAULT_SAMPLES, THRESHOLD, Review, review
from ..files import OutputError, check_new_file
from ..record import Record
from ..state import State, new_match
from ..views import view
from .records import fail, read_record

__all__ = ["review_command"]


@click.command("review")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--json", "as_json", is_flag=True,
              help="Print the whole review as one JSON object (summary, decisions, curve).")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None,
              metavar="PNG", help="Draw each player's match-win chance across the match "
                                  "into this new file.")
@click.option("--force", is_flag=True, help="Let --plot replace an existing file.")
@click.option("--samples", type=click.IntRange(min=2), default=DEFAULT_SAMPLES,
              show_default=True,
              help="Deals of the unseen cards per move of a decision, to pick the best "
                   "(twice as many, fresh, confirm a mistake): more finds smaller "
                   "mistakes and takes longer.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the sampled deals: the same seed gives the same review.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
              help="Who plays the rollouts: the numba kernel (fast) or the rules engine.")
def review_command(file: str, as_json: bool, plot: Path | None, force: bool, samples: int,
                   seed: int, engine: str) -> None:
    """Review every decision of every player in the trash/1 record FILE ('-' for standard
    input): each player's mistakes, small losses, the decisions that matched the best
    move and the largest single loss; each mistake and small loss in words, with the
    better move, what it cost (95 % interval) and the player's board; the moves where
    luck swung the match.

    A move is a mistake only when it is measurably worse than the best on fresh deals
    (not those that picked the best: the winner's curse) by at least 0.5 points of
    match-win chance, or when a board was completed without calling "Trash!"; measurably
    worse by less, a small loss. Moves equal to the best within the noise are neither;
    small boards are solved exactly.

    Chances assume everyone goes on playing like the greedy bot, and are computed from
    what the players could see only. Exit status: 0; 1 when a move of the record breaks
    the rules; 2 when the record cannot be read or the plot cannot be written.
    """
    record = read_record(file)
    if plot is not None:
        _check_plot_path(plot, force)
        _check_plot_deps()
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    console = Console(stderr=True)
    with Progress(TextColumn("reviewing"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task("review", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        result = review(record, samples, seed, engine, advance)  # type: ignore[arg-type]
    if plot is not None:
        try:
            _plot(result, plot)
        except OSError as exc:
            fail(f"cannot write {plot}: {exc}")
    if as_json:
        click.echo(json.dumps(result.to_json()))
    else:
        _print_review(result, record)
        if plot is not None:
            click.echo(f"wrote {plot}")


def _check_plot_path(plot: Path, force: bool) -> None:
    """Refuse, before the review runs, a --plot whose folder is missing, is a file or
    cannot be written (no folder is made), a --plot that is a folder, or one that exists
    without --force (docs/files.md)."""
    folder = plot.parent
    try:
        check_new_file(plot, force)
    except OutputError as exc:
        fail(f"--plot: {exc}")
    if not os.access(folder, os.W_OK):
        fail(f"--plot: cannot write into the folder {folder}")


def _check_plot_deps() -> None:
    import matplotlib  # noqa: F401  (missing: the one form of every command)


def _plot(result: Review, path: Path) -> None:
    from ..lab.plots import line_chart

    xs = [p.move for p in result.points]
    series = {name: [p.before[seat] for p in result.points]
              for seat, name in enumerate(result.players)}
    starts = sorted({p.move for p, q in pairwise(result.points)
                     if q.round != p.round})
    line_chart(path, xs, series, "Each player's chance of winning the match",
               "move of the record", "match-win chance (%)", scale=100, marks=starts,
               reference=1 / len(result.players))


def _print_review(result: Review, record: Record) -> None:
    from rich.console import Console
    from rich.text import Text

    from ..ai.reviewtext import english, figures, heading, lesson
    from ..pictures import board_text, card_text

    console = Console(highlight=False)
    names = result.players
    columns = ("review.col_mistakes", "review.col_small", "review.col_matched",
               "review.col_largest")
    for s in result.summaries:
        console.print(Text(s.name + (" (winner)" if s.seat == result.winner else ""),
                           style="bold"))
        for column, message in zip(columns, figures(s), strict=True):
            console.print(f"  {_en(column)}: {english(message)}")
    before = _states_before(record, {d.move for d in result.decisions if not d.matched})
    losses = [d for d in result.decisions if not d.matched]
    console.print(Text(f"\nMistakes (at least {THRESHOLD * 100:.1f} points of match-win "
                       "chance) and small losses (less), each confirmed on fresh deals",
                       style="bold"))
    if not losses:
        console.print("none")
    for d in losses:
        state = before[d.move]
        seen = view(state, d.seat)
        console.print(Text(f"\n{english(heading(d, names[d.seat]))} — "
                           f"{_en(f'review.kind.{d.kind}')}", style="bold"))
        console.print(" ".join(english(m) for m in lesson(d, seen, names[d.seat])))
        top = seen.top_discard
        facts = Text("discard ")
        facts.append_text(card_text(top, seen.rules) if top else Text("empty"))
        facts.append(" · in hand ")
        facts.append_text(card_text(seen.in_hand, seen.rules) if seen.in_hand
                          else Text("nothing"))
        console.print(facts)
        console.print(board_text(seen.players[d.seat], seen.rules))
    console.print(Text("\nLuck", style="bold"))
    for s in result.summaries:
        swings = ", ".join(f"moves {w.start + 1}–{w.end + 1} ({w.change * 100:+.1f} points)"
                           for w in s.swings) or "none"
        console.print(f"{s.name}: {swings}")
    winner = names[result.winner] if result.winner is not None else "nobody yet"
    console.print(f"\nWinner: {winner}. {result.samples} sampled deals per decision, seed "
                  f"{result.seed}, rollouts to the end of the {result.horizon} by greedy on "
                  f"the {result.engine} engine. Moves are counted from 1. A decision "
                  "matched the best move when no loss was confirmed on fresh deals. Luck: "
                  "changes of the player's chance between two decisions that no choice of "
                  "theirs explains.")
    for note in result.notes:
        console.print(f"Note: {note}.")


def _en(key: str) -> str:
    from ..ai.reviewtext import ENGLISH

    text = ENGLISH[key]
    assert isinstance(text, str)
    return text


def _states_before(record: Record, moves: set[int]) -> dict[int, State]:
    """The state before each of ``moves``."""
    state = new_match(record.rules, record.players)
    found = {}
    for index, (after, _events) in enumerate(record.steps()):
        if index in moves:
            found[index] = state
        state = after
    return found
