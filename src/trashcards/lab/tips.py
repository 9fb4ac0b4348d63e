"""``tips``: do the rules' strategy tips help? Each tip becomes two bots that differ only
in that tip, measured head to head.

* keep wilds for the hardest slots instead of a low slot whose natural can still come:
  ``counter`` (a wild where the fewest naturals are unseen) against ``lowwild`` (a wild
  on the lowest face-down slot);
* take the discard when it fits: ``greedy`` against ``stockonly``;
* long chains start with low cards: ``lowwild`` against ``greedy`` (wild on the highest);
* watch the discard pile near the end: ``greedy`` against ``endblind`` (stops taking the
  pile once another player has two face-down slots or fewer);
* count cards in two-pack games: ``counter`` against ``greedy``.

Everything else about each pair is ``greedy``. Two players, standard rules; the counting
tip with two packs (two players with ``decks=2``, and three and four players, where two
packs are the default; there the bot plays against greedy at every other seat, in each
seat in turn). ``lowwild`` and ``endblind`` are reference-engine bots, so their pairs are
played by the rules engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..estimates import Estimate, proportion
from ..rules import Rules
from ..sim.tables import BOT_CODES
from .duels import duel_table
from .experiment import Experiment, Job, Results, Settings
from .plots import bar_chart
from .report import Report, fmt_count, fmt_pct

__all__ = ["EXPERIMENT", "TIPS"]


@dataclass(frozen=True)
class Tip:
    key: str
    text: str
    with_tip: str
    without: str


TIPS = (
    Tip("hardest-slot", "keep wilds for the hardest slots instead of a low slot whose "
                        "natural can still come", "counter", "lowwild"),
    Tip("take-discard", "take the discard when it fits", "greedy", "stockonly"),
    Tip("low-chains", "long chains start with low cards", "lowwild", "greedy"),
    Tip("watch-pile", "watch the discard pile near the end", "greedy", "endblind"),
    Tip("count-two-packs", "count cards in two-pack games", "counter", "greedy"),
)


def _engine(*bots: str) -> str | None:
    return None if all(b in BOT_CODES for b in bots) else "reference"


def _pair(key: str, rules: Rules, a: str, b: str, matches: int) -> list[Job]:
    engine = _engine(a, b)
    first = max(1, matches // 2)
    return [Job(f"{key}/{a}-{b}", rules, (a, b), first, f"{key}: {a} v {b}", engine),
            Job(f"{key}/{b}-{a}", rules, (b, a), max(1, matches - first),
                f"{key}: {b} v {a}", engine)]


def plan(matches: int) -> list[Job]:
    standard = Rules.preset_named("standard")
    jobs: list[Job] = []
    for tip in TIPS:
        if tip.key == "count-two-packs":
            jobs += _pair(f"{tip.key}/2p", standard.with_fields({"decks": 2}), tip.with_tip,
                          tip.without, matches)
            for n in (3, 4):
                for seat in range(n):
                    bots = tuple(tip.with_tip if s == seat else tip.without for s in range(n))
                    jobs.append(Job(f"{tip.key}/{n}p@{seat}", standard, bots,
                                    max(1, matches // n), f"{tip.key}, {n} players, seat "
                                                          f"{seat}", _engine(*bots)))
        else:
            jobs += _pair(tip.key, standard, tip.with_tip, tip.without, matches)
    return jobs


@dataclass(frozen=True)
class TipResult:
    tip: Tip
    table: str
    rate: Estimate
    fair: float

    @property
    def verdict(self) -> str:
        if self.rate.low is not None and self.rate.low > self.fair:
            return "helps"
        if self.rate.high is not None and self.rate.high < self.fair:
            return "hurts"
        return "no measurable effect"

    def to_json(self) -> dict[str, Any]:
        return {"tip": self.tip.text, "with": self.tip.with_tip, "without": self.tip.without,
                "table": self.table, "win_rate_with_tip": self.rate, "fair_share": self.fair,
                "verdict": self.verdict}


def analyse(results: Results, settings: Settings, report: Report) -> None:
    found: list[TipResult] = []
    for tip in TIPS:
        pair = (tip.with_tip, tip.without)
        if tip.key == "count-two-packs":
            duel = duel_table(results, pair, f"{tip.key}/2p")
            found.append(TipResult(tip, "2 players, 2 packs", duel.rate(0, 1), 0.5))
            for n in (3, 4):
                wins = games = 0
                for seat in range(n):
                    total = results.total(f"{tip.key}/{n}p@{seat}")
                    wins += total.wins[seat]
                    games += total.matches
                found.append(TipResult(tip, f"{n} players, 2 packs, against {n - 1} "
                                            f"{tip.without}", proportion(wins, games), 1 / n))
        else:
            duel = duel_table(results, pair, tip.key)
            found.append(TipResult(tip, "2 players", duel.rate(0, 1), 0.5))
    report.figures["tips"] = found
    report.heading("Headline")
    report.bullets([f"*{r.tip.text}* ({r.table}): **{r.verdict}** — `{r.tip.with_tip}` "
                    f"wins {fmt_pct(r.rate)} against `{r.tip.without}` (fair share "
                    f"{r.fair:.0%})." for r in found])
    report.heading("The pairs")
    report.table(["tip", "with the tip", "without", "table", "match win rate with the tip",
                  "matches", "verdict"],
                 [[r.tip.text, f"`{r.tip.with_tip}`", f"`{r.tip.without}`", r.table,
                   fmt_pct(r.rate), fmt_count(r.rate.n), r.verdict] for r in found],
                 right=(4, 5))
    report.para(
        f"{fmt_count(settings.matches)} matches per pair (half in each seat order, on the "
        "same deck orders) or per table size; standard rules. Pairs with `lowwild` or "
        "`endblind` are played by the reference engine (the kernel does not have those "
        "bots), the others by the run's engine. A tip *helps* when the 95 % interval of "
        "the win rate lies above the fair share, *hurts* when it lies below.")
    bar_chart(report.out / "tips.png", [f"{r.tip.key} ({r.table.split(',')[0]})"
                                        for r in found],
              {"with the tip": [r.rate for r in found]},
              "Match win rate of the bot with the tip (dashed: even, two players)",
              "match win rate (%)", scale=100, reference=0.5)
    report.image("tips.png", "win rates of the bots with each tip")


EXPERIMENT = Experiment(
    name="tips",
    title="Do the strategy tips help?",
    question="Each strategy tip of the rules as two bots that differ only in that tip: "
             "which tips help, and by how much?",
    default_matches={"fast": 20_000, "reference": 2_000},
    plan=plan,
    analyse=analyse,
    unit="pair of bots (or table size)",
)
