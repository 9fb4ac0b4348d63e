"""``--rules field=value``: JSON values when they parse, lists by commas, errors name the field."""

from __future__ import annotations

import pytest

from trashcards.cli.options import parse_rules_assignments
from trashcards.errors import RulesError
from trashcards.rules import Rules


@pytest.mark.parametrize(("items", "expected"), [
    (["call_trash=true"], {"call_trash": True}),
    (["call_trash=True"], {"call_trash": True}),
    (['wild_ranks=["K"]'], {"wild_ranks": ["K"]}),
    (["wild_ranks=K,Q"], {"wild_ranks": ["K", "Q"]}),
    (["wild_ranks=K"], {"wild_ranks": ["K"]}),
    (["wild_ranks="], {"wild_ranks": []}),
    (["start_size=5 rounds_to_win=2", "decks=null"],
     {"start_size": 5, "rounds_to_win": 2, "decks": None}),
])
def test_values_parse_as_json_or_lists(items, expected):
    assert parse_rules_assignments(items) == expected


def test_the_assignments_change_the_preset():
    fields = parse_rules_assignments(["wild_ranks=K,Q last_chance=true"])
    rules = Rules.preset_named("kids").with_fields(fields)
    assert rules.wild_ranks == ("K", "Q")
    assert rules.last_chance
    assert rules.start_size == 5


def test_a_word_without_equals_sign_is_refused():
    with pytest.raises(RulesError, match="call_trash: write field=value"):
        parse_rules_assignments(["call_trash"])


@pytest.mark.parametrize(("text", "field"), [
    ("call_trash=maybe", "call_trash"), ("colour=red", "colour"), ("start_size=11", "start_size"),
])
def test_bad_values_name_the_field(text, field):
    with pytest.raises(RulesError) as caught:
        Rules().with_fields(parse_rules_assignments([text]))
    assert caught.value.field == field
