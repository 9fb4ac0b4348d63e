"""Words from numbers (issue 28): "Best" only when its interval separates from the next,
else "equally good" in a fixed order with the standard play first; never a lower figure
above a higher one in the same group (Hint.lines, the JSON, the terminal, the command
line); never "0.0 points"; "(the standard play)" only on greedy's own choice; singular
and plural right in the five catalogs; under call-trash, the lesson of a move that
misses the call is the call."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_coach import positions
from test_compare_outcomes import tables

from trashcards.actions import CALL, DISCARD, STOCK, Action, Verb
from trashcards.ai.compare import comparison_of, greedy_choice
from trashcards.ai.hints import Hint, hint_of
from trashcards.ai.reasons import ENGLISH, Reason
from trashcards.cli.hint import points, summary_notes
from trashcards.rules import Rules
from trashcards.state import Phase
from trashcards.tui.render import hint_text
from trashcards.views import View

CATALOGS = Path(__file__).parents[2] / "src" / "trashcards" / "web" / "static" / "i18n"
STANDARD = Rules.preset_named("standard")
#: The singular and plural of the nouns counted in the messages with a count.
NOUNS = {"en": (("point", "points"), ("move", "moves")),
         "nl": (("procentpunt", "procentpunten"), ("zet", "zetten")),
         "es": (("punto", "puntos"), ("jugada", "jugadas")),
         "it": (("punto", "punti"), ("mossa", "mosse"))}


def catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))
    return data


def counted(key: str) -> bool:
    return key.startswith("reason.") or key == "hint.chance_behind"


@pytest.mark.parametrize("lang", sorted(NOUNS))
def test_a_count_of_one_reads_in_the_singular_and_any_other_in_the_plural(lang: str) -> None:
    found = 0
    for key, message in catalog(lang).items():
        if not (counted(key) and isinstance(message, dict)):
            continue
        found += 1
        one, other = message["one"], message["other"]
        nouns = [pair for pair in NOUNS[lang] if re.search(rf"\b{pair[1]}\b", other)]
        assert len(nouns) == 1, (key, other)
        singular, plural = nouns[0]
        assert re.search(rf"\b{singular}\b", one), (key, one)
        assert not re.search(rf"\b{plural}\b", one), (key, one)
    assert found >= 9


def test_vietnamese_has_one_form_for_every_count() -> None:
    english = catalog("en")
    for key, message in catalog("vi").items():
        if isinstance(english[key], dict) and counted(key):
            assert set(message) == {"other"}, key


def test_every_catalog_writes_a_count_of_points_where_english_does() -> None:
    english = catalog("en")
    for lang in ("nl", "es", "it", "vi"):
        other = catalog(lang)
        for key, message in english.items():
            if counted(key) and isinstance(message, dict):
                assert isinstance(other[key], dict), (lang, key)


def test_the_english_reasons_say_1_point_and_1_5_points() -> None:
    assert Reason("costs", {"count": 1.0}).text == \
        "Costs 1 point of match-win chance against the best move."
    assert Reason("costs", {"count": 1.5}).text == \
        "Costs 1.5 points of match-win chance against the best move."
    assert Reason("costs", {"count": 12.0}).text.startswith("Costs 12 points ")
    assert Reason("standard_tie", {"count": 1}).text == \
        "The standard play; 1 other move is as good."
    assert Reason("tie_lead", {"count": 3}).text == "As good as 3 other moves."
    assert points(0.01) == "1 point"
    assert points(0.0149) == "1.5 points"
    assert points(0.0004) == "less than 0.1 points"


def test_the_english_catalog_has_the_terminal_s_words() -> None:
    english = catalog("en")
    for code, text in ENGLISH.items():
        assert english[f"reason.{code}"] == text


# -- figures and order, from made-up outcomes ---------------------------------------------


def hint_for(seen: View, outcomes: Any, greedy: Action | None = None) -> Hint:
    chosen = greedy_choice(seen) if greedy is None else greedy
    return hint_of(seen, comparison_of(seen, seen.legal, outcomes, chosen, looks=6))


def percents(text: str) -> list[float]:
    """The match-win figure of each move's line of the terminal's hint."""
    return [float(m) for m in re.findall(r"^\[\w+\] ([\d.]+) %", text, re.MULTILINE)]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_the_tie_group_comes_first_in_a_fixed_order_and_no_figure_tops_one_above_it(
        case: tuple[View, Any]) -> None:
    seen, outcomes = case
    result = hint_for(seen, outcomes)
    found = result.comparison
    group = [line.action for line in result.tied]
    assert group[0] == found.best == result.best.action
    # the others of the group in the order of the legal moves, never by noisy means
    assert group[1:] == [a for a in seen.legal if a in group[1:]]
    assert found.best == (found.greedy if found.greedy in group and CALL not in seen.legal
                          else found.best)
    top = result.best.value
    figures = [line.value.match_win.value for line in result.lines]
    for line in result.tied:  # the group shows the best's chances
        assert line.value.match_win == top.match_win
        assert line.value.round_win == top.round_win
    rest = figures[len(group):]
    assert rest == sorted(rest, reverse=True)
    assert all(f <= top.match_win.value for f in rest)
    for line in result.lines[len(group):]:  # a worse move: the best less its cost
        assert line.value.match_win.value == pytest.approx(
            max(0.0, top.match_win.value + line.vs_best.mean), abs=1e-12)
    data = result.to_json()
    shown = [a["match_win"] for a in data["actions"]]
    assert shown[:len(group)] == [shown[0]] * len(group)
    assert shown[len(group):] == sorted(shown[len(group):], reverse=True)
    assert data["tied"] == [str(a) for a in group]
    text = hint_text(result, seen).plain
    lines = percents(text)
    assert lines[:len(group)] == [lines[0]] * len(group)
    assert lines[len(group):] == sorted(lines[len(group):], reverse=True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_best_only_when_it_separates_and_never_a_count_of_zero(case: tuple[View, Any]) -> None:
    seen, outcomes = case
    result = hint_for(seen, outcomes)
    notes = " ".join(summary_notes(result))
    for line in result.lines:
        assert line.why.params.get("count", 1) > 0
        assert "0.0 point" not in line.reason
    assert not re.search(r"\b0\.0 (pp|points)", notes)
    if notes.startswith("Best:"):
        assert all(line.vs_best.high < 0 for line in result.lines[1:])
    if len(result.tied) > 1:
        assert notes.startswith("Equally good:") or result.always_call


def _outcomes(seen: View, chances: dict[Action, list[float]]) -> dict[Action, Any]:
    seat = seen.to_act
    assert seat is not None
    out = {}
    for action, row in chances.items():
        match = [tuple(c if s == seat else 1 - c for s in range(2)) for c in row]
        out[action] = (match, [(seat,) if c > 0.5 else () for c in row])
    return out


WILDS = [v for seed in range(3) for v in positions(STANDARD, 2, seed)
         if v.phase is Phase.WILD and sum(a.verb is Verb.WILD for a in v.legal) >= 3]


def test_the_standard_play_is_named_only_when_it_is_the_best() -> None:
    seen = WILDS[0]
    greedy = greedy_choice(seen)
    wilds = [a for a in seen.legal if a.verb is Verb.WILD]
    base = [0.2, 0.5, 0.8, 0.35, 0.65] * 40
    # greedy's placement measurably worse, the other placements exactly equal
    chances = dict.fromkeys(seen.legal, base)
    chances[greedy] = [c - 0.05 for c in base]
    result = hint_for(seen, _outcomes(seen, chances))
    assert greedy not in [line.action for line in result.tied]
    assert len(result.tied) > 1
    notes = " ".join(summary_notes(result))
    assert notes.startswith("Equally good: ")
    assert "standard play" not in notes
    assert result.best.why.code in ("wild_any", "tie_lead")
    assert all("standard play" not in line.reason for line in result.lines)
    # and with greedy's placement as good: it leads, labelled
    same = hint_for(seen, _outcomes(seen, dict.fromkeys(seen.legal, base)))
    assert same.best.action == greedy
    assert "(the standard play)" in " ".join(summary_notes(same))
    assert [line.action for line in same.tied] == [greedy] + [a for a in wilds if a != greedy] \
        + [a for a in seen.legal if a not in wilds]


def _call_decision(fits: bool) -> View:
    rules = Rules.preset_named("call-trash")
    for seed in range(40):
        for v in positions(rules, 2, seed):
            if v.phase is Phase.DRAW and CALL in v.legal and (DISCARD in v.legal) == fits:
                return v
    raise AssertionError("no such decision")


def test_under_call_trash_the_lesson_of_a_missed_call_is_the_call() -> None:
    """Calling first is worth 1.1 points: the discard that is the right move once the call
    is made says "call first", not "costs 1.1 points"; drawing past it says what that
    costs."""
    seen = _call_decision(fits=True)
    base = [0.2, 0.5, 0.8, 0.35, 0.65] * 40
    chances = {CALL: base, DISCARD: [c - 0.011 for c in base],
               STOCK: [c - 0.05 for c in base]}
    result = hint_for(seen, _outcomes(seen, chances))
    why = {line.action: line.why for line in result.lines}
    assert result.always_call
    assert result.best.action == CALL
    assert why[DISCARD] == Reason("call_first", {"count": 1.1})
    assert why[DISCARD].text.startswith("Call “Trash!” first")
    assert why[STOCK].code == "leaves_fitting"
    only = _call_decision(fits=False)
    result = hint_for(only, _outcomes(only, {CALL: base, STOCK: [c - 0.011 for c in base]}))
    assert {line.action: line.why.code for line in result.lines}[STOCK] == "call_first"


@settings(max_examples=40, deadline=None)
@given(st.floats(0.0, 0.0004))
@example(0.0003)
def test_a_lead_too_small_to_round_is_never_0_0_points(gap: float) -> None:
    seen = _call_decision(fits=False)
    seat = seen.to_act
    assert seat is not None
    base = [0.2, 0.5, 0.8, 0.35, 0.65] * 40
    result = hint_for(seen, _outcomes(seen, {CALL: base, STOCK: [c - gap for c in base]}))
    stock = next(line for line in result.lines if line.action == STOCK)
    assert gap < 0.0001 or not stock.equal_to_best  # the same cost on every deal: certain
    if not stock.equal_to_best:
        assert stock.why.code == "costs_little"
        assert "less than 0.1 points" in stock.reason
