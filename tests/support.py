"""Helpers for tests: stacked decks, positions written as text, and the exact corpora."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from trashcards import Rules, State, apply, new_match, parse_cards, parse_move, view
from trashcards.actions import Dealer, Deck
from trashcards.cards import Card
from trashcards.events import Event
from trashcards.record import Record
from trashcards.views import View


def stacked_deck(rules: Rules, players: int, dealer: int, boards: Sequence[str],
                 stock: str = "") -> Deck:
    """The deck that deals ``boards[s]`` (slot 1 first, sizes from the strings) to each
    seat and puts ``stock`` on top of the stock; the rest of the match's cards follow in
    canonical order."""
    hands = [list(parse_cards(b.replace("(", " ").replace(")", " "))) for b in boards]
    sizes = [len(h) for h in hands]
    order: list[Card] = []
    dealt = [0] * players
    seat = dealer
    for _ in range(sum(sizes)):
        seat = (seat + 1) % players
        while dealt[seat] == sizes[seat]:
            seat = (seat + 1) % players
        order.append(hands[seat][dealt[seat]])
        dealt[seat] += 1
    order.extend(parse_cards(stock))
    everything = Counter(rules.match_cards(players))
    assert not (Counter(order) - everything), f"not in the match: {Counter(order) - everything}"
    rest = everything - Counter(order)
    tail = []
    for card in rules.match_cards(players):
        if rest[card] > 0:
            rest[card] -= 1
            tail.append(card)
    return Deck(tuple(order + tail))


def start(boards: Sequence[str], stock: str = "", rules: Rules | None = None,
          dealer: int | None = None, names: Sequence[str] | None = None) -> State:
    """A match just dealt: seat s holds ``boards[s]`` face down, ``stock`` on top. The
    dealer is the last seat unless given, so seat 0 plays first."""
    rules = rules or Rules()
    players = len(boards)
    dealer = players - 1 if dealer is None else dealer  # seat 0 plays first by default
    names = names or [f"P{seat}" for seat in range(players)]
    state = new_match(rules, names)
    state, _ = apply(state, Dealer(dealer))
    state, _ = apply(state, stacked_deck(rules, players, dealer, boards, stock))
    return state


def play(state: State, *moves: str) -> State:
    """Apply moves written as record text."""
    for text in moves:
        _seat, move = parse_move(text)
        state, _ = apply(state, move, _seat)
    return state


def play_events(state: State, text: str) -> tuple[State, tuple[Event, ...]]:
    seat, move = parse_move(text)
    return apply(state, move, seat)


def up_cards(state: State, seat: int) -> list[str | None]:
    """The seat's board as text: face-up cards, ``None`` for face down."""
    board = state.boards[seat]
    return [c.text if u else None for c, u in zip(board.cards, board.up, strict=True)]


def legal_text(state: State) -> list[str]:
    from trashcards import legal_actions

    return [str(a) for a in legal_actions(state)]


def position(boards: Sequence[str], stock: str = "", discard: str = "", turn: int = 0,
             rules: Rules | None = None, rounds_won: Sequence[int] | None = None,
             round_no: int = 1) -> State:
    """A position in the draw phase written as text: each board lists its slots from 1,
    a face-down card in parentheses, e.g. ``"Ah (2c) Jd (Qs)"``; ``stock`` top first,
    ``discard`` bottom first. Card conservation is not checked: this is for rule tests."""
    from trashcards.state import Board, Phase, public_seats

    rules = rules or Rules()
    parsed = []
    for text in boards:
        cards, up = [], []
        for token in text.split():
            face_down = token.startswith("(")
            cards.append(parse_cards(token.strip("()"))[0])
            up.append(not face_down)
        parsed.append(Board(len(cards), tuple(cards), tuple(up)))
    players = len(boards)
    names = tuple(f"P{s}" for s in range(players))
    won = tuple(rounds_won or (0,) * players)
    return State(
        rules=rules, names=names, phase=Phase.DRAW,
        due=None, round=round_no, dealer=(turn - 1) % players, turn=turn, in_hand=None,
        stock=parse_cards(stock), discard=parse_cards(discard), boards=tuple(parsed),
        rounds_won=won, seats=public_seats(names, won, tuple(parsed)),
    )


def event_names(events: Sequence[Event]) -> list[str]:
    from trashcards.events import event_to_json

    return [event_to_json(e)["type"] for e in events]


def cached_odds(preset: str = "standard", **fields: object) -> None:
    """Compute the match-odds table of these rules (the ones a test's server or command
    will need) into this test process's own cache folder (tests/conftest.py points the
    cache there), so that a test never meets the "computing the match-odds table" path
    by accident: a fresh machine has no table cached but the shipped ones."""
    from trashcards.ai.odds import match_odds

    match_odds(Rules.preset_named(preset).with_fields(fields))


@dataclass(frozen=True)
class CorpusPosition:
    """A position of the exact tie or leads corpus (tests/data/exact-corpus.json.gz,
    written by ``python3 scripts/exact_corpus.py``): the view of the player to act after
    the first ``upto`` moves of ``record``, and the exact solver's answer — for each
    legal action (as text) the round-win and match-win chance of the player to act
    (``values``), the actions sharing the best match-win chance within 10⁻⁹ (``tied``:
    two or more in the tie corpus, one in the leads corpus, where the best is ahead by
    at least 2 percentage points) and the best (the standard play when tied)."""

    kind: str
    preset: str
    sizes: tuple[int, int]
    record: Record
    upto: int
    view: View
    values: dict[str, tuple[float, float]]
    tied: tuple[str, ...]
    best: str


def exact_corpus(kind: str) -> list[CorpusPosition]:
    """The positions of the ``"ties"`` or ``"leads"`` corpus, each record replayed once."""
    import gzip
    import json
    from pathlib import Path

    from trashcards.record import from_json

    path = Path(__file__).parent / "data" / "exact-corpus.json.gz"
    data = json.loads(gzip.decompress(path.read_bytes()))
    rows = data[kind]
    wanted: dict[int, set[int]] = {}
    for row in rows:
        wanted.setdefault(row["record"], set()).add(row["upto"])
    records = {i: from_json(data["records"][i]) for i in wanted}
    states: dict[tuple[int, int], State] = {}
    for i, uptos in wanted.items():
        for moves, (state, _events) in enumerate(records[i].steps(), start=1):
            if moves in uptos:
                states[(i, moves)] = state
    out = []
    for row in rows:
        state = states[(row["record"], row["upto"])]
        assert state.to_act == row["seat"]
        out.append(CorpusPosition(
            kind, row["preset"], (row["sizes"][0], row["sizes"][1]), records[row["record"]],
            row["upto"], view(state, state.to_act),
            {a: (v["round"], v["match"]) for a, v in row["values"].items()},
            tuple(row["tied"]), row["best"]))
    return out


def running(pid: int) -> bool:
    """Whether the process ``pid`` is there and no zombie (Linux: reads /proc)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rsplit(b") ", 1)[-1][:1] != b"Z"
    except OSError:
        return False
