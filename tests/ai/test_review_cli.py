"""``trashcards review`` through the real command line, on a golden record."""

from __future__ import annotations

import json
import re
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


@pytest.mark.numba_compile
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
        assert decision["taken"] == str(record.moves[decision["move"]].move)
        # only a confirmed loss costs: a mistake at least 0.5 pp, a small loss less
        assert (decision["cost"] > 0) == (decision["kind"] != "ok")
        assert decision["mistake"] == (decision["kind"] in ("mistake", "missed_call"))
        assert decision["small_loss"] == (decision["kind"] == "small_loss")
        if decision["kind"] != "ok" and not decision["exact"]:
            assert decision["cost_ci"][0] > 0
        if decision["mistake"] and not decision["exact"]:
            assert decision["cost"] >= 0.005
        if decision["small_loss"]:
            assert decision["cost"] < 0.005
        if decision["equal_to_best"]:
            assert decision["kind"] == "ok"
    summary = {s["name"]: s for s in data["summary"]}
    for seat, name in enumerate(data["players"]):
        mine = [d for d in data["decisions"] if d["seat"] == seat]
        assert summary[name]["mistakes"] == sum(d["mistake"] for d in mine)
        assert summary[name]["small_losses"] == sum(d["small_loss"] for d in mine)
        assert summary[name]["matched"] == sum(d["kind"] == "ok" for d in mine)
        losses = [d for d in mine if d["kind"] != "ok"]
        if losses:
            assert summary[name]["largest_loss"]["cost"] == max(d["cost"] for d in losses)
        # never a sum of points
        assert "total_cost" not in summary[name]
    # Lee plays uniformly at random: throwing wilds away and leaving playable discards
    assert summary["Lee"]["mistakes"] > summary["Kim"]["mistakes"]
    assert summary["Lee"]["matched_share"] < summary["Kim"]["matched_share"]
    assert summary["Lee"]["largest_loss"]["cost"] > 0.1
    mistakes = [d for d in data["decisions"] if d["mistake"] and d["seat"] == 1]
    assert any(d["taken"] == "trash" and d["best"].startswith("wild") for d in mistakes)
    curve = data["curve"]
    assert curve[-1]["before"] == [1.0, 0.0]
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.numba_compile
def test_review_for_people_tells_each_mistake_in_sentences() -> None:
    """Figures a person understands, each mistake a sentence with the better move, its
    cost and interval, and the player's board with its slot numbers; no sum of points."""
    result = review(str(GAME), "--samples", "12")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert re.search(r"Lee\n  Mistakes: \d+\n  Small losses: \d+\n  Matched the best move: "
                     r"\d+ of \d+ decisions \(\d+ %\)\n  Largest single loss: [\d.]+ points of "
                     r"match-win chance \(move \d+\)\n", out), out
    # Lee throws a wild away (move 17 of the record, counted from 1 for people)
    told = re.search(r"Move 17 · round 1 · Lee — Mistake\n(.+?)\n\n", out, re.S)
    assert told is not None, out
    text = " ".join(told.group(1).split())
    assert "With the wild J♣ in hand, Lee chose to throw it away. Putting it in slot 3 was " \
           "better. It cost" in text, text
    # sampled: the cost with its interval; solved exactly (a small board): no interval
    assert re.search(r"It cost (exactly [\d.]+ points of match-win chance\.|[\d.]+ points "
                     r"of match-win chance \(95 %: [\d.]+ to [\d.]+\)\.)", text), text
    assert re.search(r"1 +2 +3 +4 +5\n +A♥ +2♥ +░░░ +4♦ +5♠", text + "\n" + told.group(1)), \
        told.group(1)
    assert "given away" not in out
    assert "accuracy" not in out.lower()
    assert "Luck" in out


def test_review_of_an_unreadable_record_is_a_clear_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.trash.json"
    bad.write_text("{", encoding="utf-8")
    result = review(str(bad))
    assert result.returncode == 2
    assert "not JSON" in result.stderr
