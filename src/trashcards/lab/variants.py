"""``variants``: how does each variant change the game?

Every variant of RULES.md §9 and a few combinations, greedy bots at every seat, 2–4
players, compared with the standard rules at the same table size: the change in round
length (turns per round), match length (rounds per match) and the first player's edge.
"""

from __future__ import annotations

from ..estimates import Estimate, difference, shifted
from .experiment import Experiment, Job, Results, Settings
from .plots import bar_chart
from .report import Report, fmt_count, fmt_estimate, fmt_pct, fmt_pp, fmt_share
from .tables import PLAYER_COUNTS, TableFigures, combined_rules, self_play_jobs, table_figures

__all__ = ["EXPERIMENT", "VARIANTS"]

BOT = "greedy"
BASELINE = "standard"
#: Variants and combinations (joined by ``+``: the fields of each set on the first).
VARIANTS = ("standard", "kings-wild", "all-faces-wild", "jokers", "call-trash", "kids",
            "last-chance", "classic", "first-to-5", "kings-wild+jokers",
            "jokers+call-trash", "all-faces-wild+last-chance", "kids+last-chance")


def plan(matches: int) -> list[Job]:
    configs = [(name, combined_rules(name.split("+"))) for name in VARIANTS]
    return self_play_jobs(configs, PLAYER_COUNTS, BOT, matches)


def _relative(change: Estimate, base: Estimate) -> str:
    if change.low is None or change.high is None:
        return fmt_share(change.value / base.value, 0, signed=True)
    return (f"{fmt_share(change.value / base.value, 1, signed=True)} "
            f"({change.low / base.value * 100:+.1f} to {change.high / base.value * 100:+.1f} %)")


def analyse(results: Results, settings: Settings, report: Report) -> None:
    figures: dict[str, TableFigures] = {
        job.key: table_figures(results.total(job.key), results.batches[job.key])
        for job in results.jobs}
    report.figures["tables"] = figures
    report.figures["rules"] = {name: combined_rules(name.split("+")).to_dict()
                               for name in VARIANTS}
    changes = {}
    for n in PLAYER_COUNTS:
        base = figures[f"{BASELINE}/{n}p"]
        for name in VARIANTS:
            f = figures[f"{name}/{n}p"]
            changes[f"{name}/{n}p"] = {
                "turns_per_round": difference(f.turns_per_round, base.turns_per_round),
                "rounds_per_match": difference(f.rounds_per_match, base.rounds_per_match),
                "first_player": difference(f.first_player, base.first_player),
            }
    report.figures["change_from_standard"] = changes
    base2 = figures[f"{BASELINE}/2p"]
    shortest = min(VARIANTS, key=lambda v: figures[f"{v}/2p"].turns_per_round.value)
    longest = max(VARIANTS, key=lambda v: figures[f"{v}/2p"].turns_per_round.value)
    edge = max(VARIANTS, key=lambda v: figures[f"{v}/2p"].first_player.value)
    report.heading("Headline")
    report.bullets([
        f"Two players, standard: {fmt_estimate(base2.turns_per_round)} turns per round. "
        f"The shortest rounds come with `{shortest}`: "
        f"{fmt_estimate(figures[f'{shortest}/2p'].turns_per_round)}; the longest with "
        f"`{longest}`: {fmt_estimate(figures[f'{longest}/2p'].turns_per_round)}.",
        f"The first player's edge is largest with `{edge}`: they win "
        f"{fmt_pct(figures[f'{edge}/2p'].first_player)} of two-player matches, against "
        f"{fmt_pct(base2.first_player)} under the standard rules.",
    ])
    report.para(
        f"All seats are played by the `{BOT}` bot (under `call-trash` it calls when one "
        "face-down slot is left, so it is penalised only when a chain completes two or "
        "more slots at once). Changes are against `standard` at the same table size; "
        "their intervals treat the two tables as independent (they share a seed, so this "
        "errs on the wide side).")
    for n in PLAYER_COUNTS:
        report.heading(f"{n} players")
        base = figures[f"{BASELINE}/{n}p"]
        rows = []
        for name in VARIANTS:
            f = figures[f"{name}/{n}p"]
            change = changes[f"{name}/{n}p"]
            baseline = name == BASELINE
            rows.append([name, fmt_count(f.matches), fmt_estimate(f.turns_per_round),
                         "baseline" if baseline else
                         _relative(change["turns_per_round"], base.turns_per_round),
                         fmt_estimate(f.rounds_per_match),
                         fmt_pct(f.first_player),
                         fmt_pp(shifted(f.first_player, -1 / n)),
                         "baseline" if baseline else fmt_pp(change["first_player"])])
        report.table(["variant", "matches", "turns per round", "change",
                      "rounds per match", "first player wins", "edge over 1/N",
                      "edge change"], rows, right=(1, 2, 3, 4, 5, 6, 7))
    groups = [v for v in VARIANTS if v != BASELINE]
    series = {f"{n} players": [_ratio(figures[f"{v}/{n}p"].turns_per_round,
                                      figures[f"{BASELINE}/{n}p"].turns_per_round)
                               for v in groups] for n in PLAYER_COUNTS}
    bar_chart(report.out / "round_length_change.png", groups, series,
              "Turns per round, relative to standard (95 % intervals)",
              "change in turns per round (%)", scale=100, reference=0.0)
    report.image("round_length_change.png", "change of round length by variant")
    series = {f"{n} players": [shifted(figures[f"{v}/{n}p"].first_player, -1 / n)
                               for v in VARIANTS] for n in PLAYER_COUNTS}
    bar_chart(report.out / "first_player_edge.png", list(VARIANTS), series,
              "First player's edge over the fair share (95 % intervals)",
              "edge (percentage points)", scale=100, reference=0.0)
    report.image("first_player_edge.png", "first player's edge by variant")


def _ratio(value: Estimate, base: Estimate) -> Estimate:
    """``value / base − 1``, with the interval of ``value − base`` divided by ``base``
    (the uncertainty of the divisor itself is left out: a fraction of a per cent)."""
    change = difference(value, base)
    return Estimate(change.value / base.value,
                    None if change.low is None else change.low / base.value,
                    None if change.high is None else change.high / base.value,
                    change.n, "ratio", change.method)


EXPERIMENT = Experiment(
    name="variants",
    title="What each variant changes",
    question="How does each variant change the length of a round and the first player's "
             "edge?",
    default_matches={"fast": 100_000, "reference": 500},
    plan=plan,
    analyse=analyse,
)
