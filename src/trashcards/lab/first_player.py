"""``first-player``: how much is it worth to move first?

Greedy bots at every seat, for every preset and 2–4 players. The seat that takes the
first turn of a match is chosen by chance (the cut, RULES.md §4), and later rounds pass the deal
to the left, so the figures are: the share of matches won by the seat that moved first in
the match, the share of rounds won by the seat that moved first in the round, and each
seat's share of matches (which should be fair, as the cut decides who starts).
"""

from __future__ import annotations

from ..estimates import shifted
from ..rules import Rules
from .experiment import Experiment, Job, Results, Settings
from .plots import bar_chart
from .report import Report, fmt_count, fmt_pct, fmt_pp, fmt_share, fmt_shares
from .tables import PLAYER_COUNTS, SWEEP_PRESETS, TableFigures, self_play_jobs, table_figures

__all__ = ["EXPERIMENT"]

BOT = "greedy"


def plan(matches: int) -> list[Job]:
    configs = [(name, Rules.preset_named(name)) for name in SWEEP_PRESETS]
    return self_play_jobs(configs, PLAYER_COUNTS, BOT, matches)


def analyse(results: Results, settings: Settings, report: Report) -> None:
    figures = {job.key: table_figures(results.total(job.key), results.batches[job.key])
               for job in results.jobs}
    report.figures["tables"] = figures
    standard = figures["standard/2p"]
    report.heading("Headline")
    report.bullets([
        f"Two players, standard rules: the player who moves first in the match wins "
        f"{fmt_pct(standard.first_player)} of matches "
        f"({fmt_count(standard.matches)} matches; a fair share is 50 %).",
        f"The player who moves first in a round wins {fmt_pct(standard.round_starter)} "
        f"of the rounds ({fmt_count(standard.rounds)} rounds).",
        *(_largest_edge(figures, n) for n in PLAYER_COUNTS),
    ])
    report.para(
        f"All seats are played by the `{BOT}` bot. *Edge* is the first player's share minus "
        "the fair share 1/N, in percentage points. With `last-chance` several players can "
        "win one round, so the round starter's share of decided rounds may exceed 1/N "
        "without any edge; `classic` is one round per match, so its two columns agree.")
    for n in PLAYER_COUNTS:
        report.heading(f"{n} players")
        rows = []
        for name in SWEEP_PRESETS:
            f = figures[f"{name}/{n}p"]
            rows.append([name, fmt_count(f.matches), fmt_pct(f.first_player),
                         fmt_pp(shifted(f.first_player, -1 / n)),
                         fmt_pct(f.round_starter), fmt_count(f.rounds),
                         " · ".join(fmt_shares([w.value for w in f.seat_wins]))])
        report.table(["preset", "matches", "first player wins the match",
                      "edge over 1/N", "round starter wins the round", "rounds",
                      "seat 0 · 1 · … match wins"], rows, right=(1, 2, 3, 4, 5))
        report.para("Seat win rates ±" + _seat_half_width(figures, n) +
                    " (95 %, Wilson): the seats are fair, since chance picks the first dealer.")
    groups = list(SWEEP_PRESETS)
    series = {f"{n} players": [figures[f"{name}/{n}p"].first_player for name in groups]
              for n in PLAYER_COUNTS}
    bar_chart(report.out / "first_player_match.png", groups, series,
              "Share of matches won by the first player (dashed: fair share)",
              "match win rate (%)", scale=100,
              reference={f"{n} players": 1 / n for n in PLAYER_COUNTS})
    report.image("first_player_match.png", "first player's match win rate by preset")
    series = {f"{n} players": [figures[f"{name}/{n}p"].round_starter for name in groups]
              for n in PLAYER_COUNTS}
    bar_chart(report.out / "round_starter.png", groups, series,
              "Share of rounds won by the round's first player (dashed: fair share)",
              "round win rate (%)", scale=100,
              reference={f"{n} players": 1 / n for n in PLAYER_COUNTS})
    report.image("round_starter.png", "round starter's round win rate by preset")


def _largest_edge(figures: dict[str, TableFigures], n: int) -> str:
    name = max(SWEEP_PRESETS, key=lambda p: figures[f"{p}/{n}p"].first_player.value)
    f = figures[f"{name}/{n}p"]
    return (f"{n} players: the largest first-player edge is under `{name}`: "
            f"{fmt_pp(shifted(f.first_player, -1 / n))} over the fair share of {fmt_share(1 / n)}.")


def _seat_half_width(figures: dict[str, TableFigures], n: int) -> str:
    widest = max((w.half_width or 0.0) for name in SWEEP_PRESETS
                 for w in figures[f"{name}/{n}p"].seat_wins)
    return f" at most {widest * 100:.1f} pp"


EXPERIMENT = Experiment(
    name="first-player",
    title="First player's edge",
    question="Does the player who moves first win more often — per preset and table size?",
    default_matches={"fast": 200_000, "reference": 1_000},
    plan=plan,
    analyse=analyse,
)
