"""The terminal's profile, through the real command line: a match finished with
``trashcards play`` is recorded in the ``--profile`` file with its rating;
``trashcards profile`` shows, exports and imports it; a bad file is refused in one line."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from trashcards.players.profile import Game, Profile
from trashcards.record import Record, load
from trashcards.rules import Rules

ENV = {**os.environ, "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1",
       "PYTHONIOENCODING": "utf-8"}


def run(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", *args], input=stdin,
                          capture_output=True, text=True, encoding="utf-8", errors="replace",
                          env=ENV, cwd=cwd, timeout=120, check=False)


def almost_won_by_the_bot(tmp_path: Path) -> Path:
    """A classic match of Ana against the casual bot, cut after Ana's last decision of a
    match the bot goes on to win: resumed, the bot finishes it with no input."""
    games = tmp_path / "games"
    made = run("simulate", "--bots", "sometimes,kid", "--matches", "20", "--preset", "classic",
               "--engine", "reference", "--records", str(games), "--seed", "4", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    for path in sorted(games.glob("*.trash.json")):
        record = load(path)
        if record.replay().match_winner != 1:
            continue
        last = max(i for i, entry in enumerate(record.moves) if entry.seat == 0)
        cut = tmp_path / "cut.trash.json"
        Record(record.rules, ("Ana", "bot:kid"), record.moves[: last + 1]).dump(cut)
        return cut
    raise AssertionError("no match of the 20 was won by the bot")


def test_a_finished_match_goes_into_the_profile_with_its_rating(tmp_path: Path) -> None:
    profile = tmp_path / "me" / "profile.json"
    cut = almost_won_by_the_bot(tmp_path)
    played = run("play", "--lines", "--resume", str(cut), "--seed", "1", "--profile",
                 str(profile), cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert "Your short rating: " in played.stdout  # classic is the short family
    saved = json.loads(profile.read_text(encoding="utf-8"))
    assert saved["format"] == "trashcards-profile/1"
    [game] = saved["games"]
    assert game["seats"] == ["Ana", "bot:kid"]
    assert game["me"] == 0
    assert game["winner"] == 1
    assert saved["name"] == "Ana"
    shown = run("profile", "--profile", str(profile), "--json", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    summary = json.loads(shown.stdout)
    assert summary["games"] == 1
    assert summary["won"] == 0
    assert summary["by_level"] == {"casual": {"won": 0, "drawn": 0, "lost": 1}}
    assert summary["ratings"]["short"]["rating"] < 1500  # lost to a 1596 bot


def test_no_profile_records_nothing(tmp_path: Path) -> None:
    cut = almost_won_by_the_bot(tmp_path)
    home = tmp_path / "home"
    env_run = subprocess.run(
        [sys.executable, "-m", "trashcards", "play", "--lines", "--resume", str(cut),
         "--no-profile"], capture_output=True, text=True, cwd=tmp_path, timeout=120,
        env={**ENV, "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}, check=False)
    assert env_run.returncode == 0, env_run.stderr
    assert "rating" not in env_run.stdout
    assert not (home / "data").exists()


def test_export_and_import_merge_without_duplicates(tmp_path: Path) -> None:
    rules = Rules.preset_named("standard").to_dict()
    one = Profile("Ana", 1.0e9)
    one.add(Game("a", 1.0e9, "device", rules, ("Ana", "bot:greedy"), 0, (10, 3), 0))
    other = Profile("Ana", 1.0e9)
    other.add(Game("a", 1.0e9, "device", rules, ("Ana", "bot:greedy"), 0, (10, 3), 0))
    other.add(Game("b", 1.1e9, "online", rules, ("Ana", "Bo"), 0, (2, 10), 1))
    mine, theirs = tmp_path / "mine.json", tmp_path / "theirs.json"
    mine.write_text(one.dumps(), encoding="utf-8")
    theirs.write_text(other.dumps(), encoding="utf-8")
    merged = run("profile", "--profile", str(mine), "--import", str(theirs), cwd=tmp_path)
    assert merged.returncode == 0, merged.stderr
    assert "imported 1 match(es)" in merged.stdout
    out = tmp_path / "out.json"
    exported = run("profile", "--profile", str(mine), "--export", str(out), cwd=tmp_path)
    assert exported.returncode == 0, exported.stderr
    assert [g["id"] for g in json.loads(out.read_text())["games"]] == ["a", "b"]
    assert "Ana: 2 matches, 1 won" in exported.stdout


def test_a_file_that_is_no_profile_is_refused_in_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "trashcards-profile/1", "name": "Ana", "created": 1, '
                   '"games": [{"id": "x"}]}', encoding="utf-8")
    result = run("profile", "--profile", str(tmp_path / "p.json"), "--import", str(bad),
                 cwd=tmp_path)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("Error: game 'x': ")
