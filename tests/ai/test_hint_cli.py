"""``trashcards hint`` through the real command line, on golden records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parents[1] / "data"
GAME = DATA / "standard-2p-match.trash.json"
KEYS = {"action", "match_win", "match_win_ci", "round_win", "round_win_ci", "vs_best",
        "equal_to_best", "reason"}


def hint(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", "hint", *args],
                          capture_output=True, text=True, input=stdin, timeout=120)


@pytest.mark.numba_compile
def test_hint_json_has_exactly_the_documented_shape_and_finds_the_completion() -> None:
    """Move 16 of the golden record: Ana's wild J♣ completes her board on slot 4."""
    result = hint(str(GAME), "--upto", "16", "--json", "--samples", "40")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data) == {"to_act", "best", "exact", "samples", "tied", "always_call",
                         "actions"}
    assert data["to_act"] == 0
    assert data["best"] == "wild 4"
    assert [a["action"] for a in data["actions"]] == ["wild 4", "trash"]
    for entry in data["actions"]:
        assert set(entry) == KEYS
        for key in ("match_win", "round_win"):
            low, high = entry[f"{key}_ci"]
            assert 0.0 <= low <= entry[key] <= high <= 1.0
    assert data["actions"][0]["round_win"] == 1.0
    assert data["tied"] == ["wild 4"]
    assert data["exact"] is False
    assert data["actions"][0]["vs_best"] == [0, 0]
    assert data["actions"][0]["equal_to_best"] is True
    assert data["actions"][1]["equal_to_best"] is False
    assert data["actions"][1]["vs_best"][1] < 0
    assert data["actions"][1]["reason"]["code"] == "throws_wild"


@pytest.mark.numba_compile
def test_hint_is_the_same_for_the_same_seed_and_lists_every_legal_move() -> None:
    first = hint(str(GAME), "--upto", "7", "--json", "--samples", "30", "--seed", "4")
    again = hint(str(GAME), "--upto", "7", "--json", "--samples", "30", "--seed", "4")
    assert first.stdout == again.stdout
    actions = [a["action"] for a in json.loads(first.stdout)["actions"]]
    assert sorted(actions) == sorted(["wild 4", "wild 5", "wild 9", "trash"])
    assert actions[-1] == "trash"  # throwing the wild away is clearly the worst


@pytest.mark.numba_compile
def test_hint_for_people_names_the_player_and_gives_reasons() -> None:
    result = hint(str(GAME), "--upto", "7", "--samples", "20")
    assert result.returncode == 0, result.stderr
    assert "Ana to act" in result.stdout
    assert "wild" in result.stdout
    assert "Best:" in result.stdout or "Equally good:" in result.stdout


@pytest.mark.parametrize(("args", "stdin", "status", "message"), [
    ([str(GAME)], None, 2,
     "no decision is due after the first 192 of 192 moves (the match is over)"),
    ([str(GAME), "--upto", "1"], None, 2, "after the first 1 of 192 moves (a chance move is due"),
    (["-"], "not json", 2, "not JSON"),
    (["missing.trash.json"], None, 2, "cannot read"),
    (["-"], json.dumps({"format": "trash/1", "players": ["A", "B"],
                        "moves": ["dealer 0", "swap"]}), 1, 'move 1 "swap"'),
])
def test_hint_errors_are_clear(args: list[str], stdin: str | None, status: int,
                               message: str) -> None:
    result = hint(*args, stdin=stdin)
    assert result.returncode == status
    assert message in result.stderr
    assert "Traceback" not in result.stderr
