"""A player's page in Chromium, in each of the five languages: each habit shows the
sentence comparing it with rated players of the player's band (served with the
``--peer-…`` options of ``trashcards serve``) and with the level nearest the player's
rating; with too few players in the band, no figure of it (docs/players.md, "Habits")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browserkit import serve
from playertools import FAST, habits_and_band, players_server

STATIC = Path(__file__).resolve().parents[3] / "src" / "trashcards" / "web" / "static"
LANGUAGES = ("en", "es", "nl", "it", "vi")

pytestmark = pytest.mark.browser


def _message(lang: str, key: str) -> str:
    message = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))[key]
    return str(message["other"] if isinstance(message, dict) else message)


def _habits(page: Any, base: str, lang: str) -> tuple[str, list[str], list[str]]:
    page.goto(f"{base}/player/Ana")
    page.wait_for_function("document.body.dataset.ready === '1'")
    page.wait_for_function("document.querySelector('#habits-list li[data-kind]') !== null")
    assert page.evaluate("document.documentElement.lang") == lang
    return (page.inner_text("#habits-peers"),
            page.locator("#habits-list .habit-peers").all_inner_texts(),
            page.locator("#habits-list .habit-level").all_inner_texts())


@pytest.mark.slow
def test_the_players_page_compares_each_habit_in_every_language(
        new_context: Any, tmp_path: Path) -> None:
    db = tmp_path / "players.sqlite3"
    with players_server(db, FAST) as client:  # Ana and five others at 1700, reviewed
        habits_and_band(client, range(5))
    errors: list[str] = []
    with serve(db, options=["--peer-refresh", "0", "--habit-interval", "3600"]) as base:
        for lang in LANGUAGES:
            page = new_context(locale=lang).new_page()
            page.on("pageerror", lambda error: errors.append(str(error)))
            note, peers, level = _habits(page, base, lang)
            assert "1650–1750" in note, note
            assert len(peers) == 1
            for part in ("1700", "2 %", "750", "1–3 %"):
                assert part in peers[0], peers
            assert "habits." not in note + "".join(peers + level)
            # 12 % of 200 (8–17 %) against 2 % (1–3 %): "more often", in this language
            assert peers[0].endswith(_message(lang, "habits.peers.more").split("}")[-1])
            assert len(level) == 1
            assert "1670" in level[0]  # the good level's Elo, nearest Ana's 1712
    assert errors == []


@pytest.mark.slow
def test_with_too_few_players_in_the_band_the_page_shows_no_figure_of_it(
        new_context: Any, tmp_path: Path) -> None:
    db = tmp_path / "players.sqlite3"
    with players_server(db, FAST) as client:
        habits_and_band(client, range(4))  # four others: one fewer than the minimum
    with serve(db, options=["--peer-refresh", "0", "--habit-interval", "3600"]) as base:
        for lang in ("en", "vi"):
            page = new_context(locale=lang).new_page()
            note, peers, _level = _habits(page, base, lang)
            assert peers == []
            assert note.startswith(_message(lang, "habits.peers.few").split("{")[0]), note
