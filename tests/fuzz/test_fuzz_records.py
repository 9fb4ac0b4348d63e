"""No record, however broken, gets out of the error family: reading one gives a
:class:`~trashcards.record.Record` or a ``RecordFormatError``, replaying it a state or a
``RecordError``, and ``trashcards replay`` exits 0, 1 or 2 without a traceback and
without printing a control character from the record.

CI tries 10,000 mutants of the real records in ``tests/data`` plus hypothesis-made
records and JSON values; ``--fuzz-scale 10`` tries 100,000 mutants.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from click.testing import CliRunner
from fuzzkit import CORPUS, WORDS, mutant, tally
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from trashcards.cli.replay import replay
from trashcards.errors import RecordError, RecordFormatError
from trashcards.names import printable
from trashcards.record import Record, loads

SEED = 7


def _read_and_replay(text: str | bytes) -> str:
    """What became of one record text: "valid", "unreadable" or "breaks a rule"; raises
    anything outside the error family."""
    try:
        record = loads(text)
    except RecordFormatError:
        return "unreadable"
    assert isinstance(record, Record)
    try:
        record.replay()
        record.replay(len(record.moves) // 2)
    except RecordFormatError as exc:  # pragma: no cover - a replay never says "unreadable"
        raise AssertionError(f"replay raised RecordFormatError: {exc}") from exc
    except RecordError as exc:
        return "breaks a rule" if exc.index is not None else "breaks a rule (no index)"
    return "valid"


@pytest.mark.slow
def test_mutated_records_stay_in_the_error_family(fuzz_scale: float) -> None:
    count = int(10_000 * fuzz_scale)
    result = tally("records (mutants of tests/data)")
    started = time.perf_counter()
    for index in range(count):
        text = mutant(SEED, index)
        try:
            result.ok(_read_and_replay(text))
        except Exception as exc:
            result.fail(f"mutant({SEED}, {index})", f"{type(exc).__name__}: {exc!s:.200}")
    elapsed = time.perf_counter() - started
    print(f"{count:,} mutated records in {elapsed:.1f} s")
    assert result.failures == []
    assert result.outcomes["breaks a rule (no index)"] == 0
    assert result.outcomes["valid"] > 0  # the mutants are not all trivially broken
    assert result.outcomes["breaks a rule"] > count // 20


def test_bytes_that_are_not_utf8_are_unreadable() -> None:
    rng = random.Random(3)
    result = tally("records (bytes)")
    for source in CORPUS:
        data = source.encode()
        for _ in range(50):
            at = rng.randrange(len(data))
            broken = data[:at] + bytes([rng.choice((0x80, 0xC3, 0xFF, 0xED))]) + data[at:]
            try:
                result.ok(_read_and_replay(broken))
            except Exception as exc:
                result.fail(repr(broken[:40]), f"{type(exc).__name__}: {exc!s:.200}")
    assert result.failures == []


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=20) | st.sampled_from(WORDS),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=30)

_ACTION = st.one_of(
    st.sampled_from(["stock", "discard", "swap", "trash", "call"]),
    st.builds("wild {}".format, st.integers(1, 10)))
#: Mostly moves that parse (so replays run on and break rules), now and then garbage.
_MOVE = st.one_of(
    _ACTION, _ACTION, _ACTION,
    st.builds("{}: {}".format, st.integers(0, 3), _ACTION),
    st.builds("dealer {}".format, st.integers(0, 4)),
    st.sampled_from(WORDS),
    st.builds("{} {}".format, st.sampled_from(WORDS), st.sampled_from(WORDS)),
    st.text(max_size=12),
)

_RULES = st.dictionaries(
    st.sampled_from(["preset", "decks", "jokers_per_deck", "wild_ranks", "start_size",
                     "rounds_to_win", "call_trash", "last_chance"]),
    st.one_of(st.integers(-3, 12), st.booleans(), st.none(),
              st.sampled_from(["standard", "kids", "first-to-3", "first-to-٣"]),
              st.lists(st.sampled_from(["J", "Q", "K", "j", "A"]), max_size=4)),
    max_size=3)


@st.composite
def _records(draw: st.DrawFn) -> dict[str, Any]:
    """A real record with its moves cut, changed and extended, and now and then its
    rules, players or format changed."""
    record: dict[str, Any] = json.loads(draw(st.sampled_from(CORPUS)))
    moves: list[Any] = record["moves"][:draw(st.integers(0, len(record["moves"])))]
    for _ in range(draw(st.integers(0, 2))):
        moves.insert(draw(st.integers(0, len(moves))), draw(_MOVE))
    record["moves"] = moves + draw(st.lists(_MOVE, max_size=4))
    if draw(st.integers(0, 9)) == 0:
        record["rules"] = draw(_RULES | _JSON)
    if draw(st.integers(0, 9)) == 0:
        record["players"] = draw(st.lists(st.text(max_size=8), max_size=5))
    if draw(st.integers(0, 19)) == 0:
        record["format"] = draw(_JSON)
    return record


_RECORD = _records()

_SETTINGS = settings(deadline=None, database=None,
                     suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.fixture
def examples(fuzz_scale: float) -> int:
    return int(1_000 * fuzz_scale)


def test_hypothesis_records_stay_in_the_error_family(examples: int) -> None:
    result = tally("records (hypothesis)")

    @settings(_SETTINGS, max_examples=examples)
    @given(record=_RECORD, ascii_only=st.booleans())
    def check(record: dict[str, Any], ascii_only: bool) -> None:
        text = json.dumps(record, ensure_ascii=ascii_only)
        try:
            result.ok(_read_and_replay(text))
        except Exception as exc:
            result.fail(text[:120], f"{type(exc).__name__}: {exc}")
            raise

    check()
    assert result.failures == []


@pytest.mark.slow
def test_hypothesis_json_values_are_records_or_unreadable(examples: int) -> None:
    result = tally("records (hypothesis JSON values)")

    @settings(_SETTINGS, max_examples=examples)
    @given(value=_JSON)
    def check(value: Any) -> None:
        try:
            result.ok(_read_and_replay(json.dumps(value)))
        except Exception as exc:
            result.fail(repr(value)[:120], f"{type(exc).__name__}: {exc}")
            raise

    check()
    assert result.failures == []


def _unsafe_characters(text: str) -> set[str]:
    """Characters of ``text`` that a terminal would act on (a newline is fine)."""
    return {char for line in text.split("\n") for char in line if printable(char) != char}


def test_replay_command_exits_0_1_or_2_and_prints_nothing_unsafe(fuzz_scale: float) -> None:
    """``trashcards replay`` on mutants, in process (the real command, faster than a
    subprocess each): its documented exit status, no traceback, no raw escape."""
    runner = CliRunner()
    result = tally("replay command (mutants)")
    for index in range(int(400 * fuzz_scale)):
        text = mutant(SEED + 1, index)
        args = ["-"] if index % 2 else ["-", "--json"]
        data = text.encode("utf-8", "surrogatepass")  # stdin is bytes; lone surrogates too
        run = runner.invoke(replay, args, input=data)
        output = run.stdout + run.stderr
        if run.exception is not None and not isinstance(run.exception, SystemExit):
            result.fail(f"mutant({SEED + 1}, {index})", repr(run.exception))
        elif run.exit_code not in (0, 1, 2):
            result.fail(f"mutant({SEED + 1}, {index})", f"exit {run.exit_code}")
        elif "Traceback" in output or _unsafe_characters(output):
            result.fail(f"mutant({SEED + 1}, {index})", f"printed {output[:200]!r}")
        else:
            result.ok(f"exit {run.exit_code}")
    assert result.failures == []
