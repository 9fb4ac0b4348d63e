"""``trashcards play`` end to end, as a subprocess with a scripted stdin."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from trashcards.ai.levels import LEVELS
from trashcards.record import load
from trashcards.state import Phase

from .helpers import cycle_script
from .scenarios import stacked_record

ENV = {**os.environ, "COLUMNS": "100", "TERM": "dumb", "NO_COLOR": "1",
       "PYTHONIOENCODING": "utf-8"}


def play(*args: str, script: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trashcards", "play", *args],
        input="".join(line + "\n" for line in script), capture_output=True, text=True,
        encoding="utf-8", env=ENV, cwd=cwd, timeout=60, check=False,
    )


def test_a_seeded_match_against_a_greedy_bot_to_the_end(tmp_path):
    save = tmp_path / "m.trash.json"
    script = ["x", *cycle_script(400)]  # far more lines than the match needs
    result = play("--seed", "7", "--bots", "greedy", "--name", "Ana", "--preset", "kids",
                  "--rules", "rounds_to_win=1", "--save", str(save), script=script,
                  cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert ("Trash — kids (changed: rounds_to_win): J wild, boards of 5, first to 1 round "
            "— seed 7") in out
    assert "Players: Ana, bot:greedy" in out
    assert "Ana> x\n'x' is not a key here: s, q (? for help)\nAna> " in out
    assert "You drew " in out  # the one person is spoken to as "you"
    assert "Ana drew " not in out
    assert "bot:greedy drew " in out
    assert "win the match!" in out or "bot:greedy wins the match!" in out
    assert "Final standings" in out
    record = load(save)
    assert record.players == ("Ana", "bot:greedy")
    assert record.replay().phase is Phase.MATCH_OVER


def test_the_same_seed_and_keys_play_the_same_match(tmp_path):
    args = ("--seed", "11", "--bots", "counter", "--preset", "kids", "--rules",
            "rounds_to_win=1")
    first = play(*args, script=cycle_script(300), cwd=tmp_path)
    second = play(*args, script=cycle_script(300), cwd=tmp_path)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout


@pytest.mark.numba_compile
def test_quit_then_resume_continues_the_saved_record(tmp_path):
    save = tmp_path / "q.trash.json"
    args = ("--seed", "5", "--bots", "greedy", "--name", "Ana", "--preset", "kids",
            "--rules", "rounds_to_win=1", "--save", str(save))
    first = play(*args, script=["s", "1", "s", "quit"], cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert f"Saved to {save} — continue with: trashcards play --resume {save}" in first.stdout
    saved = load(save)
    assert saved.replay().phase is not Phase.MATCH_OVER

    second = play("--resume", str(save), script=cycle_script(400), cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert f"Resuming {save} at move {len(saved.moves)}" in " ".join(second.stdout.split())
    final = load(save)  # --resume saves back to the same file
    assert final.moves[:len(saved.moves)] == saved.moves
    assert len(final.moves) > len(saved.moves)
    assert final.replay().phase is Phase.MATCH_OVER


def test_a_stacked_record_resumed_plays_its_round_with_one_key(tmp_path):
    path = tmp_path / "stacked.trash.json"
    stacked_record(rounds_to_win=2).dump(path)
    result = play("--resume", str(path), script=["s", "", "q"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "You placed A♥ on slot 1, turned up 2♥" in out
    assert "You win round 1 (1 round won)" in out
    assert "Your completed board:" in out
    assert "After round 1" in out
    assert "Press Enter to deal round 2 (q quits)" in out
    assert "Round 2: " in out
    assert load(path).replay().round == 2


def test_end_of_input_leaves_no_record_file_unless_asked(tmp_path):
    result = play("--seed", "1", script=["s"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert not list(tmp_path.iterdir())
    assert "The input ended; the match was not saved (give --save FILE" in result.stdout


def test_q_saves_to_a_default_file_in_the_current_directory(tmp_path):
    result = play("--seed", "1", script=["s", "q"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    files = list(tmp_path.glob("trash-*.trash.json"))
    assert len(files) == 1
    assert f"Saved to {files[0]}" in result.stdout
    assert load(files[0]).players == ("You", "bot:greedy")  # the default level, good


def test_hotseat_shows_the_pass_screen(tmp_path):
    result = play("--hotseat", "Ana,Bo", "--seed", "2", "--preset", "kids",
                  script=cycle_script(20), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Pass to Ana — press Enter" in result.stdout
    assert "Pass to Bo — press Enter" in result.stdout


def test_a_bad_rules_field_is_named_and_nothing_is_played(tmp_path):
    result = play("--rules", "call_trash=maybe", script=[], cwd=tmp_path)
    assert result.returncode == 2
    assert "call_trash: must be true or false" in result.stderr
    assert not list(tmp_path.iterdir())


def test_resume_refuses_new_players_or_rules(tmp_path):
    path = tmp_path / "stacked.trash.json"
    stacked_record().dump(path)
    result = play("--resume", str(path), "--bots", "kid", script=[], cwd=tmp_path)
    assert result.returncode == 2
    assert "--resume takes the players and the rules from the record" in result.stderr


def test_level_names_the_opponent_and_its_elo(tmp_path):
    save = tmp_path / "lv.trash.json"
    result = play("--seed", "3", "--level", "casual,beginner", "--name", "Ana", "--preset",
                  "kids", "--save", str(save), script=["s"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert ("Players: Ana, bot:kid (casual, Elo 1596), bot:sometimes (beginner, Elo 1535)"
            in result.stdout)
    assert "bot:kid (casual, Elo 1596) — rounds won 0 of 5" in result.stdout
    assert load(save).players == ("Ana", "bot:kid", "bot:sometimes")


@pytest.mark.parametrize(("args", "message"), [
    (("--level", "master"), "unknown level 'master'; the levels are beginner, casual, "
                            "good, expert"),
    (("--level", "good", "--bots", "greedy"), "give either --level (opponents by strength) "
                                              "or --bots (bots by kind), not both"),
    (("--level", ""), "a table has 2 to 4 players, got 1"),
    (("--level", "good,good,good,good"), "a table has 2 to 4 players, got 5"),
])
def test_a_bad_level_is_refused_with_the_reason_and_exit_2(tmp_path, args, message):
    result = play(*args, script=["s"], cwd=tmp_path)
    assert result.returncode == 2
    assert message in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr
    assert result.stdout == ""
    assert not list(tmp_path.iterdir())


def test_resume_refuses_a_level(tmp_path):
    path = tmp_path / "stacked.trash.json"
    stacked_record().dump(path)
    result = play("--resume", str(path), "--level", "good", script=[], cwd=tmp_path)
    assert result.returncode == 2
    assert "drop --names, --level, --bots" in " ".join(result.stderr.split())


def test_the_help_lists_the_levels_with_their_elo_and_the_hint_keys(tmp_path):
    result = play("--help", script=[], cwd=tmp_path)
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for level in LEVELS:
        assert level.label in text
    for option in ("--level LEVELS", "--bots KINDS", "--hints"):
        assert option in text
    assert "h hint, o show or hide the win chances" in text


@pytest.mark.numba_compile
def test_h_in_the_line_mode_shows_the_hint_through_the_real_command(tmp_path):
    path = tmp_path / "stacked.trash.json"
    stacked_record(stock="Jh").dump(path)  # Ana draws a wild: a choice of five slots
    result = play("--resume", str(path), "--seed", "0", script=["s", "h", "1"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    hint_part = out[out.index("Ana> h"):out.index("Ana> 1")]
    assert "Best: [" in hint_part or "Equally good: [" in hint_part
    assert len(re.findall(r"\n\[[1-5t]\] \d+\.\d %(?: ±\d+\.\d)? match · \d+\.\d % round",
                          hint_part)) == 6  # every legal move: five slots and the trash
    assert "Throws the wild J♥ away" in hint_part
    assert "sampled deals" in hint_part


@pytest.mark.numba_compile
def test_hints_show_the_hint_and_the_chances_at_every_decision(tmp_path):
    path = tmp_path / "stacked.trash.json"
    stacked_record(stock="Jh").dump(path)
    result = play("--resume", str(path), "--hints", script=["s", "1"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    heads = result.stdout.count("Best: [") + result.stdout.count("Equally good: [")
    assert heads == 2
    assert result.stdout.count("Win chances: You ") == 2
