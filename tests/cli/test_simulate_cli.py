"""`trashcards simulate --engine reference` end to end, as a subprocess."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

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


def test_one_rules_option_takes_several_fields_as_play_does() -> None:
    result = simulate("--bots", "kid,kid", "--matches", "2", "--engine", "reference",
                      "--rules", "call_trash=true", "start_size=5", "rounds_to_win=1", "--json")
    assert result.returncode == 0, result.stderr
    rules = json.loads(result.stdout)["rules"]
    assert rules == {"preset": "standard", "call_trash": True, "start_size": 5,
                     "rounds_to_win": 1}


def test_a_stray_word_after_the_rules_is_refused_with_the_field_syntax() -> None:
    result = simulate("--bots", "kid,kid", "--engine", "reference", "--rules",
                      "call_trash=true", "kings")
    assert result.returncode == 2
    assert "Error: Invalid value for --preset/--rules: kings: write field=value" in result.stderr


def test_large_numbers_have_separators_and_the_seat_shares_add_up() -> None:
    result = simulate("--bots", "random,random,random", "--matches", "1200", "--engine",
                      "reference", "--preset", "classic", "--seed", "3")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "1,200 matches · classic" in out
    assert re.search(r"\d,\d{3} rounds in", out)
    shares = [float(m) for m in re.findall(r"│\s+(\d+\.\d)% \(", out)]
    assert len(shares) == 3
    assert round(sum(shares), 1) == 100.0


def test_a_slow_start_of_the_fast_engine_says_it_is_compiling(monkeypatch) -> None:
    pytest.importorskip("numba")
    from rich.console import Console

    from trashcards.cli import simulate as command
    from trashcards.sim import fast
    from trashcards.sim.runner import Runner

    def slow(traced: bool = False) -> None:
        time.sleep(command.COMPILE_GRACE + 0.5)

    console = Console(file=io.StringIO(), width=100)
    monkeypatch.setattr(fast, "warm_up", slow)
    command.warm_up(Runner("fast"), console)
    assert "compiling the fast engine (once, about 15 s)…" in console.file.getvalue()

    quiet = Console(file=io.StringIO(), width=100)
    monkeypatch.setattr(fast, "warm_up", lambda traced=False: None)
    command.warm_up(Runner("fast"), quiet)
    command.warm_up(Runner("reference"), quiet)
    assert quiet.file.getvalue() == ""
