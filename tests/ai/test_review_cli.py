"""``trashcards review`` through the real command line, on a golden record."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from trashcards import view
from trashcards.record import load

DATA = Path(__file__).parents[1] / "data"
GAME = DATA / "kids-2p-review.trash.json"


def review(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", "review", *args],
                          capture_output=True, text=True, timeout=300)


def test_review_json_judges_every_decision_and_sums_up_each_player(tmp_path: Path) -> None:
    plot = tmp_path / "chances.png"
    result = review(str(GAME), "--json", "--samples", "24", "--plot", str(plot))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    record = load(GAME)
    expected = []
    for index, (state, _e) in enumerate(zip([record.replay(i) for i in
                                             range(len(record.moves))],
                                            record.moves, strict=True)):
        if state.to_act is not None and len(view(state, state.to_act).legal) > 1:
            expected.append(index)
    assert [d["move"] for d in data["decisions"]] == expected
    assert data["players"] == ["Kim", "Lee"]
    assert data["winner"] == 0
    for decision in data["decisions"]:
        assert decision["cost"] >= 0 or not decision["mistake"]
        assert decision["taken"] == str(record.moves[decision["move"]].move)
        # accuracy and cost agree: only a mistake costs, and a mistake costs at least 0.5 pp
        assert (decision["cost"] > 0) == decision["mistake"]
        if decision["mistake"] and not decision["exact"]:
            assert decision["cost"] >= 0.005
            assert decision["cost_ci"][0] > 0
        if decision["equal_to_best"]:
            assert not decision["mistake"]
    summary = {s["name"]: s for s in data["summary"]}
    for seat, name in enumerate(data["players"]):
        mine = [d for d in data["decisions"] if d["seat"] == seat]
        assert summary[name]["mistakes"] == sum(d["mistake"] for d in mine)
        assert summary[name]["total_cost"] == pytest.approx(
            sum(d["cost"] for d in mine), abs=1e-3)
    # Lee plays uniformly at random: throwing wilds away and leaving playable discards
    assert summary["Lee"]["mistakes"] > summary["Kim"]["mistakes"]
    assert summary["Lee"]["accuracy"] < summary["Kim"]["accuracy"]
    assert summary["Lee"]["total_cost"] > 0.2
    mistakes = [d for d in data["decisions"] if d["mistake"] and d["seat"] == 1]
    assert any(d["taken"] == "trash" and d["best"].startswith("wild") for d in mistakes)
    curve = data["curve"]
    assert curve[-1]["before"] == [1.0, 0.0]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_review_for_people_lists_mistakes_and_luck() -> None:
    result = review(str(GAME), "--samples", "12")
    assert result.returncode == 0, result.stderr
    assert "Summary" in result.stdout
    assert "Lee" in result.stdout
    assert "luck" in result.stdout.lower()


def test_review_of_an_unreadable_record_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trash.json"
    bad.write_text("{", encoding="utf-8")
    result = review(str(bad))
    assert result.returncode == 2
    assert "not JSON" in result.stderr
