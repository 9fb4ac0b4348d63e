"""``trashcards hint``: the best move after a record, with every move's win chances."""

from __future__ import annotations

import json

import click

from ..ai.compare import ALPHA
from ..ai.evaluate import ENGINES
from ..ai.hints import DEFAULT_SAMPLES, Hint, HintLine, hint
from ..views import view
from .records import fail, read_record

__all__ = ["hint_command"]


@click.command("hint")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--upto", type=click.IntRange(min=0), default=None, metavar="N",
              help="The position after the first N moves (default: after the whole record).")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"to_act", "best", "exact", "samples", "tied", "always_call", '
                   '"actions": [{"action", "match_win", "match_win_ci", "round_win", '
                   '"round_win_ci", "vs_best", "equal_to_best", "reason": {"code", '
                   '"params"}}, …]}.')
@click.option("--samples", type=click.IntRange(min=2), default=DEFAULT_SAMPLES,
              show_default=True,
              help="Deals of the unseen cards to play every move on (then up to three "
                   "times as many on the two closest moves).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the sampled deals: the same seed gives the same hint.")
@click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
              help="Who plays the rollouts: the numba kernel (fast) or the rules engine.")
def hint_command(file: str, upto: int | None, as_json: bool, samples: int, seed: int,
                 engine: str) -> None:
    """For the player to act after the trash/1 record FILE ('-' for standard input),
    list every legal move, best first, with its chance of winning the match and the
    round, its difference to the best (a paired interval on the same deals, corrected for
    the repeated looks of the sampling) and a reason. A move is "best" only when it leads
    every other move beyond the noise; otherwise the moves as good as the leader are
    shown as equal, with the best's chances (95 % intervals), the standard play first and
    the others in legal order; a worse move shows its chance and its difference to the
    best. Small two-player boards are solved exactly.

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
    table = Table(title=f"{name} to act, after {applied} of {total} moves", title_justify="left")
    table.add_column("move")
    table.add_column("match win", justify="right")
    table.add_column("round win", justify="right")
    table.add_column("vs best (pp)", justify="right")
    table.add_column("why")
    for line in result.lines:
        # A worse move shows its chance and its difference to the best, not an interval
        # of its own that would overlap the best's (the difference is the sharper one).
        mw, rw = line.value.match_win, line.value.round_win
        shown = line.equal_to_best or result.exact
        table.add_row(str(line.action), _pct(mw.value, mw.low, mw.high, shown),
                      _pct(rw.value, rw.low, rw.high, shown),
                      vs_best_text(line, result.exact, line is result.best),
                      line.reason)
    console.print(table)
    console.print(" ".join(summary_notes(result)))


def vs_best_text(line: HintLine, exact: bool, best: bool = False) -> str:
    """``best`` (the reported best), ``= best``, ``−3.1`` (exact) or ``−4.0 to −2.2``
    (the paired interval, corrected for the looks of the sampling)."""
    if best:
        return "best"
    if line.vs_best.low == line.vs_best.high == 0 and line.equal_to_best:
        return "= best"
    if exact:
        return "= best" if line.equal_to_best else f"{line.vs_best.mean * 100:+.1f}"
    text = f"{line.vs_best.low * 100:+.1f} to {line.vs_best.high * 100:+.1f}"
    return f"= best ({text})" if line.equal_to_best else text


def summary_notes(result: Hint) -> list[str]:
    """The hint's conclusion in sentences (English): best or tied, exact or sampled."""
    comparison = result.comparison
    tied = result.tied
    if result.always_call:
        notes = ['Always call "Trash!" first: calling costs nothing.']
    elif len(result.lines) == 1:
        notes = [f"Only move: {result.best.action}."]
    elif len(tied) > 1:
        standard = " (the standard play)" if result.best.action == comparison.greedy else ""
        others = ", ".join(str(line.action) for line in tied[1:])
        notes = [f"Equally good: {result.best.action}{standard} and {others}"
                 + (" — exactly." if result.exact else
                    " — no difference beyond the noise.")]
    else:
        runner = result.lines[1].vs_best
        if result.exact:
            notes = [f"Best: {result.best.action}, {points(-runner.mean)} of match-win "
                     "chance ahead of the next move (exact)."]
        else:
            notes = [f"Best: {result.best.action}, ahead of {result.lines[1].action} by "
                     f"{points(-runner.mean)} of match-win chance (interval "
                     f"{-runner.high * 100:.1f} to {-runner.low * 100:.1f})."]
    if comparison.exact:
        notes.append("Exact values by the solver (optimal play of the round, the round's "
                     "end valued with the match-odds table).")
    else:
        notes.append(f"Up to {comparison.samples} sampled deals per move, seed "
                     f"{comparison.seed}, rollouts to the end of the {comparison.horizon} "
                     f"by {comparison.policy} on the {comparison.engine} engine; intervals "
                     f"of differences at {100 * (1 - ALPHA):g} % over all "
                     f"{comparison.looks} looks of the sampling.")
    if comparison.notice:
        notes.append(f"Note: {comparison.notice}.")
    return notes


def points(value: float) -> str:
    """Match-win points for people: ``1 point``, ``2.5 points``, ``less than 0.1
    points``."""
    pp = round(value * 100, 1)
    if pp < 0.1:
        return "less than 0.1 points"
    return f"{pp:g} point" + ("" if pp == 1 else "s")


def _pct(value: float, low: float | None, high: float | None, interval: bool = True) -> str:
    if low is None or high is None or not interval:
        return f"{value * 100:.1f} %"
    return f"{value * 100:.1f} % ({max(low, 0) * 100:.1f}–{min(high, 1) * 100:.1f})"
