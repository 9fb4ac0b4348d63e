"""``trashcards simulate``: many bot matches, with win rates and match lengths.

Also home of :func:`engine_options`, the ``--engine/--backend/--ray-address/--workers``
options that ``simulate`` and ``analyze`` share.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..bots import BOTS
from ..errors import RulesError
from ..estimates import wilson_interval
from ..files import OutputError, OutputFolder
from ..lab.report import rounded_shares
from ..rules import Rules
from ..sim.runner import BACKENDS, ENGINES, Runner
from ..simulation import SimStats, record_file
from . import registered  # noqa: F401  (every bot by name)
from .options import rules_options
from .records import fail

__all__ = ["COMPILE_NOTICE", "engine_for_bots", "engine_options", "make_runner",
           "reference_only", "simulate", "summary_json", "warm_up"]

#: Said when numba compiles the fast engine (a first run, or after an update), and only
#: then (benchmarks/compile.py: about 15 s of CPU for ``simulate``).
COMPILE_NOTICE = "compiling the fast engine (once, about 15 s)…"

F = TypeVar("F", bound=Callable[..., Any])


def engine_options(func: F) -> F:
    """Add ``--engine``, ``--backend``, ``--ray-address`` and ``--workers``."""
    func = click.option(
        "--workers", type=click.IntRange(min=1), default=None,
        help="Processes (reference engine) or threads (fast engine) on this machine, or "
             "CPUs of a local Ray. Default: every core.")(func)
    func = click.option(
        "--ray-address", default=None, metavar="ADDRESS",
        help="With --backend ray: the cluster to join (e.g. auto, or ray://head:10001). "
             "Default: start a local Ray.")(func)
    func = click.option(
        "--backend", type=click.Choice(BACKENDS), default="local", show_default=True,
        help="Where the matches run: this machine's cores, or a Ray cluster.")(func)
    return click.option(
        "--engine", type=click.Choice(ENGINES), default=None,
        help="fast: the numba kernel (the sim extra); reference: the rules engine. "
             "Default: fast when installed. Same totals for the same seed whatever the "
             "backend and workers, but the two engines deal differently.")(func)


def make_runner(engine: str | None, backend: str, ray_address: str | None,
                workers: int | None, console: Console) -> Runner:
    """A :class:`Runner` for the options; says on ``console`` when it falls back."""
    if ray_address is not None and backend != "ray":
        raise click.BadParameter("--ray-address needs --backend ray",
                                 param_hint="--ray-address")
    runner = Runner(engine, backend, workers, ray_address=ray_address)
    if runner.notice:
        console.print(f"[yellow]note:[/] {escape(runner.notice)}")
    return runner


def warm_up(runner: Runner, console: Console, traced: bool = False) -> None:
    """Start the fast engine here before a run, saying so when numba compiles it (the
    first run on a machine) instead of looking frozen, and saying nothing when it loads
    it from its cache. Nothing for the reference engine or a Ray cluster (whose workers
    compile it themselves)."""
    if runner.engine != "fast" or runner.backend != "local":
        return
    from ..sim import fast
    from ..sim.kernel.jit import compiling

    with compiling(lambda: console.print(COMPILE_NOTICE, markup=False)):
        fast.warm_up(traced)


def reference_only(bots: list[str]) -> list[str]:
    """The bots among ``bots`` that the fast kernel does not have (they play on the
    reference engine only), in order, once each; none when the kernel is not installed."""
    try:
        from ..sim.tables import BOT_CODES
    except ImportError:  # no fast engine at all: the runner says so and uses the reference
        return []
    return [name for name in dict.fromkeys(bots) if name not in BOT_CODES]


def engine_for_bots(bots: list[str], engine: str | None, console: Console) -> str | None:
    """The engine for a run of ``bots``: a bot the fast kernel lacks (``expert``,
    ``lowwild``, ``endblind``) switches the default engine to the reference one, with one
    line saying so; ``--engine fast`` with such a bot is refused in one line."""
    slow = reference_only(bots)
    if not slow:
        return engine
    which = ", ".join(slow)
    if engine == "fast":
        fail(f"--engine fast has no bot {which}: use --engine reference (or leave "
             "--engine out)")
    if engine is None:
        plays = "plays" if len(slow) == 1 else "play"
        console.print(f"note: {which} {plays} on the reference engine only: using it "
                      "(slower than the fast engine)", markup=False, soft_wrap=True)
    return "reference"


def _bot_list(_ctx: click.Context, _param: click.Parameter, value: str) -> list[str]:
    names = [name.strip().lower() for name in value.split(",") if name.strip()]
    unknown = [name for name in names if name not in BOTS]
    if unknown:
        raise click.BadParameter(f"unknown bot {unknown[0]!r}; the bots are {', '.join(BOTS)}")
    if not 2 <= len(names) <= 4:
        raise click.BadParameter(f"give 2 to 4 bots, one per seat (got {len(names)})")
    return names


@click.command()
@click.option("--bots", "bots", required=True, callback=_bot_list, metavar="A,B[,C,D]",
              help="One bot per seat, seat 0 first (see `trashcards bots`).")
@click.option("--matches", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Number of matches to play.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed: the same seed gives the same result.")
@rules_options
@click.option("--records", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Write every match's trash/1 record into this directory: a new one (in "
                   "a folder that exists), an empty one, or one an earlier run wrote.")
@click.option("--force", is_flag=True,
              help="Let --records replace records an earlier run wrote that were changed "
                   "since (never a file a run did not write).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@engine_options
def simulate(bots: list[str], matches: int, seed: int, rules: Rules, records: Path | None,
             force: bool, as_json: bool, engine: str | None, backend: str,
             ray_address: str | None, workers: int | None) -> None:
    """Play MATCHES whole matches between bots and print each bot's match win rate (95 %
    confidence interval), the first player's edge, rounds per match and turns per round.

    Uses the fast engine when the sim extra is installed, and every core; --backend ray
    spreads the matches over a Ray cluster with the same totals. A bot only the reference
    engine has (expert, lowwild, endblind; see `trashcards bots`) makes it use the
    reference engine, and says so.
    """
    try:
        rules.check_players(len(bots))
    except RulesError as exc:
        raise click.BadParameter(str(exc)) from None
    folder = _records_folder(records, force, seed, matches) if records is not None else None
    console = Console(stderr=True)
    engine = engine_for_bots(bots, engine, console)
    with make_runner(engine, backend, ray_address, workers, console) as runner:
        warm_up(runner, console, traced=records is not None)
        with Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(),
                      TimeRemainingColumn(), console=console, transient=True,
                      disable=not console.is_terminal) as progress:
            task = progress.add_task("matches", total=matches)
            try:
                stats = runner.run(rules, bots, matches, seed, records=records,
                                   progress=lambda n: progress.advance(task, n))
            finally:
                if folder is not None:  # list what was written, even if stopped
                    folder.adopt(record_file(seed, i) for i in range(matches))
                    folder.close()
    if as_json:
        out = summary_json(stats, bots, rules, seed)
        out["engine"] = runner.engine
        click.echo(json.dumps(out))
    else:
        _print_summary(stats, bots, rules, seed)


def _records_folder(records: Path, force: bool, seed: int, matches: int) -> OutputFolder:
    """The --records folder, checked before any match is played (docs/files.md)."""
    try:
        folder = OutputFolder(records, "simulate", force)
        try:
            folder.check(record_file(seed, i) for i in range(matches))
        except OutputError:
            folder.close()
            raise
    except OutputError as exc:
        fail(str(exc))
    return folder


def summary_json(stats: SimStats, bots: list[str], rules: Rules, seed: int) -> dict[str, object]:
    """The ``--json`` object: the raw totals plus rates with 95 % intervals."""
    out: dict[str, object] = {"bots": bots, "rules": rules.to_dict(), "seed": seed}
    out.update(stats.to_json())
    out["win_rate"] = [_rate(w, stats.matches) for w in stats.wins]
    out["first_player_win_rate"] = _rate(stats.first_player_wins, stats.matches)
    out["round_starter_win_rate"] = _rate(stats.round_starter_wins, stats.decided_rounds)
    out["rounds_per_match"] = stats.rounds / stats.matches if stats.matches else 0.0
    out["turns_per_round"] = stats.turns / stats.rounds if stats.rounds else 0.0
    return out


def _rate(successes: int, trials: int) -> dict[str, float]:
    low, high = wilson_interval(successes, trials)
    return {"rate": successes / trials if trials else 0.0, "low": low, "high": high}


def _print_summary(stats: SimStats, bots: list[str], rules: Rules, seed: int) -> None:
    console = Console()
    table = Table(title=f"{stats.matches:,} matches · {rules.describe()} · seed {seed}")
    table.add_column("seat")
    table.add_column("bot")
    table.add_column("match wins", justify="right")
    table.add_column("win rate (95 % CI)", justify="right")
    table.add_column("rounds won", justify="right")
    shares = [f"{share:.1f}%" for share in rounded_shares(
        [w / stats.matches if stats.matches else 0.0 for w in stats.wins])]
    for seat, name in enumerate(bots):
        rate = _rate(stats.wins[seat], stats.matches)
        table.add_row(str(seat), name, f"{stats.wins[seat]:,}",
                      f"{shares[seat]} ({rate['low']:.1%}–{rate['high']:.1%})",
                      f"{stats.round_wins[seat]:,}")
    console.print(table)
    first = _rate(stats.first_player_wins, stats.matches)
    starter = _rate(stats.round_starter_wins, stats.decided_rounds)
    fair = 1 / len(bots)
    console.print(
        f"First player's edge: the seat that starts the match wins {first['rate']:.1%} "
        f"({first['low']:.1%}–{first['high']:.1%}; a fair share is {fair:.1%}); the player "
        f"who starts a round wins it {starter['rate']:.1%} "
        f"({starter['low']:.1%}–{starter['high']:.1%}).")
    console.print(
        f"Mean rounds per match {stats.rounds / max(stats.matches, 1):.2f} · mean turns per "
        f"round {stats.turns / max(stats.rounds, 1):.2f} · {stats.rounds:,} rounds in "
        f"{stats.elapsed_s:.1f} s ({stats.rounds / max(stats.elapsed_s, 1e-9):,.0f} rounds/s)")
