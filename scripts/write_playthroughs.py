#!/usr/bin/env python3
"""Write the playthroughs (OpenSpiel's idea): for every preset and variant, a match the
fast kernel plays (its bots, a seed), told move by move as text, which the Python
engine, the numba kernel and the browser's engine must each reproduce line by line
(tests/test_playthroughs.py, tests/web/js/playthrough.test.mjs). A rule change shows
up as a reviewed diff of these files.

Each file (``tests/data/playthroughs/NAME.txt``) is a header (the rules, the players,
the kernel's bots, seed and match index, how many moves) and then, for each move up to
the end of the first round (the whole match where it is one round long):

    move 12 0: wild 3          the move's index and its record text
    events [...]               its events as the browser gets them (JSON, sorted keys)
    view 1 {...}               the view of the seat to act after it (``view -`` and the
                               public view when no one acts), without its ``legal`` …
    legal ["stock","discard"]  … which is this line

Usage: python3 scripts/write_playthroughs.py [--check]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # run as a command: this checkout's sources
sys.path.insert(0, str(ROOT / "scripts"))

from generated_files import write_or_check  # noqa: E402

FOLDER = ROOT / "tests" / "data" / "playthroughs"

#: name: (rules, players, the kernel's bots (one per seat), seed, match index, whole
#: match). Every preset and each variant, alone and combined, 2 to 4 players.
PLAYTHROUGHS: dict[str, tuple[dict[str, Any], int, tuple[str, ...], int, int, bool]] = {
    "standard-2p": ({"preset": "standard"}, 2, ("greedy", "counter"), 1, 0, False),
    "classic-3p": ({"preset": "classic"}, 3, ("greedy", "kid", "random"), 2, 0, True),
    "kings-wild-2p": ({"preset": "kings-wild"}, 2, ("counter", "sometimes"), 3, 0, False),
    "all-faces-wild-4p": ({"preset": "all-faces-wild"}, 4,
                          ("greedy", "counter", "kid", "stockonly"), 4, 0, False),
    "jokers-3p": ({"preset": "jokers"}, 3, ("greedy", "greedy", "counter"), 5, 0, False),
    "call-trash-2p": ({"preset": "call-trash"}, 2, ("kid", "greedy"), 6, 0, False),
    "kids-2p": ({"preset": "kids"}, 2, ("greedy", "kid"), 7, 0, True),
    "last-chance-3p": ({"preset": "last-chance"}, 3, ("greedy", "counter", "kid"), 8, 0,
                       False),
    "first-to-5-2p": ({"preset": "first-to-5"}, 2, ("counter", "greedy"), 9, 0, False),
    "first-to-9-4p": ({"preset": "first-to-9"}, 4, ("greedy", "kid", "counter", "random"),
                      10, 0, True),
    "kings-jokers-call-last-4p": ({"preset": "kings-wild", "jokers_per_deck": 2,
                                   "call_trash": True, "last_chance": True}, 4,
                                  ("greedy", "counter", "kid", "sometimes"), 11, 0, False),
    "boards-of-1-call-last-3p": ({"start_size": 1, "call_trash": True, "last_chance": True},
                                 3, ("kid", "greedy", "random"), 12, 0, True),
    "boards-of-3-to-2-last-2p": ({"start_size": 3, "rounds_to_win": 2, "last_chance": True},
                                 2, ("greedy", "counter"), 13, 0, True),
    "no-wilds-boards-of-4-2p": ({"wild_ranks": [], "start_size": 4, "decks": 1}, 2,
                                ("greedy", "counter"), 14, 0, False),
}


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def header(name: str) -> list[str]:
    fields, players, bots, seed, index, whole = PLAYTHROUGHS[name]
    return [f"# playthrough {name}: written by scripts/write_playthroughs.py; every engine",
            "# reproduces it line by line (tests/test_playthroughs.py)",
            f"rules {canonical(fields)}",
            f"players {players}",
            f"kernel bots {' '.join(bots)} seed {seed} index {index}",
            f"until {'match' if whole else 'round'}"]


def moves_of(name: str) -> list[str]:
    """The record texts of the playthrough's moves: the kernel's match, up to the end of
    its first round unless the whole match is wanted."""
    from trashcards.rules import Rules
    from trashcards.sim import fast
    from trashcards.state import Phase

    fields, _players, bots, seed, index, whole = PLAYTHROUGHS[name]
    rules = Rules.from_dict(fields)
    record = fast.match_record(rules, list(bots), seed, index)
    moves = [str(entry) for entry in record.moves]
    if whole:
        return moves
    for number, (state, _events) in enumerate(record.steps()):
        if state.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER):
            return moves[:number + 1]
    return moves


def render(name: str, moves: list[str]) -> str:
    """The playthrough's text for ``moves``, told by the Python engine."""
    from trashcards.actions import parse_move
    from trashcards.record import Entry, Record
    from trashcards.rules import Rules
    from trashcards.state import new_match
    from trashcards.statejson import view_json
    from trashcards.views import view
    from trashcards.web.eventjson import events_text

    fields, players, *_ = PLAYTHROUGHS[name]
    rules = Rules.from_dict(fields)
    names = tuple(f"p{seat}" for seat in range(players))
    lines = [*header(name), f"moves {len(moves)}"]
    lines += _told(view_json(view(new_match(rules, names), None)), None)
    record = Record(rules, names, tuple(Entry(*parse_move(text)) for text in moves))
    for number, (state, events) in enumerate(record.steps()):
        lines.append(f"move {number} {moves[number]}")
        lines.append(f"events {canonical(json.loads('[' + events_text(events, state) + ']'))}")
        lines += _told(view_json(view(state, state.to_act)), state.to_act)
    return "\n".join(lines) + "\n"


def _told(shown: dict[str, Any], seat: int | None) -> list[str]:
    legal = shown.pop("legal")
    return [f"view {'-' if seat is None else seat} {canonical(shown)}",
            f"legal {canonical(legal)}"]


def main(argv: list[str]) -> int:
    folder = FOLDER.relative_to(ROOT).as_posix()
    outputs = [(f"{folder}/{name}.txt", lambda name=name: render(name, moves_of(name)))
               for name in PLAYTHROUGHS]
    return write_or_check(ROOT, outputs, "--check" in argv, "differs")


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
