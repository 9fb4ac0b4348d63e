"""Reviews are bounded: a record the size limit accepts is reviewed or refused within the
review deadline, however slow it is to review (long records, many rounds of four
players played to the end of the match, many reshuffles of a small deck, rules without a
shipped match-odds table); a client that hangs up takes its review with it."""

from __future__ import annotations

import dataclasses
import random
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from webtools import make_settings, wait_until_warm

from trashcards.bots import make_bot
from trashcards.record import Record
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.views import view
from trashcards.web import create_app

DEADLINE = 4.0


def _record(rules: Rules, players: int, seed: int, max_moves: int, bot: str = "random"
            ) -> Record:
    """A match of ``bot``s (seeded), cut at ``max_moves`` moves."""
    match = Match(rules, [f"p{i}" for i in range(players)], random.Random(seed))
    bots = [make_bot(bot, random.Random(seed * 10 + i)) for i in range(players)]
    match.advance()
    while not match.over and len(match.record.moves) < max_moves:
        seat = match.state.to_act
        assert seat is not None
        match.play(bots[seat].choose(view(match.state, seat)))
        match.advance()
    return match.record


SLOW = {
    # four players: no odds table, every decision played out to the end of the match
    "four players, long": lambda: _record(Rules.preset_named("standard"), 4, 1, 4000),
    # one deck, four players, big boards: the stock is reshuffled again and again
    "many reshuffles": lambda: _record(
        dataclasses.replace(Rules.preset_named("standard"), decks=1), 4, 2, 4000),
    # the longest record two players make, at the move limit
    "two players, long": lambda: _record(Rules.preset_named("standard"), 2, 3, 4000),
}


@pytest.mark.parametrize("name", sorted(SLOW))
@pytest.mark.numba_compile
def test_a_slow_record_is_reviewed_or_refused_within_the_deadline(tmp_path: Path,
                                                                  name: str) -> None:
    record = SLOW[name]()
    text = record.dumps()
    settings = make_settings(tmp_path / "r.sqlite3", review_deadline=DEADLINE,
                             max_review_body=1 << 22)
    with TestClient(create_app(settings)) as client:
        wait_until_warm(client)  # loading the kernel is the start-up's, not the review's
        started = time.monotonic()
        response = client.post("/api/review", content=text,
                               headers={"content-type": "application/json"})
        took = time.monotonic() - started
    assert took < DEADLINE + 2.0, (name, took)
    if response.status_code == 200:
        assert len(response.json()["positions"]) == len(record.moves) + 1
    else:
        assert response.status_code == 503, response.text
        assert response.json()["error"] == "busy"
        assert response.json()["retry_after"] > 0


@pytest.mark.numba_compile
def test_a_long_record_gets_fewer_deals_per_decision_and_says_so(tmp_path: Path) -> None:
    record = _record(Rules.preset_named("standard"), 2, 4, 4000)
    settings = make_settings(tmp_path / "r.sqlite3", review_samples=100, review_deals=800,
                             max_review_body=1 << 22)
    with TestClient(create_app(settings)) as client:
        response = client.post("/api/review", content=record.dumps(),
                               headers={"content-type": "application/json"})
    assert response.status_code == 200, response.text
    review = response.json()
    assert review["samples"] < 100
    assert any("deals per decision" in note for note in review["notes"])


@pytest.mark.numba_compile
def test_rules_without_an_odds_table_are_refused_at_once_with_a_retry(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TRASHCARDS_CACHE", str(tmp_path / "cache"))
    rules = dataclasses.replace(Rules.preset_named("standard"), start_size=7,
                                rounds_to_win=3)
    record = _record(rules, 2, 5, 200)
    settings = make_settings(tmp_path / "r.sqlite3", review_deadline=DEADLINE)
    with TestClient(create_app(settings)) as client:
        wait_until_warm(client)  # loading the kernel is the start-up's, not the review's
        started = time.monotonic()
        response = client.post("/api/review", content=record.dumps(),
                               headers={"content-type": "application/json"})
        assert time.monotonic() - started < 2.0
    assert response.status_code == 503
    assert response.json()["error"] == "busy"
    assert "odds" in response.json()["message"]
