"""Nothing hidden leaves the server (RULES.md §8).

Complete matches are played through the server by bots that are websocket clients (one
socket per seat, plus a spectator): each bot decides from the JSON it receives, turned
back into a View. Two checks:

1. every frame a seat receives is exactly the core's ``view_json(view(state, seat))`` at
   that version and the events of those moves — no face-down card, no stock;
2. the same matches are played again with the hidden cards permuted: in each deck and
   reshuffle, cards that stay hidden for the whole recorded round (face-down cards at its
   end and the stock below what was drawn) swap places — board with board, board with
   stock, stock with stock. The players see nothing different, so every seat must
   receive identical frames (but for the ``revealed`` boards of a round that is over,
   when the face-down cards are turned up for everyone); any leak of a hidden card, the
   stock order, a count per rank or a sort order would show as a different frame. The
   seat to act asks for a hint before every move, so the hints (computed by the AI from
   the seat's view) are among those frames, and every seat's win chances of each version
   that both runs computed must be identical too.

``test_the_check_catches_a_leaky_server`` proves the second check can fail.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from pgtools import Cluster
from starlette.testclient import TestClient
from webtools import Socket, create, make_settings

import trashcards.web.frames as frames_module
from trashcards import Record, Rules, apply, view, view_json
from trashcards.actions import Deck, Reshuffle
from trashcards.bots import make_bot
from trashcards.cards import Card
from trashcards.events import event_to_json
from trashcards.record import Entry, loads
from trashcards.state import Phase, State, new_match
from trashcards.views import PlayerView
from trashcards.web import create_app
from trashcards.web.eventjson import revealed_json
from trashcards.web.viewjson import view_from_json


@pytest.fixture(autouse=True)
def _own_odds_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty match-odds cache of this test's own: a table that another test of this
    process computed (or a background computation finished) must not change a path."""
    monkeypatch.setenv("TRASHCARDS_CACHE", str(tmp_path / "odds-cache"))



class RecordingRandom(random.Random):
    """A seeded generator that remembers the result of every shuffle."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.outputs: list[list[Any]] = []

    def shuffle(self, x: Any) -> None:
        super().shuffle(x)
        self.outputs.append(list(x))


class ScriptedRandom(random.Random):
    """Shuffles that give the scripted results, in order."""

    def __init__(self, outputs: Sequence[list[Any]]) -> None:
        super().__init__(0)
        self.outputs = list(outputs)

    def shuffle(self, x: Any) -> None:
        result = self.outputs.pop(0)
        assert Counter(c.text for c in result) == Counter(c.text for c in x)
        x[:] = result


@dataclass(frozen=True)
class Game:
    rules: dict[str, Any]
    bots: tuple[str, ...]
    seed: int


GAMES = [
    Game({"preset": "standard", "start_size": 4, "rounds_to_win": 2}, ("greedy", "random"), 1),
    Game({"preset": "call-trash", "jokers_per_deck": 2, "start_size": 5, "rounds_to_win": 2},
         ("kid", "counter", "random"), 2),
    Game({"preset": "last-chance", "start_size": 5, "rounds_to_win": 1},
         ("greedy", "random", "counter", "kid"), 3),
    Game({"preset": "kings-wild", "start_size": 3, "rounds_to_win": 3}, ("counter", "kid"), 5),
    # one pack for four boards of 9 or 10: a short stock, so reshuffles happen
    Game({"preset": "first-to-9", "decks": 1}, ("random", "stockonly", "greedy", "kid"), 6),
    Game({"preset": "call-trash", "decks": 1, "start_size": 9, "rounds_to_win": 2,
          "last_chance": True}, ("kid", "random", "counter", "greedy"), 29),
    Game({"preset": "all-faces-wild", "start_size": 4, "rounds_to_win": 3},
         ("random", "random", "kid"), 7),
    Game({"preset": "standard", "start_size": 3, "rounds_to_win": 3}, ("random", "greedy"), 8),
]

Frames = dict[str, list[str]]
#: every socket's ``chances`` frames by version
Chances = dict[str, dict[int, dict[str, Any]]]


def play(tmp_path: Path, name: str, game: Game,
         chance: Callable[[str], random.Random], strict: bool = True,
         follower_db: str | None = None) -> tuple[Frames, str, Chances]:
    """One match through a fresh server: every seat a bot on its own websocket, plus a
    spectator; the seat to act asks for a hint before each move. With ``follower_db`` (an
    empty PostgreSQL database) there are two servers on it: the first makes the table and
    owns it, and every socket is on the second, which only follows the table (moves
    forwarded, events heard from the database). Returns the frames each socket received
    (the win chances apart, by version) and the record. ``strict``: every hint must be
    answered (a leaky server's may fail)."""
    db: Path | str = tmp_path / f"{name}.sqlite3" if follower_db is None else follower_db
    settings = make_settings(db, seed=game.seed, round_pause=0.0, chance_rng=chance,
                             hint_samples=40, chance_samples=40)
    rules = Rules.from_dict(game.rules)
    players = len(game.bots)
    bots = [make_bot(b, random.Random(f"{game.seed}/{seat}")) for seat, b in enumerate(game.bots)]
    with ExitStack() as stack:
        owner = stack.enter_context(TestClient(create_app(settings)))
        client = owner
        if follower_db is not None:
            client = stack.enter_context(TestClient(create_app(make_settings(
                follower_db, seed=game.seed + 1000, round_pause=0.0, hint_samples=40,
                chance_samples=40))))
        made = create(owner, [{"kind": "hotseat", "name": f"{b} {i}"}
                              for i, b in enumerate(game.bots)], game.rules)
        table_id = made["table_id"]
        tokens = [s["token"] for s in made["seats"]]
        socks = {key: Socket(stack.enter_context(client.websocket_connect(f"/ws/{table_id}")))
                 for key in [*map(str, range(players)), "spectator"]}
        states: dict[str, dict[str, Any]] = {}
        for key, sock in socks.items():
            sock.join([] if key == "spectator" else [tokens[int(key)]], version=0)
            states[key] = sock.recv_type("events")["state"]
        version = 2
        while states["spectator"]["phase"] != "match_over":
            to_act = states["spectator"]["to_act"]
            if to_act is not None:
                seat_view = view_from_json(states[str(to_act)], rules)
                socks[str(to_act)].send({"type": "hint", "token": tokens[to_act],
                                         "version": version})
                answer = socks[str(to_act)].recv()
                assert answer["type"] == "hint" or not strict, answer
                assert answer.get("version", version) == version
                action = bots[to_act].choose(seat_view)
                socks[str(to_act)].send({"type": "act", "token": tokens[to_act],
                                         "action": str(action), "version": version})
            for key, sock in socks.items():
                message = sock.recv_type("events")
                assert message["from_version"] == version
                states[key] = message["state"]
            version = message["version"]
        if follower_db is not None:  # the sockets' server never owned the table
            health = client.get("/healthz").json()
            assert (health["tables_owned"], health["tables_followed"]) == (0, 1)
            assert owner.get("/healthz").json()["tables_owned"] == 1
        record = client.get(f"/api/tables/{table_id}/record")
        assert record.headers["x-trash-record"] == "complete"
        chances = {key: {c["version"]: c for c in sock.chances} for key, sock in socks.items()}
        return {key: sock.frames for key, sock in socks.items()}, record.text, chances


def check_frames(frames: Frames, record: Record) -> None:
    """Every frame is the core's view of its seat at its version, and the events of the
    moves it covers."""
    states = [new_match(record.rules, record.players)]
    events: list[list[dict[str, Any]]] = []
    for state, evs in record.steps():
        states.append(state)
        events.append([event_to_json(e) for e in evs])
    for key, texts in frames.items():
        seat = None if key == "spectator" else int(key)
        for text in texts:
            assert '"stock":' not in text  # no stock field anywhere
            message = json.loads(text)
            if message["type"] in ("joined", "hint"):
                continue
            assert message["type"] == "events"
            assert message["seat"] == seat
            assert message["state"] == view_json(view(states[message["version"]], seat))
            # The record keeps the dealer, not the cuts; a discard says why (from public
            # facts: the permutation tests show frames do not depend on hidden cards).
            sent = [{**e, "cuts": []} if e["type"] == "dealer_chosen" else e
                    for e in message["events"]]
            # The round's end turns every face-down card up (the last round_won or the
            # round_void of the move that ended the round): each seat's board then.
            ends = [revealed_json(states[v + 1])
                    for v in range(message["from_version"], message["version"])
                    if states[v + 1].phase in (Phase.ROUND_OVER, Phase.MATCH_OVER)
                    and any(e["type"] in ("round_won", "round_void") for e in events[v])]
            shown = []
            for event in sent:
                why = event.pop("why", None)
                assert why is None or event["type"] == "discarded", event
                if "revealed" in event:
                    assert event["type"] in ("round_won", "round_void"), event
                    shown.append(event.pop("revealed"))
            assert shown == ends
            assert sent == [e for batch in events[message["from_version"]:message["version"]]
                            for e in batch]


def public(texts: list[str]) -> list[Any]:
    """The frames without the boards revealed at the end of a round (they show the cards
    that were face down, which the permuted run swapped)."""
    out = []
    for text in texts:
        message = json.loads(text)
        for event in message.get("events", ()):
            event.pop("revealed", None)
        out.append(message)
    return out


def signature(state: State, events: Any) -> tuple[Any, ...]:
    seats: list[int | None] = [*range(state.players), None]
    return (tuple(json.dumps(view_json(view(state, s))) for s in seats),
            json.dumps([event_to_json(e) for e in events]))


def hidden_swaps(record: Record, rng: random.Random) -> tuple[list[Entry], Counter[str]]:
    """The record's moves with cards that stay hidden swapped in each deck and reshuffle;
    checked by replaying: every seat's view and every event stay the same."""
    entries = list(record.moves)
    states = [new_match(record.rules, record.players)]
    sigs = []
    for state, evs in record.steps():
        states.append(state)
        sigs.append(signature(state, evs))
    kinds: Counter[str] = Counter()

    def round_end(i: int) -> int:
        return next(j for j in range(i, len(entries))
                    if states[j + 1].phase in (Phase.ROUND_OVER, Phase.MATCH_OVER))

    def same_views(i: int, move: Deck | Reshuffle) -> bool:
        state = states[i]
        end = round_end(i)
        for j in range(i, end + 1):
            try:
                state, evs = apply(state, move if j == i else entries[j].move, entries[j].seat)
            except ValueError:
                return False
            if signature(state, evs) != sigs[j]:
                return False
        return True

    for i, entry in enumerate(entries):
        move = entry.move
        if not isinstance(move, Deck | Reshuffle):
            continue
        end_state = states[round_end(i) + 1]
        hidden = Counter(c.text for c in end_state.stock)
        for board in end_state.boards:
            hidden.update(c.text for c, up in zip(board.cards, board.up, strict=True) if not up)
        dealt = sum(len(b.cards) for b in states[i + 1].boards) if isinstance(move, Deck) else 0
        cards = list(move.cards)
        places = [p for p, c in enumerate(cards) if c.text in hidden]
        wanted = {"board-board", "board-stock", "stock-stock"}
        for _ in range(300):
            if not wanted or len(places) < 2:
                break
            p, q = sorted(rng.sample(places, 2))
            if cards[p] == cards[q]:
                continue
            kind = f"{'board' if p < dealt else 'stock'}-{'board' if q < dealt else 'stock'}"
            if kind not in wanted:
                continue
            trial = cards.copy()
            trial[p], trial[q] = trial[q], trial[p]
            candidate = type(move)(tuple(trial))
            if same_views(i, candidate):
                cards = trial
                wanted.discard(kind)
                kinds[kind] += 1
        if cards != list(move.cards):
            changed = type(move)(tuple(cards))
            assert same_views(i, changed)
            entries[i] = Entry(None, changed)
    return entries, kinds


def permuted_outputs(outputs: list[list[Card]], old: Sequence[Entry],
                     new: Sequence[Entry]) -> list[list[Card]]:
    """The shuffle results that produce the ``new`` decks instead of the ``old`` ones."""
    result = [list(o) for o in outputs]
    texts = [[c.text for c in o] for o in outputs]
    for before, after in zip(old, new, strict=True):
        if before == after:
            continue
        assert isinstance(before.move, Deck | Reshuffle)
        assert isinstance(after.move, Deck | Reshuffle)
        index = texts.index([c.text for c in before.move.cards])
        result[index] = list(after.move.cards)
    return result


def permuted_replay(tmp_path: Path, game: Game, check: bool = True,
                    databases: Callable[[], str] | None = None,
                    ) -> tuple[Frames, Frames, Counter[str], str]:
    """Play ``game``, check its frames, then play it again with hidden cards permuted;
    the win chances of every version both runs computed must agree. With ``databases``
    (new empty PostgreSQL databases) each time through a second server that follows the
    table (see :func:`play`)."""
    recorder = RecordingRandom(f"chance/{game.seed}")
    frames, text, chances = play(tmp_path, "first", game, lambda _table_id: recorder, check,
                                 None if databases is None else databases())
    record = loads(text)
    if check:
        check_frames(frames, record)
    entries, kinds = hidden_swaps(record, random.Random(game.seed))
    assert entries != list(record.moves), "no hidden card could be permuted"
    outputs = permuted_outputs(recorder.outputs, record.moves, entries)
    scripted = ScriptedRandom(outputs)
    again, text2, chances2 = play(tmp_path, "permuted", game, lambda _table_id: scripted,
                                  check, None if databases is None else databases())
    for key in chances:
        both = set(chances[key]) & set(chances2[key])
        if check:
            assert both, f"{key} got no win chances of the same version twice"
            for version in both:
                assert chances[key][version] == chances2[key][version], (key, version)
    assert not scripted.outputs  # every scripted shuffle was used
    assert [str(e) for e in loads(text2).moves] == [str(e) for e in entries]
    return frames, again, kinds, text


@pytest.mark.parametrize("game", GAMES, ids=lambda g: "-".join(g.bots))
@pytest.mark.numba_compile
def test_permuted_hidden_cards_send_identical_frames(tmp_path: Path, game: Game) -> None:
    frames, again, kinds, _record = permuted_replay(tmp_path, game)
    assert kinds["board-board"] + kinds["board-stock"] > 0
    assert set(frames) == set(again)
    for key in frames:
        assert len(frames[key]) > 10
        assert public(frames[key]) == public(again[key]), f"{key} saw a difference"


@pytest.mark.parametrize("game", [GAMES[1], GAMES[4]], ids=lambda g: "-".join(g.bots))
def test_a_second_process_that_follows_the_table_leaks_nothing(
        tmp_path: Path, game: Game, pg_cluster: Cluster) -> None:
    """The same two checks with the table owned by one server and every socket on
    another one sharing the PostgreSQL database: what the follower learns from the
    database (the moves, shuffled decks included) never reaches a client."""
    frames, again, _kinds, _record = permuted_replay(tmp_path, game,
                                                     databases=pg_cluster.database)
    for key in frames:
        assert len(frames[key]) > 10
        assert public(frames[key]) == public(again[key]), f"{key} saw a difference"


@pytest.mark.numba_compile
def test_the_games_cover_reshuffles_and_several_rounds(tmp_path: Path) -> None:
    for i, game in enumerate(GAMES[4:6]):
        frames, again, kinds, text = permuted_replay(tmp_path / str(i), game)
        assert {k: public(v) for k, v in frames.items()} == {k: public(v) for k, v in again.items()}
        moves = [str(e) for e in loads(text).moves]
        assert sum(m.startswith("reshuffle") for m in moves) >= 2
        assert sum(m.startswith("deck") for m in moves) >= 1 + i
        assert kinds["stock-stock"] > 0


def leaky_view(state: State, seat: int | None = None) -> Any:
    """A classic bug: every board shown face up."""
    honest = view(state, seat)
    players = tuple(PlayerView(p.name, p.rounds_won, p.board_size, board.cards)
                    for p, board in zip(honest.players, state.boards, strict=True))
    return honest._replace(players=players)


@pytest.mark.numba_compile
def test_the_check_catches_a_leaky_server(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A server that shows face-down cards (a classic bug) fails both checks."""
    monkeypatch.setattr(frames_module, "view", leaky_view)
    frames, again, _kinds, record = permuted_replay(tmp_path, GAMES[0], check=False)
    assert any(public(frames[key]) != public(again[key]) for key in frames)  # check 2 fails
    with pytest.raises(AssertionError):
        check_frames(frames, loads(record))  # check 1 fails


def test_the_check_catches_a_leaky_follower(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            pg_cluster: Cluster) -> None:
    """A follower that shows the face-down cards it knows from the database fails."""
    monkeypatch.setattr(frames_module, "view", leaky_view)
    frames, again, _kinds, record = permuted_replay(tmp_path, GAMES[0], check=False,
                                                    databases=pg_cluster.database)
    assert any(public(frames[key]) != public(again[key]) for key in frames)
    with pytest.raises(AssertionError):
        check_frames(frames, loads(record))
