"""``discard``: what is taking the discard pile worth?

Three bots identical but for the discard pile: ``stockonly`` never takes it, ``sometimes``
takes a playable discard half the time, ``greedy`` always does. They meet head to head
(two players, standard rules; ``greedy`` against ``stockonly`` also under the presets
where the pile should matter most), and each plays itself at 2 and 4 players to measure
how much the pile shortens a round.
"""

from __future__ import annotations

from ..estimates import difference
from ..rules import Rules
from .duels import duel_jobs, duel_table
from .elo import fit_elo
from .experiment import Experiment, Job, Results, Settings
from .plots import bar_chart, heatmap
from .report import Report, fmt_count, fmt_estimate, fmt_pct
from .tables import self_play_jobs, table_figures

__all__ = ["EXPERIMENT"]

BOTS = ("stockonly", "sometimes", "greedy")
PRESET = "standard"
#: Presets for greedy against stockonly besides the standard rules.
OTHER_PRESETS = ("all-faces-wild", "jokers", "kids")
SELF_PLAY_PLAYERS = (2, 4)


def plan(matches: int) -> list[Job]:
    jobs = duel_jobs(BOTS, Rules.preset_named(PRESET), matches, PRESET)
    for preset in OTHER_PRESETS:
        jobs += duel_jobs(("stockonly", "greedy"), Rules.preset_named(preset), matches, preset)
    rules = Rules.preset_named(PRESET)
    for bot in BOTS:
        jobs += self_play_jobs([(f"self-{bot}", rules)], SELF_PLAY_PLAYERS, bot, matches)
    return jobs


def analyse(results: Results, settings: Settings, report: Report) -> None:
    table = duel_table(results, BOTS, PRESET)
    elo = fit_elo(table.bots, table.wins)
    greedy, stockonly = BOTS.index("greedy"), BOTS.index("stockonly")
    by_preset = {PRESET: table.rate(greedy, stockonly)}
    for preset in OTHER_PRESETS:
        by_preset[preset] = duel_table(results, ("stockonly", "greedy"), preset).rate(1, 0)
    self_play = {f"{bot}/{n}p": table_figures(results.total(f"self-{bot}/{n}p"),
                                              results.batches[f"self-{bot}/{n}p"])
                 for bot in BOTS for n in SELF_PLAY_PLAYERS}
    report.figures.update({"head_to_head": table, "elo": elo,
                           "greedy_v_stockonly_by_preset": by_preset,
                           "self_play": self_play})
    pair = results.jobs[0].matches + results.jobs[1].matches
    shorter = difference(self_play["stockonly/2p"].turns_per_round,
                         self_play["greedy/2p"].turns_per_round)
    report.heading("Headline")
    report.bullets([
        f"Always taking a playable discard (`greedy`) beats never taking it (`stockonly`) "
        f"in {fmt_pct(by_preset[PRESET])} of two-player matches "
        f"({fmt_count(pair)} matches): an Elo gap of "
        f"{elo.ratings[greedy] - elo.ratings[stockonly]:.0f} points.",
        f"Taking it half the time (`sometimes`) beats `stockonly` in "
        f"{fmt_pct(table.rate(BOTS.index('sometimes'), stockonly))} and loses to `greedy` "
        f"in {fmt_pct(table.rate(greedy, BOTS.index('sometimes')))} of matches.",
        f"In self-play, two players: a round lasts "
        f"{fmt_estimate(self_play['greedy/2p'].turns_per_round)} turns when both use the "
        f"pile and {fmt_estimate(self_play['stockonly/2p'].turns_per_round)} when neither "
        f"does: the pile saves {fmt_estimate(shorter)} turns a round.",
    ])
    report.para("The three bots are `greedy` in everything else (wilds on the highest "
                "face-down slot, always swap, call when one slot is left).")
    report.heading(f"Head to head ({PRESET}, two players)")
    report.para(f"Match win rate of the row bot against the column bot, {fmt_count(pair)} "
                "matches per pair (half in each seat order), 95 % Wilson intervals.")
    report.table(["bot", *table.bots, "all opponents"], table.rows(),
                 right=tuple(range(1, len(table.bots) + 2)))
    report.table(["bot", "Elo (95 % CI)"],
                 [[name, f"{r:.0f} ({lo:.0f}–{hi:.0f})"] for name, r, lo, hi
                  in zip(elo.names, elo.ratings, elo.lows, elo.highs, strict=True)],
                 right=(1,))
    heatmap(report.out / "head_to_head.png", table.bots, table.rates_matrix(),
            "Match win rate, row bot against column bot")
    report.image("head_to_head.png", "head-to-head win rates of the discard bots")
    report.heading("`greedy` against `stockonly`, by preset")
    report.table(["preset", "greedy's match win rate", "matches"],
                 [[preset, fmt_pct(rate), fmt_count(rate.n)]
                  for preset, rate in by_preset.items()], right=(1, 2))
    bar_chart(report.out / "greedy_v_stockonly.png", list(by_preset),
              {"greedy v stockonly": list(by_preset.values())},
              "greedy's match win rate against stockonly (dashed: even)",
              "match win rate (%)", scale=100, reference=0.5)
    report.image("greedy_v_stockonly.png", "greedy against stockonly by preset")
    report.heading("How much the pile shortens a round (self-play)")
    rows = [[bot, f"{n}", fmt_count(f.matches), fmt_estimate(f.turns_per_round),
             fmt_estimate(f.rounds_per_match), fmt_estimate(f.turns_per_match, 0)]
            for n in SELF_PLAY_PLAYERS for bot in BOTS
            for f in [self_play[f"{bot}/{n}p"]]]
    report.table(["bot at every seat", "players", "matches", "turns per round",
                  "rounds per match", "turns per match"], rows, right=(1, 2, 3, 4, 5))
    bar_chart(report.out / "self_play_turns.png", list(BOTS),
              {f"{n} players": [self_play[f"{bot}/{n}p"].turns_per_round for bot in BOTS]
               for n in SELF_PLAY_PLAYERS},
              "Turns per round in self-play (95 % intervals)", "turns per round")
    report.image("self_play_turns.png", "turns per round in self-play")


EXPERIMENT = Experiment(
    name="discard",
    title="What the discard pile is worth",
    question="How much does taking the discard pile help? Bots that never, sometimes or "
             "always take it.",
    default_matches={"fast": 100_000, "reference": 1_000},
    plan=plan,
    analyse=analyse,
    unit="pair of bots and per self-play table",
)
