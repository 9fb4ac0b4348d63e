"""Fixtures of the web server tests (helpers are in ``webtools``)."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
# Starlette 1.x prefers the "httpx2" fork for its TestClient; httpx still works.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from pgtools import OPT_OUT, Cluster, PostgresMissingError, running_cluster  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402
from webtools import make_settings  # noqa: E402

from trashcards.web import create_app  # noqa: E402

#: The storage backends every test of the ``client`` and ``database`` fixtures runs on.
BACKENDS = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One throwaway PostgreSQL cluster for the whole run (see ``pgtools``)."""
    try:
        with running_cluster() as cluster:
            yield cluster
    except PostgresMissingError as exc:
        if os.environ.get(OPT_OUT) == "1":
            pytest.skip(str(exc))
        pytest.fail(str(exc))


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """The URL of a new, empty PostgreSQL database."""
    return pg_cluster.database()


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """A fresh database of each backend: an SQLite file, a PostgreSQL URL."""
    if request.param == "sqlite":
        return tmp_path / "t.sqlite3"
    url: str = request.getfixturevalue("pg_url")
    return url


@pytest.fixture
def client(database: str | Path) -> Iterator[TestClient]:
    """A server on a fresh database (of each backend), with deterministic chance and no
    delays."""
    with TestClient(create_app(make_settings(database))) as test_client:
        yield test_client
