"""Records (RECORDS.md): golden replays, round trips and every kind of error."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from trashcards import Rules
from trashcards.errors import RecordError, RecordFormatError
from trashcards.record import Record, load, loads
from trashcards.statejson import revealed_json

DATA = Path(__file__).parent.parent / "data"
GOLDEN = sorted(DATA.glob("*.json"))
EXPECTED = [p for p in GOLDEN if not p.name.endswith(".trash.json")]


def _normal(state: dict[str, object]) -> dict[str, object]:
    out = dict(state)
    out["legal"] = sorted(out["legal"])  # type: ignore[arg-type]
    return out


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: p.name)
def test_golden_record_replays_to_its_expected_state(expected: Path) -> None:
    name, _, suffix = expected.name.removesuffix(".json").rpartition(".")
    record = load(DATA / f"{name}.trash.json")
    upto = None if suffix == "final" else int(re.fullmatch(r"upto(\d+)", suffix).group(1))  # type: ignore[union-attr]
    want = json.loads(expected.read_text())
    got = revealed_json(record.replay(upto))
    assert {k: _normal(got)[k] for k in want} == _normal(want)


@pytest.mark.parametrize("path", sorted(DATA.glob("*.trash.json")), ids=lambda p: p.name)
def test_record_dump_and_load_round_trip(path: Path) -> None:
    record = load(path)
    again = loads(record.dumps())
    assert again == record
    assert again.replay() == record.replay()


def test_output_is_canonical_whatever_the_input_spelling() -> None:
    text = json.dumps({"format": "trash/1", "rules": {"preset": "classic"},
                       "players": ["a", "b"], "moves": ["DEALER 0", "1 :STOCK", "Wild 3"]})
    record = loads(text)
    assert [str(m) for m in record.moves] == ["dealer 0", "1: stock", "wild 3"]
    deck = loads(json.dumps({"format": "trash/1", "players": ["a", "b"],
                             "moves": ["dealer 0", "deck 10s T♠ ah"]}))
    assert str(deck.moves[1]) == "deck Ts Ts Ah"


def _with_moves(moves: list[str], rules: dict[str, object] | None = None) -> str:
    return json.dumps({"format": "trash/1", "rules": rules or {"preset": "classic"},
                       "players": ["Ana", "Bo"], "moves": moves})


CLASSIC = json.loads((DATA / "classic-2p.trash.json").read_text())["moves"]


@pytest.mark.parametrize(("moves", "index", "pattern"), [
    (["stock"], 0, "a dealer move is due"),
    ([*CLASSIC[:2], "0: stock"], 2, "seat prefix 0 but seat 1 is to act"),
    ([*CLASSIC[:2], "discard"], 2, "the discard pile is empty"),
    ([*CLASSIC[:12], "wild 7"], 12, "slot 7 is face up"),
    ([*CLASSIC, "stock"], len(CLASSIC), "the match is over"),
    (["dealer 0", "deck As Ah"], 1, "must be exactly the match's cards"),
    (["dealer 0", CLASSIC[1], "reshuffle As"], 2, "seat 1 must act"),
    (["dealer 2"], 0, "no seat 2"),
])
def test_replay_stops_at_the_first_bad_move_with_its_index(
        moves: list[str], index: int, pattern: str) -> None:
    record = loads(_with_moves(moves))
    with pytest.raises(RecordError) as info:
        record.replay()
    assert info.value.index == index
    assert info.value.exit_status == 1
    assert str(info.value).startswith(f'move {index} "')
    assert pattern in str(info.value)


def test_error_message_names_the_move_as_written_canonically() -> None:
    record = loads(_with_moves([*CLASSIC[:12], "1:wild 7"]))
    with pytest.raises(RecordError, match=r'^move 12 "1: wild 7": slot 7 is face up$'):
        record.replay()


@pytest.mark.parametrize(("text", "pattern"), [
    ("not json", "not JSON"),
    ('{"format": "trash/2", "players": ["a", "b"], "moves": []}', "format"),
    ('{"format": "trash/1", "players": ["a"], "moves": []}', "players"),
    ('{"format": "trash/1", "players": ["a","b","c","d","e"], "moves": []}', "players"),
    ('{"format": "trash/1", "rules": {"colour": 1}, "players": ["a","b"], "moves": []}',
     "colour"),
    ('{"format": "trash/1", "rules": {"start_size": 12}, "players": ["a","b"], "moves": []}',
     "start_size"),
    ('{"format": "trash/1", "players": ["a","b"], "moves": ["dealer 0", "deck Zz"]}',
     'move 1 "deck Zz": not a card'),
    ('{"format": "trash/1", "players": ["a","b"], "moves": ["dealer 0", "fold"]}',
     'move 1 "fold": not an action'),
    ('{"format": "trash/1", "players": ["a","b"], "moves": ["wild x"]}', "wild needs"),
    ('{"format": "trash/1", "players": ["a","b"], "moves": [3]}', "move 0"),
])
def test_unreadable_records_are_refused_with_exit_status_2(text: str, pattern: str) -> None:
    with pytest.raises(RecordFormatError, match=re.escape(pattern)) as info:
        loads(text)
    assert info.value.exit_status == 2


def test_upto_applies_only_the_first_moves() -> None:
    record = load(DATA / "classic-2p.trash.json")
    assert record.replay(0).dealer is None
    assert record.replay(1).dealer == 0
    assert record.replay(10_000) == record.replay()


def test_rules_in_a_record_are_a_preset_plus_the_fields_that_differ() -> None:
    rules = Rules.preset_named("kids").with_fields({"call_trash": True})
    record = Record(rules, ("a", "b"))
    assert json.loads(record.dumps())["rules"] == {"preset": "kids", "call_trash": True}
