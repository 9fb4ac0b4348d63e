"""The strategy lab: experiments that play many bot matches and write a report.

Each experiment (``first-player``, ``length``, ``ladder``, ``discard``, ``variants``,
``skill``, ``tips``, ``calibration``)
plans its tables, plays them through :class:`trashcards.sim.runner.Runner` (fast or
reference engine, local or Ray backend) and writes ``report.md``, PNG plots and
``figures.json`` into an output directory. Run one with ``trashcards analyze``.

Importing this package is cheap; :func:`experiment` imports the experiment's module,
which needs numpy and matplotlib (the ``sim`` extra).
"""

from __future__ import annotations

import importlib

from .experiment import Experiment, Job, Results, Settings, Tracker, run_experiment

__all__ = ["EXPERIMENTS", "Experiment", "Job", "Results", "Settings", "Tracker",
           "experiment", "run_experiment"]

#: Experiment name -> (module of this package, one-line summary).
EXPERIMENTS: dict[str, tuple[str, str]] = {
    "first-player": ("first_player", "win rates by seat and by who starts, per preset and "
                                     "table size"),
    "length": ("length", "turns per round and rounds per match, per preset and table size"),
    "ladder": ("ladder", "every bot against every other: win rates and Elo ratings"),
    "discard": ("discard", "what taking the discard pile is worth (never, half the time, "
                           "always)"),
    "variants": ("variants", "how each variant changes round length and the first "
                             "player's edge"),
    "skill": ("skill", "how much of Trash is skill: levels with Elo, the expert, regret "
                       "against exact play"),
    "tips": ("tips", "each strategy tip as two bots that differ only in it, head to head"),
    "calibration": ("calibration", "the coach's predicted win chances against results: "
                                   "reliability and Brier score"),
}


def experiment(name: str) -> Experiment:
    """The experiment called ``name`` (raises ``ImportError`` without numpy/matplotlib)."""
    try:
        module_name = EXPERIMENTS[name][0]
    except KeyError:
        raise ValueError(f"unknown experiment {name!r}; the experiments are "
                         f"{', '.join(EXPERIMENTS)}") from None
    found: Experiment = importlib.import_module(f"{__name__}.{module_name}").EXPERIMENT
    return found
