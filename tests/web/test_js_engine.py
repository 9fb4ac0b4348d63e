"""The browser's rules engine (static/js/local/engine.js) and bots (bots.js) against the
Python ones: every golden record, 10,000 random records (every preset and variant, 2–4
players, call-trash with last-chance among them) and 300 matches of the local bots,
replayed under Node's test runner (tests/web/js/engine.test.mjs) and compared move by
move with what the Python engine made of them (tests/web/jscorpus.py).

The records and digests depend only on the Python sources, so they are kept in pytest's
cache under a hash of those sources; a change to the core makes them again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import jscorpus
import pytest

RANDOM_RECORDS = 10_000
BOT_RECORDS = 300
ROOT = Path(__file__).resolve().parents[2]
TESTS = Path(__file__).resolve().parent / "js"
ENGINE_TEST = TESTS / "engine.test.mjs"


def _sources_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted((ROOT / "src" / "trashcards").glob("*.py")) + sorted(
            (ROOT / "src" / "trashcards" / "bots").glob("*.py")) + [
            ROOT / "src" / "trashcards" / "web" / "eventjson.py", Path(jscorpus.__file__)]:
        digest.update(path.read_bytes())
    for path in jscorpus.golden_records():
        digest.update(path.read_bytes())
    digest.update(f"{RANDOM_RECORDS} {BOT_RECORDS}".encode())
    return digest.hexdigest()[:16]


@pytest.fixture(scope="module")
def corpus(request: pytest.FixtureRequest) -> Path:
    folder = request.config.cache.mkdir("js-engine-corpus")
    path = folder / f"{_sources_hash()}.jsonl"
    if not path.exists():
        for old in folder.glob("*.jsonl"):
            old.unlink()
        tmp = path.with_suffix(".tmp")
        jscorpus.write_corpus(tmp, RANDOM_RECORDS, BOT_RECORDS)
        tmp.replace(path)
    return path


@pytest.mark.slow
def test_the_js_engine_and_bots_agree_with_python_on_every_record(corpus: Path) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    items = [json.loads(line) for line in corpus.read_text(encoding="utf-8").splitlines()]
    kinds = [item["kind"] for item in items]
    assert kinds.count("random") == RANDOM_RECORDS
    assert kinds.count("bots") == BOT_RECORDS
    assert kinds.count("golden") == len(jscorpus.golden_records()) >= 6
    rules = [item["record"]["rules"] for item in items if item["kind"] == "random"]
    assert {r["preset"] for r in rules} == set(jscorpus.PRESETS)
    assert any(r.get("call_trash") and r.get("last_chance") for r in rules)
    assert {len(item["record"]["players"]) for item in items} == {2, 3, 4}
    done = subprocess.run([node, "--test", str(ENGINE_TEST)], capture_output=True, text=True,
                          env={**os.environ, "TRASH_CORPUS": str(corpus)}, check=False,
                          timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    checked = dict(re.findall(r"checked (\w+) (\d+) records", done.stdout))
    assert checked == {"golden": str(kinds.count("golden")), "random": str(RANDOM_RECORDS),
                       "bots": str(BOT_RECORDS)}


@pytest.mark.slow
def test_a_wrong_digest_fails_the_node_test(tmp_path: Path) -> None:
    """The comparison can fail: one golden record with one digest changed."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    item = next(jscorpus.corpus(0, 0))
    item["digests"][3] = "0" * 16
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(item) + "\n", encoding="utf-8")
    done = subprocess.run([node, "--test", str(ENGINE_TEST)], capture_output=True, text=True,
                          env={**os.environ, "TRASH_CORPUS": str(bad)}, check=False,
                          timeout=120)
    assert done.returncode != 0
    assert "move 3" in done.stdout


@pytest.mark.slow
def test_hints_on_this_device_sample_deals_that_agree_with_the_view() -> None:
    """tests/web/js/hint.test.mjs: sampled deals agree with the view and hold the match's
    cards; a hint ranks every legal action with sensible chances; it sees a sure win; the
    expert on this device plays the hint's best, the same for the same stream."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, "--test", str(TESTS / "hint.test.mjs")], capture_output=True,
                          text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# pass 5" in done.stdout


def test_win_chances_on_this_device_read_the_public_view_only() -> None:
    """tests/web/js/chances.test.mjs: other hidden cards give the same chances for a seed;
    every seat's match chances sum to 1 (the bar's percentages to 100) and repeat with a
    seed; the frame is the server's, marked coarser; a stale version's is never sent."""
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, "--test", str(TESTS / "chances.test.mjs")],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "# pass 4" in done.stdout


def test_every_node_test_file_is_run_by_a_pytest_test() -> None:
    """Each ``*.test.mjs`` is run on its own by the test that checks its output, so a new
    one must be named by some test module (or it would never run)."""
    sources = "\n".join(path.read_text(encoding="utf-8")
                        for path in (ROOT / "tests").rglob("test_*.py"))
    unrun = [path.name for path in sorted(TESTS.glob("*.test.mjs"))
             if path.name not in sources]
    assert unrun == []
