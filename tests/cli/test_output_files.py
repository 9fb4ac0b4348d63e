"""The one rule of the files the commands write (docs/files.md), through the real command
line: nothing is made above the path you name, nothing trashcards did not write is
replaced or deleted (an existing file needs --force; a folder must be new, empty or
filled by the same command before), and no link is followed. ``trashcards export``'s
cases are in tests/web/test_export.py (they need a server's database)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from trashcards.files import MARKER
from trashcards.record import load

DATA = Path(__file__).parents[1] / "data"
ENV = {**os.environ, "COLUMNS": "200", "TERM": "dumb", "NO_COLOR": "1",
       "PYTHONIOENCODING": "utf-8"}


def run(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", *args], input=stdin,
                          capture_output=True, text=True, encoding="utf-8",
                          errors="replace", env=ENV, cwd=cwd, timeout=300, check=False)


def refused(result: subprocess.CompletedProcess[str]) -> str:
    """The one ``Error:`` line of a refused command (exit status 2, no traceback)."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), result.stderr
    return lines[0]


def written(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*")
            if p.is_file() and p.name != MARKER}


# -- build-static -------------------------------------------------------------------------


def test_build_static_never_deletes_a_static_folder_it_did_not_write(tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "static").mkdir(parents=True)
    (site / "static" / "mine.txt").write_text("my notes\n", encoding="utf-8")
    message = refused(run("build-static", str(site), cwd=tmp_path))
    assert "is not empty and was not written by trashcards build-static" in message
    assert (site / "static" / "mine.txt").read_text(encoding="utf-8") == "my notes\n"
    assert written(site) == {"static/mine.txt"}
    forced = refused(run("build-static", str(site), "--force", cwd=tmp_path))
    assert forced == message  # --force replaces only what a build wrote
    assert (site / "static" / "mine.txt").read_text(encoding="utf-8") == "my notes\n"


def test_build_static_never_writes_through_a_link_inside_its_folder(tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert run("build-static", str(site), cwd=tmp_path).returncode == 0
    victim = tmp_path / "victim.html"
    victim.write_text("someone else's page\n", encoding="utf-8")
    (site / "index.html").unlink()
    (site / "index.html").symlink_to(victim)
    for force in ((), ("--force",)):
        message = refused(run("build-static", str(site), *force, cwd=tmp_path))
        assert f"{site / 'index.html'} is a link" in message
        assert victim.read_text(encoding="utf-8") == "someone else's page\n"
    # a linked folder: nothing is written into what it points to
    (site / "index.html").unlink()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for path in sorted((site / "t").rglob("*"), reverse=True):
        path.unlink()
    (site / "t").rmdir()
    (site / "t").symlink_to(elsewhere, target_is_directory=True)
    message = refused(run("build-static", str(site), "--force", cwd=tmp_path))
    assert f"{site / 't'} is a link, not a folder trashcards wrote" in message
    assert list(elsewhere.iterdir()) == []


def test_build_static_rebuilds_its_own_build_and_keeps_what_it_did_not_write(
        tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / ".git").mkdir(parents=True)  # hidden entries do not count: a gh-pages folder
    first = run("build-static", str(site), cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    built = written(site) - {".git"}
    (site / "CNAME").write_text("trash.example.org\n", encoding="utf-8")
    (site / "static" / "old.js").write_text("// an earlier build's", encoding="utf-8")
    again = run("build-static", str(site), cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert (site / "CNAME").read_text(encoding="utf-8") == "trash.example.org\n"
    # a file the user changed is not replaced without --force
    page = site / "index.html"
    page.write_text("edited by hand\n", encoding="utf-8")
    message = refused(run("build-static", str(site), cwd=tmp_path))
    assert f"{page} was changed since trashcards build-static wrote it: add --force" \
        in message
    assert page.read_text(encoding="utf-8") == "edited by hand\n"
    forced = run("build-static", str(site), "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert page.read_text(encoding="utf-8") != "edited by hand\n"
    assert written(site) == built | {"CNAME", "static/old.js"}


def test_build_static_makes_no_folder_above_the_one_named(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "site"
    message = refused(run("build-static", str(target), cwd=tmp_path))
    assert f"the folder {target.parent} does not exist" in message
    assert list(tmp_path.iterdir()) == []


# -- simulate --records ----------------------------------------------------------------


def test_simulate_records_makes_no_folder_above_the_one_named(tmp_path: Path) -> None:
    # issue 27: simulate made the missing folders, play --save refused them
    target = tmp_path / "missing" / "dir"
    message = refused(run("simulate", "--bots", "greedy,greedy", "--matches", "2",
                          "--engine", "reference", "--records", str(target), cwd=tmp_path))
    assert f"the folder {target.parent} does not exist" in message
    assert list(tmp_path.iterdir()) == []


def test_simulate_records_replaces_only_its_own_records(tmp_path: Path) -> None:
    records = tmp_path / "records"
    records.mkdir()
    (records / "match-0-0000001.trash.json").write_text("mine\n", encoding="utf-8")
    args = ("simulate", "--bots", "greedy,greedy", "--matches", "2", "--engine",
            "reference", "--records", str(records))
    message = refused(run(*args, cwd=tmp_path))
    assert "is not empty and was not written by trashcards simulate" in message
    assert (records / "match-0-0000001.trash.json").read_text(encoding="utf-8") == "mine\n"
    (records / "match-0-0000001.trash.json").unlink()
    assert run(*args, cwd=tmp_path).returncode == 0
    assert written(records) == {"match-0-0000000.trash.json", "match-0-0000001.trash.json"}
    again = run(*args, cwd=tmp_path)  # the same run again: its own records are replaced
    assert again.returncode == 0, again.stderr


# -- play --save and review --plot -------------------------------------------------------


def test_play_save_counts_a_link_as_an_existing_file(tmp_path: Path) -> None:
    nowhere = tmp_path / "made-by-nobody.json"
    link = tmp_path / "m.trash.json"
    link.symlink_to(nowhere)
    result = run("play", "--lines", "--seed", "1", "--save", str(link), stdin="s\nq\n",
                 cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "already exists" in result.stderr
    assert not nowhere.exists()
    forced = run("play", "--lines", "--seed", "1", "--save", str(link), "--force",
                 stdin="s\nq\n", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert not nowhere.exists()  # the link was replaced by the record, not followed
    assert not link.is_symlink()
    assert load(link).players == ("You", "bot:greedy")


def test_play_save_never_writes_through_a_link_beside_the_record(tmp_path: Path) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    (tmp_path / "m.trash.json.tmp").symlink_to(victim)  # the old temporary file's name
    result = run("play", "--lines", "--seed", "1", "--save", str(tmp_path / "m.trash.json"),
                 stdin="s\nq\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert victim.read_text(encoding="utf-8") == "keep me\n"
    assert load(tmp_path / "m.trash.json").players == ("You", "bot:greedy")


@pytest.mark.slow
def test_review_plot_replaces_an_existing_file_only_with_force(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    plot = tmp_path / "chances.png"
    plot.write_bytes(b"my picture")
    args = ("review", str(DATA / "kids-2p-review.trash.json"), "--samples", "4",
            "--engine", "reference", "--plot", str(plot))
    message = refused(run(*args, cwd=tmp_path))
    assert f"--plot: {plot} already exists: add --force" in message
    assert plot.read_bytes() == b"my picture"
    forced = run(*args, "--force", cwd=tmp_path)
    assert forced.returncode == 0, forced.stderr
    assert plot.read_bytes().startswith(b"\x89PNG")
    # a link that leads nowhere counts as a file, and --force replaces the link itself
    plot.unlink()
    nowhere = tmp_path / "nowhere.png"
    plot.symlink_to(nowhere)
    assert "already exists" in refused(run(*args, cwd=tmp_path))
    assert run(*args, "--force", cwd=tmp_path).returncode == 0
    assert not nowhere.exists()
    assert not plot.is_symlink()
