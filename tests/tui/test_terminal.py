"""Reading keys: lines from a pipe (echoed), single key presses on a terminal; and the
command in-process through click's runner."""

from __future__ import annotations

import io

import click
import pytest
from click.testing import CliRunner

from trashcards.cli.play import play
from trashcards.tui.terminal import KeyPressReader, LineReader

from .helpers import output, recording_console


def test_a_line_reader_echoes_piped_answers_and_ends_with_eof():
    console = recording_console()
    reader = LineReader(io.StringIO("s\r\n7\n"), console, echo=True)
    assert reader.read("Ana> ") == "s"
    assert reader.read("Ana> ") == "7"
    with pytest.raises(EOFError):
        reader.read("Ana> ")
    assert output(console).startswith("Ana> s\nAna> 7\nAna> ")


def test_a_key_press_reader_needs_no_enter(monkeypatch):
    keys = iter(["s", "\r"])
    monkeypatch.setattr(click, "getchar", lambda: next(keys))
    console = recording_console()
    reader = KeyPressReader(console)
    assert reader.read("Ana> ") == "s"
    assert reader.read("Press Enter ") == ""
    assert output(console) == "Ana> s\nPress Enter \n"


def test_rules_words_may_follow_the_rules_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(play, ["--seed", "1", "--rules", "call_trash=true",
                                       "last_chance=true", "--name", "Ana"], input="q\n")
    assert result.exit_code == 0, result.output
    assert ('standard (changed: call_trash, last_chance): J wild, boards of 10, first to 10 '
            'rounds, call "Trash!", last chance') in result.output.replace("\n", " ")
    assert "[c] call \"Trash!\"" in result.output
    assert len(list(tmp_path.glob("trash-*.trash.json"))) == 1


def test_a_stray_word_is_not_taken_for_a_rule(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(play, ["--seed", "1", "kings"], input="q\n")
    assert result.exit_code == 2
    assert "kings: write field=value" in result.output
