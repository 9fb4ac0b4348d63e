"""Inputs an attacker would try: a mutation corpus built from the real records in
``tests/data`` (and the frames and bodies a real client sends), plus the "interesting"
values that broke the server before (digits ``int`` refuses, huge integers, deep nesting,
control and bidi characters, lone surrogates).

Everything is drawn from a seeded ``random.Random``, so a failure names its seed and
index and can be replayed exactly (``mutant(seed, index)``).
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DATA = Path(__file__).resolve().parent.parent / "data"

#: The records every record mutation starts from.
CORPUS: tuple[str, ...] = tuple(path.read_text("utf-8")
                                for path in sorted(DATA.glob("*.trash.json")))

#: Characters that have broken parsers and terminals before.
ODD_CHARACTERS = ("²", "①", "٣", "７", "\x00", "\x1b", "\x1b[2J", "\x7f", "\x9b", "\u202e",
                  "\u2028", "\ud800", "\udfff", "\ufeff", "\u200b", "\\", '"', "'", "{", "}",
                  "[", "]", ":", ",", " ", "\t", "\n", "\r", "-", "+", "e", "E", ".", "0",
                  "9", "x", "X", "♠", "♥", "T", "s", "𝟙", "ß", "İ")

#: Text pieces that mean something to the record notation.
WORDS = ("stock", "discard", "wild", "swap", "trash", "call", "dealer", "deck", "reshuffle",
         "wild 7", "wild 0", "wild 11", "wild ²", "wild ①", "wild ٣", "dealer ①",
         "dealer 9", "0:", "3:", "³:", "9:", "X1", "X²", "X33", "X0", "X99999999", "Ts",
         "10s", "1s", "Ah", "Jc", "7♥", "first-to-5", "first-to-٣", "standard")


def big_digits(rng: random.Random) -> str:
    """A run of digits that ``int`` refuses (over 4,300) or nearly does."""
    return rng.choice("123456789") + "".join(rng.choices("0123456789",
                                                         k=rng.choice((25, 4300, 5000))))


def deep(rng: random.Random, inner: str = "1") -> str:
    """Arrays or objects nested deeply (the C parser recurses once per level)."""
    depth = rng.choice((17, 100, 1000, 5000))
    if rng.random() < 0.5:
        return "[" * depth + inner + "]" * depth
    return '{"a":' * depth + inner + "}" * depth


def odd_value(rng: random.Random) -> str:
    """The JSON text of a value that no field should accept whole."""
    choice = rng.randrange(16)
    if choice == 0:
        return big_digits(rng)
    if choice == 1:
        return "-" + big_digits(rng)
    if choice == 2:
        return deep(rng)
    if choice == 3:
        return rng.choice(("NaN", "Infinity", "-Infinity", "1e999", "-0", "1.5", "1e2"))
    if choice == 4:
        return json.dumps(rng.choice(ODD_CHARACTERS) * rng.choice((1, 3, 50)))
    if choice == 5:
        return json.dumps("".join(rng.choices(ODD_CHARACTERS, k=rng.randrange(1, 12))))
    if choice == 6:
        return json.dumps(rng.choice(WORDS))
    if choice == 7:
        return rng.choice(("true", "false", "null", "[]", "{}", '""', "0", "-1", "3", "4",
                           "10", "11", "2147483648", "18446744073709551616"))
    if choice == 8:
        return json.dumps("x" * rng.choice((25, 300, 70_000)))
    if choice == 9:
        return '"\\ud800"'  # a lone surrogate, escaped
    if choice == 10:
        return json.dumps([rng.choice(WORDS) for _ in range(rng.randrange(5))])
    if choice == 11:
        return "[" + ",".join(["1"] * rng.choice((5, 1000))) + "]"
    if choice == 12:
        return json.dumps({rng.choice(("preset", "decks", "jokers_per_deck", "wild_ranks",
                                       "start_size", "rounds_to_win", "call_trash",
                                       "colour")): rng.choice((1, 0, -1, 99, "J", ["J"]))})
    if choice == 13:
        return json.dumps(rng.choice(WORDS) + " " + rng.choice(WORDS))
    if choice == 14:
        return json.dumps(f"first-to-{big_digits(rng)}")
    return json.dumps(rng.choice(("wild ", "dealer ", "X", "3: wild ", "deck X"))
                      + big_digits(rng))


def _splice(rng: random.Random, text: str) -> str:
    """Text-level damage: insert, replace or delete a piece at a random place."""
    at = rng.randrange(len(text) + 1)
    roll = rng.random()
    if roll < 0.3:
        return text[:at] + rng.choice(ODD_CHARACTERS) + text[at:]
    if roll < 0.45:
        return text[:at] + text[at + rng.randrange(1, 8):]
    if roll < 0.6:
        return text[:at]  # truncated
    if roll < 0.75:
        return text[:at] + rng.choice(WORDS) + text[at:]
    if roll < 0.85:
        return text[:at] + odd_value(rng) + text[at:]
    width = rng.randrange(1, 40)
    return text[:at] + text[at:at + width] * rng.randrange(2, 5) + text[at:]


def _mutate_record(rng: random.Random, data: dict[str, Any]) -> str:
    """Structure-level damage: a field or a move replaced, dropped, swapped or doubled;
    the result is JSON text (odd values go in as raw text)."""
    data = json.loads(json.dumps(data))
    marker = "\u0000MARK\u0000"
    moves: list[Any] = data.get("moves", [])
    roll = rng.randrange(12)
    raw: str | None = None
    if roll == 0:
        data[rng.choice(("format", "rules", "players", "moves", "extra"))] = marker
        raw = odd_value(rng)
    elif roll == 1:
        data.pop(rng.choice(("format", "rules", "players", "moves")), None)
    elif roll == 2 and moves:
        moves[rng.randrange(len(moves))] = marker
        raw = odd_value(rng)
    elif roll == 3 and moves:
        index = rng.randrange(len(moves))
        moves[index] = rng.choice(WORDS) if rng.random() < 0.5 else \
            f"{rng.randrange(5)}: {moves[index]}"
    elif roll == 4 and len(moves) > 1:
        i, j = rng.randrange(len(moves)), rng.randrange(len(moves))
        moves[i], moves[j] = moves[j], moves[i]
    elif roll == 5 and moves:
        del moves[rng.randrange(len(moves))]
    elif roll == 6 and moves:
        index = rng.randrange(len(moves))
        moves.insert(index, moves[index])
    elif roll == 7:
        data["players"] = rng.choice((["A"], ["A", "B", "C", "D", "E"], ["A", 1], [],
                                      ["\x1b[31mA", "\ud800"], ["A", "A"], [["A"], "B"]))
    elif roll == 8:
        rules = data.setdefault("rules", {})
        if isinstance(rules, dict):
            rules[rng.choice(("preset", "decks", "jokers_per_deck", "wild_ranks",
                              "start_size", "rounds_to_win", "call_trash", "last_chance",
                              "colour"))] = marker
        raw = odd_value(rng)
    elif roll == 9 and moves:  # a deck or reshuffle with one card changed
        index = rng.randrange(len(moves))
        if isinstance(moves[index], str) and moves[index].startswith(("deck", "reshuffle")):
            cards = moves[index].split()
            cards[rng.randrange(1, len(cards))] = rng.choice(WORDS)
            moves[index] = " ".join(cards)
    elif roll == 10 and moves:
        moves[rng.randrange(len(moves))] = rng.choice(WORDS) + rng.choice(ODD_CHARACTERS)
    else:
        data["moves"] = moves[:rng.randrange(len(moves) + 1)]
    text = json.dumps(data, ensure_ascii=rng.random() < 0.5)
    if raw is not None:
        text = text.replace(json.dumps(marker), raw, 1).replace(
            json.dumps(marker, ensure_ascii=False), raw, 1)
    return text


def mutant(seed: int, index: int) -> str:
    """Record mutant number ``index`` of ``seed``: one to three mutations of a corpus
    record (structure, text, or both)."""
    rng = random.Random(f"record/{seed}/{index}")
    source = rng.choice(CORPUS)
    roll = rng.random()
    text = _mutate_record(rng, json.loads(source)) if roll < 0.75 else source
    if roll < 0.5:
        return text
    for _ in range(rng.choice((1, 1, 2, 3))):
        text = _splice(rng, text)
    return text


def mutants(seed: int, count: int) -> Iterator[tuple[int, str]]:
    for index in range(count):
        yield index, mutant(seed, index)


@dataclass
class Tally:
    """What one fuzz class tried and what went wrong, for the summary and the asserts."""

    name: str
    tried: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)

    def ok(self, outcome: str) -> None:
        self.tried += 1
        self.outcomes[outcome] += 1

    def fail(self, where: str, what: str) -> None:
        self.tried += 1
        self.outcomes["FAILURE"] += 1
        if len(self.failures) < 20:
            self.failures.append(f"{where}: {what}")

    def line(self) -> str:
        top = ", ".join(f"{k} {v:,}" for k, v in self.outcomes.most_common(8))
        return f"{self.name}: {self.tried:,} tried, {self.outcomes['FAILURE']:,} failures ({top})"


#: Every tally of this test session, printed in the terminal summary.
TALLIES: dict[str, Tally] = {}


def tally(name: str) -> Tally:
    return TALLIES.setdefault(name, Tally(name))



# -- HTTP bodies and websocket frames --------------------------------------------------

#: Content types a client (or a form on another site) may send.
CONTENT_TYPES = ("application/json", "application/json", "application/json",
                 "application/json; charset=utf-8", "APPLICATION/JSON", "text/plain",
                 "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
                 "application/json-patch+json", "", "application/json\x00")


def _damage(rng: random.Random, text: str) -> str:
    """Put an odd value in place of one JSON value of ``text`` or damage the text."""
    roll = rng.random()
    if roll < 0.5:
        spots = [i for i, c in enumerate(text) if c in ":[,"]
        if spots:
            at = rng.choice(spots) + 1
            end = at
            while end < len(text) and text[end] not in ",}]":
                end += 1
            return text[:at] + odd_value(rng) + text[end:]
    if roll < 0.8:
        return _splice(rng, text)
    return deep(rng, text) if rng.random() < 0.5 else text + text


def _seat(rng: random.Random, index: int) -> dict[str, Any]:
    kind = rng.choice(("me", "hotseat", "open", "open", "bot", "bot", "robot"))
    seat: dict[str, Any] = {"kind": kind}
    if rng.random() < 0.5:
        seat["name"] = rng.choice((f"P{index}", f"P{index}", "Ana", "ana", "", "  ", "x" * 25,
                                   "\x1b[31mRed", "A\u202eB", "Zoë", "李", "\ud800"))
    if kind == "bot" and rng.random() < 0.5:
        seat["bot"] = rng.choice(("greedy", "random", "counter", "kid", "genius", ""))
    return seat


def body_mutant(seed: int, index: int) -> tuple[str, bytes, str]:
    """HTTP request number ``index``: (what it is for, the body, its content type). "create"
    posts to /api/tables, "join" to a table's join."""
    rng = random.Random(f"body/{seed}/{index}")
    kind = "create" if rng.random() < 0.6 else "join"
    if kind == "create":
        body: dict[str, Any] = {"seats": [_seat(rng, i) for i in range(rng.choice((1, 2, 2, 3,
                                                                                 3, 4, 5)))]}
        if rng.random() < 0.7:
            body["rules"] = {rng.choice(("preset", "decks", "jokers_per_deck", "wild_ranks",
                                         "start_size", "rounds_to_win", "call_trash",
                                         "colour")): rng.choice((1, 2, 0, 11, "kids", "J",
                                                                 ["J", "Q"], True, None))}
    else:
        body = {}
        if rng.random() < 0.7:
            body["name"] = rng.choice(("Bo", "Ana", "", "\x07", "x" * 30, "Cy"))
        if rng.random() < 0.5:
            body["seat"] = rng.choice((0, 1, 2, 3, 4, -1, "1", None, 1.5))
    text = json.dumps(body, ensure_ascii=rng.random() < 0.5)
    for _ in range(rng.choice((0, 0, 0, 0, 0, 1, 1, 2))):
        text = _damage(rng, text)
    data = text.encode("utf-8", "surrogatepass")
    if rng.random() < 0.03:
        data = data[:rng.randrange(len(data) + 1)] + bytes([0xFF, 0xC3]) + data
    if rng.random() < 0.02:
        data = b" " * 17_000 + data  # over the body limit
    return kind, data, "application/json" if rng.random() < 0.8 else rng.choice(CONTENT_TYPES)


def frame_mutant(rng: random.Random, tokens: list[str], state: dict[str, Any] | None,
                 version: int) -> str | bytes:
    """One client frame: mostly messages a real client sends (a legal move of the seat to
    act, so the game goes on), the rest damaged, oversized, binary or deeply nested."""
    roll = rng.random()
    token = rng.choice([*tokens, "not-a-token"])
    if state and state.get("to_act") is not None and state.get("legal") and roll < 0.35:
        message: dict[str, Any] = {"type": "act", "token": tokens[state["to_act"]],
                                   "action": rng.choice(state["legal"]), "version": version}
    elif roll < 0.45:
        message = {"type": "join", "tokens": rng.sample(tokens, rng.randrange(len(tokens) + 1)),
                   "version": rng.choice((None, version, 0, -1, version + 1))}
    elif roll < 0.5:
        message = {"type": "next_round", "token": token}
    elif roll < 0.52:
        message = {"type": "rematch", "token": token}
    elif roll < 0.57:
        message = {"type": "ping"}
    else:
        message = {"type": rng.choice(("act", "act", "join", "next_round", "ping", "fly")),
                   "token": token, "version": version,
                   "action": rng.choice(("stock", "discard", "swap", "trash", "call",
                                         *WORDS))}
    text = json.dumps(message, ensure_ascii=rng.random() < 0.5)
    if roll >= 0.57:
        for _ in range(rng.choice((1, 1, 2))):
            text = _damage(rng, text)
    if len(text) > 6000:  # frames stay under the 64 KiB frame limit (over it: closed)
        text = text[:6000]
    if rng.random() < 0.03:
        return text.encode("utf-8", "surrogatepass") + bytes([0xFF])  # binary, not UTF-8
    if rng.random() < 0.01:
        return text + " " * 5000  # over the message limit
    return text
