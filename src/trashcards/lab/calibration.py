"""Are the coach's win chances calibrated? Predicted match-win chances against results.

For each table size (two and four players, standard rules) and each opponent kind (the
levels a player meets: ``greedy`` (good), ``expert``, ``kid`` (casual) and ``sometimes``
(beginner)), ``matches`` matches are played with seat 0 played by ``greedy`` and every
other seat by the opponent kind, and one of seat 0's decisions is drawn at random from
each match (seeded). There seat 0's chance is predicted exactly as the win bar and the
hints do (:func:`trashcards.ai.hints.chances`: :data:`SAMPLES` sampled deals from the
view alone, the best action's match-win chance; every seat assumed to play like greedy)
and compared with whether seat 0 went on to win the match: what the bar tells a good
player facing that opponent. Expert matches cost some 30 to 100 times as much to play
(each of its decisions is a search), so at most :data:`EXPERT_MATCHES` of them are played
per table size.

The report gives, per table size and opponent kind,

* a reliability diagram: ten bins of predicted chance, each bin's mean prediction
  against its observed win rate with a 95 % (Wilson) interval, and each bin's deviation
  (observed − predicted) with that interval: the largest deviation in a bin of at least
  :data:`MIN_BIN` predictions, and the median half-width of the bins' intervals (the
  deviation a bin could show);
* the overall bias: the mean of (won − predicted), with its 95 % interval;
* the Brier score of the predictions against a simple baseline that knows only the
  standing (seat 0's rounds won and the best opponent's, i.e. the board sizes): each
  standing's observed win rate in the *other* half of the matches (two-fold cross
  fitting, so the baseline is not scored on the matches it learnt from), falling back to
  the lead in rounds and then to 1 / players where a standing is rare;
* the Brier skill score (1 − Brier / Brier of the baseline) with a bootstrap interval.

With the fast engine (numba) the matches of the kernel's bots are played by the kernel
(:func:`trashcards.sim.fast.play_traced`, proven equal to the rules engine by the
differential tests), the expert's by the rules engine; with ``--engine reference`` all
by the rules engine.
"""

from __future__ import annotations

import math
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Final

from ..ai.hints import chances
from ..bots import make_bot
from ..estimates import t975, wilson_interval
from ..record import Record
from ..rules import Rules
from ..session import play_match
from ..state import new_match
from ..views import view
from .experiment import Experiment, Job, Results, Settings
from .report import Report, fmt_count

__all__ = ["EXPERIMENT", "EXPERT_MATCHES", "OPPONENTS", "SAMPLES"]

#: Deals per prediction (the win bar's budget in the browser is of this order).
SAMPLES: Final = 100
TABLES: Final = (2, 4)
#: The opponent kinds, from the level that plays like the model (greedy) down.
OPPONENTS: Final = ("greedy", "expert", "kid", "sometimes")
#: Matches against the expert per table size at most (its matches are searches).
EXPERT_MATCHES: Final = 2_000
BINS: Final = 10
#: The least predictions in a bin for its deviation to count towards the largest.
MIN_BIN: Final = 50
BOOTSTRAP: Final = 400


def plan(matches: int) -> list[Job]:
    """No runner jobs: the matches are played in :func:`analyse` (they need records)."""
    return []


def _matches(opponent: str, matches: int) -> int:
    return min(matches, EXPERT_MATCHES) if opponent == "expert" else matches


def _record(players: int, opponent: str, index: int, seed: int, kernel: bool) -> Record:
    """Match ``index`` of seat 0 (greedy) against ``opponent`` at every other seat."""
    rules = Rules.preset_named("standard")
    kinds = ("greedy", *(opponent,) * (players - 1))
    if kernel and opponent != "expert":
        from ..sim.fast import play_traced

        key = f"calibration:{seed}:{players}:{opponent}"
        return play_traced(rules, kinds, random.Random(key).randrange(2 ** 31), index).record
    names = tuple(f"P{s}" for s in range(players))
    bots = [make_bot(kind, random.Random(f"calibration:{seed}:{players}:{opponent}:{index}:{s}"))
            for s, kind in enumerate(kinds)]
    return play_match(rules, names, bots,
                      random.Random(f"calibration:{seed}:{players}:{opponent}:{index}")).record


def _observe(players: int, opponent: str, index: int, seed: int,
             kernel: bool) -> dict[str, Any]:
    """One match and one prediction of seat 0's chance from it."""
    record = _record(players, opponent, index, seed, kernel)
    pick = random.Random(f"calibration-pick:{seed}:{players}:{opponent}:{index}")
    state = new_match(record.rules, record.players)
    decisions = []
    for _move, (after, _events) in enumerate(record.steps()):
        if state.to_act == 0:
            decisions.append(state)
        state = after
    winner = state.match_winner
    chosen = decisions[pick.randrange(len(decisions))]
    found = chances(view(chosen, 0), SAMPLES, seed=index)
    assert found is not None
    won = list(chosen.rounds_won)
    return {"players": players, "predicted": found.match_win[0], "won": int(winner == 0),
            "own": won[0], "other": max(won[1:])}


def _baseline(rows: list[dict[str, Any]]) -> list[float]:
    """Each row's baseline prediction, learnt on the other half (by index parity)."""
    out = []
    for half in (0, 1):
        train = [r for i, r in enumerate(rows) if i % 2 != half]
        by_standing: dict[tuple[int, int], list[int]] = defaultdict(list)
        by_lead: dict[int, list[int]] = defaultdict(list)
        for r in train:
            by_standing[(r["own"], r["other"])].append(r["won"])
            by_lead[r["own"] - r["other"]].append(r["won"])
        for i, r in enumerate(rows):
            if i % 2 != half:
                continue
            found = by_standing.get((r["own"], r["other"]), [])
            if len(found) < 10:
                found = by_lead.get(r["own"] - r["other"], [])
            value = sum(found) / len(found) if len(found) >= 10 else 1 / r["players"]
            out.append((i, value))
    return [v for _i, v in sorted(out)]


def _brier(pred: list[float], won: list[int]) -> float:
    return sum((p - w) ** 2 for p, w in zip(pred, won, strict=True)) / len(won)


def _skill_interval(pred: list[float], base: list[float], won: list[int],
                    seed: int) -> tuple[float, float]:
    """The bootstrap 95 % interval of the Brier skill score (resampling positions)."""
    rng = random.Random(f"calibration-bootstrap:{seed}")
    n = len(won)
    own = [(p - w) ** 2 for p, w in zip(pred, won, strict=True)]
    theirs = [(b - w) ** 2 for b, w in zip(base, won, strict=True)]
    skills = []
    for _ in range(BOOTSTRAP):
        idx = [rng.randrange(n) for _ in range(n)]
        b = sum(own[i] for i in idx)
        b0 = sum(theirs[i] for i in idx)
        skills.append(1 - b / b0 if b0 > 0 else 0.0)
    skills.sort()
    return skills[int(0.025 * BOOTSTRAP)], skills[int(0.975 * BOOTSTRAP) - 1]


def _bias(pred: list[float], won: list[int]) -> dict[str, float]:
    """The mean of (won − predicted) with its 95 % interval (Student's t)."""
    diffs = [w - p for p, w in zip(pred, won, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return {"mean": mean, "low": -math.inf, "high": math.inf}
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = t975(n - 1) * sd / math.sqrt(n)
    return {"mean": mean, "low": mean - half, "high": mean + half}


def _bins(pred: list[float], won: list[int]) -> list[dict[str, Any]]:
    bins = []
    for b in range(BINS):
        members = [i for i, p in enumerate(pred)
                   if b / BINS <= p < (b + 1) / BINS or (b == BINS - 1 and p == 1.0)]
        n = len(members)
        wins = sum(won[i] for i in members)
        low, high = wilson_interval(wins, n) if n else (0.0, 1.0)
        mean = sum(pred[i] for i in members) / n if n else None
        bins.append({"bin": [b / BINS, (b + 1) / BINS], "n": n, "mean_predicted": mean,
                     "observed": wins / n if n else None, "low": low, "high": high,
                     "inside": mean is not None and low <= mean <= high,
                     "deviation": None if mean is None else [wins / n - mean, low - mean,
                                                             high - mean]})
    return bins


def _largest(bins: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The bin (of at least MIN_BIN predictions) whose deviation is largest in size."""
    used = [b for b in bins if b["n"] >= MIN_BIN]
    return max(used, key=lambda b: abs(b["deviation"][0])) if used else None


def _median_half_width(bins: list[dict[str, Any]]) -> float | None:
    halves = sorted((b["high"] - b["low"]) / 2 for b in bins if b["n"] >= MIN_BIN)
    return halves[len(halves) // 2] if halves else None


def _plot(path: Path, series: dict[int, dict[str, list[dict[str, Any]]]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, _axes = plt.subplots(1, len(series), figsize=(6.0 * len(series), 6.0))
    for ax, (players, by_opponent) in zip(figure.axes, series.items(), strict=True):
        ax.plot([0, 1], [0, 1], color="grey", linestyle="--", label="perfect calibration")
        offsets = [-0.009, -0.003, 0.003, 0.009]
        for offset, (opponent, bins) in zip(offsets, by_opponent.items(), strict=False):
            used = [b for b in bins if b["n"]]
            xs = [b["mean_predicted"] + offset for b in used]
            ys = [b["observed"] for b in used]
            errors = [[b["observed"] - b["low"] for b in used],
                      [b["high"] - b["observed"] for b in used]]
            ax.errorbar(xs, ys, yerr=errors, fmt="o", markersize=3, capsize=2,
                        label=f"against {opponent}")
        ax.set_xlabel("predicted match-win chance of seat 0 (bin mean)")
        ax.set_ylabel("observed share of matches won (95 % interval)")
        ax.set_title(f"{players} players")
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper left")
    figure.suptitle("Reliability of the coach's win chances")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)


def _pp(value: float, signed: bool = True) -> str:
    return f"{value * 100:{'+' if signed else ''}.1f}"


def analyse(results: Results, settings: Settings, report: Report) -> None:
    kernel = settings.engine == "fast"
    rows_by: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for players in TABLES:
        for opponent in OPPONENTS:
            count = _matches(opponent, settings.matches)
            rows = []
            for index in range(count):
                rows.append(_observe(players, opponent, index, settings.seed, kernel))
                if (index + 1) % 100 == 0 or index + 1 == count:
                    print(f"\rcalibration: {players} players against {opponent}, "
                          f"{index + 1}/{count} matches", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
            rows_by[(players, opponent)] = rows
    found: dict[tuple[int, str], dict[str, Any]] = {}
    for (players, opponent), rows in rows_by.items():
        pred = [r["predicted"] for r in rows]
        won = [r["won"] for r in rows]
        base = _baseline(rows)
        brier, brier0 = _brier(pred, won), _brier(base, won)
        bins = _bins(pred, won)
        largest = _largest(bins)
        found[(players, opponent)] = {
            "players": players, "opponent": opponent, "matches": len(rows), "brier": brier,
            "brier_baseline": brier0, "skill": 1 - brier / brier0 if brier0 else 0.0,
            "skill_ci": list(_skill_interval(pred, base, won, settings.seed)),
            "bias": _bias(pred, won), "bins": bins,
            "largest_deviation": None if largest is None else {
                "bin": largest["bin"], "n": largest["n"],
                "deviation": largest["deviation"]},
            "median_half_width": _median_half_width(bins),
            "bins_inside": sum(b["inside"] for b in bins if b["n"]),
            "bins_used": sum(1 for b in bins if b["n"]),
            "won_share": sum(won) / len(won),
            "standings": dict(Counter(f"{r['own']}-{r['other']}" for r in rows))}
    report.heading("Headline")
    report.bullets([_headline(f) for f in found.values()])
    report.heading("Method")
    expert = (f" (at most {fmt_count(EXPERT_MATCHES)} against the expert, whose every "
              "decision is a search)" if settings.matches > EXPERT_MATCHES else "")
    report.para(
        f"{fmt_count(settings.matches)} matches per table size (standard rules) and "
        f"opponent kind{expert}, {fmt_count(sum(len(r) for r in rows_by.values()))} in all: "
        "seat 0 plays like greedy (good), every other seat like the opponent kind. One of "
        "seat 0's decisions per match is drawn at random; there seat 0's chance is "
        f"predicted as the win bar and the hints do ({SAMPLES} sampled deals from the "
        "view, the best action's match-win chance, every seat assumed to play like "
        "greedy), against whether seat 0 won the match. Each bin's interval is Wilson's; "
        "its deviation is the observed share minus the bin's mean prediction, with that "
        f"interval; the largest deviation is over bins of at least {MIN_BIN} predictions, "
        "and the median half-width of those bins' intervals is the deviation a bin could "
        "show. The bias is the mean of (won − predicted) with Student's t interval. "
        "Baseline: the observed win rate of the same standing (own rounds won, best "
        "opponent's rounds won: the board sizes) in the other half of the matches. "
        + ("Matches of greedy, kid and sometimes are played by the numba kernel, the "
           "expert's by the rules engine." if kernel else
           "All matches are played by the rules engine."))
    report.heading("Results")
    report.table(["players", "opponent", "predictions", "bias: won − predicted (95 %)",
                  "largest bin deviation (95 %)", "a bin could show (median ±)",
                  "bins whose interval holds the mean prediction", "Brier (coach)",
                  "Brier (baseline)", "Brier skill score (95 %)"],
                 [[str(f["players"]), f["opponent"], fmt_count(f["matches"]),
                   _bias_text(f["bias"]), _largest_text(f["largest_deviation"]),
                   "–" if f["median_half_width"] is None
                   else f"{_pp(f['median_half_width'], False)} pp",
                   f"{f['bins_inside']} of {f['bins_used']}", f"{f['brier']:.4f}",
                   f"{f['brier_baseline']:.4f}",
                   f"{f['skill']:+.3f} ({f['skill_ci'][0]:+.3f} to {f['skill_ci'][1]:+.3f})"]
                  for f in found.values()])
    series: dict[int, dict[str, list[dict[str, Any]]]] = defaultdict(dict)
    for (players, opponent), f in found.items():
        series[players][opponent] = f["bins"]
    _plot(report.out / "reliability.png", series)
    report.image("reliability.png", "Reliability diagram: predicted against observed")
    for (players, opponent), f in found.items():
        report.heading(f"{players} players against {opponent}, by bin", 3)
        report.table(["predicted", "predictions", "mean predicted", "observed (95 %)",
                      "deviation (95 %)"],
                     [[f"{b['bin'][0] * 100:.0f}–{b['bin'][1] * 100:.0f} %", str(b["n"]),
                       f"{b['mean_predicted'] * 100:.1f} %" if b["n"] else "–",
                       f"{b['observed'] * 100:.1f} % ({b['low'] * 100:.1f}–"
                       f"{b['high'] * 100:.1f})" if b["n"] else "–",
                       _deviation_text(b["deviation"]) if b["n"] else "–"]
                      for b in f["bins"]])
    report.figures["calibration"] = {f"{players}p-{opponent}": f
                                     for (players, opponent), f in found.items()}


def _bias_text(bias: dict[str, float]) -> str:
    return f"{_pp(bias['mean'])} pp ({_pp(bias['low'])} to {_pp(bias['high'])})"


def _deviation_text(deviation: list[float]) -> str:
    mean, low, high = deviation
    return f"{_pp(mean)} pp ({_pp(low)} to {_pp(high)})"


def _largest_text(largest: dict[str, Any] | None) -> str:
    if largest is None:
        return "–"
    low, high = largest["bin"]
    return (f"{_deviation_text(largest['deviation'])} in {low * 100:.0f}–{high * 100:.0f} % "
            f"(n = {fmt_count(largest['n'])})")


def _headline(f: dict[str, Any]) -> str:
    bias = f["bias"]
    shown = bias["low"] > 0 or bias["high"] < 0
    return (f"**{f['players']} players against {f['opponent']}** ({fmt_count(f['matches'])} "
            f"predictions): bias {_bias_text(bias)}"
            + (" — measurable" if shown else " — none measurable")
            + f"; largest bin deviation {_largest_text(f['largest_deviation'])}; "
            f"{f['bins_inside']} of {f['bins_used']} bins hold their mean prediction; "
            f"Brier {f['brier']:.4f} against {f['brier_baseline']:.4f} for the standing "
            f"alone ({f['skill'] * 100:+.1f} % skill).")


EXPERIMENT = Experiment(
    name="calibration",
    title="Are the coach's win chances calibrated?",
    question="Predicted match-win chances (the win bar, the hints) against who won, per "
             "table size and opponent kind: a reliability diagram, the bias, and the "
             "Brier score against a baseline that knows only the standing.",
    default_matches={"fast": 10_000, "reference": 300},
    plan=plan,
    analyse=analyse,
    unit="table size and opponent kind",
)
