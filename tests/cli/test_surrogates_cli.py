"""Records with lone surrogates through the commands that print text (issue 23): one
clear line and exit status 2, never a traceback, in text and JSON output alike."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent.parent / "data"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", *args], capture_output=True,
                          text=True, timeout=120, check=False)


@pytest.mark.parametrize("command", [["review"], ["hint", "--upto", "6"], ["replay"],
                                     ["review", "--json"]])
@pytest.mark.parametrize("where", ["name", "move"])
def test_a_record_with_a_lone_surrogate_is_refused_in_one_line(
        tmp_path: Path, command: list[str], where: str) -> None:
    record = json.loads((DATA / "classic-2p.trash.json").read_text())
    if where == "name":
        record["players"][1] = "Bo\ud800"
    else:
        record["moves"][4] = record["moves"][4] + "\udc00"
    path = tmp_path / "s.trash.json"
    path.write_text(json.dumps(record), encoding="ascii")  # the escape, as a file holds it
    result = run(*command, str(path), "--samples", "4") if command[0] != "replay" \
        else run(*command, str(path))
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert "lone surrogate" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
