"""Every experiment end to end on a handful of matches: report, plots and raw figures."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from trashcards.lab import EXPERIMENTS, Job, experiment, run_experiment
from trashcards.sim.runner import Runner, fast_engine_problem

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class Recorder:
    """A tracker that remembers what the driver reported."""

    def __init__(self) -> None:
        self.total = -1
        self.jobs: list[Job] = []
        self.done = 0

    def start(self, total: int) -> None:
        self.total = total

    def job(self, job: Job) -> None:
        self.jobs.append(job)

    def advance(self, matches: int) -> None:
        self.done += matches


def run(name: str, out: Path, matches: int = 4, engine: str = "reference",
        workers: int = 1) -> tuple[str, dict[str, Any], Recorder]:
    recorder = Recorder()
    with Runner(engine, workers=workers) as runner:
        path = run_experiment(experiment(name), runner, matches, 3, out, recorder)
    assert path == out / "report.md"
    return path.read_text(encoding="utf-8"), json.loads((out / "figures.json").read_text()), \
        recorder


def check_common(report: str, figures: dict[str, Any], recorder: Recorder, out: Path,
                 matches: int) -> None:
    jobs = recorder.jobs
    total = sum(job.matches for job in jobs)
    assert recorder.total == total == recorder.done
    assert figures["settings"]["total_matches"] == total
    assert figures["settings"]["confidence"] == 0.95
    assert figures["settings"]["matches"] == matches
    assert f"**{matches:,} matches per" in report
    assert f"{total:,} matches in all" in report
    assert "95 % confidence interval" in report
    assert "## Headline" in report
    assert re.search(r"^\| --- \|", report, re.MULTILINE), "a Markdown table"
    images = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", report)
    assert images, "the report shows plots"
    for name in images:
        assert (out / name).read_bytes().startswith(PNG_MAGIC), name
    assert sorted(images) == sorted(p.name for p in out.glob("*.png"))
    raw = figures["raw"]
    assert sorted(raw) == sorted(job.key for job in jobs)
    for job in jobs:
        totals = raw[job.key]["totals"]
        assert totals["matches"] == job.matches
        assert sum(totals["wins"]) == job.matches
        assert raw[job.key]["bots"] == list(job.bots)


def test_first_player(tmp_path: Path) -> None:
    report, figures, recorder = run("first-player", tmp_path)
    check_common(report, figures, recorder, tmp_path, 4)
    assert len(recorder.jobs) == 27
    for n in (2, 3, 4):
        assert f"## {n} players" in report
    standard = figures["tables"]["standard/3p"]
    totals = figures["raw"]["standard/3p"]["totals"]
    assert standard["first_player_win_rate"]["value"] == totals["first_player_wins"] / 4
    assert standard["round_starter_win_rate"]["value"] == pytest.approx(
        totals["round_starter_wins"] / totals["decided_rounds"])
    assert len(standard["seat_win_rates"]) == 3
    assert standard["first_player_win_rate"]["method"] == "Wilson"


def test_length(tmp_path: Path) -> None:
    report, figures, recorder = run("length", tmp_path)
    check_common(report, figures, recorder, tmp_path, 4)
    entry = figures["tables"]["kids/2p"]
    totals = figures["raw"]["kids/2p"]["totals"]
    assert entry["figures"]["turns_per_round"]["value"] == pytest.approx(
        totals["turns"] / totals["rounds"])
    assert entry["figures"]["rounds_per_match"]["value"] == pytest.approx(
        totals["rounds"] / totals["matches"])
    assert entry["turns_per_round_distribution"]["n"] == totals["rounds"]
    assert figures["raw"]["classic/4p"]["totals"]["rounds_hist"] == {"1": 4}
    for n in (2, 3, 4):
        assert (tmp_path / f"turns_per_round_{n}p.png").is_file()


def test_ladder_is_the_same_whatever_the_number_of_workers(tmp_path: Path) -> None:
    report, figures, recorder = run("ladder", tmp_path / "one", matches=4)
    check_common(report, figures, recorder, tmp_path / "one", 4)
    bots = figures["head_to_head"]["bots"]
    assert len(bots) == 6
    assert len(recorder.jobs) == 2 * 15
    wins = figures["head_to_head"]["wins"]
    for i in range(6):
        for j in range(i + 1, 6):
            assert wins[i][j] + wins[j][i] == 4
    assert set(figures["elo"]["ratings"]) == set(bots)
    assert "## Elo ratings" in report
    _, again, _ = run("ladder", tmp_path / "two", matches=4, workers=2)
    assert again == figures


def test_discard(tmp_path: Path) -> None:
    report, figures, recorder = run("discard", tmp_path)
    check_common(report, figures, recorder, tmp_path, 4)
    assert figures["head_to_head"]["bots"] == ["stockonly", "sometimes", "greedy"]
    assert set(figures["greedy_v_stockonly_by_preset"]) == {"standard", "all-faces-wild",
                                                            "jokers", "kids"}
    assert set(figures["self_play"]) == {f"{b}/{n}p" for b in ("stockonly", "sometimes",
                                                               "greedy") for n in (2, 4)}
    assert "`greedy` against `stockonly`, by preset" in report


def test_variants(tmp_path: Path) -> None:
    report, figures, recorder = run("variants", tmp_path, matches=3)
    check_common(report, figures, recorder, tmp_path, 3)
    change = figures["change_from_standard"]["standard/4p"]
    assert change["turns_per_round"]["value"] == 0
    assert figures["rules"]["kings-wild+jokers"] == {"preset": "kings-wild",
                                                     "jokers_per_deck": 2}
    assert "kids+last-chance" in report


@pytest.mark.skipif(fast_engine_problem() is not None, reason="no fast engine")
@pytest.mark.numba_compile
def test_an_experiment_with_the_fast_engine(tmp_path: Path) -> None:
    report, figures, recorder = run("discard", tmp_path, matches=500, engine="fast")
    check_common(report, figures, recorder, tmp_path, 500)
    assert figures["settings"]["engine"] == "fast"
    assert "fast (numba) engine" in report


def test_every_experiment_is_registered() -> None:
    assert list(EXPERIMENTS) == ["first-player", "length", "ladder", "discard", "variants",
                                 "skill", "tips", "calibration"]
    for name in EXPERIMENTS:
        assert experiment(name).name == name
    with pytest.raises(ValueError, match="unknown experiment"):
        experiment("astrology")


@pytest.mark.numba_compile
def test_calibration_compares_predictions_with_results_in_ten_bins(tmp_path: Path) -> None:
    """Per table size and opponent kind: ten bins, each bin's deviation inside its
    interval's shift, the largest deviation among the bins, the bias with its interval,
    and the Brier scores."""
    from trashcards.lab.calibration import OPPONENTS

    report, figures, _recorder = run("calibration", tmp_path, matches=6)
    assert "## Headline" in report
    assert "reliability.png" in report
    assert (tmp_path / "reliability.png").read_bytes().startswith(PNG_MAGIC)
    assert set(figures["calibration"]) == {f"{p}p-{o}" for p in (2, 4) for o in OPPONENTS}
    for found in figures["calibration"].values():
        assert found["matches"] == 6
        assert len(found["bins"]) == 10
        assert sum(b["n"] for b in found["bins"]) == 6
        for b in found["bins"]:
            if b["n"]:
                assert b["bin"][0] <= b["mean_predicted"] <= b["bin"][1]
                assert b["low"] <= b["observed"] <= b["high"]
                mean, low, high = b["deviation"]
                assert mean == pytest.approx(b["observed"] - b["mean_predicted"])
                assert low <= mean <= high
        bias = found["bias"]
        assert bias["low"] <= bias["mean"] <= bias["high"]
        assert 0 <= found["brier"] <= 1
        assert 0 <= found["brier_baseline"] <= 1
        assert found["largest_deviation"] is None  # no bin of 50 predictions in 6 matches
        assert f"{found['players']} players against {found['opponent']}" in report
        assert found["spread"]["low"] <= found["spread"]["deviation"] <= found["spread"]["high"]
        assert found["bias"]["detectable"] > 0
        assert found["calibrated"] == (found["flags"] == [])
    assert "the matches played by the experiment itself" in report
    assert "All matches are played by the rules engine." in report
    assert "**What the numbers support:**" in report


@pytest.mark.numba_compile
def test_calibration_reuses_the_positions_it_observed(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every position is written to observations.csv.gz; a rerun with the same seed and
    engine plays no match for them (an interrupted run resumes), only the new ones, and
    a rerun with another seed reuses none."""
    import gzip

    from trashcards.lab import calibration
    from trashcards.lab.calibration import OPPONENTS

    first, figures, _recorder = run("calibration", tmp_path, matches=3)
    lines = gzip.decompress((tmp_path / "observations.csv.gz").read_bytes()).decode()
    assert lines.splitlines()[0].startswith("# trashcards calibration observations: seed 3")
    assert len(lines.splitlines()) == 2 + 3 * 2 * len(OPPONENTS)
    assert not (tmp_path / "observations.csv").exists()
    played: list[tuple[int, str, int]] = []
    observe = calibration._observe

    def counted(players: int, opponent: str, index: int, seed: int,
                kernel: bool) -> dict[str, object]:
        played.append((players, opponent, index))
        return observe(players, opponent, index, seed, kernel)

    monkeypatch.setattr(calibration, "_observe", counted)
    again, figures_again, _recorder = run("calibration", tmp_path, matches=3)
    assert played == []
    assert again == first
    assert figures_again["calibration"] == figures["calibration"]
    run("calibration", tmp_path, matches=4)
    assert sorted(played) == sorted((p, o, 3) for p in (2, 4) for o in OPPONENTS)
    played.clear()
    with Runner("reference", workers=1) as runner:
        run_experiment(experiment("calibration"), runner, 1, 4, tmp_path, Recorder())
    assert len(played) == 2 * len(OPPONENTS)


def test_tips(tmp_path: Path) -> None:
    report, figures, recorder = run("tips", tmp_path, matches=4)
    check_common(report, figures, recorder, tmp_path, 4)
    tips = figures["tips"]
    assert [t["tip"] for t in tips][:2] == [
        "keep wilds for the hardest slots instead of a low slot whose natural can still come",
        "take the discard when it fits"]
    assert len(tips) == 7  # the counting tip at 2, 3 and 4 players
    assert {t["verdict"] for t in tips} <= {"helps", "hurts", "no measurable effect"}
    assert {t["fair_share"] for t in tips} == {0.5, 1 / 3, 0.25}
    assert "watch the discard pile near the end" in report


@pytest.mark.slow
def test_skill(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from trashcards.lab import skill

    monkeypatch.setattr(skill, "REGRET_SIZES", ((1, 1),))
    report, figures, recorder = run("skill", tmp_path, matches=8)
    check_common(report, figures, recorder, tmp_path, 8)
    assert [lv["name"] for lv in figures["levels"]] == ["beginner", "casual", "good",
                                                         "expert"]
    assert figures["levels"][0]["apart_from_below"] is True
    assert set(figures["regret"]) == {f"{b}/1x1" for b in skill.REGRET_BOTS}
    assert all(r["exact"] for r in figures["regret"].values())
    assert {j.engine for j in recorder.jobs if "expert" in j.bots} == {"reference"}
    for preset in skill.PRESETS:  # the expert in every preset and table size
        row = figures["by_preset"][preset]
        for column in ("expert v greedy", "expert v greedy x2", "expert v greedy x3"):
            assert 0 <= row[column]["value"] <= 1
    assert "call-trash" in report
    assert "Regret against exact play" in report
    assert "**The plain answer.**" in report


@pytest.mark.numba_compile
@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm"])
def test_an_interrupted_calibration_reports_what_it_observed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stop: str) -> None:
    """Ctrl-C (or SIGTERM: a background run ignores Ctrl-C) during the matches: the
    report is written with the positions observed so far, says which settings are short
    or not done, and keeps them for a rerun; SIGTERM's handler is put back after."""
    import gzip
    import os
    import signal

    from trashcards.lab import calibration

    before = signal.getsignal(signal.SIGTERM)

    observe = calibration._observe
    calls: list[int] = []

    def interrupted(players: int, opponent: str, index: int, seed: int,
                    kernel: bool) -> dict[str, object]:
        calls.append(index)
        if len(calls) == 5 and stop == "ctrl-c":
            raise KeyboardInterrupt
        if len(calls) == 5:
            os.kill(os.getpid(), signal.SIGTERM)
            pytest.fail("SIGTERM did not interrupt the run")
        return observe(players, opponent, index, seed, kernel)

    monkeypatch.setattr(calibration, "_observe", interrupted)
    report, figures, _recorder = run("calibration", tmp_path, matches=3)
    assert set(figures["calibration"]) == {"2p-greedy", "2p-kid"}
    assert figures["calibration"]["2p-kid"]["matches"] == 1
    assert "**Not done:**" in report
    assert "2 players against kid (1 of 3 positions)" in report
    assert "4 players against expert (none of 3)" in report
    assert "(1 prediction of the 3 planned)" in report
    lines = gzip.decompress((tmp_path / "observations.csv.gz").read_bytes()).decode()
    assert len(lines.splitlines()) == 2 + 4
    assert signal.getsignal(signal.SIGTERM) == before
