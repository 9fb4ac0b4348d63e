"""Game records in the ``trash/1`` format (RECORDS.md): load, dump, replay.

A :class:`Record` holds the rules, the players' names and every move. Loading checks that
the record can be read at all (a :class:`~trashcards.errors.RecordFormatError`, exit
status 2); replaying checks every move against the rules and stops at the first bad one
with a :class:`~trashcards.errors.RecordError` (exit status 1) that gives its index.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, NamedTuple

from . import boundedjson
from .actions import Action, Move, parse_move
from .engine import apply
from .errors import (
    IllegalActionError,
    JSONTextError,
    RecordError,
    RecordFormatError,
    TrashError,
    brief,
)
from .events import Event
from .files import write_whole
from .rules import Rules
from .state import State, new_match

__all__ = ["FORMAT", "MAX_DEPTH", "MAX_SIZE", "Entry", "Record", "load", "loads"]

FORMAT: Final = "trash/1"
#: The longest record read, in characters (bytes for a file): far more than any match.
MAX_SIZE: Final = 4 * 1024 * 1024
#: The deepest nesting of arrays and objects in a record (a record needs 2).
MAX_DEPTH: Final = 16


class Entry(NamedTuple):
    """One move of a record; ``seat`` is the optional ``S:`` prefix of an action."""

    seat: int | None
    move: Move

    def __str__(self) -> str:
        if self.seat is not None and isinstance(self.move, Action):
            return f"{self.seat}: {self.move}"
        return str(self.move)


@dataclass(frozen=True)
class Record:
    """A whole game: rules, players (seat 0 first) and moves in order."""

    rules: Rules
    players: tuple[str, ...]
    moves: tuple[Entry, ...] = field(default=())

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "rules": self.rules.to_dict(),
                "players": list(self.players), "moves": [str(m) for m in self.moves]}

    def dumps(self) -> str:
        """The record as JSON text, one line per move for easy diffs."""
        head = json.dumps({k: v for k, v in self.to_json().items() if k != "moves"},
                          ensure_ascii=False)[:-1]
        moves = ",\n  ".join(json.dumps(str(m), ensure_ascii=False) for m in self.moves)
        return f'{head}, "moves": [\n  {moves}\n]}}\n' if moves else f'{head}, "moves": []}}\n'

    def dump(self, path: str | Path) -> None:
        """Write the record to ``path`` (written whole into a new file, then renamed into
        place: a link at ``path`` is replaced, never written through)."""
        write_whole(Path(path), self.dumps().encode("utf-8"))

    def steps(self, upto: int | None = None) -> Iterator[tuple[State, tuple[Event, ...]]]:
        """Replay move by move: the state after each move and its events.

        Raises :class:`RecordError` at the first move that breaks the rules.
        """
        state = new_match(self.rules, self.players)
        moves = self.moves if upto is None else self.moves[:max(upto, 0)]
        for index, entry in enumerate(moves):
            state, events = _apply_entry(state, index, entry)
            yield state, events

    def replay(self, upto: int | None = None) -> State:
        """The state after the first ``upto`` moves (all when ``None``)."""
        state = new_match(self.rules, self.players)
        for state, _events in self.steps(upto):  # noqa: B007 - keep the last state
            pass
        return state


def _apply_entry(state: State, index: int, entry: Entry) -> tuple[State, tuple[Event, ...]]:
    seat, move = entry
    if seat is not None and state.to_act is not None and seat != state.to_act:
        raise RecordError(f"seat prefix {seat} but seat {state.to_act} is to act",
                          index, str(entry))
    try:
        return apply(state, move, seat)
    except IllegalActionError as exc:
        raise RecordError(exc.reason, index, str(entry)) from None


def loads(text: str | bytes) -> Record:
    """Read a record from JSON text (bytes: UTF-8). Raises :class:`RecordFormatError` for
    anything that is not a readable record, including text over :data:`MAX_SIZE` or
    nested deeper than :data:`MAX_DEPTH`."""
    try:
        data = boundedjson.parse(text, max_size=MAX_SIZE, max_depth=MAX_DEPTH)
    except JSONTextError as exc:
        raise RecordFormatError(f"not a record: {exc}") from None
    return from_json(data)


def load(path: str | Path) -> Record:
    """Read a record from a file (at most :data:`MAX_SIZE` bytes are read)."""
    try:
        with Path(path).open("rb") as file:
            data = file.read(MAX_SIZE + 1)
    except (OSError, ValueError) as exc:  # ValueError: a NUL in the path
        raise RecordFormatError(f"cannot read {path}: "
                                f"{getattr(exc, 'strerror', None) or exc}") from None
    return loads(data)


def from_json(data: Any) -> Record:
    """A record from its parsed JSON object. Rejected values are described, never
    printed whole or looked into."""
    if not isinstance(data, Mapping):
        raise RecordFormatError("a record is a JSON object")
    if data.get("format") != FORMAT:
        raise RecordFormatError(f'format: must be "{FORMAT}", got {brief(data.get("format"))}')
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordFormatError("players: must be a list of 2 to 4 names")
    try:
        rules = Rules.from_dict(data.get("rules", {}))
        rules.check_players(len(players))
    except TrashError as exc:
        raise RecordFormatError(f"rules: {exc}") from None
    moves = data.get("moves", [])
    if not isinstance(moves, list):
        raise RecordFormatError("moves: must be a list of strings")
    entries = []
    for index, text in enumerate(moves):
        if not isinstance(text, str):
            raise RecordFormatError("not a string", index, brief(text))
        try:
            seat, move = parse_move(text)
        except TrashError as exc:
            raise RecordFormatError(str(exc), index, text) from None
        entries.append(Entry(seat, move))
    return Record(rules, tuple(players), tuple(entries))
