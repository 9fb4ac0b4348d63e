"""The guided first game in the terminal (``trashcards play --learn``) end to end, as a
subprocess with a scripted stdin, and the tutorial's sentences in every catalog."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from trashcards import tutorial
from trashcards.tui.learn import LANGUAGES, catalog, language_from_env

CATALOGS = Path(__file__).resolve().parents[2] / "src/trashcards/web/static/i18n"
#: The learner's answers: the first draw, Enter after each of the three steps that tell
#: what happened, the discard, the wild on slot 2.
WALK = ["s", "", "", "", "d", "2"]


def play(*args: str, script: list[str], data: Path, lang_env: str = "C"
         ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "200", "TERM": "dumb", "NO_COLOR": "1",
           "PYTHONIOENCODING": "utf-8", "XDG_DATA_HOME": str(data), "LANG": lang_env,
           "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""}
    return subprocess.run(
        [sys.executable, "-m", "trashcards", "play", *args],
        input="".join(line + "\n" for line in script), capture_output=True, text=True,
        encoding="utf-8", env=env, cwd=data, timeout=60, check=False,
    )


def _said(out: str) -> list[str]:
    """The tutorial's sentences, in order (without their "[Step n of 7]")."""
    return [re.sub(r"^\[[^\]]*\] ", "", line[2:]) for line in out.splitlines()
            if line.startswith("» ")]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guided_game_is_walked_through_in_each_language(tmp_path: Path, lang: str) -> None:
    words = catalog(lang)
    result = play("--learn", "--lang", lang, script=WALK, data=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.splitlines()[0] == words["learn.heading"]
    expected = [words[step.key] for step in tutorial.STEPS] + [words["learn.done"]]
    assert _said(out) == expected
    assert "You drew 3♥ from the stock" in out  # the real engine's game, told
    assert "You drew 4♠ from the discard pile" in out
    assert "You win round 1" in out
    assert json.loads((tmp_path / "trashcards/tutorial.json").read_text()) == {
        "tutorial": "done"}


def test_a_wrong_move_is_answered_gently_and_not_played(tmp_path: Path) -> None:
    words = catalog("en")
    script = ["s", "", "", "", "s", "x", "d", "5", "t", "2"]
    result = play("--learn", "--lang", "en", script=script, data=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert out.count(words["learn.try.discard"]) == 2  # the stock, then a key not used
    assert out.count(words["learn.try.wild"]) == 2  # slot 5, then trash
    assert "You drew" not in out.split(words["learn.step.discard"])[1].split("4♠")[0]
    assert out.count("You win round 1") == 1
    assert out.count("bot:greedy drew") == 1


def test_the_locale_chooses_the_language(tmp_path: Path) -> None:
    result = play("--learn", script=WALK, data=tmp_path, lang_env="it_IT.UTF-8")
    assert result.returncode == 0, result.stderr
    assert catalog("it")["learn.step.draw"] in result.stdout
    assert language_from_env({"LANG": "vi_VN.UTF-8"}) == "vi"
    assert language_from_env({"LANGUAGE": "nl:en", "LANG": "es_ES"}) == "nl"
    assert language_from_env({"LANG": "de_DE.UTF-8"}) == "en"
    assert language_from_env({}) == "en"


def test_play_suggests_the_guided_game_until_it_is_done_or_skipped(tmp_path: Path) -> None:
    offer = "New to Trash? trashcards play --learn walks you through a short guided game."
    first = play("--seed", "1", "--no-profile", script=["q"], data=tmp_path)
    assert first.returncode == 0, first.stderr
    assert offer in first.stdout
    skipped = play("--learn", script=["q"], data=tmp_path)
    assert skipped.returncode == 0, skipped.stderr
    assert json.loads((tmp_path / "trashcards/tutorial.json").read_text()) == {
        "tutorial": "skipped"}
    again = play("--seed", "1", "--no-profile", script=["q"], data=tmp_path)
    assert offer not in again.stdout
    asked = play("--learn", "--lang", "en", script=WALK, data=tmp_path)  # asked: it plays
    assert catalog("en")["learn.done"] in asked.stdout


def test_the_input_ending_early_remembers_nothing(tmp_path: Path) -> None:
    result = play("--learn", script=["s"], data=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "the guided game stopped" in result.stdout
    assert not (tmp_path / "trashcards/tutorial.json").exists()


def test_learn_refuses_the_options_of_another_game(tmp_path: Path) -> None:
    result = play("--learn", "--level", "good", script=[], data=tmp_path)
    assert result.returncode == 2
    assert "--learn plays the guided game alone" in " ".join(result.stderr.split())


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_has_every_tutorial_key(lang: str) -> None:
    data = json.loads((CATALOGS / f"{lang}.json").read_text(encoding="utf-8"))
    english = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
    wanted = {step.key for step in tutorial.STEPS}
    wanted |= {step.try_key for step in tutorial.STEPS if step.try_key is not None}
    wanted |= {key for key in english if key.startswith("learn.")}
    assert len(wanted) > len(tutorial.STEPS)
    for key in sorted(wanted):
        assert isinstance(data.get(key), str), f"{lang}: {key}"
        assert data[key].strip(), f"{lang}: {key}"
        if lang != "en":
            assert data[key] != english[key], f"{lang}: {key} is not translated"
        assert (set(re.findall(r"\{(\w+)\}", data[key]))
                == set(re.findall(r"\{(\w+)\}", english[key]))), f"{lang}: {key}"
