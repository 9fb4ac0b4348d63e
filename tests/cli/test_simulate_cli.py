"""`trashcards simulate --engine reference` end to end, as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from trashcards.record import load


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", "simulate", *args],
                          capture_output=True, text=True, timeout=120, check=False)


def test_simulate_json_has_the_promised_fields_and_same_seed_same_result(tmp_path: Path) -> None:
    args = ["--bots", "greedy,counter,kid", "--matches", "6", "--seed", "9", "--preset",
            "kids", "--rules", "call_trash=true", "--json"]
    first = simulate(*args, "--records", str(tmp_path))
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    for key in ("matches", "rounds", "turns", "wins", "elapsed_s"):
        assert key in data
    assert data["matches"] == 6
    assert sum(data["wins"]) == 6
    assert len(data["wins"]) == 3
    second = json.loads(simulate(*args).stdout)
    data.pop("elapsed_s")
    second.pop("elapsed_s")
    assert data == second
    records = sorted(tmp_path.glob("*.trash.json"))
    assert len(records) == 6
    assert all(load(path).replay().match_winner is not None for path in records)


def test_simulate_prints_win_rates_with_confidence_intervals() -> None:
    result = simulate("--bots", "greedy,random", "--matches", "4", "--preset", "kids")
    assert result.returncode == 0, result.stderr
    assert "win rate (95 % CI)" in result.stdout
    assert "First player" in result.stdout


def test_simulate_refuses_unknown_bots_and_bad_rules() -> None:
    result = simulate("--bots", "greedy,wizard")
    assert result.returncode == 2
    assert "unknown bot 'wizard'" in result.stderr
    result = simulate("--bots", "greedy,greedy", "--rules", "start_size=11")
    assert result.returncode == 2
    assert "start_size" in result.stderr
