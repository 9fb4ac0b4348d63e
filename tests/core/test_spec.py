"""The rules' spec (trashcards.spec) says what trashcards.rules does: every preset's
fields, every default, every range's ends (accepted) and one past them (refused)."""

from __future__ import annotations

from typing import Any

import pytest

from trashcards.errors import RulesError
from trashcards.rules import Rules
from trashcards.spec import rules_spec

SPEC = rules_spec()


@pytest.mark.parametrize("name", sorted(SPEC["presets"]))
def test_each_preset_is_the_defaults_plus_its_fields(name: str) -> None:
    rules = Rules.preset_named(name)
    expected = {**SPEC["defaults"], **SPEC["presets"][name]}
    assert {key: getattr(rules, key) for key in expected} == {
        key: tuple(value) if isinstance(value, list) else value
        for key, value in expected.items()}


def test_first_to_n_is_the_board_less_n_rounds() -> None:
    first = SPEC["first_to"]
    for n in range(first["min"], first["max"] + 1):
        assert Rules.preset_named(f"first-to-{n}").rounds_to_win == first["board"] - n
    for n in (first["min"] - 1, first["max"] + 1):
        with pytest.raises(RulesError):
            Rules.preset_named(f"first-to-{n}")


def _ends() -> list[tuple[str, Any, bool]]:
    cases: list[tuple[str, Any, bool]] = []
    for field, bounds in SPEC["ranges"].items():
        if "min" not in bounds:
            continue
        high = SPEC["ranges"]["start_size"]["max"] if bounds["max"] == "start_size" \
            else bounds["max"]
        cases += [(field, bounds["min"], True), (field, high, True),
                  (field, bounds["min"] - 1, False), (field, high + 1, False)]
        if "none" in bounds:
            cases.append((field, None, True))
    return cases


@pytest.mark.parametrize(("field", "value", "accepted"), _ends())
def test_each_range_holds_its_ends_and_refuses_past_them(field: str, value: Any,
                                                         accepted: bool) -> None:
    data = {field: value}
    if accepted:
        assert getattr(Rules.from_dict(data), field) == value
    else:
        with pytest.raises(RulesError):
            Rules.from_dict(data)


def test_the_flags_are_the_boolean_fields_and_describe_says_their_words() -> None:
    booleans = {key for key, value in SPEC["defaults"].items() if isinstance(value, bool)}
    assert set(SPEC["flags"]) == booleans
    for flag, words in SPEC["flags"].items():
        assert words in Rules.from_dict({flag: True}).describe()
        assert words not in Rules.from_dict({flag: False}).describe()


def test_wild_ranks_are_any_distinct_face_ranks() -> None:
    ranks = SPEC["ranges"]["wild_ranks"]["of"]
    assert Rules.from_dict({"wild_ranks": ranks}).wild_ranks == tuple(ranks)
    with pytest.raises(RulesError):
        Rules.from_dict({"wild_ranks": [ranks[0], ranks[0]]})
    with pytest.raises(RulesError):
        Rules.from_dict({"wild_ranks": ["T"]})
