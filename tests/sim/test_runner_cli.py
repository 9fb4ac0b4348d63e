"""`trashcards simulate` with the runner's options, as a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from trashcards.sim.runner import fast_engine_problem


def simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", "simulate", *args],
                          capture_output=True, text=True, timeout=300, check=False)


def without_time(text: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(text)
    data.pop("elapsed_s")
    return data


def test_reference_json_keeps_its_keys_and_ignores_the_number_of_workers() -> None:
    args = ["--bots", "greedy,kid", "--matches", "12", "--seed", "3", "--preset", "kids",
            "--engine", "reference", "--json"]
    one = simulate(*args, "--workers", "1")
    two = simulate(*args, "--workers", "2")
    assert one.returncode == 0, one.stderr
    first = without_time(one.stdout)
    assert first == without_time(two.stdout)
    for key in ("bots", "rules", "seed", "players", "matches", "rounds", "decided_rounds",
                "turns", "wins", "round_wins", "first_player_wins", "round_starter_wins",
                "turns_hist", "rounds_hist", "win_rate", "first_player_win_rate",
                "round_starter_win_rate", "rounds_per_match", "turns_per_round"):
        assert key in first, key
    assert first["engine"] == "reference"
    assert first["matches"] == 12
    assert sum(first["wins"]) == 12


@pytest.mark.skipif(fast_engine_problem() is not None, reason="no fast engine")
@pytest.mark.numba_compile
def test_the_fast_engine_is_the_default_when_installed() -> None:
    result = simulate("--bots", "greedy,greedy", "--matches", "2000", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["engine"] == "fast"
    assert data["matches"] == 2000


def test_the_tables_still_show_win_rates_and_the_first_players_edge() -> None:
    result = simulate("--bots", "greedy,random", "--matches", "6", "--preset", "kids",
                      "--engine", "reference", "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert "win rate (95 % CI)" in result.stdout
    assert "First player's edge" in result.stdout


def test_simulate_refuses_a_ray_address_without_the_ray_backend() -> None:
    result = simulate("--bots", "greedy,greedy", "--ray-address", "auto")
    assert result.returncode == 2
    assert "--ray-address needs --backend ray" in result.stderr


@pytest.mark.numba_compile
def test_without_numba_simulate_says_so_and_uses_the_reference_engine(tmp_path: Path) -> None:
    (tmp_path / "numba.py").write_text('raise ImportError("No module named numba")\n')
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "trashcards", "simulate", "--bots",
                             "greedy,kid", "--matches", "3", "--preset", "kids", "--json"],
                            capture_output=True, text=True, timeout=300, check=False, env=env)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["engine"] == "reference"
    message = " ".join(result.stderr.split())
    assert "the fast engine is not available (No module named numba)" in message
    assert "pip install 'trashcards[sim]'" in message
