"""Records written to break the reader (issue 7): each cause that once escaped the error
family now gives a ``RecordFormatError`` (or a ``RecordError``) that says why."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from trashcards.actions import parse_action, parse_move
from trashcards.boundedjson import nesting_depth, parse
from trashcards.cards import parse_card
from trashcards.errors import JSONTextError, NotationError, RecordFormatError, RulesError, brief
from trashcards.record import MAX_SIZE, load, loads
from trashcards.rules import Rules

DATA = Path(__file__).parent.parent / "data"


def _record(**changes: object) -> str:
    record = json.loads((DATA / "classic-2p.trash.json").read_text())
    record.update(changes)
    return json.dumps(record)


@pytest.mark.parametrize("text", ["wild ²", "wild ①", "wild ٣", "wild ７", "wild 0",
                                  "wild 11", "wild " + "1" * 5000, "wild 0007"])
def test_wild_slots_are_ascii_digits_1_to_10(text: str) -> None:
    if text == "wild 0007":
        assert str(parse_action(text)) == "wild 7"
        return
    with pytest.raises(NotationError, match="wild needs one slot from 1 to 10"):
        parse_action(text)


@pytest.mark.parametrize("text", ["dealer ①", "dealer ³", "dealer 4", "dealer " + "9" * 5000])
def test_dealer_is_a_seat_0_to_3_in_ascii_digits(text: str) -> None:
    with pytest.raises(NotationError, match="dealer needs a seat number from 0 to 3"):
        parse_move(text)


@pytest.mark.parametrize("text", ["³: stock", "4: stock", "9" * 5000 + ": stock"])
def test_seat_prefixes_are_seats_0_to_3(text: str) -> None:
    with pytest.raises(NotationError):
        parse_move(text)
    assert parse_move("3: stock")[0] == 3


@pytest.mark.parametrize("text", ["X²", "X0", "X33", "X" + "1" * 5000, "X①"])
def test_jokers_are_x1_to_x32(text: str) -> None:
    with pytest.raises(NotationError, match="not a card"):
        parse_card(text)
    assert parse_card("X32").joker_number == 32


@pytest.mark.parametrize("preset", ["first-to-" + "1" * 5000, "first-to-٣", "first-to-0",
                                    "first-to-10"])
def test_first_to_n_needs_n_from_1_to_9(preset: str) -> None:
    with pytest.raises(RulesError, match="write first-to-N with N a number of slots"):
        Rules.preset_named(preset)
    assert Rules.preset_named("first-to-09").rounds_to_win == 1


@pytest.mark.parametrize(("text", "pattern"), [
    ('{"format": "trash/1", "players": ["a", "b"], "rules": {"decks": 1' + "0" * 5000 + "}}",
     "digits"),
    ('{"format": "trash/1", "players": ["a", "b"], "moves": ' + "[" * 5000 + "]" * 5000 + "}",
     "nested 5001 deep"),
    ('{"format": ' + "[" * 100 + "]" * 100 + "}", "nested 101 deep"),
    ('{"format": "trash/1", "players": ["a", "b"], "rules": {"decks": NaN}}', "NaN"),
    (_record(moves=["dealer 0", "wild ²"]), "wild needs"),
    (_record(moves=["dealer ①"]), "dealer needs"),
    (_record(moves=["dealer 0", "³: stock"]), "not an action"),
    (_record(rules={"preset": "first-to-" + "1" * 4000}), "write first-to-N"),
    (_record(format=[[["x"]]]), "a list of 1 item"),
    (_record(moves=[[[1]]]), 'move 0 "a list of 1 item": not a string'),
    (" " * (MAX_SIZE + 1), "at most"),
])
def test_hostile_records_are_unreadable_with_the_reason(text: str, pattern: str) -> None:
    with pytest.raises(RecordFormatError, match=re.escape(pattern)) as info:
        loads(text)
    assert len(str(info.value)) < 400  # quoted, not copied whole


def test_a_file_is_read_no_further_than_the_limit(tmp_path: Path) -> None:
    path = tmp_path / "huge.trash.json"
    with path.open("wb") as file:
        file.truncate(MAX_SIZE * 4)
    with pytest.raises(RecordFormatError, match="at most"):
        load(path)
    with pytest.raises(RecordFormatError, match="cannot read"):
        load(tmp_path)


def test_depth_is_counted_outside_strings_only() -> None:
    assert nesting_depth('{"a": "[[[[{{{{", "b": [["]]"]]}') == 3
    assert nesting_depth('["\\"[[[", [1]]') == 2
    assert nesting_depth('"unterminated [[[[ \\') == 0
    with pytest.raises(JSONTextError) as info:
        parse("[" * 17 + "]" * 17, max_size=100, max_depth=16)
    assert info.value.kind == "depth"
    assert nesting_depth(json.dumps(parse("[" * 16 + "]" * 16, max_size=100, max_depth=16))) == 16


def test_brief_never_looks_into_what_it_describes() -> None:
    nested: list[object] = []
    for _ in range(100_000):
        nested = [nested]
    assert brief(nested) == "a list of 1 item"
    assert brief(10 ** 10_000) == "a number of about 10001 digits"
    assert brief("x" * 1000).endswith("… (1000 characters)")
    assert brief(["J", 1, None]) == "['J', 1, None]"
    assert brief({"a": nested}) == "an object of 1 field"


def _surrogate_records() -> list[tuple[str, str]]:
    """A lone surrogate (as a JSON escape) in every string field of a record."""
    record = json.loads((DATA / "classic-2p.trash.json").read_text())
    moves = record["moves"]
    return [
        ("player name", _record(players=["Ana\ud800", "Bo"])),
        ("low half", _record(players=["\udc00", "Bo"])),
        ("move", _record(moves=[*moves[:4], "1: discard\ud800", *moves[5:]])),
        ("format", _record(format="trash/1\udfff")),
        ("rules value", _record(rules={"preset": "classic\ud800"})),
        ("rules key", _record(rules={"preset\ud800": "classic"})),
        ("top key", _record(**{"extra\ud800": 1})),
        ("reversed pair", _record(players=["\\ude00\\ud83d", "Bo"]).replace("\\\\", "\\")),
    ]


@pytest.mark.parametrize(("where", "text"), _surrogate_records(),
                         ids=[where for where, _t in _surrogate_records()])
def test_a_lone_surrogate_anywhere_is_refused_at_the_parser(where: str, text: str) -> None:
    assert "\\ud" in text.lower()  # the escape itself, the text is plain ASCII
    with pytest.raises(RecordFormatError, match="lone surrogate") as info:
        loads(text)
    str(info.value).encode("utf-8")  # the message itself prints anywhere
    with pytest.raises(RecordFormatError, match="lone surrogate"):
        loads(text.encode("ascii"))
    with pytest.raises(JSONTextError) as raw:
        parse(text, max_size=MAX_SIZE, max_depth=16)
    assert raw.value.kind == "surrogate"


def test_a_surrogate_pair_is_a_character_and_reads() -> None:
    record = loads(_record(players=["Ana \ud83d\ude00", "Bo"]))
    assert record.players[0] == "Ana \U0001f600"
    assert loads(_record(players=["\\ud800 as text", "Bo"])).players[0] == "\\ud800 as text"


def test_a_lone_surrogate_in_a_str_given_to_the_parser_is_refused() -> None:
    with pytest.raises(JSONTextError) as info:
        parse('["\ud800"]', max_size=100, max_depth=4)
    assert info.value.kind == "surrogate"
