"""The Python side of the differential test of the browser's rules engine
(static/js/local/engine.js, docs/offline.md): records, and what the Python engine makes of
every move of them, for tests/web/js/engine.test.mjs to compare against.

For every move the Python side writes a digest of the canonical JSON (sorted keys, no
spaces) of ``{"events": [...], "state": revealed, "view": view of one seat}``: the whole
state after the move (hidden cards and the stock's order included), the events as the
browser gets them (with each discard's ``why``) and the view of the seat to act (or of
seat ``move % players``).
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from trashcards.actions import Action
from trashcards.bots import make_bot
from trashcards.chance import sample_chance
from trashcards.engine import apply, chance_due
from trashcards.record import Entry, Record, loads
from trashcards.rules import Rules
from trashcards.state import State, new_match
from trashcards.statejson import revealed_json, view_json
from trashcards.views import view
from trashcards.web.eventjson import events_text

ROOT = Path(__file__).resolve().parents[2]
GOLDEN_DIRS = (ROOT / "tests" / "data", ROOT.parent / "shared" / "examples")
#: The bots the browser ports move for move (the expert on this device searches as a hint
#: does, with fewer deals than the server's: tests/web/js/hint.test.mjs checks it).
LOCAL_BOTS = ("random", "greedy", "counter", "kid", "sometimes", "stockonly", "lowwild",
              "endblind")
PRESETS = ("standard", "classic", "kings-wild", "all-faces-wild", "jokers", "call-trash",
           "kids", "last-chance", "first-to-5", "first-to-9")


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(state: State, events_json: str, index: int) -> str:
    seat = state.to_act if state.to_act is not None else index % state.players
    text = canonical({"events": json.loads(events_json), "state": revealed_json(state),
                      "view": view_json(view(state, seat))})
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def golden_records() -> list[Path]:
    return sorted(p for d in GOLDEN_DIRS if d.is_dir() for p in d.glob("*.trash.json"))


def record_digests(record: Record) -> list[str]:
    out = []
    for index, (state, events) in enumerate(record.steps()):
        out.append(digest(state, "[" + events_text(events, state) + "]", index))
    return out


def random_rules(rng: random.Random, players: int) -> Rules:
    """Any preset, with call-trash and last-chance each half the time (together a
    quarter), sometimes Jokers, more packs or other wild ranks."""
    fields: dict[str, Any] = {"preset": rng.choice(PRESETS)}
    if rng.random() < 0.5:
        fields["call_trash"] = True
    if rng.random() < 0.5:
        fields["last_chance"] = True
    if rng.random() < 0.25:
        fields["jokers_per_deck"] = rng.randint(1, 4)
    if rng.random() < 0.15:
        fields["decks"] = rng.randint(1, 3)
    if rng.random() < 0.1:
        fields["wild_ranks"] = rng.sample(["J", "Q", "K"], rng.randint(0, 2))
    if rng.random() < 0.3:
        fields["start_size"] = rng.randint(3, 10)
        fields["rounds_to_win"] = rng.randint(1, min(2, fields["start_size"]))
    try:
        rules = Rules.from_dict(fields)
        rules.check_players(players)
    except ValueError:
        return Rules.from_dict({"preset": fields["preset"], "call_trash": True,
                                "last_chance": True})
    return rules


def play(seed: int, kinds: tuple[str, ...] | None = None, max_moves: int = 1500,
         every_move: bool = True) -> tuple[Record, list[str]]:
    """One seeded match (a prefix of it when it runs over ``max_moves``): the chance moves
    from ``random.Random(seed)``, seat s's bot from ``random.Random(seed * 10 + s)``;
    ``kinds`` None: random bots (sometimes a greedy or a kid among them). The digests are
    of every move, or (``every_move`` false) of the last one only."""
    rng = random.Random(seed)
    players = len(kinds) if kinds is not None else 2 + seed % 3
    rules = random_rules(random.Random(-seed - 1), players)
    if kinds is None:
        pick = random.Random(seed + 10**6)
        kinds = tuple(pick.choice(("random", "random", "random", "greedy", "kid"))
                      for _ in range(players))
    bots = [make_bot(kind, random.Random(seed * 10 + s)) for s, kind in enumerate(kinds)]
    state = new_match(rules, [f"P{s}" for s in range(players)])
    entries: list[Entry] = []
    digests: list[str] = []
    while len(entries) < max_moves:
        due = chance_due(state)
        seat = state.to_act
        if due is None and seat is None:
            break
        if seat is not None:
            move: Any = bots[seat].choose(view(state, seat))
        else:
            move = sample_chance(state, rng)
        state, events = apply(state, move, seat)
        entries.append(Entry(seat if isinstance(move, Action) else None, move))
        if every_move:
            digests.append(digest(state, "[" + events_text(events, state) + "]",
                                  len(entries) - 1))
    if not every_move and entries:
        digests.append(digest(state, "[" + events_text(events, state) + "]", len(entries) - 1))
    return Record(rules, state.names, tuple(entries)), digests


#: Random records whose every move is compared; of the others, the last move (the state
#: after the whole record) is.
EVERY_MOVE = 500


def corpus(random_count: int, bot_count: int) -> Iterator[dict[str, Any]]:
    """Every golden record, ``random_count`` random records (of at most 200 moves) and
    ``bot_count`` records of the local bots, one JSON object each. ``digests`` has one
    digest per move, or one of the last move (``"last": true``)."""
    for path in golden_records():
        record = loads(path.read_text(encoding="utf-8"))
        yield {"kind": "golden", "name": path.name, "record": record.to_json(),
               "digests": record_digests(record)}
    for seed in range(random_count):
        every = seed < EVERY_MOVE
        record, digests = play(seed, max_moves=200, every_move=every)
        yield {"kind": "random", "seed": seed, "record": record.to_json(), "digests": digests,
               "last": not every}
    for seed in range(bot_count):
        players = 2 + seed % 3
        pick = random.Random(seed + 2 * 10**6)
        kinds = tuple(pick.choice(LOCAL_BOTS) for _ in range(players))
        record, digests = play(10**6 + seed, kinds)
        yield {"kind": "bots", "seed": 10**6 + seed, "bots": list(kinds),
               "record": record.to_json(), "digests": digests}


def write_corpus(path: Path, random_count: int, bot_count: int) -> int:
    count = 0
    with path.open("w", encoding="utf-8") as out:
        for item in corpus(random_count, bot_count):
            out.write(json.dumps(item, ensure_ascii=False) + "\n")
            count += 1
    return count
