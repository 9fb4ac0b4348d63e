"""What an experiment is, and the driver that runs one.

An experiment lists its *jobs* (a table: rules, one bot per seat, a number of matches)
before anything runs, so the progress bar knows the total; the driver plays every job
with a :class:`~trashcards.sim.runner.Runner` (the same seed for every job, in batches
for honest intervals of per-round figures) and hands the totals to the experiment's
``analyse``, which writes the report.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from .. import ai  # noqa: F401  (importing it registers the expert bot)
from ..rules import Rules
from ..sim.runner import Runner
from ..simulation import SimStats
from .report import Report, fmt_count

__all__ = ["BATCHES", "Experiment", "Job", "Results", "Settings", "Tracker", "run_experiment"]

#: Batches per job: per-round figures get batch-means intervals with 19 degrees of freedom.
BATCHES = 20


@dataclass(frozen=True, slots=True)
class Job:
    """One table to simulate: ``matches`` matches of ``bots`` (seat 0 first) under ``rules``.
    ``engine``: the engine this table needs whatever the run's engine (``reference`` for
    a bot the fast kernel does not have, such as ``expert``)."""

    key: str
    rules: Rules
    bots: tuple[str, ...]
    matches: int
    label: str
    engine: str | None = None

    @property
    def players(self) -> int:
        return len(self.bots)


@dataclass(frozen=True, slots=True)
class Settings:
    """How a run was made (printed at the top of every report)."""

    experiment: str
    matches: int
    seed: int
    engine: str
    backend: str

    def command(self) -> str:
        return shlex.join(["trashcards", "analyze", self.experiment, "--matches",
                           str(self.matches), "--seed", str(self.seed), "--engine",
                           self.engine])


@dataclass
class Results:
    """The totals of every job, by job key, in batches."""

    jobs: Sequence[Job]
    batches: Mapping[str, Sequence[SimStats]]
    _totals: dict[str, SimStats] = field(default_factory=dict)

    def job(self, key: str) -> Job:
        for job in self.jobs:
            if job.key == key:
                return job
        raise KeyError(key)

    def total(self, key: str) -> SimStats:
        if key not in self._totals:
            self._totals[key] = merged(self.batches[key])
        return self._totals[key]


class Tracker(Protocol):
    """Where the driver reports progress (a rich progress bar in the CLI)."""

    def start(self, total: int) -> None: ...

    def job(self, job: Job) -> None: ...

    def advance(self, matches: int) -> None: ...


@dataclass(frozen=True)
class Experiment:
    """A named experiment: its jobs for ``matches`` matches per configuration, and the
    analysis that turns their totals into a report."""

    name: str
    title: str
    question: str
    #: Default matches per configuration, by engine.
    default_matches: Mapping[str, int]
    plan: Callable[[int], list[Job]]
    analyse: Callable[[Results, Settings, Report], None]
    unit: str = "configuration"


def run_experiment(experiment: Experiment, runner: Runner, matches: int, seed: int,
                   out: Path, tracker: Tracker | None = None) -> Path:
    """Run every job of ``experiment`` and write its report into ``out``."""
    jobs = experiment.plan(matches)
    if tracker is not None:
        tracker.start(sum(job.matches for job in jobs))
    batches: dict[str, Sequence[SimStats]] = {}
    others: dict[str, Runner] = {}
    try:
        for job in jobs:
            if tracker is not None:
                tracker.job(job)
            chosen = runner
            if job.engine is not None and job.engine != runner.engine:
                if job.engine not in others:
                    others[job.engine] = Runner(job.engine, runner.backend, runner.workers,
                                                ray_address=runner.ray_address)
                chosen = others[job.engine]
            batches[job.key] = chosen.run_batches(
                job.rules, job.bots, job.matches, seed, BATCHES,
                progress=tracker.advance if tracker is not None else None)
    finally:
        for other in others.values():
            other.close()
    settings = Settings(experiment.name, matches, seed, runner.engine, runner.backend)
    results = Results(jobs, batches)
    report = Report(out, experiment.title)
    report.para(f"*{experiment.question}*")
    report.para(_settings_text(experiment, settings, results))
    report.figures["settings"] = {
        "experiment": experiment.name, "matches": matches, "per": experiment.unit,
        "seed": seed, "engine": runner.engine, "backend": runner.backend,
        "total_matches": sum(job.matches for job in jobs), "confidence": 0.95,
        "command": settings.command(),
    }
    experiment.analyse(results, settings, report)
    report.figures["raw"] = {
        job.key: {"rules": job.rules.to_dict(), "bots": list(job.bots),
                  "totals": _without_time(results.total(job.key))}
        for job in jobs}
    return report.write()


def _without_time(stats: SimStats) -> dict[str, object]:
    data = stats.to_json()
    data.pop("elapsed_s", None)
    return data


def _settings_text(experiment: Experiment, settings: Settings, results: Results) -> str:
    total = sum(job.matches for job in results.jobs)
    engine = {"fast": "the fast (numba) engine",
              "reference": "the reference engine (the rules engine itself; slower, so "
                           "fewer matches than a fast-engine run)"}[settings.engine]
    tables = (f"{len(results.jobs)} tables, {fmt_count(total)} matches in all"
              if results.jobs else "the matches played by the experiment itself (below)")
    return (
        f"**{fmt_count(settings.matches)} matches per {experiment.unit}**, "
        f"{tables}; seed "
        f"{settings.seed}; played by {engine} on the {settings.backend} backend. "
        "Every interval is a 95 % confidence interval (shares of matches: Wilson; means "
        f"over matches: normal; figures over rounds: batch means over {BATCHES} batches "
        "of consecutive matches, since the rounds of one match are not independent). Every "
        "table uses the same seed, so tables share their random streams. Reproduce with "
        f"`{settings.command()}`.")


def merged(batches: Sequence[SimStats]) -> SimStats:
    """The totals of a run given by batches."""
    total = SimStats(batches[0].players)
    for batch in batches:
        total = total + batch
    return total
