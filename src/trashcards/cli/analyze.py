"""``trashcards analyze EXPERIMENT``: run a strategy-lab experiment and write its report."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..lab import EXPERIMENTS, Experiment, Job, experiment, run_experiment
from .simulate import engine_options, make_runner, warm_up

__all__ = ["analyze"]


class _ProgressTracker:
    """Shows the experiment's progress on a rich progress bar."""

    def __init__(self, progress: Progress, name: str) -> None:
        self.progress = progress
        self.name = name
        self.task: TaskID | None = None

    def start(self, total: int) -> None:
        self.task = self.progress.add_task(self.name, total=total)

    def job(self, job: Job) -> None:
        if self.task is not None:
            self.progress.update(self.task, description=f"{self.name}: {job.label}")

    def advance(self, matches: int) -> None:
        if self.task is not None:
            self.progress.advance(self.task, matches)


def _describe() -> str:
    return "\b\nExperiments:\n" + "\n".join(
        f"  {name:<13} {summary}" for name, (_module, summary) in EXPERIMENTS.items())


def _load(name: str) -> Experiment:
    return experiment(name)  # a missing extra: the one form of every command


@click.command(epilog=_describe())
@click.argument("name", metavar="EXPERIMENT", type=click.Choice(list(EXPERIMENTS)))
@click.option("--matches", type=click.IntRange(min=1), default=None,
              help="Matches per configuration (per table, or per pair of bots for ladder "
                   "and discard). Default: the experiment's, smaller for the reference "
                   "engine.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed: the same seed gives the same report.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory for report.md, the PNG plots and figures.json. "
                   "Default: analysis/EXPERIMENT.")
@engine_options
def analyze(name: str, matches: int | None, seed: int, out: Path | None,
            engine: str | None, backend: str, ray_address: str | None,
            workers: int | None) -> None:
    """Run a strategy-lab EXPERIMENT: play many bot matches and write a Markdown report
    with tables, PNG plots and the raw figures as JSON (every figure with its 95 %
    confidence interval).
    """
    chosen = _load(name)
    out = out if out is not None else Path("analysis") / name
    console = Console(stderr=True)
    with make_runner(engine, backend, ray_address, workers, console) as runner:
        warm_up(runner, console)
        count = matches if matches is not None else chosen.default_matches[runner.engine]
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), TimeRemainingColumn(), console=console,
                      transient=True, disable=not console.is_terminal) as progress:
            report = run_experiment(chosen, runner, count, seed, out,
                                    _ProgressTracker(progress, name))
    plots = sorted(p.name for p in out.glob("*.png"))
    click.echo(f"{chosen.title}: {count:,} matches per {chosen.unit}, engine "
               f"{runner.engine}, seed {seed}")
    click.echo(f"wrote {report}, {out / 'figures.json'} and {len(plots)} plots "
               f"({', '.join(plots)})")
