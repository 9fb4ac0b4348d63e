"""A real, throwaway PostgreSQL cluster for the tests: ``initdb`` in a temporary folder,
``pg_ctl start`` on a Unix socket there (no TCP port), one fresh database per test.

The server's binaries are found with ``pg_config --bindir``, else in Debian's
``/usr/lib/postgresql/<version>/bin``, else on ``PATH``. When there are none
:func:`running_cluster` raises :class:`PostgresMissingError`; the tests' fixture then fails,
saying how to install them, unless ``TRASHCARDS_NO_POSTGRES=1`` is set, which skips them
(for machines without PostgreSQL; CI never sets it). ``benchmarks/server.py`` starts its
clusters here too.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

__all__ = ["DURABLE", "FAST", "Cluster", "PostgresMissingError", "find_bindir", "running_cluster"]

#: Set to 1 to skip the PostgreSQL tests on a machine without PostgreSQL.
OPT_OUT = "TRASHCARDS_NO_POSTGRES"
#: Settings for tests: nothing is flushed to disk (the cluster is thrown away anyway).
FAST = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
#: Settings as docs/deploy.md recommends: every commit written to the log before it is
#: acknowledged, flushed within a fifth of a second (synchronous_commit=off: the
#: durability of the SQLite backend's WAL with synchronous=NORMAL).
DURABLE = "-c synchronous_commit=off"


class PostgresMissingError(RuntimeError):
    """PostgreSQL's server binaries are not installed."""


def find_bindir() -> Path | None:
    """The folder of ``initdb``, ``pg_ctl`` and ``postgres``, or ``None``."""
    candidates: list[str] = []
    pg_config = shutil.which("pg_config")
    if pg_config:
        with suppress(OSError, subprocess.CalledProcessError):
            candidates.append(subprocess.run([pg_config, "--bindir"], capture_output=True,
                                             text=True, check=True).stdout.strip())
    candidates += sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True)
    initdb = shutil.which("initdb")
    if initdb:
        candidates.append(str(Path(initdb).parent))
    for folder in candidates:
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    return None


class Cluster:
    """A running cluster: :meth:`database` makes a new empty database and gives its URL."""

    def __init__(self, bindir: Path, root: Path, user: str | None, settings: str = FAST) -> None:
        self.bindir = bindir
        self.settings = settings
        self.root = root
        self.socket_dir = root / "socket"
        self.user = user
        self._count = 0

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        command = list(args)
        if self.user is not None:  # initdb and postgres refuse to run as root
            command = ["runuser", "-u", self.user, "--", *command]
        return subprocess.run(command, capture_output=True, text=True, check=False,
                              timeout=120)

    def start(self) -> None:
        data = self.root / "data"
        done = self._run(str(self.bindir / "initdb"), "-D", str(data), "-U", "trash",
                         "--auth=trust", "-E", "UTF8", "--no-sync")
        if done.returncode:
            raise RuntimeError(f"initdb failed: {done.stderr or done.stdout}")
        self.restart()

    def restart(self) -> None:
        """Start the server on the existing data folder (after :meth:`stop` or
        :meth:`crash`: PostgreSQL recovers from its log first)."""
        data = self.root / "data"
        options = (f"-k {self.socket_dir} -c listen_addresses='' -c max_connections=200 "
                   f"{self.settings}")
        done = self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-l",
                         str(self.root / "log"), "-o", options, "-w", "-t", "60", "start")
        if done.returncode:
            log_file = self.root / "log"
            log = log_file.read_text(errors="replace") if log_file.exists() else ""
            raise RuntimeError(f"pg_ctl start failed: {done.stderr or done.stdout}\n{log}")

    def stop(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.root / "data"), "-m",
                  "immediate", "-w", "stop")

    def crash(self) -> None:
        """Stop the server as a crash would: every process killed at once, no
        checkpoint, commits not yet in the log (``synchronous_commit=off``) lost."""
        self.stop()

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://trash@/{database}?host={self.socket_dir}"

    def database(self) -> str:
        """A new, empty database; its URL."""
        import psycopg

        self._count += 1
        name = f"t{os.getpid()}_{self._count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def sql(self, url: str, query: str, *params: object) -> list[tuple[object, ...]]:
        """Run one statement on ``url``; its rows."""
        import psycopg

        with psycopg.connect(url, autocommit=True) as conn:
            cursor = conn.execute(query, params or None)  # type: ignore[arg-type, unused-ignore]
            return cursor.fetchall() if cursor.description else []


@contextmanager
def running_cluster(settings: str = FAST) -> Iterator[Cluster]:
    """Start a cluster (with ``settings``, ``-c name=value`` options of ``postgres``) in a
    temporary folder; stop and delete it afterwards. Raises :class:`PostgresMissingError`
    when PostgreSQL is not installed."""
    bindir = find_bindir()
    if bindir is None:
        raise PostgresMissingError(
            "PostgreSQL is not installed (no initdb found): `apt-get install postgresql` "
            f"(bash scripts/check does), or set {OPT_OUT}=1 to skip the PostgreSQL tests")
    user = None
    if os.geteuid() == 0:
        user = "postgres" if _has_user("postgres") else "nobody"
    root = Path(tempfile.mkdtemp(prefix="trash-pg-"))
    (root / "socket").mkdir()
    if user is not None:
        shutil.chown(root, user)
        shutil.chown(root / "socket", user)
    cluster = Cluster(bindir, root, user, settings)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(root, ignore_errors=True)


def _has_user(name: str) -> bool:
    import pwd

    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
