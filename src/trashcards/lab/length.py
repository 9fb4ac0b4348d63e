"""``length``: how long are rounds and matches?

Greedy bots at every seat, for every preset and 2–4 players: the distribution of turns
per round (a turn is one draw, so a round of 2 players lasting 40 turns gives each player
20) and of rounds per match, and the mean number of turns in a whole match.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..estimates import HistSummary, hist_summary
from ..rules import Rules
from .experiment import Experiment, Job, Results, Settings
from .plots import bar_chart, distribution_chart
from .report import Report, fmt_count, fmt_estimate
from .tables import PLAYER_COUNTS, SWEEP_PRESETS, TableFigures, self_play_jobs, table_figures

__all__ = ["EXPERIMENT"]

BOT = "greedy"


def plan(matches: int) -> list[Job]:
    configs = [(name, Rules.preset_named(name)) for name in SWEEP_PRESETS]
    return self_play_jobs(configs, PLAYER_COUNTS, BOT, matches)


@dataclass(frozen=True, slots=True)
class LengthFigures:
    """One table's means (with intervals) and its two distributions."""

    table: TableFigures
    turns: HistSummary
    rounds: HistSummary

    def to_json(self) -> dict[str, object]:
        return {"figures": self.table, "turns_per_round_distribution": self.turns,
                "rounds_per_match_distribution": self.rounds}


def _spread(summary: HistSummary) -> str:
    return (f"{summary.median} ({summary.p10}–{summary.p90}) · sd {summary.sd:.1f} · "
            f"max {summary.maximum}")


def analyse(results: Results, settings: Settings, report: Report) -> None:
    figures: dict[str, LengthFigures] = {}
    for job in results.jobs:
        total = results.total(job.key)
        figures[job.key] = LengthFigures(table_figures(total, results.batches[job.key]),
                                         hist_summary(total.turns_hist),
                                         hist_summary(total.rounds_hist))
    report.figures["tables"] = figures
    standard = figures["standard/2p"].table
    report.heading("Headline")
    report.bullets([
        f"Two players, standard rules: a round lasts {fmt_estimate(standard.turns_per_round)}"
        f" turns on average (both players' draws together), a match "
        f"{fmt_estimate(standard.rounds_per_match)} rounds and "
        f"{fmt_estimate(standard.turns_per_match, 0)} turns.",
        *(f"{n} players, standard: {fmt_estimate(figures[f'standard/{n}p'].table.turns_per_round)}"
          " turns per round, "
          f"{fmt_estimate(figures[f'standard/{n}p'].table.rounds_per_match)} rounds per match."
          for n in PLAYER_COUNTS[1:]),
    ])
    report.para(
        f"All seats are played by the `{BOT}` bot. A turn is one draw (from the stock or the "
        "discard pile), counted over all players. Distribution columns: median (10th–90th "
        "percentile) · standard deviation · longest seen. Means carry 95 % intervals.")
    for n in PLAYER_COUNTS:
        report.heading(f"{n} players")
        rows = []
        for name in SWEEP_PRESETS:
            entry = figures[f"{name}/{n}p"]
            f = entry.table
            rows.append([
                name, fmt_count(f.matches), fmt_count(f.rounds),
                fmt_estimate(f.turns_per_round), _spread(entry.turns),
                fmt_estimate(f.rounds_per_match), _spread(entry.rounds),
                fmt_estimate(f.turns_per_match, 0)])
        report.table(["preset", "matches", "rounds", "turns per round (mean)",
                      "turns per round (distribution)", "rounds per match (mean)",
                      "rounds per match (distribution)", "turns per match (mean)"],
                     rows, right=(1, 2, 3, 5, 7))
        turns = {name: results.total(f"{name}/{n}p").turns_hist for name in SWEEP_PRESETS}
        distribution_chart(report.out / f"turns_per_round_{n}p.png", turns,
                           f"Turns per round, {n} players", "turns in the round")
        report.image(f"turns_per_round_{n}p.png", f"turns per round, {n} players")
        rounds = {name: results.total(f"{name}/{n}p").rounds_hist for name in SWEEP_PRESETS}
        distribution_chart(report.out / f"rounds_per_match_{n}p.png", rounds,
                           f"Rounds per match, {n} players", "rounds in the match")
        report.image(f"rounds_per_match_{n}p.png", f"rounds per match, {n} players")
    report.heading("Mean turns per round")
    series = {f"{n} players": [figures[f"{name}/{n}p"].table.turns_per_round
                               for name in SWEEP_PRESETS] for n in PLAYER_COUNTS}
    bar_chart(report.out / "mean_turns_per_round.png", list(SWEEP_PRESETS), series,
              "Mean turns per round (95 % intervals)", "turns per round")
    report.image("mean_turns_per_round.png", "mean turns per round by preset")


EXPERIMENT = Experiment(
    name="length",
    title="How long rounds and matches last",
    question="How many turns does a round take, and how many rounds a match — per preset, "
             "variant and table size?",
    default_matches={"fast": 100_000, "reference": 1_000},
    plan=plan,
    analyse=analyse,
)
