"""Fixtures of the web server tests (helpers are in ``webtools``)."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
# Starlette 1.x prefers the "httpx2" fork for its TestClient; httpx still works.
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

from starlette.testclient import TestClient  # noqa: E402
from webtools import make_settings  # noqa: E402

from trashcards.web import create_app  # noqa: E402


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """A server on a fresh database, with deterministic chance and no delays."""
    with TestClient(create_app(make_settings(tmp_path / "t.sqlite3"))) as test_client:
        yield test_client
