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
  (observed − predicted) with that interval;
* three tests of calibration (:mod:`.calibration_stats`: the bias of every prediction,
  the spread (over- or under-confidence) and the worst bin, at a shared 5 % level), each
  with the smallest deviation it would detect with 80 % power: what these predictions
  could show;
* the Brier score of the predictions against a simple baseline that knows only the
  standing (seat 0's rounds won and the best opponent's, i.e. the board sizes): each
  standing's observed win rate in the *other* half of the matches (two-fold cross
  fitting, so the baseline is not scored on the matches it learnt from), falling back to
  the lead in rounds and then to 1 / players where a standing is rare;
* the Brier skill score (1 − Brier / Brier of the baseline) with a bootstrap interval.

Every position observed is written to :data:`OBSERVATIONS` in the output directory as
it comes (gzipped at the end); a rerun with the same seed, engine and budget reuses them,
so an interrupted run resumes and a changed report costs no matches.

With the fast engine (numba) the matches of the kernel's bots are played by the kernel
(:func:`trashcards.sim.fast.play_traced`, proven equal to the rules engine by the
differential tests), the expert's by the rules engine; with ``--engine reference`` all
by the rules engine.
"""

from __future__ import annotations

import csv
import gzip
import io
import random
import signal
import sys
import threading
from collections import Counter, defaultdict
from collections.abc import Callable
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
from .calibration_stats import (
    ALPHA,
    POWER,
    SPREAD_AT,
    TESTS,
    Calibration,
    ZTest,
    calibration_tests,
)
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
#: A setting: the table size and the opponent kind.
Setting = tuple[int, str]
#: The observed positions, one line each, written beside the report as they come (so an
#: interrupted run resumes) and gzipped when the run ends.
OBSERVATIONS: Final = "observations.csv"
FIELDS: Final = ("players", "opponent", "index", "predicted", "won", "own", "other")


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


def _header(seed: int, kernel: bool) -> str:
    engine = "fast" if kernel else "reference"
    return (f"# trashcards calibration observations: seed {seed}, engine {engine}, "
            f"{SAMPLES} deals per prediction")


def _row(values: dict[str, str]) -> dict[str, Any]:
    return {"players": int(values["players"]), "opponent": values["opponent"],
            "index": int(values["index"]), "predicted": float(values["predicted"]),
            "won": int(values["won"]), "own": int(values["own"]),
            "other": int(values["other"])}


def _stored(out: Path, header: str) -> dict[tuple[int, str, int], dict[str, Any]]:
    """The positions a run with the same seed, engine and budget observed before."""
    found: dict[tuple[int, str, int], dict[str, Any]] = {}
    for path in (out / f"{OBSERVATIONS}.gz", out / OBSERVATIONS):
        if not path.is_file():
            continue
        raw = path.read_bytes()
        text = (gzip.decompress(raw) if path.suffix == ".gz" else raw).decode("utf-8")
        first, _, body = text.partition("\n")
        if first != header:
            continue
        body = body[:body.rfind("\n") + 1]  # a line cut short by a kill is dropped
        for values in csv.DictReader(io.StringIO(body)):
            if len(values) == len(FIELDS) and None not in values.values():
                row = _row(values)
                found[(row["players"], row["opponent"], row["index"])] = row
    return found


def _line(row: dict[str, Any]) -> str:
    return ",".join(repr(row[f]) if f == "predicted" else str(row[f]) for f in FIELDS) + "\n"


def _stop_on_term() -> Callable[[], None]:
    """Make SIGTERM interrupt like Ctrl-C (a run in the background ignores SIGINT) until
    the returned function is called; nothing outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None

    def interrupt(_signum: int, _frame: object) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, interrupt)

    def restore() -> None:
        signal.signal(signal.SIGTERM, before)

    return restore


def _observe_all(out: Path, seed: int, kernel: bool, matches: int,
                 ) -> tuple[dict[Setting, list[dict[str, Any]]], dict[Setting, int]]:
    """Every setting's observations, the cheap settings first (the expert's last), each
    line appended to ``out / OBSERVATIONS`` as it comes; the positions of an earlier run
    with the same seed, engine and budget are reused, not played again. Interrupted
    (Ctrl-C or SIGTERM), the settings stop where they are and the report is written with
    the positions observed so far. Returns them (settings with at least one) and the number
    planned per setting."""
    header = _header(seed, kernel)
    stored = _stored(out, header)
    settings = sorted(((p, o) for p in TABLES for o in OPPONENTS),
                      key=lambda s: (s[1] == "expert", s[0]))
    planned = {s: _matches(s[1], matches) for s in settings}
    rows_by: dict[tuple[int, str], list[dict[str, Any]]] = {}
    stop = _stop_on_term()
    try:
        with (out / OBSERVATIONS).open("w", encoding="utf-8") as sink:
            sink.write(header + "\n" + ",".join(FIELDS) + "\n")
            for players, opponent in settings:
                count = planned[(players, opponent)]
                rows = rows_by[(players, opponent)] = []
                for index in range(count):
                    row = stored.get((players, opponent, index))
                    if row is None:
                        row = {"index": index, "opponent": opponent,
                               **_observe(players, opponent, index, seed, kernel)}
                    sink.write(_line(row))
                    rows.append(row)
                    if (index + 1) % 100 == 0 or index + 1 == count:
                        sink.flush()
                        print(f"\rcalibration: {players} players against {opponent}, "
                              f"{index + 1}/{count} matches", end="", file=sys.stderr,
                              flush=True)
                print(file=sys.stderr)
    except KeyboardInterrupt:
        print("\ncalibration: interrupted; the report gives the positions observed so far",
              file=sys.stderr)
    finally:
        stop()
    text = (out / OBSERVATIONS).read_bytes()
    (out / f"{OBSERVATIONS}.gz").write_bytes(gzip.compress(text, mtime=0))
    (out / OBSERVATIONS).unlink()
    return ({(p, o): rows_by[(p, o)] for p in TABLES for o in OPPONENTS
             if rows_by.get((p, o))}, planned)


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


def _bias(test: ZTest) -> dict[str, float]:
    """The mean of (won − predicted), its 95 % interval and its test (with the chance it
    had of finding a bias of 3 pp)."""
    return {"mean": test.estimate, "low": test.low, "high": test.high, "z": test.z,
            "p": test.p, "detectable": test.detectable, "power_3pp": test.power(0.03)}


def _bins(found: Calibration) -> list[dict[str, Any]]:
    bins = []
    for b in found.bins:
        n, wins = b.n, b.observed
        low, high = wilson_interval(wins, n) if n else (0.0, 1.0)
        mean = b.expected / n if n else None
        bins.append({"bin": [b.low, b.high], "n": n, "mean_predicted": mean,
                     "observed": wins / n if n else None, "low": low, "high": high,
                     "inside": mean is not None and low <= mean <= high,
                     "deviation": None if mean is None else [wins / n - mean, low - mean,
                                                             high - mean],
                     "z": None if b.test is None else b.test.z,
                     "p": None if b.test is None else b.test.p,
                     "detectable": None if b.test is None else b.test.detectable})
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


def _summary(players: int, opponent: str, rows: list[dict[str, Any]],
             seed: int) -> dict[str, Any]:
    """One setting's figures: its tests, bins and Brier scores."""
    pred = [r["predicted"] for r in rows]
    won = [r["won"] for r in rows]
    base = _baseline(rows)
    brier, brier0 = _brier(pred, won), _brier(base, won)
    tests = calibration_tests(pred, won, BINS, MIN_BIN)
    bins = _bins(tests)
    largest = _largest(bins)
    tested = [b["detectable"] for b in bins if b["detectable"] is not None]
    return {
        "players": players, "opponent": opponent, "matches": len(rows), "brier": brier,
        "brier_baseline": brier0, "skill": 1 - brier / brier0 if brier0 else 0.0,
        "skill_ci": list(_skill_interval(pred, base, won, seed)),
        "bias": _bias(tests.bias),
        "spread": {"deviation": tests.spread.estimate, "low": tests.spread.low,
                   "high": tests.spread.high, "z": tests.spread.z, "p": tests.spread.p,
                   "detectable": tests.spread.detectable},
        "worst_bin": {"bin": None if tests.worst_bin is None else bins[tests.worst_bin]["bin"],
                      "p": tests.worst_bin_p,
                      "detectable_median": sorted(tested)[len(tested) // 2] if tested
                      else None,
                      "detectable_least": min(tested) if tested else None},
        "flags": list(tests.flags), "calibrated": tests.calibrated,
        "test_level": tests.level, "bins": bins,
        "largest_deviation": None if largest is None else {
            "bin": largest["bin"], "n": largest["n"], "deviation": largest["deviation"]},
        "median_half_width": _median_half_width(bins),
        "bins_inside": sum(b["inside"] for b in bins if b["n"]),
        "bins_used": sum(1 for b in bins if b["n"]),
        "won_share": sum(won) / len(won),
        "standings": dict(Counter(f"{r['own']}-{r['other']}" for r in rows))}


def analyse(results: Results, settings: Settings, report: Report) -> None:
    kernel = settings.engine == "fast"
    rows_by, planned = _observe_all(report.out, settings.seed, kernel, settings.matches)
    found = {key: _summary(*key, rows, settings.seed) for key, rows in rows_by.items()}
    for key, f in found.items():
        f["planned"] = planned[key]
    flagged = [f for f in found.values() if not f["calibrated"]]
    report.heading("Headline")
    report.bullets([_headline(f) for f in found.values()])
    report.para(_verdict(list(found.values()), flagged))
    missing = [f"{f['players']} players against {f['opponent']} ({fmt_count(f['matches'])} "
               f"of {fmt_count(f['planned'])} positions)"
               for f in found.values() if f["matches"] < f["planned"]]
    missing += [f"{players} players against {opponent} (none of {fmt_count(count)})"
                for (players, opponent), count in planned.items() if (players, opponent)
                not in found]
    if missing:
        report.para("**Not done:** the run was interrupted before " + "; ".join(missing)
                    + f". Rerunning `{settings.command()}` with the same --out reuses the "
                    f"positions in `{OBSERVATIONS}.gz` and plays only the rest.")
    report.figures["planned"] = {f"{p}p-{o}": n for (p, o), n in planned.items()}
    report.heading("Method")
    expert = (f" (at most {fmt_count(EXPERT_MATCHES)} against the expert, whose every "
              "decision is a search)" if settings.matches > EXPERT_MATCHES else "")
    report.para(
        f"{fmt_count(settings.matches)} matches per table size (standard rules) and "
        f"opponent kind{expert}, {fmt_count(sum(len(r) for r in rows_by.values()))} in all: "
        "seat 0 plays like greedy (good), every other seat like the opponent kind. One of "
        "seat 0's decisions per match is drawn at random (one per match, so the positions "
        "are independent); there seat 0's chance is "
        f"predicted as the win bar and the hints do ({SAMPLES} sampled deals from the "
        "view, the best action's match-win chance, every seat assumed to play like "
        "greedy), against whether seat 0 won the match. The positions are in "
        f"`{OBSERVATIONS}.gz` beside this report (a rerun with the same seed reuses them). "
        "Each bin's interval is Wilson's; "
        "its deviation is the observed share minus the bin's mean prediction, with that "
        "interval. Baseline of the Brier score: the observed win rate of the same standing "
        "(own rounds won, best opponent's rounds won: the board sizes) in the other half "
        "of the matches. "
        + ("Matches of greedy, kid and sometimes are played by the numba kernel, the "
           "expert's by the rules engine." if kernel else
           "All matches are played by the rules engine."))
    report.para(
        "**The tests** (`trashcards.lab.calibration_stats`). Were the chances "
        "calibrated, each result would be a coin with the predicted chance, so "
        "(won − predicted) has mean 0 and variance p (1 − p) exactly; three z tests use "
        "that variance: the **bias** (mean of won − predicted: every prediction too high "
        "or too low), the **spread** (the least-squares slope of won − predicted on the "
        "prediction's distance from the mean, shown as the deviation it makes "
        f"{SPREAD_AT * 100:.0f} pp from the mean: negative when the chances are too "
        "extreme, over-confident), and the **worst bin** (each bin of at least "
        f"{MIN_BIN} predictions' deviation over its variance, the smallest p-value "
        "corrected for the number of bins, Šidák). The three share a 5 % level (each at "
        f"{ALPHA / TESTS * 100:.2f} %), so a calibrated predictor is flagged in at most "
        "5 % of the settings. Beside each: the smallest deviation of that kind the test "
        f"detects with {POWER * 100:.0f} % power at its level, given these predictions "
        "(what the data could see). Checked on synthetic predictions "
        "(tests/lab/test_calibration_stats.py): at 2,000 predictions an honest "
        "predictor is flagged in about 4 % of samples, a 3 pp bias in about 85 %.")
    report.heading("Results")
    report.table(["players", "opponent", "predictions", "bias: won − predicted (95 %), p",
                  "bias it could see (80 % power; chance of seeing 3 pp)",
                  "spread at ±40 pp (95 %), p", "spread it could see",
                  "worst bin, p (corrected)", "one bin's bias it could see (least–median)",
                  "verdict", "Brier (coach)", "Brier (baseline)", "Brier skill score (95 %)"],
                 [[str(f["players"]), f["opponent"], fmt_count(f["matches"]),
                   f"{_bias_text(f['bias'])}, {_p(f['bias']['p'])}",
                   f"±{_pp(f['bias']['detectable'], False)} pp (3 pp: "
                   f"{f['bias']['power_3pp'] * 100:.0f} %)",
                   f"{_deviation_text([f['spread'][k] for k in ('deviation', 'low', 'high')])}"
                   f", {_p(f['spread']['p'])}",
                   f"±{_pp(f['spread']['detectable'], False)} pp",
                   _worst_text(f["worst_bin"]), _bin_power_text(f["worst_bin"]),
                   _verdict_word(f), f"{f['brier']:.4f}", f"{f['brier_baseline']:.4f}",
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
                      "deviation (95 %)", "z", "a bias here it could see"],
                     [[f"{b['bin'][0] * 100:.0f}–{b['bin'][1] * 100:.0f} %", str(b["n"]),
                       f"{b['mean_predicted'] * 100:.1f} %" if b["n"] else "–",
                       f"{b['observed'] * 100:.1f} % ({b['low'] * 100:.1f}–"
                       f"{b['high'] * 100:.1f})" if b["n"] else "–",
                       _deviation_text(b["deviation"]) if b["n"] else "–",
                       "–" if b["z"] is None else f"{b['z']:+.2f}",
                       "–" if b["detectable"] is None
                       else f"±{_pp(b['detectable'], False)} pp"]
                      for b in f["bins"]])
    report.figures["calibration"] = {f"{players}p-{opponent}": f
                                     for (players, opponent), f in found.items()}


def _p(value: float) -> str:
    return "p < 0.001" if value < 0.001 else f"p = {value:.3f}"


def _bias_text(bias: dict[str, float]) -> str:
    return f"{_pp(bias['mean'])} pp ({_pp(bias['low'])} to {_pp(bias['high'])})"


def _deviation_text(deviation: list[float]) -> str:
    mean, low, high = deviation
    return f"{_pp(mean)} pp ({_pp(low)} to {_pp(high)})"


def _worst_text(worst: dict[str, Any]) -> str:
    if worst["bin"] is None:
        return "–"
    low, high = worst["bin"]
    return f"{low * 100:.0f}–{high * 100:.0f} %, {_p(worst['p'])}"


def _bin_power_text(worst: dict[str, Any]) -> str:
    if worst["detectable_least"] is None:
        return "–"
    return (f"±{_pp(worst['detectable_least'], False)}–"
            f"{_pp(worst['detectable_median'], False)} pp")


def _verdict_word(f: dict[str, Any]) -> str:
    return ("no miscalibration seen" if f["calibrated"]
            else "miscalibrated: " + ", ".join(f["flags"]))


def _verdict(found: list[dict[str, Any]], flagged: list[dict[str, Any]]) -> str:
    if not found:
        return ""
    chance = 1 - 0.95 ** len(found)
    names = ", ".join(f"{f['players']} players against {f['opponent']}" for f in flagged)
    seen = (f"{len(flagged)} of {len(found)} settings flagged ({names})" if flagged
            else f"none of the {len(found)} settings flagged")
    biases = [f["bias"]["detectable"] for f in found]
    return (f"**What the numbers support:** {seen} at the 5 % level per setting (with "
            f"{len(found)} settings, a calibrated predictor would have at least one flagged "
            f"{chance * 100:.0f} % of the time). A bias of every prediction this data would "
            f"see is ±{_pp(min(biases), False)}–{_pp(max(biases), False)} pp (80 % power), "
            "so a 3 pp bias of all predictions would show in most settings; a bias confined "
            "to one bin would have to be several times larger (the table below).")


def _headline(f: dict[str, Any]) -> str:
    bias, spread = f["bias"], f["spread"]
    short = (f" of the {fmt_count(f['planned'])} planned"
             if f.get("planned", f["matches"]) > f["matches"] else "")
    return (f"**{f['players']} players against {f['opponent']}** ({fmt_count(f['matches'])} "
            f"prediction{'' if f['matches'] == 1 else 's'}{short}): {_verdict_word(f)}; "
            f"bias {_bias_text(bias)} "
            f"({_p(bias['p'])}; it could see ±{_pp(bias['detectable'], False)} pp, "
            f"a 3 pp bias with {bias['power_3pp'] * 100:.0f} % chance), spread "
            f"{_pp(spread['deviation'])} pp at ±40 pp ({_p(spread['p'])}), worst bin "
            f"{_worst_text(f['worst_bin'])}; Brier {f['brier']:.4f} against "
            f"{f['brier_baseline']:.4f} for the standing alone ({f['skill'] * 100:+.1f} % "
            "skill).")


EXPERIMENT = Experiment(
    name="calibration",
    title="Are the coach's win chances calibrated?",
    question="Predicted match-win chances (the win bar, the hints) against who won, per "
             "table size and opponent kind: a reliability diagram, the bias, and the "
             "Brier score against a baseline that knows only the standing.",
    default_matches={"fast": 2_000, "reference": 300},
    plan=plan,
    analyse=analyse,
    unit="table size and opponent kind",
)
