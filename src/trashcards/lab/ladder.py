"""``ladder``: every bot against every other, two players, standard rules.

Each pair plays ``--matches`` matches, half with each bot in seat 0. The report gives
each pair's match win rate, each bot's overall win rate, and Elo ratings fitted to all
the results (Bradley–Terry), each with a 95 % interval.
"""

from __future__ import annotations

from ..bots import BOTS
from ..rules import Rules
from .duels import duel_jobs, duel_table
from .elo import elo_win_probability, fit_elo
from .experiment import Experiment, Job, Results, Settings
from .plots import heatmap, interval_chart
from .report import Report, fmt_count, fmt_pct, fmt_share

__all__ = ["EXPERIMENT", "LADDER_BOTS"]

#: The bots the fast kernel plays (the expert is measured by ``analyze skill``).
LADDER_BOTS = ("random", "greedy", "counter", "kid", "sometimes", "stockonly")
PRESET = "standard"


def plan(matches: int) -> list[Job]:
    return duel_jobs(LADDER_BOTS, Rules.preset_named(PRESET), matches, PRESET)


def analyse(results: Results, settings: Settings, report: Report) -> None:
    table = duel_table(results, LADDER_BOTS, PRESET)
    elo = fit_elo(table.bots, table.wins)
    report.figures["head_to_head"] = table
    report.figures["elo"] = elo
    order = sorted(range(len(table.bots)), key=lambda i: -elo.ratings[i])
    best, worst = order[0], order[-1]
    pair = results.jobs[0].matches + results.jobs[1].matches
    report.heading("Headline")
    # Every bot whose interval reaches the best one's is tied for the top.
    top = [i for i in order if elo.highs[i] >= elo.lows[best]]
    report.bullets([
        "Strongest: " + " and ".join(
            f"`{table.bots[i]}` (Elo {elo.ratings[i]:.0f}, 95 % "
            f"{elo.lows[i]:.0f}–{elo.highs[i]:.0f})" for i in top)
        + (", tied within their intervals" if len(top) > 1 else "")
        + f"; weakest: `{table.bots[worst]}` "
        f"({elo.ratings[worst]:.0f}, {elo.lows[worst]:.0f}–{elo.highs[worst]:.0f}).",
        f"`{table.bots[best]}` beats `{table.bots[worst]}` in "
        f"{fmt_pct(table.rate(best, worst))} of matches.",
        "Spread between the best and the worst bot: "
        f"{elo.ratings[best] - elo.ratings[worst]:.0f} Elo points.",
    ])
    report.para(
        f"Two players, `{PRESET}` rules, {fmt_count(pair)} matches per pair (half with each "
        "bot in seat 0, on the same deck orders). The bots: "
        + "; ".join(f"`{name}`: {BOTS[name][1]}" for name in LADDER_BOTS) + ".")
    report.heading("Elo ratings")
    rows = []
    for rank, i in enumerate(order, start=1):
        others = sum(table.games(i, j) for j in range(len(table.bots)) if j != i)
        rows.append([str(rank), table.bots[i],
                     f"{elo.ratings[i]:.0f} ({elo.lows[i]:.0f}–{elo.highs[i]:.0f})",
                     fmt_pct(table.overall(i)), fmt_count(others)])
    report.table(["rank", "bot", "Elo (95 % CI)", "match win rate, all opponents",
                  "matches"], rows, right=(0, 2, 3, 4))
    report.para(
        "Elo: a Bradley–Terry fit of all the head-to-head results, on the Elo scale (a "
        "gap of 400 points means 10 : 1 odds; 100 points means "
        f"{fmt_share(elo_win_probability(100), 0)}), centred so the field averages 1500, with half "
        "a win added each way per pair so that a bot that never wins still gets a finite "
        "rating. Intervals by the delta method (± 1.96 standard errors). Elo assumes "
        "strength is one number; the table below shows where it is not (a bot may beat "
        "another more or less often than their ratings predict).")
    interval_chart(report.out / "elo.png", table.bots, elo.ratings, elo.lows, elo.highs,
                   "Elo ratings (95 % intervals)", "Elo")
    report.image("elo.png", "Elo ratings of the bots")
    report.heading("Head to head")
    report.para("Match win rate of the row bot against the column bot (95 % Wilson "
                f"interval; {fmt_count(pair)} matches per pair).")
    report.table(["bot", *table.bots, "all opponents"], table.rows(),
                 right=tuple(range(1, len(table.bots) + 2)))
    predicted = []
    for i in range(len(table.bots)):
        for j in range(i + 1, len(table.bots)):
            expected = elo_win_probability(elo.ratings[i] - elo.ratings[j])
            actual = table.rate(i, j)
            predicted.append([f"{table.bots[i]} v {table.bots[j]}", fmt_pct(actual),
                              fmt_share(expected)])
    report.table(["pair", "row bot's match win rate", "predicted by Elo"], predicted,
                 right=(1, 2))
    heatmap(report.out / "head_to_head.png", table.bots, table.rates_matrix(),
            "Match win rate, row bot against column bot")
    report.image("head_to_head.png", "head-to-head win rates")


EXPERIMENT = Experiment(
    name="ladder",
    title="The bot ladder",
    question="How strong is each bot? Every bot against every other, with Elo ratings.",
    default_matches={"fast": 100_000, "reference": 1_000},
    plan=plan,
    analyse=analyse,
    unit="pair of bots",
)
