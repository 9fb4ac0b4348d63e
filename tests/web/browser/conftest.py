"""Fixtures of the browser end-to-end tests: a real ``trashcards serve`` process on a
temporary database and a free port, and Debian's ``chromium`` driven by Playwright.

Select them with ``-m browser``. They skip only when no ``chromium`` executable exists
(CI installs it with ``apt-get install chromium``; Playwright's own browser download is
not used).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browserkit import CHROMIUM_ARGS, serve


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: end-to-end tests in a real chromium")


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a ``trashcards serve`` subprocess: bots act at once and the next
    round waits for the players' "next round". A review may take two minutes: the other
    test worker may be compiling or flooding a server meanwhile."""
    with serve(tmp_path_factory.mktemp("serve") / "tables.sqlite3",
               options=("--review-deadline", "120")) as base:
        yield base


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless chromium for the session (skips if chromium is not installed)."""
    executable = chromium_path()
    if executable is None:
        pytest.skip("chromium is not installed (apt-get install chromium); "
                    "the browser tests drive Debian's chromium, not Playwright's download")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@pytest.fixture
def new_context(browser: Any) -> Iterator[Any]:
    """Make browser contexts (each a separate browser profile: its own localStorage);
    English, a laptop-sized window and reduced motion (no animation delays) unless told."""
    made: list[Any] = []

    def make(**options: Any) -> Any:
        settings = {"viewport": {"width": 1280, "height": 900}, "locale": "en-US",
                    "reduced_motion": "reduce", **options}
        context = browser.new_context(**settings)
        context.set_default_timeout(20_000)
        made.append(context)
        return context

    yield make
    for context in made:
        context.close()


@pytest.fixture
def page(new_context: Any) -> Any:
    """A page in a fresh context; JavaScript errors fail the test."""
    context = new_context()
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    assert errors == [], f"JavaScript errors: {errors}"


@pytest.fixture(scope="session")
def screenshots_dir() -> Path:
    return Path(__file__).resolve().parents[3] / "docs" / "screenshots"
