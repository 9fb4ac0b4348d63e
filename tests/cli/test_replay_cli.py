"""`trashcards replay` end to end, as a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data"


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", *args], input=stdin,
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.parametrize("name", ["standard-2p-match", "kids-3p-call-trash", "classic-2p"])
def test_replay_json_reveal_prints_the_expected_state(name: str) -> None:
    result = run("replay", str(DATA / f"{name}.trash.json"), "--json", "--reveal")
    assert result.returncode == 0, result.stderr
    got = json.loads(result.stdout)
    want = json.loads((DATA / f"{name}.final.json").read_text())
    assert {k: got[k] for k in want} == want
    result = run("replay", str(DATA / f"{name}.trash.json"), "--json", "--reveal",
                 "--upto", "12")
    want = json.loads((DATA / f"{name}.upto12.json").read_text())
    got = json.loads(result.stdout)
    assert sorted(got.pop("legal")) == sorted(want.pop("legal"))
    assert {k: got[k] for k in want} == want


def test_replay_without_reveal_is_a_spectators_view() -> None:
    result = run("replay", str(DATA / "kids-3p-call-trash.trash.json"), "--json")
    state = json.loads(result.stdout)
    assert "stock" not in state
    for player in state["players"]:
        for slot in player["slots"]:
            assert (slot["card"] is None) == (not slot["up"])


def test_replay_for_people_shows_boards_and_the_discard() -> None:
    result = run("replay", str(DATA / "classic-2p.trash.json"), "--upto", "12")
    assert result.returncode == 0
    assert "Ana" in result.stdout
    assert "discard J♥ (pile of 6 cards)" in result.stdout
    assert "wild 6" in result.stdout


def test_replay_reads_standard_input() -> None:
    text = (DATA / "classic-2p.trash.json").read_text()
    assert run("replay", "-", "--json", stdin=text).returncode == 0


def test_replay_exit_status_1_for_a_broken_rule(tmp_path: Path) -> None:
    record = json.loads((DATA / "classic-2p.trash.json").read_text())
    record["moves"] = [*record["moves"][:12], "wild 7"]
    path = tmp_path / "bad.trash.json"
    path.write_text(json.dumps(record))
    result = run("replay", str(path), "--json")
    assert result.returncode == 1
    assert 'move 12 "wild 7": slot 7 is face up' in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("text", [
    "{", '{"format": "trash/9", "players": ["a", "b"], "moves": []}',
    '{"format": "trash/1", "players": ["a", "b"], "moves": ["dealer 0", "deck 1z"]}',
])
def test_replay_exit_status_2_for_an_unreadable_record(tmp_path: Path, text: str) -> None:
    path = tmp_path / "bad.trash.json"
    path.write_text(text)
    result = run("replay", str(path))
    assert result.returncode == 2
    assert result.stderr.startswith("trashcards replay: ")


def test_replay_of_a_missing_file_is_exit_status_2(tmp_path: Path) -> None:
    assert run("replay", str(tmp_path / "nope.json")).returncode == 2
