"""The plain mode's words are the browser's: the same sentences, key for key, from the
same catalogs, in every language.

Under Node, the browser's own modules (``js/events.js``, ``js/table/speech.js``,
``js/prompt.js``, ``js/hint.js``, ``js/names.js``) say the events of whole matches (every
step and one sentence a turn), every board, the piles, what to do and hints'
conclusions; :mod:`trashcards.tui.plain.speech` must say exactly the same. Matches of
several presets give the rarer events (calls, penalties, claims, last chances, Jokers,
reshuffles). Besides: the terminal's refusals in English are the catalog's, and the
catalog's plurals, lists and numbers.
"""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from trashcards.ai.hints import hint
from trashcards.bots import make_bot
from trashcards.events import (
    Called,
    Claimed,
    FinalCycle,
    PenaltyDrawn,
    Reshuffled,
    StockEmpty,
    Swapped,
)
from trashcards.record import Record
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.state import Phase, new_match
from trashcards.statejson import view_json
from trashcards.tui.game import Decision, Game, MatchOver
from trashcards.tui.keys import REFUSALS
from trashcards.tui.plain import LANGUAGES, Catalog, Speaker
from trashcards.tui.plain.catalog import language_from_environment
from trashcards.tui.scene import Scene
from trashcards.tui.seats import Seat
from trashcards.views import view
from trashcards.web.eventjson import events_text

SCRIPT = Path(__file__).with_name("plain_speech.mjs")
CATALOGS = Path(__file__).parents[2] / "src" / "trashcards" / "web" / "static" / "i18n"

#: (rules, seat names, bot kinds, seed): matches that between them hold every event.
MATCHES = (
    (Rules.preset_named("kids").with_fields({"rounds_to_win": 2}), ("Ana", "bot:greedy"),
     ("greedy", "greedy"), 1),
    (Rules.preset_named("kids").with_fields({"call_trash": True, "rounds_to_win": 3}),
     ("Ana", "Bo", "bot:kid"), ("kid", "kid", "kid"), 2),
    (Rules.preset_named("kids").with_fields({"last_chance": True, "rounds_to_win": 2,
                                             "jokers_per_deck": 2}),
     ("Ana", "bot:greedy", "bot:greedy:2", "Di"), ("greedy", "greedy", "kid", "kid"), 3),
    (Rules.preset_named("standard").with_fields({"rounds_to_win": 1, "decks": 1}),
     ("Ana", "bot:counter", "Cy", "Di"), ("greedy", "counter", "kid", "greedy"), 8),
)


def bot_record(rules: Rules, names: tuple[str, ...], kinds: tuple[str, ...],
               seed: int) -> Record:
    match = Match(rules, list(names), random.Random(seed))
    game = Game(match, [Seat(name) for name in names],
                {seat: make_bot(kind, random.Random(seed * 10 + seat))
                 for seat, kind in enumerate(kinds)})
    game.start()
    while not isinstance(due := game.due(), MatchOver):
        if isinstance(due, Decision):
            game.play(due.seat, game.bot_choice(due.seat))
        else:
            game.next_round()
    return match.record


def moves_json(record: Record) -> list[list[dict[str, Any]]]:
    """Each move's events as the browsers get them, without the cards revealed at a
    round's end (the terminal never shows a face-down card)."""
    out = []
    for state, events in record.steps():
        said = json.loads(f"[{events_text(events, state)}]")
        for event in said:
            event.pop("revealed", None)
        out.append(said)
    return out


@pytest.fixture(scope="module")
def records() -> list[Record]:
    return [bot_record(*case) for case in MATCHES]


def positions(records: list[Record]) -> list[tuple[Record, int, int]]:
    """(record, moves, seat of the reader): every few decisions of each match."""
    found = []
    for record in records:
        for index, (state, _) in enumerate(record.steps(), start=1):
            if (state.to_act is not None and state.phase in (Phase.DRAW, Phase.WILD,
                                                             Phase.SWAP)
                    and (index % 5 == 0 or state.phase is not Phase.DRAW)):
                found.append((record, index, index % state.players))
    return found


@pytest.mark.node
@pytest.mark.slow
def test_the_plain_mode_says_what_the_browser_says_in_every_language(records, tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    events = [event for record in records for _, moves in record.steps() for event in moves]
    for kind in (Called, PenaltyDrawn, Claimed, FinalCycle, Swapped, Reshuffled, StockEmpty):
        assert any(isinstance(event, kind) for event in events), kind.__name__
    places = positions(records)
    hinted = []  # three decisions with a choice in each match: first, middle, last
    for record in records:
        choices = [index for r, index, _ in places
                   if r is record and len(view(record.replay(index), None).legal) > 1]
        hinted += [(record, index) for index in sorted({choices[0], choices[len(choices) // 2],
                                                       choices[-1]})]
    hints = [hint(view(record.replay(index), record.replay(index).to_act), 24, 0,
                  "reference") for record, index in hinted]
    cases = {
        "languages": list(LANGUAGES),
        "matches": [{"names": list(r.players), "you": 0, "moves": moves_json(r)}
                    for r in records],
        "positions": [{"you": seat, "state": view_json(view(record.replay(index), seat))}
                      for record, index, seat in places],
        "hints": [found.to_json() for found in hints],
    }
    path = tmp_path / "cases.json"
    path.write_text(json.dumps(cases), encoding="utf-8")
    done = subprocess.run([node, str(SCRIPT), str(path)], capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    browser = json.loads(done.stdout)
    for lang in LANGUAGES:
        t = Catalog(lang)
        said = browser[lang]
        for record, moves in zip(records, said["matches"], strict=True):
            speaker = Speaker(t, record.players, lambda seat: seat == 0)
            state = new_match(record.rules, record.players)
            for (after, events), words in zip(record.steps(), moves, strict=True):
                before = Scene.from_view(view(state, None))
                assert speaker.every_step(events, before) == words["full"], (lang, events)
                assert speaker.one_sentence_a_turn(events, before) == words["brief"], (
                    lang, events)
                state = after
        for (record, index, seat), words in zip(places, said["positions"], strict=True):
            seen = view(record.replay(index), seat)
            speaker = Speaker(t, record.players, lambda s, seat=seat: s == seat)
            assert [speaker.board(seen, s) for s in range(len(seen.players))] == \
                words["boards"], lang
            assert speaker.piles(seen) == words["piles"], lang
            assert speaker.turn(seen, named=False) == words["turn"], lang
            assert speaker.turn(seen, named=True) == words["named"], lang
        speaker = Speaker(t, ("Ana",), lambda seat: seat == 0)
        assert {words.split(":")[0] for words in said["hints"]} >= {
            t("hint.best", action="", reason="").split(":")[0]}
        for found, words in zip(hints, said["hints"], strict=True):
            assert speaker.hint(found) == f"{t('hint.title')}: {words}", lang


def test_the_refusals_in_english_are_the_catalog_s():
    english = json.loads((CATALOGS / "en.json").read_text("utf-8"))
    said = {key.removeprefix("refused."): text for key, text in english.items()
            if key.startswith("refused.")}
    assert said == REFUSALS


@pytest.mark.parametrize(("environment", "language"), [
    ({}, "en"),
    ({"LANG": "nl_NL.UTF-8"}, "nl"),
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANGUAGE": "fr:it", "LANG": "en_GB.UTF-8"}, "it"),
    ({"LC_ALL": "es_ES.UTF-8", "LANG": "vi_VN"}, "es"),
    ({"LC_ALL": "de_DE.UTF-8", "LANG": "vi_VN"}, "en"),
    ({"LC_MESSAGES": "vi_VN.UTF-8"}, "vi"),
])
def test_the_language_is_the_locale_s_as_gettext_finds_it(environment, language):
    assert language_from_environment(environment) == language


def test_a_plural_message_takes_its_form_by_count_as_the_browser_does():
    assert Catalog("en")("pile.stock", count=1) == "Stock: 1 card"
    assert Catalog("en")("pile.stock", count=0) == "Stock: 0 cards"
    assert Catalog("en")("reason.costs", count="1") == \
        "Costs 1 point of match-win chance against the best move."
    assert Catalog("nl")("reason.costs", count="1,5").startswith("Kost 1,5 procentpunten")
    assert Catalog("vi")("pile.stock", count=1) == "Nọc: 1 lá"
    assert Catalog("en")("no.such.key") == "no.such.key"


def test_lists_and_numbers_are_written_as_intl_writes_them():
    assert Catalog("en").and_list(["a", "b", "c"]) == "a, b, and c"
    assert Catalog("en").or_list(["a", "b"]) == "a or b"
    assert Catalog("es").and_list(["roba", "intercambia"]) == "roba e intercambia"
    assert Catalog("es").or_list(["siete", "ocho"]) == "siete u ocho"
    assert Catalog("nl").and_list(["a", "b", "c"]) == "a, b en c"
    assert Catalog("vi").or_list(["a", "b"]) == "a hoặc b"
    assert Catalog("en").number(1.25) == "1.3"
    assert Catalog("it").number(2.0) == "2"
    assert Catalog("es").number(0.45) == "0,5"
