"""`trashcards analyze` as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def analyze(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", "analyze", *args],
                          capture_output=True, text=True, timeout=300, check=False, cwd=cwd)


@pytest.mark.numba_compile
def test_analyze_writes_the_report_plots_and_figures(tmp_path: Path) -> None:
    out = tmp_path / "discard"
    result = analyze("discard", "--matches", "4", "--seed", "2", "--engine", "reference",
                     "--workers", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert ("4 matches per pair of bots and per self-play table, engine reference, seed 2"
            in result.stdout)
    assert "report.md" in result.stdout
    report = (out / "report.md").read_text(encoding="utf-8")
    assert report.startswith("# What the discard pile is worth")
    assert "trashcards analyze discard --matches 4 --seed 2 --engine reference" in report
    figures = json.loads((out / "figures.json").read_text(encoding="utf-8"))
    assert figures["settings"]["seed"] == 2
    assert figures["settings"]["engine"] == "reference"
    assert {p.name for p in out.glob("*.png")} == {"head_to_head.png",
                                                   "greedy_v_stockonly.png",
                                                   "self_play_turns.png"}


@pytest.mark.numba_compile
def test_analyze_writes_into_analysis_by_default(tmp_path: Path) -> None:
    result = analyze("ladder", "--matches", "2", "--engine", "reference", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "analysis" / "ladder" / "report.md").is_file()
    assert (tmp_path / "analysis" / "ladder" / "elo.png").is_file()


def test_analyze_refuses_unknown_experiments_and_a_lone_ray_address() -> None:
    result = analyze("astrology")
    assert result.returncode == 2
    assert "first-player" in result.stderr
    result = analyze("length", "--ray-address", "auto")
    assert result.returncode == 2
    assert "--ray-address needs --backend ray" in result.stderr


def test_analyze_help_lists_the_experiments() -> None:
    result = analyze("--help")
    assert result.returncode == 0
    for name in ("first-player", "length", "ladder", "discard", "variants"):
        assert name in result.stdout
