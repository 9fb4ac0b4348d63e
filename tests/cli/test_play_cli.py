"""``trashcards play``'s command line: every refusal is clear, early, and leaves nothing
behind; names, files and presets are checked before anything is played."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trashcards.record import Record, load

ENV = {**os.environ, "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1",
       "PYTHONIOENCODING": "utf-8"}


def run(*args: str, stdin: str = "", cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", *args], input=stdin,
                          capture_output=True, text=True, encoding="utf-8", errors="replace",
                          env=ENV, cwd=cwd, timeout=120, check=False)


def refused(result: subprocess.CompletedProcess[str], status: int = 2) -> str:
    """The error text of a refused command: the status, one ``Error:`` line, no trace."""
    assert result.returncode == status, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert "Error: " in result.stderr
    return " ".join(result.stderr.split())


def test_save_into_a_missing_folder_fails_at_once(tmp_path):
    target = tmp_path / "no" / "such" / "folder" / "m.trash.json"
    message = refused(run("play", "--lines", "--seed", "1", "--save", str(target),
                          stdin="s\n", cwd=tmp_path))
    assert f"the folder {target.parent} does not exist" in message
    assert "Ana" not in message  # nothing was played: no table was printed
    assert list(tmp_path.iterdir()) == []


def test_save_over_an_existing_file_needs_force(tmp_path):
    target = tmp_path / "done.trash.json"
    target.write_text("a finished match\n", encoding="utf-8")
    message = refused(run("play", "--lines", "--seed", "1", "--save", str(target),
                          stdin="s\nq\n", cwd=tmp_path))
    assert f"{target} already exists (it may hold a finished match): add --force" in message
    assert target.read_text(encoding="utf-8") == "a finished match\n"
    forced = run("play", "--lines", "--seed", "1", "--save", str(target), "--force",
                 stdin="s\nq\n", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert load(target).players == ("You", "bot:greedy")  # the default level, good


def test_resume_saves_back_to_its_own_file_without_force(tmp_path):
    target = tmp_path / "r.trash.json"
    first = run("play", "--lines", "--seed", "2", "--save", str(target), stdin="s\nq\n",
                cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    again = run("play", "--lines", "--resume", str(target), "--save", str(target),
                stdin="q\n", cwd=tmp_path)
    assert again.returncode == 0, again.stderr


@pytest.mark.numba_compile
def test_a_name_with_an_undecodable_byte_fails_cleanly_and_leaves_no_file(tmp_path):
    # the shell's $'A\xff': Python sees the lone surrogate \udcff
    result = subprocess.run([sys.executable, "-m", "trashcards", "play", "--lines",
                             "--name", "A\udcff", "--save", "f"], input=b"s\n",
                            capture_output=True, env=ENV, cwd=tmp_path, timeout=60,
                            check=False)
    assert result.returncode == 2
    err = result.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err
    assert "Error: Invalid value for --name: a name cannot hold the character \\udcff" in err
    assert list(tmp_path.iterdir()) == []  # neither f nor f.tmp


@pytest.mark.parametrize("name", ["Bo\u202e", "Bo\x1b[2J", "Bo\nCy"])
def test_hotseat_names_are_checked_like_every_name(tmp_path, name):
    message = refused(run("play", "--lines", "--hotseat", f"Ana,{name}", cwd=tmp_path))
    assert "a name cannot hold the character" in message
    assert "\x1b" not in message


@pytest.mark.parametrize("names", ["", " ", "Ana,", ",Bo"])
def test_an_empty_name_is_refused_as_a_name_not_counted_away(tmp_path, names):
    # Before: --name "" dropped the name and said "a table has 2 to 4 players, got 1".
    message = refused(run("play", "--lines", "--name", names, cwd=tmp_path))
    assert "--name" in message
    assert "a name cannot be empty" in message
    assert "players" not in message
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["play", "--lines"], ["simulate", "--bots", "kid,kid",
                                                           "--engine", "reference"]])
def test_first_to_n_explains_itself(tmp_path, command):
    message = refused(run(*command, "--preset", "first-to-N", cwd=tmp_path))
    assert "'first-to-N': write first-to-N with N a number of slots from 1 to 9, e.g. " \
           "first-to-5" in message
    message = refused(run(*command, "--preset", "first-to-12", cwd=tmp_path))
    assert "e.g. first-to-5" in message
    message = refused(run(*command, "--preset", "wizard", cwd=tmp_path))
    assert "first-to-N: write e.g. first-to-5" in message


def test_a_changed_preset_is_not_labelled_as_the_plain_preset(tmp_path):
    result = run("play", "--lines", "--seed", "1", "--preset", "kids", "--rules",
                 "start_size=10", stdin="", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Trash — kids (changed: start_size): J wild, boards of 10, first to 10 rounds" \
        in result.stdout
    assert "kids: J wild, boards of 10" not in result.stdout


def test_resume_of_a_record_that_cannot_be_read_has_the_same_error_prefix(tmp_path):
    bad = tmp_path / "bad.trash.json"
    bad.write_text("{not json", encoding="utf-8")
    message = refused(run("play", "--lines", "--resume", str(bad), cwd=tmp_path))
    assert message.startswith(f"Error: cannot resume {bad}: ")


def test_screen_mode_needs_a_terminal(tmp_path):
    message = refused(run("play", "--screen", cwd=tmp_path))
    assert "--screen needs a terminal; use --lines for piped input" in message


def test_a_simulate_record_resumes_with_its_bots_and_is_watched(tmp_path):
    games = tmp_path / "games"
    sim = run("simulate", "--bots", "greedy,greedy,kid", "--matches", "2", "--preset",
              "kids", "--engine", "reference", "--records", str(games), cwd=tmp_path)
    assert sim.returncode == 0, sim.stderr
    path = sorted(games.glob("*.trash.json"))[0]
    record = load(path)
    assert record.players == ("bot:greedy", "bot:greedy:2", "bot:kid")
    # the finished match: its final table and standings
    finished = run("play", "--lines", "--resume", str(path), cwd=tmp_path)
    assert finished.returncode == 0, finished.stderr
    assert "Final standings" in finished.stdout
    # the same match cut after 30 moves: its bots play it to the end
    cut = tmp_path / "cut.trash.json"
    Record(record.rules, record.players, record.moves[:30]).dump(cut)
    watched = run("play", "--lines", "--resume", str(cut), "--seed", "5", cwd=tmp_path)
    assert watched.returncode == 0, watched.stderr
    assert "bot:greedy:2 drew " in watched.stdout
    assert "wins the match!" in watched.stdout
    assert load(cut).replay().match_winner is not None


def test_the_record_json_names_the_bots_as_play_does(tmp_path):
    games = tmp_path / "g"
    result = run("simulate", "--bots", "counter,counter", "--matches", "1", "--engine",
                 "reference", "--records", str(games), "--preset", "classic", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    data = json.loads(next(games.glob("*.trash.json")).read_text(encoding="utf-8"))
    assert data["players"] == ["bot:counter", "bot:counter:2"]
