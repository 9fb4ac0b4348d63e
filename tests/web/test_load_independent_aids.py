"""What a test server's AI answers never depends on the machine's load or on how far a
background job got (docs/development.md): with ``coarse_when_busy`` off a hint keeps its
whole budget while work waits, and with ``odds_in_background`` off the match-odds table
of rules that ship none is never computed, so their answers stay on one path."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from webtools import make_settings

from trashcards.rules import Rules
from trashcards.web.advice import OddsTables, Work
from trashcards.web.aids import Aids
from trashcards.web.settings import Settings

UNSHIPPED = Rules.preset_named("standard").with_fields({"start_size": 4, "rounds_to_win": 2})

@pytest.fixture(autouse=True)
def _own_odds_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty match-odds cache of this test's own: a table that another test of this
    process computed (or a background computation finished) must not change a path."""
    monkeypatch.setenv("TRASHCARDS_CACHE", str(tmp_path / "odds-cache"))



@pytest.mark.numba_compile
def test_the_default_server_computes_an_unshipped_table_in_the_background() -> None:
    tables = OddsTables()
    asked: list[Rules] = []
    tables._ask = asked.append  # type: ignore[method-assign]
    assert not tables.ready(UNSHIPPED, 2)
    assert asked == [UNSHIPPED]


def test_a_test_server_never_computes_one_so_its_answers_keep_one_path() -> None:
    tables = OddsTables(compute=False)
    asked: list[Rules] = []
    tables._ask = asked.append  # type: ignore[method-assign]
    assert not tables.ready(UNSHIPPED, 2)
    assert not tables.ready(UNSHIPPED, 2)
    assert asked == []
    assert tables.ready(Rules.preset_named("standard"), 2)  # shipped: ready at once


def _aids(settings: Settings, busy: bool) -> Any:
    advisor = SimpleNamespace(busy=lambda kind: busy)
    table = SimpleNamespace(settings=settings, advisor=advisor)
    aids = Aids.__new__(Aids)
    aids.table = table
    return aids


@pytest.mark.numba_compile
def test_busy_work_makes_a_served_hint_coarse_but_a_test_servers_never(tmp_path: Path) -> None:
    served = Settings(db_path=tmp_path / "a.sqlite3")
    assert _aids(served, busy=True)._budget(300, Work.HINT, True)[0] < 300
    assert _aids(served, busy=False)._budget(300, Work.HINT, True) == (300, None)
    tested = make_settings(tmp_path / "b.sqlite3")
    assert _aids(tested, busy=True)._budget(300, Work.HINT, True) == (300, None)
