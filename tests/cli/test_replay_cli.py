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
    assert result.stderr.startswith("Error: ")


def test_replay_of_a_missing_file_is_exit_status_2(tmp_path: Path) -> None:
    assert run("replay", str(tmp_path / "nope.json")).returncode == 2


def _hostile(tmp_path: Path, players: list[str], moves: list[str] | None = None) -> Path:
    record = json.loads((DATA / "classic-2p.trash.json").read_text())
    record["players"] = players
    if moves is not None:
        record["moves"] = moves
    path = tmp_path / "hostile.trash.json"
    path.write_text(json.dumps(record))  # ASCII JSON: escapes stand for the characters
    return path


def test_replay_escapes_terminal_control_in_names_and_moves(tmp_path: Path) -> None:
    path = _hostile(tmp_path, ["\x1b[2J\x1b[31mEvil", "Bo\u202eoB"])
    result = run("replay", str(path))
    assert result.returncode == 0
    assert "\x1b" not in result.stdout
    assert "\u202e" not in result.stdout
    assert "\\x1b[2J\\x1b[31mEvil" in result.stdout
    assert "Bo\\u202eoB" in result.stdout
    as_json = run("replay", str(path), "--json")
    assert "\x1b" not in as_json.stdout
    assert "\u202e" not in as_json.stdout
    names = [p["name"] for p in json.loads(as_json.stdout)["players"]]
    assert names == ["\x1b[2J\x1b[31mEvil", "Bo\u202eoB"]  # the JSON keeps them exact
    path = _hostile(tmp_path, ["Ana", "Bo"], ["dealer 0", "\x1b]0;owned\x07 stock"])
    result = run("replay", str(path))
    assert result.returncode == 2
    assert "\x1b" not in result.stderr
    assert "\\x1b]0;owned\\x07" in result.stderr


def test_replay_of_a_lone_surrogate_name_is_refused_in_one_line(tmp_path: Path) -> None:
    path = _hostile(tmp_path, ["A\ud800", "Bo"])
    for args in ((), ("--json",)):
        result = run("replay", str(path), *args)
        assert result.returncode == 2, result.stderr
        assert "Traceback" not in result.stderr
        assert result.stderr.startswith("Error: ")
        assert "surrogate" in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("moves", [["dealer 0", "wild ²"], ["dealer ①"], ["dealer 0", "³: stock"],
                                   ["dealer 0", "wild " + "1" * 5000]])
def test_replay_of_odd_digits_is_exit_status_2_not_a_traceback(tmp_path: Path,
                                                               moves: list[str]) -> None:
    result = run("replay", str(_hostile(tmp_path, ["Ana", "Bo"], moves)))
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("Error: ")


def test_replay_of_deep_nesting_and_huge_numbers_is_exit_status_2(tmp_path: Path) -> None:
    for text in ("[" * 100_000, '{"format": "trash/1", "x": 1' + "0" * 5000 + "}"):
        result = run("replay", "-", stdin=text)
        assert result.returncode == 2
        assert "Traceback" not in result.stderr
