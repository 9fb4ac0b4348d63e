"""The SQLite schema has a version (``PRAGMA user_version``) and numbered migrations, like
the PostgreSQL backend: a database from before versions is brought up to date, one from
a newer trashcards is refused at start with a clear error (issue 23, item 8)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from starlette.testclient import TestClient
from webtools import create, make_settings

from trashcards.cli.export import export
from trashcards.web import create_app, store
from trashcards.web.store import Store, StoreError

TWO = [{"kind": "me", "name": "Ana"}, {"kind": "open"}]

#: A database as the first release made it: no versions, none of the later columns.
_FIRST_RELEASE = """
CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, rules TEXT NOT NULL,
                     status TEXT NOT NULL, rematch TEXT);
CREATE TABLE seats (table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL,
                    kind TEXT NOT NULL, name TEXT, bot TEXT, token_hash TEXT,
                    PRIMARY KEY (table_id, seat));
CREATE TABLE moves (table_id TEXT NOT NULL REFERENCES tables(id), idx INTEGER NOT NULL,
                    move TEXT NOT NULL, PRIMARY KEY (table_id, idx));
INSERT INTO tables VALUES ('old', CAST(strftime('%s', 'now') AS REAL),
                           '{"preset": "standard"}', 'waiting', NULL);
INSERT INTO seats VALUES ('old', 0, 'me', 'Ana', NULL, 'x'), ('old', 1, 'open', NULL, NULL,
                          NULL);
"""


def _version(path: Path) -> int:
    with sqlite3.connect(path) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _serve(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", "serve", "--port", "0",
                           "--db", str(db)], capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.numba_compile
def test_a_new_database_has_the_latest_schema_version(tmp_path: Path) -> None:
    db = tmp_path / "n.sqlite3"
    with TestClient(create_app(make_settings(db))) as client:
        create(client, TWO)
    assert _version(db) == len(store.MIGRATIONS) >= 1


@pytest.mark.numba_compile
def test_a_database_from_before_versions_is_migrated_and_keeps_its_tables(
        tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with sqlite3.connect(db) as conn:
        conn.executescript(_FIRST_RELEASE)
    assert _version(db) == 0
    with TestClient(create_app(make_settings(db))) as client:
        assert client.get("/api/tables/old").json()["seats"][0]["name"] == "Ana"
        assert client.post("/api/tables/old/join", json={"name": "Bo"}).status_code == 200
        create(client, TWO)
    assert _version(db) == len(store.MIGRATIONS)
    with sqlite3.connect(db) as conn:
        columns = {r[1] for r in conn.execute("PRAGMA table_info(tables)")}
    assert {"ready", "finished", "cuts", "party", "hints"} <= columns


def test_each_migration_is_one_transaction_with_its_version(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failing migration leaves the database at the version before it, with nothing
    of it written; the next start applies what is missing."""
    db = tmp_path / "m.sqlite3"
    Store(db).close()
    migrations = store.MIGRATIONS

    def half_done(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE extra (id TEXT)")
        conn.execute("SELECT * FROM no_such_table")

    def done(conn: sqlite3.Connection) -> None:
        conn.execute("CREATE TABLE extra (id TEXT)")

    monkeypatch.setattr(store, "MIGRATIONS", (*migrations, half_done))
    with pytest.raises(StoreError, match="no such table"):
        Store(db)
    assert _version(db) == len(migrations)
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'extra'"
                            ).fetchone() == (0,)
    monkeypatch.setattr(store, "MIGRATIONS", (*migrations, done))
    Store(db).close()
    assert _version(db) == len(migrations) + 1


@pytest.mark.numba_compile
def test_a_database_from_before_reactions_reads_and_migrates_with_them_allowed(
        tmp_path: Path) -> None:
    """The reactions column is migration 4, after the players' tables (2) and the last
    activity (3): a version-3 file is read (read-only, as ``export`` does) without it,
    then brought up to date with its tables' reactions unknown (NULL), which allows
    them."""
    db = tmp_path / "v3.sqlite3"
    with TestClient(create_app(make_settings(db))) as client:
        table_id = create(client, TWO)["table_id"]
    with sqlite3.connect(db) as conn:  # the layout of version 3
        conn.execute("ALTER TABLE tables DROP COLUMN reactions")
        conn.execute("PRAGMA user_version = 3")
    readonly = Store(db, readonly=True)
    try:
        row = readonly.load(table_id)
    finally:
        readonly.close()
    assert row is not None
    assert row.reactions is None
    assert row.active is not None
    assert _version(db) == 3
    with TestClient(create_app(make_settings(db))) as client:
        assert client.get(f"/api/tables/{table_id}").json()["reactions"] is True
    assert _version(db) == len(store.MIGRATIONS) == 4
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT reactions FROM tables").fetchall() == [(None,)]


@pytest.mark.parametrize("newer", ["user_version 99", "a NOT NULL column"])
@pytest.mark.numba_compile
def test_a_database_from_a_newer_version_is_refused_at_start(tmp_path: Path,
                                                             newer: str) -> None:
    db = tmp_path / "new.sqlite3"
    with TestClient(create_app(make_settings(db))) as client:
        create(client, TWO)
    with sqlite3.connect(db) as conn:
        if newer == "user_version 99":
            conn.execute("PRAGMA user_version = 99")
        else:
            # a new column with a default is fine (this version need not fill it) ...
            conn.execute("ALTER TABLE seats ADD COLUMN avatar TEXT NOT NULL DEFAULT 'y'")
            # ... one that a newer version fills itself is not: every insert would fail
            conn.execute("ALTER TABLE tables ADD COLUMN colour TEXT NOT NULL DEFAULT 'x'")
            conn.execute("CREATE TABLE t2 AS SELECT * FROM tables")
            conn.execute("DROP TABLE tables")
            conn.execute(
                "CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, "
                "rules TEXT NOT NULL, status TEXT NOT NULL, rematch TEXT, ready TEXT NOT "
                "NULL DEFAULT '[]', finished REAL, cuts TEXT, party TEXT, hints INTEGER, "
                "active REAL, reactions INTEGER, colour TEXT NOT NULL)")
            conn.execute("INSERT INTO tables SELECT * FROM t2")
            conn.execute("DROP TABLE t2")
    result = _serve(db)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert "served at" not in result.stdout
    want = "schema version 99" if newer == "user_version 99" else "tables.colour"
    assert result.stderr.startswith("Error: "), result.stderr
    assert want in result.stderr
    assert "newer trashcards" in result.stderr
    exported = CliRunner().invoke(export, [str(tmp_path / "out"), "--db", str(db)])
    if newer == "user_version 99":  # reading a newer layout is refused too
        assert exported.exit_code == 1
        assert "newer trashcards" in exported.output
    else:
        assert exported.exit_code == 0, exported.output


def _serve_on(db: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", "serve", "--port", "0",
                           "--db", str(db)], capture_output=True, text=True, timeout=60,
                          check=False)


@pytest.mark.parametrize("damage", ["DROP TABLE seats", "ALTER TABLE tables DROP COLUMN active"])
@pytest.mark.numba_compile
def test_a_database_missing_a_table_or_column_is_refused_at_start(
        database: str | Path, damage: str) -> None:
    """Before, a file without its ``seats`` table was served, and every create failed
    with 503; now the start is refused with one line naming what is missing."""
    with TestClient(create_app(make_settings(database))) as client:
        create(client, TWO)
    if isinstance(database, Path):
        with sqlite3.connect(database) as conn:
            conn.execute("PRAGMA foreign_keys = OFF")
            conn.execute(damage)
    else:
        psycopg = pytest.importorskip("psycopg")
        with psycopg.connect(database, autocommit=True) as conn:
            conn.execute(damage + (" CASCADE" if "DROP TABLE" in damage else ""))
    result = _serve_on(database)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "served at" not in result.stdout
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: "), result.stderr
    missing = "no table seats" if "seats" in damage else "no column tables.active"
    assert missing in lines[0]
    assert "restore it from a backup" in lines[0]
