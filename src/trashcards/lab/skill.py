"""``skill``: how much of Trash is skill?

Four parts (docs/ai.md explains the bots and the solver):

1. the levels — ``sometimes`` (beginner), ``kid`` (casual), ``greedy`` (good) and
   ``expert`` — and ``random`` head to head, two players, standard rules, with Elo
   ratings; the expert plays on the reference engine (it searches with the rules engine),
   so its pairs get fewer matches;
2. ``expert``, ``greedy``, ``kid`` and ``random`` per preset and table size (a bot
   against greedy at every other seat, in every seat in turn, at three and four players;
   the expert's tables on the reference engine, with fewer matches);
3. the solver's regret for ``greedy``, ``counter``, ``kid`` and ``expert`` on small boards:
   the round-win chance each decision gives up against exact play;
4. how often the better player wins a match, and a plain answer.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, pairwise
from typing import Any

from ..estimates import Estimate, proportion, ratio_over_batches, t975
from ..rules import Rules
from .duels import duel_table
from .elo import fit_elo
from .experiment import Experiment, Job, Results, Settings
from .plots import bar_chart, interval_chart
from .report import Report, fmt_count, fmt_pct, fmt_pp

__all__ = ["EXPERIMENT", "LEVELS", "REGRET_BOTS", "REGRET_SIZES"]

#: (level, bot) from the weakest up.
LEVELS = (("beginner", "sometimes"), ("casual", "kid"), ("good", "greedy"),
          ("expert", "expert"))
LADDER = ("random", "sometimes", "kid", "greedy", "expert")
PRESETS = ("standard", "kids", "jokers", "all-faces-wild", "call-trash")
FIELD = ("greedy", "kid", "random")
REGRET_BOTS = ("greedy", "counter", "kid", "expert")
REGRET_SIZES = ((1, 1), (2, 1), (2, 2), (3, 3))
#: Expert matches: against greedy ``matches // EXPERT_V_GREEDY``, against each other
#: bot ``matches // EXPERT_V_OTHER`` (the expert is thousands of times slower).
EXPERT_V_GREEDY = 8
EXPERT_V_OTHER = 32
#: Expert tables per preset: two players ``matches // EXPERT_PRESET`` matches, three and
#: four players ``matches // EXPERT_TABLE`` matches spread over the expert's seats.
EXPERT_PRESET = 8
EXPERT_TABLE = 32
#: The bots measured against greedy at every other seat at three and four players.
TABLE_BOTS = ("expert", "kid", "random")
#: Rounds of each bot and board size for the regret: ``matches // REGRET_DIVISOR``.
REGRET_DIVISOR = 80


@dataclass
class LevelFigure:
    """A level's measured Elo (95 % interval), and whether it is apart from the one below."""

    name: str
    bot: str
    elo: float
    low: float
    high: float
    apart_from_below: bool = True

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "bot": self.bot, "elo": self.elo, "low": self.low,
                "high": self.high, "apart_from_below": self.apart_from_below}


@dataclass(frozen=True)
class Better:
    """The stronger of a pair (by Elo), and how often it wins matches and rounds."""

    stronger: str
    weaker: str
    elo_gap: float
    match: Estimate
    round: Estimate

    def to_json(self) -> dict[str, Any]:
        return {"stronger": self.stronger, "weaker": self.weaker, "elo_gap": self.elo_gap,
                "match": self.match, "round": self.round}


@dataclass(frozen=True)
class RegretRow:
    """A bot's regret against exact play on one pair of board sizes."""

    bot: str
    sizes: tuple[int, int]
    rounds: int
    decisions: int
    mean: Estimate
    not_optimal: Estimate
    per_round: float
    largest: float
    exact: bool
    error: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {"bot": self.bot, "sizes": list(self.sizes), "rounds": self.rounds,
                "decisions": self.decisions, "mean_regret": self.mean,
                "share_not_optimal": self.not_optimal, "regret_per_round": self.per_round,
                "max_regret": self.largest, "exact": self.exact, "error": self.error}


def _pair_jobs(a: str, b: str, rules: Rules, matches: int, prefix: str,
               engine: str | None = None) -> list[Job]:
    first = max(1, matches // 2)
    second = max(1, matches - first)
    return [Job(f"{prefix}/{a}-{b}", rules, (a, b), first, f"{prefix}: {a} v {b}", engine),
            Job(f"{prefix}/{b}-{a}", rules, (b, a), second, f"{prefix}: {b} v {a}", engine)]


def plan(matches: int) -> list[Job]:
    standard = Rules.preset_named("standard")
    jobs: list[Job] = []
    for a, b in combinations(LADDER, 2):
        if "expert" in (a, b):
            other = b if a == "expert" else a
            n = max(2, matches // (EXPERT_V_GREEDY if other == "greedy" else EXPERT_V_OTHER))
            jobs += _pair_jobs(a, b, standard, n, "levels", "reference")
        else:
            jobs += _pair_jobs(a, b, standard, matches, "levels")
    for preset in PRESETS:
        rules = Rules.preset_named(preset)
        for a, b in combinations(FIELD, 2):
            jobs += _pair_jobs(a, b, rules, max(2, matches // 4), f"{preset}/2p")
        jobs += _pair_jobs("expert", "greedy", rules, max(2, matches // EXPERT_PRESET),
                           f"{preset}/2p", "reference")
        for n in (3, 4):
            for bot in TABLE_BOTS:
                expert = bot == "expert"
                for seat in range(n):
                    bots = tuple(bot if s == seat else "greedy" for s in range(n))
                    count = matches // (EXPERT_TABLE * n) if expert else matches // (4 * n)
                    jobs.append(Job(f"{preset}/{n}p/{bot}@{seat}", rules, bots,
                                    max(1, count),
                                    f"{preset}, {n} players: {bot} in seat {seat}",
                                    "reference" if expert else None))
    return jobs


def _round_share(results: Results, a: str, b: str, prefix: str) -> Estimate:
    """Share of decided rounds ``a`` won against ``b`` (both seat orders), batch means."""
    nums: list[float] = []
    dens: list[float] = []
    for first, second, seat in ((a, b, 0), (b, a, 1)):
        for batch in results.batches[f"{prefix}/{first}-{second}"]:
            nums.append(batch.round_wins[seat])
            dens.append(batch.decided_rounds)
    return ratio_over_batches(nums, dens, "rounds")


def _apart(rate: Estimate) -> bool:
    """Whether a match win rate's 95 % interval lies wholly above or below even."""
    return rate.low is not None and rate.high is not None and (rate.low > 0.5
                                                               or rate.high < 0.5)


def _pair_rate(results: Results, a: str, b: str, prefix: str) -> Estimate:
    """Share of matches ``a`` won against ``b``, both seat orders."""
    first = results.total(f"{prefix}/{a}-{b}")
    second = results.total(f"{prefix}/{b}-{a}")
    return proportion(first.wins[0] + second.wins[1], first.matches + second.matches)


def _versus_field(results: Results, preset: str, n: int, bot: str) -> Estimate:
    wins = matches = 0
    for seat in range(n):
        total = results.total(f"{preset}/{n}p/{bot}@{seat}")
        wins += total.wins[seat]
        matches += total.matches
    return proportion(wins, matches)


def _mean(values: Sequence[float], unit: str) -> Estimate:
    n = len(values)
    if n < 2:
        return Estimate(values[0] if values else math.nan, None, None, n, unit, "normal")
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return Estimate(mean, mean - half, mean + half, n, unit, "normal")


def _regrets(settings: Settings) -> tuple[dict[str, RegretRow], dict[str, float]]:
    from ..ai.regret import regret_sample
    from ..ai.solver import Solver

    rules = Rules.preset_named("standard")
    rounds = max(10, settings.matches // REGRET_DIVISOR)
    out: dict[str, RegretRow] = {}
    seconds: dict[str, float] = {}
    for sizes in REGRET_SIZES:
        solver = Solver(rules, sizes)
        began = time.perf_counter()
        for bot in REGRET_BOTS:
            sample = regret_sample(bot, rules, sizes, rounds, settings.seed, solver)
            out[f"{bot}/{sizes[0]}x{sizes[1]}"] = RegretRow(
                bot, sizes, rounds, len(sample.regrets), _mean(sample.regrets, "decisions"),
                proportion(sum(r > 1e-9 for r in sample.regrets), len(sample.regrets),
                           "decisions"),
                sum(sample.regrets) / rounds, max(sample.regrets, default=0.0), sample.exact,
                sample.error)
        seconds[f"{sizes[0]}x{sizes[1]}"] = time.perf_counter() - began
    return out, seconds


def analyse(results: Results, settings: Settings, report: Report) -> None:
    table = duel_table(results, LADDER, "levels")
    elo = fit_elo(table.bots, table.wins)
    index = {name: i for i, name in enumerate(LADDER)}
    levels = [LevelFigure(level, bot, elo.ratings[index[bot]], elo.lows[index[bot]],
                          elo.highs[index[bot]]) for level, bot in LEVELS]
    for below, above in pairwise(levels):
        above.apart_from_below = above.low > below.high
    expert, greedy = index["expert"], index["greedy"]
    eg_match = table.rate(expert, greedy)
    eg_round = _round_share(results, "expert", "greedy", "levels")
    by_preset = {}
    for preset in PRESETS:
        duel = duel_table(results, FIELD, f"{preset}/2p")
        row: dict[str, Estimate] = {f"{a} v {b}": duel.rate(FIELD.index(a), FIELD.index(b))
                                  for a, b in combinations(FIELD, 2)}
        row["expert v greedy"] = _pair_rate(results, "expert", "greedy", f"{preset}/2p")
        for n in (3, 4):
            for bot in TABLE_BOTS:
                row[f"{bot} v greedy x{n - 1}"] = _versus_field(results, preset, n, bot)
        by_preset[preset] = row
    regrets, solve_seconds = _regrets(settings)
    better = []
    for a, b in combinations(LADDER, 2):
        i, j = index[a], index[b]
        strong, weak = (i, j) if elo.ratings[i] >= elo.ratings[j] else (j, i)
        better.append(Better(LADDER[strong], LADDER[weak],
                             elo.ratings[strong] - elo.ratings[weak], table.rate(strong, weak),
                             _round_share(results, LADDER[strong], LADDER[weak], "levels")))
    report.figures.update({"head_to_head": table, "elo": elo, "levels": levels,
                           "expert_v_greedy": {"match": eg_match, "round": eg_round},
                           "by_preset": by_preset, "regret": regrets,
                           "solver_seconds": solve_seconds, "better_player": better})
    significant = eg_match.low is not None and eg_match.low > 0.5
    report.heading("Headline")
    gap = elo.ratings[expert] - elo.ratings[greedy]
    kg = next(b for b in better if {b.stronger, b.weaker} == {"greedy", "kid"})
    rg = next(b for b in better if {b.stronger, b.weaker} == {"greedy", "random"})
    largest = "x".join(map(str, REGRET_SIZES[-1]))
    reg_g = regrets[f"greedy/{largest}"].mean
    reg_e = regrets[f"expert/{largest}"].mean
    report.bullets([
        f"The expert against greedy: {fmt_pct(eg_match)} of matches and "
        f"{fmt_pct(eg_round)} of rounds — "
        + ("a measurable edge" if significant else "no edge this run can tell from zero")
        + f" (Elo gap {gap:+.0f}).",
        f"Exact play on small boards: greedy's decisions give up on average "
        f"{fmt_pp(reg_g, 3)} of round-win chance per decision on boards of "
        f"{largest.replace('x', ' + ')} slots (expert: {fmt_pp(reg_e, 3)}); "
        f"{fmt_pct(regrets[f'greedy/{largest}'].not_optimal)} of greedy's decisions there "
        "are not optimal.",
        "The expert against greedy by preset (two players): " + "; ".join(
            f"{preset} {fmt_pct(row['expert v greedy'])}"
            + (" (**apart from even**)" if _apart(row["expert v greedy"]) else "")
            for preset, row in by_preset.items()) + ".",
        f"Skill that counts is basic: greedy beats kid (who forgets the discard pile 30 % "
        f"of the time) in {fmt_pct(kg.match)} of matches and random in "
        f"{fmt_pct(rg.match)}.",
    ])
    report.para(
        "**The plain answer.** Beyond the basics — take a discard that fits, never throw a "
        "wild away, put it on a face-down slot — this run finds little skill in Trash: "
        "the bot that searches every move on sampled deals "
        + ("wins measurably more often than greedy, but by a small margin"
           if significant else "cannot be told from greedy")
        + ", and on boards small enough to solve exactly greedy gives up "
        f"{fmt_pp(reg_g, 3)} of round-win chance per decision against exact play. Between "
        "players "
        "who know the basics a match is decided mostly by the cards; a player who misses "
        "the basics loses clearly more often (the levels below).")
    report.heading("Levels")
    rows = [[level.name, f"`{level.bot}`",
             f"{level.elo:.0f} ({level.low:.0f}–{level.high:.0f})",
             "yes" if level.apart_from_below else "**no**"] for level in levels]
    report.table(["level", "bot", "Elo (95 % CI)", "95 % interval apart from the level "
                  "below"], rows, right=(2,))
    report.para(
        f"Two players, `standard` rules. Pairs without the expert: {fmt_count(settings.matches)} "
        "matches each on the run's engine; the expert's pairs (reference engine, "
        f"{fmt_count(max(2, settings.matches // EXPERT_V_GREEDY))} matches against greedy, "
        f"{fmt_count(max(2, settings.matches // EXPERT_V_OTHER))} against each other bot). "
        "Elo as in the ladder report (Bradley–Terry, 95 % delta-method intervals). "
        "`random` is in the fit but is not a level.")
    interval_chart(report.out / "elo.png", table.bots, elo.ratings, elo.lows, elo.highs,
                   "Elo ratings of the levels (95 % intervals)", "Elo")
    report.image("elo.png", "Elo ratings of the levels")
    report.heading("Head to head")
    report.table(["bot", *table.bots, "all opponents"], table.rows(),
                 right=tuple(range(1, len(table.bots) + 2)))
    report.heading("How often the better player wins")
    report.table(["stronger", "weaker", "Elo gap", "match win rate", "round win rate"],
                 [[b.stronger, b.weaker, f"{b.elo_gap:.0f}", fmt_pct(b.match), fmt_pct(b.round)]
                  for b in sorted(better, key=lambda b: b.elo_gap)],
                 right=(2, 3, 4))
    report.heading("Per preset and table size")
    report.para("Two players: match win rate of the first bot against the second. Three "
                "and four players: the bot's share of matches against greedy at every "
                "other seat (it sits in each seat in turn), with the fair share in "
                "brackets.")
    cols = list(next(iter(by_preset.values())))
    report.table(["preset", *cols],
                 [[preset, *(fmt_pct(row[c]) + (f" [fair {1 / (int(c[-1]) + 1):.0%}]"
                                                  if " x" in c else "") for c in cols)]
                  for preset, row in by_preset.items()])
    bar_chart(report.out / "by_preset.png", list(by_preset),
              {"greedy v kid": [row["greedy v kid"] for row in by_preset.values()],
               "greedy v random": [row["greedy v random"] for row in by_preset.values()]},
              "greedy's match win rate, two players (dashed: even)", "match win rate (%)",
              scale=100, reference=0.5)
    report.image("by_preset.png", "greedy against kid and random by preset")
    report.heading("Regret against exact play (small boards)")
    report.para(
        "The solver (docs/ai.md) plays two-player rounds exactly. Each bot plays "
        f"{fmt_count(max(10, settings.matches // REGRET_DIVISOR))} rounds against itself "
        "from fresh deals with the board sizes shown (standard rules, one pack); at every "
        "decision with a choice, its regret is the solver's round-win chance of the best "
        "action minus that of the bot's action, for the player to act. Mean over "
        "decisions with a 95 % interval; the share of decisions that were not optimal.")
    report.table(["bot", "boards", "decisions", "mean regret (round-win chance)",
                  "not optimal", "regret per round", "largest", "values"],
                 [[r.bot, f"{r.sizes[0]} + {r.sizes[1]}", fmt_count(r.decisions),
                   fmt_pp(r.mean, 3), fmt_pct(r.not_optimal), f"{r.per_round * 100:.3f} pp",
                   f"{r.largest * 100:.2f} pp",
                   "exact" if r.exact else f"± {r.error * 100:.2g} pp"]
                  for r in regrets.values()],
                 right=(2, 3, 4, 5, 6))
    report.para("Solver time per board size (solving every position the four bots "
                "reached, from the deal, on this machine): " + ", ".join(
                    f"{k.replace('x', ' + ')}: {v:.0f} s" for k, v in solve_seconds.items())
                + ". Positions after a reshuffle are bounded rather than solved (each "
                "seat's chance in [0, 1], carried up exactly); \"exact\" means every "
                "value the bots' decisions were measured with came out exact (a reshuffle "
                "was reachable only through moves worse for sure), otherwise the column "
                "gives the largest proven error of a value (a regret is within twice it).")
    report.figures["settings"]["expert_engine"] = "reference"


EXPERIMENT = Experiment(
    name="skill",
    title="How much of Trash is skill?",
    question="How strong can a player get, how often does the better player win, and how "
             "far from exact play are the bots?",
    default_matches={"fast": 16_000, "reference": 1_600},
    plan=plan,
    analyse=analyse,
    unit="pair of bots without the expert",
)
