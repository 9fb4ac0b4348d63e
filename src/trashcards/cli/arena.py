"""``trashcards arena``: an agent against the ladder, its Elo on the levels' scale."""

from __future__ import annotations

import dataclasses
import json
import os
from typing import TYPE_CHECKING, cast

import click

from ..errors import RulesError
from .records import fail

if TYPE_CHECKING:
    from ..arena import Mode

__all__ = ["arena"]


@click.command("arena")
@click.argument("agent")
@click.option("--matches", type=click.IntRange(min=2), default=2000, show_default=True,
              help="Matches against random and each level but expert (duplicate: "
                   "matches / players deals, each at every seat).")
@click.option("--expert-matches", type=click.IntRange(min=0), default=None,
              help="Matches against the expert (it searches, so it is slow). "
                   "Default: --matches / 16; 0 leaves it out.")
@click.option("--players", type=click.IntRange(2, 4), default=2, show_default=True,
              help="Players per match (the agent against copies of one opponent). The "
                   "Elo is given at 2 players only.")
@click.option("--preset", default="standard", show_default=True,
              help="Rules preset (trashcards presets). The Elo is given for standard only.")
@click.option("--mode", type=click.Choice(["duplicate", "plain"]), default="duplicate",
              show_default=True,
              help="duplicate: every deal once per seat rotation, the estimate from the "
                   "paired results; plain: every deal once.")
@click.option("--opponent", "opponents", multiple=True,
              type=click.Choice(["random", "beginner", "casual", "good", "expert"]),
              help="Play only this opponent of the ladder (repeat for several).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of every match.")
@click.option("--sha256", "expect_sha256", default=None, metavar="HEX",
              help="Refuse a policy file whose SHA-256 differs (a leaderboard entry's).")
@click.option("--json", "as_json", is_flag=True,
              help='Print {"agent", "elo", "elo_ci", "matches", "vs"} as JSON.')
def arena(agent: str, matches: int, expert_matches: int | None, players: int, preset: str,
          mode: str, opponents: tuple[str, ...], seed: int, expect_sha256: str | None,
          as_json: bool) -> None:
    """Play AGENT against random and every level, and rate it (needs the envs extra:
    pip install 'trashcards[envs]').

    AGENT is a level (beginner, casual, good, expert), a bot (trashcards bots),
    module:function (a batched policy: float32[M, 233] observations and int8[M, 15]
    masks in, M actions out; the current folder is importable, after the installed
    packages) or a policy file: .npz (MLPPolicy.save) or .onnx (float32[M, 233] in,
    [M, 15] logits out). Prints its Elo with a 95 % interval on the levels' scale
    (docs/analysis/skill), its win rate against each with 95 % intervals, and the
    command that reproduces it (with the file's SHA-256).
    """
    # numpy policies run on small batches: BLAS threads would only spin (set before numpy)
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from ..arena import LADDER, rate, resolve_agent  # a missing extra: the one form
    from ..arena.rating import reproduce_command
    try:
        resolved = resolve_agent(agent)
    except ValueError as exc:
        fail(str(exc))
    if expect_sha256 is not None and resolved.sha256 != expect_sha256.strip().lower():
        fail(f"{agent}: its SHA-256 is {resolved.sha256 or 'none (not a policy file)'}, "
             f"not {expect_sha256}")
    expert_n = matches // 16 if expert_matches is None else expert_matches

    def planned(n: int) -> int:
        n = max(n, players)
        return -(-n // players) * players if mode == "duplicate" else n

    total = sum(planned(expert_n if bot == "expert" else matches) for name, bot, _e in LADDER
                if (not opponents or name in opponents) and (bot != "expert" or expert_n))
    console = Console(stderr=True)
    with Progress(TextColumn(f"arena: {resolved.name}"), BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as progress:
        task = progress.add_task("arena", total=total)
        try:
            rating = rate(resolved, matches=matches, players=players, preset=preset, seed=seed,
                          expert_matches=expert_matches, mode=cast("Mode", mode),
                          opponents=list(opponents) or None,
                          progress=lambda n: progress.advance(task, n))
        except (ValueError, RulesError) as exc:
            fail(str(exc))
    assert rating.settings is not None
    rating = dataclasses.replace(rating, command=reproduce_command(
        agent, rating.settings, seed, rating.sha256))
    if as_json:
        click.echo(json.dumps(rating.to_json()))
        return
    if rating.elo is not None and rating.elo_ci is not None:
        lo, hi = rating.elo_ci
        click.echo(f"{rating.agent}: Elo {rating.elo:.0f} (95 % {lo:.0f}–{hi:.0f}), "
                   f"{rating.matches:,} matches")
    else:
        click.echo(f"{rating.agent}: {rating.matches:,} matches, {players} players, {preset} "
                   "(the levels' Elo is measured at 2 players, standard: no Elo here)")
    for name, record in rating.vs.items():
        est = record.estimate
        click.echo(f"  vs {name:<9} {est.value:6.1%}  [{est.low:.1%}, {est.high:.1%}]  "
                   f"of {record.matches:,}"
                   + (f" ({record.deals:,} deals)" if record.mode == "duplicate" else ""))
    click.echo(f"  again: {rating.command}")
