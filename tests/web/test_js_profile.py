"""The browser's profile (static/js/profile.js) and ratings (ratings.js, glicko2.js)
against Python's (trashcards.players): the same levels' Elo, and for seeded random
profiles the same rating after every rated game, the same summary, the same refusals,
under Node's test runner (tests/web/js/profile.test.mjs)."""

from __future__ import annotations

import dataclasses
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from trashcards.ai.levels import LEVELS
from trashcards.players.profile import Game, Profile
from trashcards.rules import Rules

TEST = Path(__file__).resolve().parent / "js" / "profile.test.mjs"
PRESETS = ("standard", "kids", "classic", "call-trash", "jokers", "first-to-7", "last-chance")
#: "constructor": a person's name that is a property of every JavaScript object
OPPONENTS = ("bot:sometimes", "bot:kid", "bot:greedy", "bot:expert", "bot:random", "Bo", "Cy",
             "constructor")


def random_profile(rng: random.Random, games: int) -> Profile:
    profile = Profile("Ana", 1.7e9)
    at = 1.7e9
    for number in range(games):
        players = rng.choice((2, 2, 2, 3, 4))
        seats = ["Ana", *rng.sample(OPPONENTS, players - 1)]
        rng.shuffle(seats)
        rounds = [rng.randrange(0, 6) for _ in seats]
        winner = rng.randrange(players)
        rounds[winner] = 6
        at += rng.choice((60.0, 3600.0, 86400.0 * rng.randrange(1, 40)))
        rules = Rules.preset_named(rng.choice(PRESETS)).to_dict()
        profile.add(Game(f"g{number}", at, rng.choice(("device", "online", "terminal")),
                         rules, tuple(seats), seats.index("Ana"), tuple(rounds), winner))
    return profile


def cases() -> dict[str, Any]:
    rng = random.Random(7)
    profiles: list[dict[str, Any]] = []
    for size in (0, 1, 5, 40, 200):
        profile = random_profile(rng, size)
        now = profile.games[-1].at + 20 * 86400 if profile.games else 1.7e9
        profiles.append({
            "profile": profile.to_json(), "summary": profile.summary(), "now": now,
            "history": {family: [{"game": p.game, "at": p.at,
                                  "rating": dataclasses.asdict(p.rating)} for p in points]
                        for family, points in profile.history().items()},
            "now_ratings": {family: dataclasses.asdict(r)
                            for family, r in profile.ratings(now).items()}})
    good: dict[str, Any] = profiles[2]["profile"]
    refused = [
        {"profile": {**good, "format": "x"}, "says": "format"},
        {"profile": {**good, "name": "a\u202eb"}, "says": "name"},
        {"profile": {**good, "games": [{**good["games"][0], "me": 9}]}, "says": "agree"},
        {"profile": {**good, "games": [{**good["games"][0], "where": "moon"}]},
         "says": "where"},
        {"profile": {**good, "games": [{**good["games"][0], "rules": {"preset": "nope"}}]},
         "says": "rules"},
    ]
    levels = [{"name": level.name, "bot": level.bot, "elo": level.elo, "low": level.low,
               "high": level.high} for level in LEVELS]
    return {"profiles": profiles, "refused": refused, "levels": levels}


def _run(path: Path) -> subprocess.CompletedProcess[str]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return subprocess.run([node, "--test", str(TEST)], capture_output=True, text=True,
                          env={**os.environ, "TRASH_PROFILE_CASES": str(path)}, check=False,
                          timeout=300)


@pytest.mark.node
def test_the_browser_profile_rates_and_adds_up_as_python(tmp_path: Path) -> None:
    made = cases()
    rated = sum(Game.from_json(g).rated for p in made["profiles"] for g in p["profile"]["games"])
    assert rated > 40  # the cases hold rated games, of several families
    assert len({f for p in made["profiles"] for f in p["history"]}) == 4
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(made), encoding="utf-8")
    done = _run(path)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"checked 5 profiles, 246 games", done.stdout), done.stdout[-2000:]


@pytest.mark.node
def test_a_changed_rating_fails_the_node_test(tmp_path: Path) -> None:
    made = cases()
    points = made["profiles"][4]["history"]["standard"]
    points[-1]["rating"]["rating"] += 0.01
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(made), encoding="utf-8")
    done = _run(path)
    assert done.returncode != 0
    assert "standard" in done.stdout
