"""`trashcards simulate --engine reference` end to end, as a subprocess."""

from __future__ import annotations

import io
import json
import os
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


@pytest.mark.numba_compile
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


@pytest.mark.numba_compile
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


def test_the_compile_notice_comes_when_numba_compiles_and_only_then(monkeypatch) -> None:
    pytest.importorskip("numba")
    from numba.core import event
    from rich.console import Console

    from trashcards.cli import simulate as command
    from trashcards.sim import fast
    from trashcards.sim.runner import Runner

    def compiles(traced: bool = False) -> None:
        with event.trigger_event("numba:compile",
                                 data={"dispatcher": None, "args": (), "return_type": None}):
            pass

    def slow_from_the_cache(traced: bool = False) -> None:
        time.sleep(1.5)  # a busy machine loading the cache: no compilation

    console = Console(file=io.StringIO(), width=100)
    monkeypatch.setattr(fast, "warm_up", compiles)
    command.warm_up(Runner("fast"), console)
    assert console.file.getvalue().count(command.COMPILE_NOTICE) == 1

    quiet = Console(file=io.StringIO(), width=100)
    monkeypatch.setattr(fast, "warm_up", slow_from_the_cache)
    command.warm_up(Runner("fast"), quiet)
    command.warm_up(Runner("reference"), quiet)
    assert quiet.file.getvalue() == ""


#: ``trashcards simulate`` whose fast engine takes 1.5 s more to start (a busy machine).
SLOW_START = ("import runpy, sys, time\n"
              "import trashcards.sim.fast as fast\n"
              "real = fast.warm_up\n"
              "def slow(traced=False):\n"
              "    time.sleep(1.5)\n"
              "    real(traced)\n"
              "fast.warm_up = slow\n"
              "sys.argv = ['trashcards', 'simulate', *sys.argv[1:]]\n"
              "runpy.run_module('trashcards', run_name='__main__')\n")


@pytest.mark.slow
@pytest.mark.numba_compile
def test_simulate_says_it_compiles_on_a_first_run_and_not_once_cached(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    from trashcards.cli.simulate import COMPILE_NOTICE

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache")}  # empty at first
    args = ["--bots", "random,greedy", "--matches", "20", "--engine", "fast", "--seed", "3"]
    runs = [subprocess.run([sys.executable, "-c", SLOW_START, *args], capture_output=True,
                           text=True, timeout=1800, check=False, env=env) for _ in range(2)]
    for run in runs:
        assert run.returncode == 0, run.stderr
        assert "20 matches" in run.stdout
    assert COMPILE_NOTICE in runs[0].stderr  # compiled into the empty cache
    assert COMPILE_NOTICE not in runs[1].stdout + runs[1].stderr  # loaded from it
