"""The scene a screen animates follows the events exactly: after every move it equals
the scene of the new view, across presets and table sizes, so no step can show a card
the view would not."""

from __future__ import annotations

import random

import pytest

from trashcards.bots import make_bot
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.tui.scene import Scene

PRESETS = ["standard", "kids", "jokers", "call-trash", "last-chance", "all-faces-wild"]


def comparable(scene: Scene) -> tuple:
    return (scene.round, scene.dealer, scene.to_act, scene.in_hand, scene.stock_count,
            scene.discard, scene.slots, scene.rounds_won)


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_scene_after_a_moves_events_is_the_scene_of_the_next_view(preset, players):
    rules = Rules.preset_named(preset)
    names = [f"P{seat}" for seat in range(players)]
    for seed in range(2):
        match = Match(rules, names, random.Random(seed))
        bots = [make_bot(kind, random.Random(seed * 10 + s))
                for s, kind in enumerate(["greedy", "kid", "random", "counter"][:players])]
        before = Scene.from_view(match.view(None))
        events = match.advance()
        for _ in range(400):
            after = before.after_all(events)
            assert comparable(after) == comparable(Scene.from_view(match.view(None)))
            if match.over:
                break
            before = Scene.from_view(match.view(None))
            seat = match.view(None).to_act
            events = match.play(bots[seat].choose(match.view(seat)), seat) + match.advance()


def test_each_step_marks_the_slot_it_touched():
    rules = Rules.preset_named("kids")
    match = Match(rules, ["A", "B"], random.Random(1))
    match.advance()
    seat = match.view(None).to_act
    from trashcards.actions import STOCK
    before = Scene.from_view(match.view(None))
    events = match.play(STOCK, seat)
    touched = [before.after_all(events[:i + 1]).last for i in range(len(events))]
    placed = [e for e in events if type(e).__name__ == "Placed"]
    for event in placed:
        assert (event.seat, event.slot) in touched
