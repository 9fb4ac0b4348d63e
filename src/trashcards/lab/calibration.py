"""Are the coach's win chances calibrated? Predicted match-win chances against results.

For ``matches`` greedy-against-greedy matches at each table size (two and four players,
standard rules), one decision is drawn at random from each match (seeded). At that
decision the chance of the player to act is predicted exactly as the win bar and the
hints do (:func:`trashcards.ai.hints.chances`: sampled deals from the view alone, the best
action's match-win chance; :data:`SAMPLES` deals) and compared with whether that player
went on to win the match. The report gives

* a reliability diagram: ten bins of predicted chance, each bin's mean prediction
  against its observed win rate with a 95 % (Wilson) interval;
* the Brier score of the predictions against a simple baseline that knows only the
  standing (the player's rounds won and the best opponent's, i.e. the board sizes):
  each standing's observed win rate in the *other* half of the matches (two-fold cross
  fitting, so the baseline is not scored on the matches it learnt from), falling back to
  the lead in rounds and then to 1 / players where a standing is rare;
* the Brier skill score (1 − Brier / Brier of the baseline) with a bootstrap interval.

The matches are played by the rules engine and the reference bots; the predictions use
the fast engine where numba is installed. This experiment plays its matches itself, so
``--engine`` and ``--backend`` only set the engine name in the report.
"""

from __future__ import annotations

import random
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any, Final

from ..ai.hints import chances
from ..bots import make_bot
from ..estimates import wilson_interval
from ..record import Record
from ..rules import Rules
from ..session import play_match
from ..state import new_match
from ..views import view
from .experiment import Experiment, Job, Results, Settings
from .report import Report, fmt_count

__all__ = ["EXPERIMENT", "SAMPLES"]

#: Deals per prediction (the win bar's budget in the browser is of this order).
SAMPLES: Final = 100
TABLES: Final = (2, 4)
BINS: Final = 10
BOOTSTRAP: Final = 400


def plan(matches: int) -> list[Job]:
    """No runner jobs: the matches are played in :func:`analyse` (they need records)."""
    return []


def _observe(players: int, index: int, seed: int) -> dict[str, Any]:
    """One match and one prediction from it."""
    rules = Rules.preset_named("standard")
    names = tuple(f"P{s}" for s in range(players))
    bots = [make_bot("greedy", random.Random(f"calibration:{seed}:{players}:{index}:{s}"))
            for s in range(players)]
    record: Record = play_match(rules, names, bots,
                                random.Random(f"calibration:{seed}:{players}:{index}")).record
    pick = random.Random(f"calibration-pick:{seed}:{players}:{index}")
    state = new_match(rules, names)
    decisions = []
    for move, (after, _events) in enumerate(record.steps()):
        if state.to_act is not None:
            decisions.append((move, state))
        state = after
    winner = state.match_winner
    _move, chosen = decisions[pick.randrange(len(decisions))]
    seat = chosen.to_act
    assert seat is not None
    found = chances(view(chosen, seat), SAMPLES, seed=index)
    assert found is not None
    won = list(chosen.rounds_won)
    best_other = max(w for s, w in enumerate(won) if s != seat)
    return {"players": players, "predicted": found.match_win[seat],
            "won": int(winner == seat), "own": won[seat], "other": best_other}


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
    rng = random.Random(f"calibration-bootstrap:{seed}")
    n = len(won)
    skills = []
    for _ in range(BOOTSTRAP):
        idx = [rng.randrange(n) for _ in range(n)]
        b = _brier([pred[i] for i in idx], [won[i] for i in idx])
        b0 = _brier([base[i] for i in idx], [won[i] for i in idx])
        skills.append(1 - b / b0 if b0 > 0 else 0.0)
    skills.sort()
    return skills[int(0.025 * BOOTSTRAP)], skills[int(0.975 * BOOTSTRAP) - 1]


def _bins(pred: list[float], won: list[int]) -> list[dict[str, Any]]:
    bins = []
    for b in range(BINS):
        members = [i for i, p in enumerate(pred)
                   if b / BINS <= p < (b + 1) / BINS or (b == BINS - 1 and p == 1.0)]
        n = len(members)
        wins = sum(won[i] for i in members)
        low, high = wilson_interval(wins, n) if n else (0.0, 1.0)
        bins.append({"bin": [b / BINS, (b + 1) / BINS], "n": n,
                     "mean_predicted": sum(pred[i] for i in members) / n if n else None,
                     "observed": wins / n if n else None, "low": low, "high": high,
                     "inside": bool(n) and low <= sum(pred[i] for i in members) / n <= high})
    return bins


def _plot(path: Path, series: dict[str, list[dict[str, Any]]]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(6.0, 6.0))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", label="perfect calibration")
    for offset, (name, bins) in zip((-0.006, 0.006), series.items(), strict=False):
        used = [b for b in bins if b["n"]]
        xs = [b["mean_predicted"] + offset for b in used]
        ys = [b["observed"] for b in used]
        errors = [[b["observed"] - b["low"] for b in used],
                  [b["high"] - b["observed"] for b in used]]
        ax.errorbar(xs, ys, yerr=errors, fmt="o", capsize=3, label=name)
    ax.set_xlabel("predicted match-win chance (bin mean)")
    ax.set_ylabel("observed share of matches won (95 % interval)")
    ax.set_title("Reliability of the coach's win chances")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def analyse(results: Results, settings: Settings, report: Report) -> None:
    rows_by: dict[int, list[dict[str, Any]]] = {}
    for players in TABLES:
        rows = []
        for index in range(settings.matches):
            rows.append(_observe(players, index, settings.seed))
            if (index + 1) % 50 == 0 or index + 1 == settings.matches:
                print(f"\rcalibration: {players} players, {index + 1}/{settings.matches} "
                      "matches", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        rows_by[players] = rows
    headline = []
    for players, rows in rows_by.items():
        pred = [r["predicted"] for r in rows]
        won = [r["won"] for r in rows]
        base = _baseline(rows)
        brier, brier0 = _brier(pred, won), _brier(base, won)
        bins = _bins(pred, won)
        inside = sum(b["inside"] for b in bins if b["n"])
        used = sum(1 for b in bins if b["n"])
        headline.append(
            f"**{players} players**: Brier score {brier:.4f} against {brier0:.4f} for the "
            f"standing alone ({(1 - brier / brier0) * 100:+.1f} % skill); in {inside} of "
            f"the {used} bins with predictions the observed win rate's 95 % interval "
            "holds the mean prediction.")
    report.heading("Headline")
    report.bullets(headline)
    report.heading("Method")
    report.para(f"{fmt_count(settings.matches)} greedy-against-greedy matches per table "
                f"size (standard rules), {fmt_count(settings.matches * len(TABLES))} in all; "
                "one decision per match drawn at random, the chance of the player to act "
                f"predicted as the win bar and the hints do ({SAMPLES} sampled deals from "
                "the view, the best action's match-win chance), against whether that "
                "player won the match. Baseline: the observed win rate of the same "
                "standing (own rounds won, best opponent's rounds won: the board sizes) "
                "in the other half of the matches.")
    report.heading("Results")
    table = []
    series = {}
    figures: dict[str, Any] = {}
    for players, rows in rows_by.items():
        pred = [r["predicted"] for r in rows]
        won = [r["won"] for r in rows]
        base = _baseline(rows)
        brier, brier0 = _brier(pred, won), _brier(base, won)
        low, high = _skill_interval(pred, base, won, settings.seed)
        bins = _bins(pred, won)
        series[f"{players} players"] = bins
        inside = sum(b["inside"] for b in bins if b["n"])
        used = sum(1 for b in bins if b["n"])
        table.append([f"{players}", fmt_count(len(rows)), f"{brier:.4f}", f"{brier0:.4f}",
                      f"{1 - brier / brier0:+.3f} ({low:+.3f} to {high:+.3f})",
                      f"{inside} of {used}"])
        figures[f"{players}p"] = {"matches": len(rows), "brier": brier,
                                  "brier_baseline": brier0,
                                  "skill": 1 - brier / brier0, "skill_ci": [low, high],
                                  "bins": bins, "bins_inside": inside, "bins_used": used,
                                  "won_share": sum(won) / len(won),
                                  "standings": dict(Counter(
                                      f"{r['own']}-{r['other']}" for r in rows))}
    report.table(["players", "predictions", "Brier (coach)", "Brier (baseline)",
                  "Brier skill score (95 %)",
                  "bins whose interval holds the mean prediction"], table)
    _plot(report.out / "reliability.png", series)
    report.image("reliability.png", "Reliability diagram: predicted against observed")
    for players in rows_by:
        report.heading(f"{players} players, by bin", 3)
        report.table(["predicted", "predictions", "mean predicted", "observed (95 %)"],
                     [[f"{b['bin'][0] * 100:.0f}–{b['bin'][1] * 100:.0f} %", str(b["n"]),
                       f"{b['mean_predicted'] * 100:.1f} %" if b["n"] else "–",
                       f"{b['observed'] * 100:.1f} % ({b['low'] * 100:.1f}–"
                       f"{b['high'] * 100:.1f})" if b["n"] else "–"]
                      for b in series[f"{players} players"]])
    report.figures["calibration"] = figures


EXPERIMENT = Experiment(
    name="calibration",
    title="Are the coach's win chances calibrated?",
    question="Predicted match-win chances (the win bar, the hints) against who won: a "
             "reliability diagram and the Brier score against a baseline that knows "
             "only the standing.",
    default_matches={"fast": 1_000, "reference": 300},
    plan=plan,
    analyse=analyse,
    unit="table size",
)
