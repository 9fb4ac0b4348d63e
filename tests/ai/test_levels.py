"""The levels (trashcards.ai.levels): measured Elo from the skill report, in order."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from trashcards.ai.levels import LEVELS, level_named
from trashcards.bots import BOTS

FIGURES = Path(__file__).parents[2] / "docs" / "analysis" / "skill" / "figures.json"


def test_the_levels_are_the_measured_ones() -> None:
    measured = json.loads(FIGURES.read_text(encoding="utf-8"))["levels"]
    assert [(lv.name, lv.bot) for lv in LEVELS] == [(m["name"], m["bot"]) for m in measured]
    for level, m in zip(LEVELS, measured, strict=True):
        assert level.elo == pytest.approx(m["elo"], abs=0.5)
        assert level.low == pytest.approx(m["low"], abs=0.5)
        assert level.high == pytest.approx(m["high"], abs=0.5)
        assert level.apart_from_below == m["apart_from_below"]


def test_levels_go_up_and_make_their_bots() -> None:
    assert [lv.elo for lv in LEVELS] == sorted(lv.elo for lv in LEVELS)
    for level in LEVELS:
        assert level.bot in BOTS
        assert level.low <= level.elo <= level.high
        assert type(level.make(random.Random(0))).name == level.bot
        assert level.name in level.label
    assert level_named("Good").bot == "greedy"
    with pytest.raises(ValueError, match="the levels are"):
        level_named("grandmaster")
