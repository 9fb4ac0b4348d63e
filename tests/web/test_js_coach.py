"""The coach on this device (static/js/local/coach.js and local/review.js) against the
Python coach: on the same views and made-up outcome tables (tests/web/jscoach.py), the
same best move, ties, chances, paired intervals, reason codes with their parameters,
judgements of moves (confirmed on fresh deals) and whole reviews, under Node's test
runner (tests/web/js/coach.test.mjs); a whole review on deals of this device; and a hint
that is the same for every deal of the hidden cards behind one view."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import jscoach
import pytest

TEST = Path(__file__).resolve().parent / "js" / "coach.test.mjs"
PANEL = Path(__file__).resolve().parent / "js" / "hintpanel.test.mjs"
HINTS, CONFIRMS, REVIEWS = 300, 100, 6
pytestmark = pytest.mark.node


def _node() -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return node


def _run(cases: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([_node(), "--test", str(TEST)], capture_output=True, text=True,
                          env={**os.environ, "TRASH_COACH_CASES": str(cases)}, check=False,
                          timeout=300)


@pytest.mark.slow
def test_the_coach_on_this_device_decides_as_the_python_coach(tmp_path: Path) -> None:
    _node()
    items = list(jscoach.cases(HINTS, CONFIRMS, REVIEWS))
    path = tmp_path / "cases.jsonl"
    path.write_text("".join(json.dumps(item) + "\n" for item in items), encoding="utf-8")
    hints = [item for item in items if item["kind"] == "hint"]
    # The cases reach the coach's every branch: ties, clear bests, mistakes confirmed and
    # not, missed calls, and most reason codes.
    codes = {line["reason"]["code"] for item in hints for line in item["hint"]["actions"]}
    assert len(codes) >= 15, codes
    assert {"equal", "costs", "best_by", "tie_lead", "standard_tie", "wild_any",
            "leaves_fitting", "feeds_next", "keep_wild", "call_first"} <= codes
    assert any(len(item["hint"]["tied"]) > 1 for item in hints)
    assert any(len(item["hint"]["tied"]) == 1 for item in hints)
    kinds = [d["kind"] for item in items if item["kind"] == "review"
             for d in item["review"]["decisions"]]
    assert {"ok", "mistake", "missed_call", "small_loss"} <= set(kinds)
    done = _run(path)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# pass 6" in done.stdout  # with the hint that depends on the view only
    checked = dict(re.findall(r"checked ([\w-]+) (\d+) cases", done.stdout))
    budgets = len(jscoach.BUDGET_SAMPLES) * len(jscoach.BUDGET_MOVES)
    assert checked == {"hint": str(HINTS), "confirm": str(CONFIRMS), "review": str(REVIEWS),
                       "local-review": str(REVIEWS), "budget": str(budgets)}


def test_a_wrong_reason_fails_the_node_test(tmp_path: Path) -> None:
    """The comparison can fail: one reason's parameter changed."""
    _node()
    item = next(case for case in jscoach.hint_cases(40)
                if any(line["reason"]["params"] for line in case["hint"]["actions"]))
    line = next(line for line in item["hint"]["actions"] if line["reason"]["params"])
    key = next(iter(line["reason"]["params"]))
    line["reason"]["params"][key] = "changed"
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(item) + "\n", encoding="utf-8")
    done = _run(path)
    assert done.returncode != 0
    assert "case 0" in done.stdout


def test_the_hint_panel_says_what_the_numbers_say() -> None:
    """The browser's hint panel (tests/web/js/hintpanel.test.mjs) in the five catalogs: a
    worse move shows how much less it gives with its paired interval, not an interval of
    its own that overlaps the best's; "1 point" and "1.5 points" in each language; "Best"
    only for a strict best."""
    done = subprocess.run([_node(), "--test", str(PANEL)], capture_output=True, text=True,
                          check=False, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# pass 7" in done.stdout
