"""``trashcards export``: the records of a server's tables as files, read from the
database without disturbing the server."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from webtools import Socket, create, make_settings

from trashcards.cli.export import export
from trashcards.cli.restore import import_records
from trashcards.record import load, loads
from trashcards.web import create_app


def _tables(db: Path) -> tuple[str, str]:
    """A finished bot match and a match still being played."""
    with TestClient(create_app(make_settings(db))) as client:
        done = create(client, [{"kind": "bot"}, {"kind": "bot"}],
                      {"preset": "classic", "start_size": 2})["table_id"]
        with client.websocket_connect(f"/ws/{done}") as ws:
            sock = Socket(ws)
            sock.join([], version=0)
            while sock.recv()["state"]["phase"] != "match_over":
                pass
        going = create(client, [{"kind": "me", "name": "Ana"},
                                {"kind": "hotseat", "name": "Bo"}])["table_id"]
    return done, going


@pytest.mark.numba_compile
def test_export_writes_finished_tables_and_with_unfinished_the_partial_others(
        tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite3"
    done, going = _tables(db)
    runner = CliRunner()
    result = runner.invoke(export, [str(tmp_path / "a"), "--db", str(db)])
    assert (result.exit_code, sorted(p.name for p in (tmp_path / "a").glob("*.trash.json"))) == \
        (0, [f"trash-{done}.trash.json"])
    result = runner.invoke(export, [str(tmp_path / "b"), "--db", str(db), "--unfinished"])
    assert result.exit_code == 0, result.output
    partial = load(tmp_path / "b" / f"trash-{going}.trash.json")
    assert [str(m).split()[0] for m in partial.moves] == ["dealer"]  # no deck: hidden cards
    result = runner.invoke(export, [str(tmp_path / "c"), "--db", str(db), "--table", going,
                                    "--table", "../../escape", "--table", done])
    assert result.exit_code == 1
    assert "not finished" in result.output
    assert "../../escape: not exported" in result.output
    assert [p.name for p in (tmp_path / "c").glob("*.trash.json")] == [f"trash-{done}.trash.json"]
    assert not (tmp_path / "escape").exists()


@pytest.mark.numba_compile
def test_export_runs_beside_the_server_and_needs_a_database(tmp_path: Path) -> None:
    db = tmp_path / "e.sqlite3"
    done, _going = _tables(db)
    with TestClient(create_app(make_settings(db))):  # the server holds the database
        result = CliRunner().invoke(export, [str(tmp_path / "out"), "--db", str(db)])
        assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / f"trash-{done}.trash.json").exists()
    missing = CliRunner().invoke(export, [str(tmp_path / "x"), "--db", str(tmp_path / "no")])
    assert missing.exit_code == 1
    assert "there is no database" in missing.output


def _export(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", "export", *args],
                          capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.numba_compile
def test_export_writes_only_where_it_may_and_follows_no_link(tmp_path: Path) -> None:
    """docs/files.md through the command line: no folder made above the one named; a
    folder it did not write is refused; a record it wrote but that was changed since is
    replaced only with --force; a link where a record goes is never written through."""
    db = tmp_path / "e.sqlite3"
    done, _going = _tables(db)
    name = f"trash-{done}.trash.json"
    missing = _export(str(tmp_path / "no" / "out"), "--db", str(db))
    assert missing.returncode == 2
    assert "Traceback" not in missing.stderr
    assert f"the folder {tmp_path / 'no'} does not exist" in missing.stderr
    assert not (tmp_path / "no").exists()
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / name).write_text("a file of someone else\n", encoding="utf-8")
    refused = _export(str(theirs), "--db", str(db), "--force")
    assert refused.returncode == 2
    assert "was not written by trashcards export" in refused.stderr
    assert (theirs / name).read_text(encoding="utf-8") == "a file of someone else\n"
    out = tmp_path / "out"
    assert _export(str(out), "--db", str(db)).returncode == 0
    assert _export(str(out), "--db", str(db)).returncode == 0  # its own folder again
    (out / name).write_text("edited\n", encoding="utf-8")
    changed = _export(str(out), "--db", str(db))
    assert changed.returncode == 2
    assert "add --force" in changed.stderr
    assert (out / name).read_text(encoding="utf-8") == "edited\n"
    assert _export(str(out), "--db", str(db), "--force").returncode == 0
    assert load(out / name).players
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n", encoding="utf-8")
    (out / name).unlink()
    (out / name).symlink_to(victim)
    linked = _export(str(out), "--db", str(db), "--force")
    assert linked.returncode == 2
    assert "is a link" in linked.stderr
    assert victim.read_text(encoding="utf-8") == "keep me\n"


@pytest.mark.parametrize("direction", ["sqlite-to-postgres", "postgres-to-sqlite"])
def test_records_move_between_backends_by_export_and_import(
        tmp_path: Path, pg_url: str, direction: str) -> None:
    """Export from one backend, import into the other: the finished table is there under
    its id and serves the same record; a record that breaks the rules is named and left
    out (exit status 1), the others still go in; an id already taken gets a new one."""
    sqlite = tmp_path / "e.sqlite3"
    source, target = (sqlite, pg_url) if direction == "sqlite-to-postgres" else (pg_url, sqlite)
    done, _going = _tables(source)
    runner = CliRunner()
    result = runner.invoke(export, [str(tmp_path / "out"), "--db", str(source)])
    assert result.exit_code == 0, result.output
    exported = tmp_path / "out" / f"trash-{done}.trash.json"
    broken = tmp_path / "out" / "trash-broken.trash.json"
    text = exported.read_text()
    broken.write_text(text.replace('"0: ', '"1: ', 1))  # a move out of turn
    result = runner.invoke(import_records, [str(tmp_path / "out"), "--db", str(target)])
    assert result.exit_code == 1
    assert "trash-broken.trash.json: not imported" in result.output
    assert "imported 1 record(s); 1 not imported" in result.output
    result = runner.invoke(import_records, [str(exported), "--db", str(target)])
    assert (result.exit_code, result.output.strip()) == (0, "imported 1 record(s)")
    with TestClient(create_app(make_settings(target))) as client:
        served = client.get(f"/api/tables/{done}/record")
        assert served.headers["x-trash-record"] == "complete"
        info = client.get(f"/api/tables/{done}").json()
    original, back = loads(text), loads(served.text)
    assert (back.rules, back.players, [str(m) for m in back.moves]) == (
        original.rules, original.players, [str(m) for m in original.moves])
    assert info["status"] == "over"
    result = runner.invoke(export, [str(tmp_path / "again"), "--db", str(target)])
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in (tmp_path / "again").glob("*.trash.json"))
    assert len(names) == 2  # the first import and the second, under a new id
    assert f"trash-{done}.trash.json" in names
    assert "trash-broken.trash.json" not in names
