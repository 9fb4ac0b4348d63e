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
    input): the move taken, the best move and the match-win chance the choice cost; then
    each player's accuracy, biggest mistakes and the moves where luck swung the match.

    A move is a mistake only when it is measurably worse than the best on fresh deals
    (not those that picked the best: the winner's curse) by at least 0.5 points of
    match-win chance, or when a board was completed without calling "Trash!". Moves
    equal to the best within the noise are not mistakes; small boards are solved
    exactly.

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
        _print_review(result)
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
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        fail("--plot needs matplotlib: pip install 'trashcards[sim]'")


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


def _print_review(result: Review) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    names = result.players
    table = Table(title="Mistakes: confirmed on fresh deals, at least "
                        f"{THRESHOLD * 100:.1f} pp of match-win chance",
                  title_justify="left")
    for column in ("move", "round", "player", "played", "best", "cost (95 %)"):
        table.add_column(column, justify="right" if column in ("move", "round", "cost (95 %)")
                         else "left")
    for d in result.decisions:
        if d.mistake:
            low, high = d.cost_ci
            cost = f"{d.cost * 100:.1f} pp" + (
                " (exact)" if d.exact else f" ({low * 100:.1f}–{high * 100:.1f})")
            played = str(d.taken) + (" — no call" if d.kind == "missed_call" else "")
            table.add_row(str(d.move), str(d.round), names[d.seat], played, str(d.best),
                          cost)
    console.print(table)
    summary = Table(title="Summary", title_justify="left")
    for column in ("player", "decisions", "accuracy", "cost in all", "biggest mistakes",
                   "luck swings"):
        summary.add_column(column)
    for s in result.summaries:
        mistakes = ", ".join(f"move {d.move} ({d.taken}; best {d.best}, "
                             f"−{d.cost * 100:.1f} pp)" for d in s.biggest) or "none"
        swings = ", ".join(f"moves {w.start}–{w.end} ({w.change * 100:+.1f} pp)"
                           for w in s.swings) or "none"
        summary.add_row(s.name, str(s.decisions), f"{s.accuracy * 100:.0f} %",
                        f"{s.total_cost * 100:.1f} pp", mistakes, swings)
    console.print(summary)
    winner = names[result.winner] if result.winner is not None else "nobody yet"
    console.print(f"Winner: {winner}. {result.samples} sampled deals per decision, seed "
                  f"{result.seed}, rollouts to the end of the {result.horizon} by greedy on "
                  f"the {result.engine} engine. Accuracy: the share of a player's decisions "
                  "that were not mistakes; the cost in all adds up the mistakes' costs. "
                  "Luck: changes of the player's chance between two decisions that no "
                  "choice of theirs explains.")
    for note in result.notes:
        console.print(f"Note: {note}.")
