"""``trashcards hint``: the best move after a record, with every move's win chances."""

from __future__ import annotations

import json

import click

from ..ai.evaluate import ENGINES
from ..ai.hints import DEFAULT_SAMPLES, Hint, hint
from ..views import view
from .records import fail, read_record

__all__ = ["hint_command"]


@click.command("hint")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--upto", type=click.IntRange(min=0), default=None, metavar="N",
              help="The position after the first N moves (default: after the whole record).")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"to_act", "best", "actions": [{"action", "match_win", '
                   '"match_win_ci", "round_win", "round_win_ci"}, …]}.')
@click.option("--samples", type=click.IntRange(min=2), default=DEFAULT_SAMPLES,
              show_default=True, help="Deals of the unseen cards to play every move on.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the sampled deals: the same seed gives the same hint.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
              help="Who plays the rollouts: the numba kernel (fast) or the rules engine.")
def hint_command(file: str, upto: int | None, as_json: bool, samples: int, seed: int,
                 engine: str) -> None:
    """For the player to act after the trash/1 record FILE ('-' for standard input),
    list every legal move, best first, with its chance of winning the match and the
    round (95 % intervals) and a reason.

    The chances assume that every player goes on playing like the greedy bot; they are
    computed from what the players can see only. Exit status: 0 with a hint; 1 when a
    move of the record breaks the rules; 2 when the record cannot be read or no decision
    is due.
    """
    record = read_record(file)
    state = record.replay(upto)
    applied = len(record.moves) if upto is None else min(upto, len(record.moves))
    if state.to_act is None:
        fail(f"no decision is due after the first {applied} of {len(record.moves)} moves "
             f"({_why(state.phase.value)})")
    result = hint(view(state, state.to_act), samples, seed, engine)  # type: ignore[arg-type]
    if as_json:
        click.echo(json.dumps(result.to_json()))
        return
    _print_hint(result, record.players[result.to_act], applied, len(record.moves))


def _why(phase: str) -> str:
    return {"chance": "a chance move is due: the deal or a reshuffle",
            "round_over": "the round is over", "match_over": "the match is over"}[phase]


def _print_hint(result: Hint, name: str, applied: int, total: int) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False)
    evaluation = result.evaluation
    table = Table(title=f"{name} to act, after {applied} of {total} moves", title_justify="left")
    table.add_column("move")
    table.add_column("match win", justify="right")
    table.add_column("round win", justify="right")
    table.add_column("why")
    for line in result.lines:
        mw, rw = line.value.match_win, line.value.round_win
        table.add_row(str(line.action), _pct(mw.value, mw.low, mw.high),
                      _pct(rw.value, rw.low, rw.high), line.reason)
    console.print(table)
    notes = [f"Best: {result.best.action}."]
    if len(result.lines) > 1:
        diff = evaluation.difference(result.lines[0].action, result.lines[1].action)
        low = diff.low if diff.low is not None else float("nan")
        high = diff.high if diff.high is not None else float("nan")
        notes.append(f"It beats {result.lines[1].action} by {diff.value * 100:+.1f} pp of "
                     f"match-win chance (95 %: {low * 100:+.1f} to {high * 100:+.1f} pp).")
    notes.append(f"{evaluation.samples} sampled deals, seed {evaluation.seed}, rollouts to "
                 f"the end of the {evaluation.horizon} by {evaluation.policy} on the "
                 f"{evaluation.engine} engine.")
    if evaluation.notice:
        notes.append(f"Note: {evaluation.notice}.")
    console.print(" ".join(notes))


def _pct(value: float, low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return f"{value * 100:.1f} %"
    return f"{value * 100:.1f} % ({max(low, 0) * 100:.1f}–{min(high, 1) * 100:.1f})"
