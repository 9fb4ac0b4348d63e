"""A review that reads like a coach: confirmed losses under the threshold are small
losses (apart from the mistakes), each player's figures are counts and shares a person
understands (never a sum of points), and each judged decision is told in sentences — what
the player did with which card, the better move, the cost with its interval — in the five
catalogs, with the terminal's English the catalog's."""

from __future__ import annotations

import json
import math
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from trashcards.actions import CALL, DISCARD, STOCK, SWAP, TRASH, Action, Verb
from trashcards.ai.compare import Comparison, Paired, comparison_of, greedy_choice
from trashcards.ai.review import THRESHOLD, Decision, review, verdict
from trashcards.ai.reviewtext import ENGLISH, english, figures, form, lesson, points
from trashcards.bots import make_bot
from trashcards.chance import sample_chance
from trashcards.engine import apply
from trashcards.record import Record
from trashcards.rules import Rules
from trashcards.session import play_match
from trashcards.state import Phase, new_match
from trashcards.views import View, view

CATALOGS = Path(__file__).parents[2] / "src" / "trashcards" / "web" / "static" / "i18n"
LANGUAGES = ("en", "nl", "es", "it", "vi")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _views(preset: str = "kids", seeds: int = 8) -> list[View]:
    """Decisions with a choice of every phase, from random-bot matches."""
    found: list[View] = []
    for seed in range(seeds):
        rules = Rules.preset_named(preset)
        rng = random.Random(seed)
        bot = make_bot("random", random.Random(seed))
        state = new_match(rules, ("Ana", "Ben"))
        for _ in range(400):
            seat = state.to_act
            if seat is None:
                if state.phase is Phase.MATCH_OVER:
                    break
                state, _events = apply(state, sample_chance(state, rng))
                continue
            seen = view(state, seat)
            if len(seen.legal) > 1:
                found.append(seen)
            state, _events = apply(state, bot.choose(seen), seat)
    return found


VIEWS = _views()


def _first(phase: Phase, *actions: Action) -> View:
    return next(v for v in VIEWS if v.phase is phase and all(a in v.legal for a in actions))


def _outcomes(seen: View, worse: Action, deals: int = 400, gap: int = 40
              ) -> dict[Action, tuple[list[tuple[float, ...]], list[tuple[int, ...]]]]:
    """Every action wins the first half of the deals, ``worse`` ``gap`` deals fewer."""
    seat = seen.to_act
    assert seat is not None
    out = {}
    for action in seen.legal:
        wins = deals // 2 - (gap if action == worse else 0)
        match = [tuple(float((k < wins) == (s == seat)) for s in range(len(seen.players)))
                 for k in range(deals)]
        out[action] = (match, [(seat,) if k < wins else () for k in range(deals)])
    return out


def _judged(seen: View, taken: Action, confirmed: Paired, exact: bool = False,
            gap: int = 40) -> Decision:
    found: Comparison = comparison_of(seen, seen.legal, _outcomes(seen, taken, gap=gap),
                                      greedy_choice(seen))
    if exact:
        found = replace(found, exact=True, tied=(found.best,))
    assert taken not in found.tied
    return verdict(seen, taken, found, lambda _versus: confirmed)


# -- small losses ----------------------------------------------------------------------------


def test_a_loss_confirmed_under_the_threshold_is_a_small_loss_not_a_mistake() -> None:
    seen = _first(Phase.DRAW, STOCK, DISCARD)
    small = _judged(seen, STOCK, Paired(0.003, 0.001, 0.005, 800))
    assert small.kind == "small_loss"
    assert small.small_loss
    assert not small.mistake
    assert not small.matched
    assert small.cost == pytest.approx(0.003)
    assert small.cost_ci == (0.001, 0.005)
    assert STOCK not in small.tied
    assert small.to_json()["small_loss"] is True
    assert small.to_json()["mistake"] is False


def test_a_loss_confirmed_at_the_threshold_is_a_mistake() -> None:
    seen = _first(Phase.DRAW, STOCK, DISCARD)
    big = _judged(seen, STOCK, Paired(THRESHOLD, 0.002, 0.008, 800))
    assert big.kind == "mistake"
    assert big.mistake
    assert not big.small_loss


def test_an_unconfirmed_loss_is_neither() -> None:
    seen = _first(Phase.DRAW, STOCK, DISCARD)
    none = _judged(seen, STOCK, Paired(0.003, -0.001, 0.007, 800))
    assert none.kind == "ok"
    assert none.matched
    assert none.cost == 0


def test_an_exact_loss_under_the_threshold_is_a_small_loss() -> None:
    seen = _first(Phase.DRAW, STOCK, DISCARD)
    # exact values: the best wins 200 of 400 deals' worth, the stock 1 fewer (0.25 pp)
    exact = _judged(seen, STOCK, Paired(0.0, 0.0, 0.0, 0), exact=True, gap=1)
    assert exact.kind == "small_loss"
    assert exact.cost == pytest.approx(0.0025)
    assert exact.cost_ci[0] == exact.cost_ci[1] == exact.cost
    assert _judged(seen, STOCK, Paired(0.0, 0.0, 0.0, 0), exact=True, gap=2).kind == "mistake"


# -- each player's figures -------------------------------------------------------------------


def _record() -> Record:
    rules = Rules.preset_named("kids")
    bots = [make_bot(kind, random.Random(f"words:{seat}"))
            for seat, kind in enumerate(("random", "greedy"))]
    return play_match(rules, ("Ana", "Ben"), bots, random.Random("words")).record


def _fake_review() -> Any:
    """A review in which each seat's decisions are in turn a mistake, a small loss and a
    match of the best, by made-up outcomes and confirmations."""
    calls = [0, 0]

    def judged_by(seat_view: View, taken: Action, _samples: int, _at: int, _engine: Any,
                  threshold: float, missed: bool) -> tuple[Decision, Comparison]:
        seat = seat_view.to_act
        assert seat is not None
        turn = calls[seat] % 3
        calls[seat] += 1
        others = [a for a in seat_view.legal if a != taken]
        worse = taken if turn != 2 else others[0]
        found = comparison_of(seat_view, seat_view.legal, _outcomes(seat_view, worse),
                              greedy_choice(seat_view))
        cost = (0.02 + calls[seat] / 1000, 0.003, 0.0)[turn]
        confirmed = Paired(cost, cost / 2, cost * 1.5, 800)
        return verdict(seat_view, taken, found, lambda _v: confirmed, threshold, missed), found
    return review(_record(), 8, judged_by=judged_by, odds_table=False)


def test_each_player_s_figures_are_counts_and_shares_never_a_sum_of_points() -> None:
    result = _fake_review()
    data = result.to_json()
    for s, summary in zip(result.summaries, data["summary"], strict=True):
        mine = [d for d in result.decisions if d.seat == s.seat]
        assert summary["decisions"] == len(mine)
        assert summary["mistakes"] == sum(d.kind == "mistake" for d in mine) > 0
        assert summary["small_losses"] == sum(d.kind == "small_loss" for d in mine) > 0
        assert summary["matched"] == sum(d.kind == "ok" for d in mine) > 0
        assert summary["matched_share"] == round(summary["matched"] / len(mine), 4)
        largest = max((d for d in mine if d.kind != "ok"), key=lambda d: d.cost)
        assert summary["largest_loss"]["move"] == largest.move
        assert summary["largest_loss"]["cost"] == round(largest.cost, 4)
        assert not {"total_cost", "mean_cost", "accuracy"} & set(summary)
        matched, count, percent = (figures(s)[2].params[k] for k in ("matched", "count",
                                                                     "percent"))
        assert (matched, count) == (s.matched, s.decisions)
        assert percent == math.floor(100 * s.matched / s.decisions + 0.5)


# -- sentences -------------------------------------------------------------------------------


def _decision(seen: View, taken: Action, best: Action, kind: str, cost: float = 0.0,
              ci: tuple[float, float] = (0.0, 0.0), exact: bool = False) -> Decision:
    assert seen.to_act is not None
    return Decision(56, seen.to_act, seen.round, taken, best, len(seen.legal), cost, ci, 0.0,
                    0.5, 0.5 - cost, (best,), cost, exact, kind)


def _says(decision: Decision, seen: View) -> str:
    return " ".join(english(m) for m in lesson(decision, seen, "Ana"))


def test_a_mistake_says_what_was_done_with_which_card_the_better_move_and_its_cost() -> None:
    seen = _first(Phase.DRAW, STOCK, DISCARD)
    top = seen.top_discard
    assert top is not None
    said = _says(_decision(seen, STOCK, DISCARD, "mistake", 0.0423, (0.031, 0.0534)), seen)
    assert said == (f"Ana left {top.pretty()} on the discard pile and drew from the stock. "
                    f"Taking {top.pretty()} from the discard pile was better. It cost 4.2 "
                    "points of match-win chance (95 %: 3.1 to 5.3).")


def test_throwing_a_wild_away_reads_chose_to_throw_it_away() -> None:
    seen = _first(Phase.WILD, TRASH)
    slot = next(a for a in seen.legal if a.verb is Verb.WILD)
    assert seen.in_hand is not None
    said = _says(_decision(seen, TRASH, slot, "mistake", 0.334, (0.3, 0.36)), seen)
    assert said.startswith(f"With the wild {seen.in_hand.pretty()} in hand, Ana chose to "
                           "throw it away. ")
    assert f"Putting it in slot {slot.slot} was better." in said
    assert "chose throw" not in said


def test_a_natural_on_a_wild_names_the_wild_s_slot() -> None:
    seen = _first(Phase.SWAP, SWAP, TRASH)
    assert seen.in_hand is not None
    slot = seen.rules.roles()[seen.in_hand]
    card = seen.in_hand.pretty()
    said = _says(_decision(seen, TRASH, SWAP, "small_loss", 0.0031, (0.0012, 0.005)), seen)
    assert said == (f"Ana kept the wild in slot {slot} and chose to throw {card} away. "
                    f"Putting {card} in slot {slot} and taking back the wild was better. "
                    "A small loss: 0.31 points of match-win chance (95 %: 0.12 to 0.50).")
    assert form(SWAP, seen) == ("swap", {"card": seen.in_hand.text, "slot": slot})


def test_a_missed_call_says_the_call_was_the_lesson() -> None:
    seen = next(v for v in _views("call-trash", 4) if v.phase is Phase.DRAW and CALL in v.legal
                and DISCARD not in v.legal)
    said = _says(_decision(seen, STOCK, CALL, "missed_call", 0.0006, (-0.001, 0.002)), seen)
    assert said == ("Ana drew from the stock. That completed the board without a call of "
                    "“Trash!”, so the round could not be claimed at once. Calling “Trash!” "
                    "first was better: calling costs nothing. Here it cost nothing "
                    "measurable (95 %: -0.10 to 0.20 points).")


def test_an_exact_cost_has_no_interval_and_a_matched_move_says_so() -> None:
    seen = _first(Phase.DRAW, STOCK, DISCARD)
    said = _says(_decision(seen, DISCARD, STOCK, "mistake", 0.05, (0.05, 0.05), True), seen)
    assert said.endswith("It cost exactly 5.0 points of match-win chance.")
    assert _says(_decision(seen, DISCARD, DISCARD, "ok"), seen).endswith("The best move.")
    assert _says(_decision(seen, STOCK, DISCARD, "ok"), seen).endswith(
        "As good as the best move within the noise.")


def test_points_round_as_the_browser_rounds() -> None:
    """One decimal from one point up, two below; the shortest decimal of the number with
    ties away from zero (Intl.NumberFormat), never "-0.0"."""
    assert [points(v) for v in (0.0425, 0.00345, 0.334, -0.00001, 0.045, 0.0)] == \
        ["4.3", "0.35", "33.4", "0.00", "4.5", "0.00"]
    assert points(0.00123, 1) == "0.1"


# -- the catalogs ----------------------------------------------------------------------------


def _catalog(language: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((CATALOGS / f"{language}.json").read_text("utf-8"))
    return data


def _names(message: str | dict[str, str]) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


def test_the_english_catalog_says_what_the_review_command_says() -> None:
    catalog = _catalog("en")
    for key, text in ENGLISH.items():
        assert catalog[key] == text, key


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_review_sentence_is_in_every_catalog_with_the_same_parameters(
        language: str) -> None:
    catalog = _catalog(language)
    for key, text in ENGLISH.items():
        assert key in catalog, f"{language}: {key} missing"
        assert _names(catalog[key]) == _names(text), (language, key)
