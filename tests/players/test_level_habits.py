"""The levels' bots' habits, measured offline by scripts/level_habits.py and shipped as
players/level_habits.json: the table holds the levels' Elo and consistent figures, a
player is compared with the level nearest their rating, and the script writes the same
form of table (docs/players.md, "Habits")."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trashcards.ai.levels import level_named
from trashcards.players.habits import HABITS, Habit, wilson
from trashcards.players.levelhabits import (
    FORMAT,
    LEVELS,
    level_habits,
    nearest_level,
    versus_level,
)

ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_table_holds_the_levels_elo_and_consistent_figures() -> None:
    table = level_habits()
    assert table["format"] == FORMAT
    assert table["command"].startswith("python3 scripts/level_habits.py ")
    assert (table["rules"], table["players"]) == ("standard", 2)
    assert list(table["levels"]) == list(LEVELS)
    for name, level in table["levels"].items():
        assert level["elo"] == round(level_named(name).elo, 1)
        assert level["bot"] == level_named(name).bot
        assert level["games"] == 2 * level["matches"] == 2 * table["matches"]
        assert set(level["habits"]) <= set(HABITS)
        for figures in level["habits"].values():
            assert 0 <= figures["misses"] <= figures["chances"]
            assert figures["low"] <= figures["rate"] <= figures["high"]
            assert figures["rate"] == round(figures["misses"] / figures["chances"], 4)
            low, high = wilson(figures["misses"], figures["chances"])
            assert figures["low"] <= round(low, 4) + 1e-4  # never narrower than Wilson's
            assert figures["high"] >= round(high, 4) - 1e-4


def test_the_level_compared_with_is_the_one_whose_elo_is_nearest() -> None:
    assert nearest_level(1400) == "beginner"
    assert nearest_level(1560) == "beginner"  # 25.4 from 1534.6, 36.2 from 1596.2
    assert nearest_level(1566) == "casual"  # 31.4 from 1534.6, 30.2 from 1596.2
    assert nearest_level(1600) == "casual"
    assert nearest_level(1900) == "good"


def test_against_a_level_a_difference_is_shown_only_beyond_both_intervals() -> None:
    measured = level_habits()["levels"]["good"]["habits"]["discard"]
    rate = measured["rate"]
    assert versus_level(Habit("discard", 4, round(4 * rate), 1), "good")["verdict"] == "same"
    far = versus_level(Habit("discard", 2000, 1800, 40), "good")
    assert far["verdict"] == "more"
    assert far["chances"] == measured["chances"]


@pytest.mark.numba_compile
@pytest.mark.slow
def test_the_script_writes_a_table_of_the_same_form(tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "level_habits.py"),
                           "--matches", "1", "--samples", "8", "--seed", "3", "--out",
                           str(out)], capture_output=True, text=True, timeout=600,
                          check=False, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 0, done.stderr[-2000:]
    written = json.loads(out.read_text("utf-8"))
    shipped = level_habits()
    assert set(written) == set(shipped)
    assert written["command"] == ("python3 scripts/level_habits.py --matches 1 --seed 3 "
                                  "--samples 8")
    assert list(written["levels"]) == list(LEVELS)
    assert all(level["games"] == 2 for level in written["levels"].values())
