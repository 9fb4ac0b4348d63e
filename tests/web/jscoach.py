"""The Python side of the differential test of the coach on this device
(static/js/local/coach.js against trashcards.ai.compare, .reasons and .review): fixed
inputs — views of seeded matches and, for each decision, every action's outcomes on a
table of deals — and what the Python functions make of them (the ranking, the ties, the
paired intervals, the reasons, the judgement of a move, a whole review).

The outcomes are made up (seeded), not played out: the test pins what the coach decides
from outcomes, which both sides must do alike; how the outcomes are sampled differs by
design (the browser has far fewer deals). Values are multiples of 1/8, so every sum is
exact whatever the order of the additions.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

import jscorpus

from trashcards.actions import Action
from trashcards.ai.compare import (
    Comparison,
    Outcomes,
    Paired,
    comparison_of,
    confirm_paired,
    extra_deals,
    greedy_choice,
    planned_looks,
    sample_adaptively,
)
from trashcards.ai.evaluate import Engine
from trashcards.ai.hints import hint_of
from trashcards.ai.review import Decision, review, verdict
from trashcards.record import Record
from trashcards.state import State, new_match
from trashcards.statejson import view_json
from trashcards.views import View, view
from trashcards.web.advice import _positions

#: Deals in each outcome table, and the sampling's budget on them.
DEALS = 400
SAMPLES = 16
EXTRA = 200
BATCH = 16


def outcome_table(actions: Sequence[Action], seat: int, players: int, rng: random.Random,
                  deals: int = DEALS, fractional: bool = False
                  ) -> dict[Action, tuple[list[tuple[float, ...]], list[tuple[int, ...]]]]:
    """Made-up outcomes of every action on ``deals`` common deals: each action has a
    strength, some actions share one (and then their outcomes: exact ties), the deal's
    luck is common to all, and a share of each action's deals is its own noise."""
    levels = [rng.choice((0.2, 0.4, 0.5, 0.5, 0.505, 0.6, 0.9)) for _ in actions]
    if len(actions) > 1 and rng.random() < 0.4:
        levels[1] = levels[0]
    own = rng.choice((0.01, 0.05, 0.3))  # the share of deals whose outcome is the action's own
    luck = [rng.random() for _ in range(deals)]
    noise = {action: [(rng.random(), rng.random()) for _ in range(deals)] for action in actions}
    out: dict[Action, tuple[list[tuple[float, ...]], list[tuple[int, ...]]]] = {}
    for i, action in enumerate(actions):
        source = noise[actions[0]] if levels[i] == levels[0] else noise[action]
        match, rounds = [], []
        for k in range(deals):
            u = luck[k] if source[k][0] >= own else source[k][1]
            win = u < levels[i]
            other = (seat + 1 + k % (players - 1)) % players
            winner = seat if win else other
            if fractional:
                mine = round(8 * min(1.0, max(0.0, levels[i] + (u - 0.5) / 2))) / 8
                row = [0.0] * players
                row[seat] = mine
                row[other] = 1.0 - mine
            else:
                row = [float(s == winner) for s in range(players)]
            match.append(tuple(row))
            rounds.append((winner,) if k % 5 else ())
        out[action] = (match, rounds)
    return out


def small_outcome_table(actions: Sequence[Action], seat: int, players: int,
                        rng: random.Random, deals: int = DEALS
                        ) -> dict[Action, tuple[list[tuple[float, ...]], list[tuple[int, ...]]]]:
    """Made-up outcomes whose paired differences are constant: every action gets the
    deal's common chance less its own handicap of 0, 1 or 3 / 256 (0.39 or 1.17 points:
    a small loss or a mistake, once confirmed). Multiples of 1/256, so sums are exact."""
    luck = [rng.randrange(64, 192) for _ in range(deals)]
    handicaps = [0] + [rng.choice((0, 1, 1, 3)) for _ in actions[1:]]
    out: dict[Action, tuple[list[tuple[float, ...]], list[tuple[int, ...]]]] = {}
    for action, handicap in zip(actions, handicaps, strict=True):
        match, rounds = [], []
        for k in range(deals):
            other = (seat + 1 + k % (players - 1)) % players
            row = [0.0] * players
            row[seat] = (luck[k] - handicap) / 256
            row[other] = 1.0 - row[seat]
            match.append(tuple(row))
            rounds.append((seat if luck[k] >= 128 else other,) if k % 5 else ())
        out[action] = (match, rounds)
    return out


def _draw(table: dict[Action, tuple[list[tuple[float, ...]], list[tuple[int, ...]]]]) -> Any:
    def draw(actions: Sequence[Action], start: int, count: int) -> list[Outcomes]:
        return [(table[a][0][start:start + count], table[a][1][start:start + count])
                for a in actions]
    return draw


def _confirm_draw(table: dict[Action, tuple[list[tuple[float, ...]], list[tuple[int, ...]]]],
                  seat: int, versus: Action, taken: Action) -> Any:
    def draw(start: int, count: int) -> tuple[list[float], list[float]]:
        return ([m[seat] for m in table[versus][0][start:start + count]],
                [m[seat] for m in table[taken][0][start:start + count]])
    return draw


def compared(seat_view: View, table: Any) -> Comparison:
    """The comparison the coach makes of ``table`` (adaptive sampling on it included)."""
    seat = seat_view.to_act
    assert seat is not None
    legal = seat_view.legal
    data = sample_adaptively(legal, seat, _draw(table), SAMPLES, EXTRA, BATCH)
    return comparison_of(seat_view, legal, {a: (data[a].match, data[a].round) for a in legal},
                         greedy_choice(seat_view), looks=planned_looks(EXTRA, BATCH))


def confirmed(seat_view: View, confirm_table: Any, taken: Action) -> Any:
    seat = seat_view.to_act
    assert seat is not None

    def check(versus: Action) -> Paired:
        return confirm_paired(_confirm_draw(confirm_table, seat, versus, taken), 2 * SAMPLES,
                              EXTRA, BATCH)
    return check


def _table_json(table: Any) -> dict[str, Any]:
    return {str(a): {"match": [list(m) for m in match], "round": [list(w) for w in rounds]}
            for a, (match, rounds) in table.items()}


def decision_states(seed: int) -> Iterator[tuple[Record, int, State, Action, bool]]:
    """Every decision with a choice of a seeded match: (record, move index, state before,
    action taken, whether it missed a call)."""
    kinds = (("greedy", "random"), ("kid", "random", "greedy"), ("random", "random"))[seed % 3]
    record, _digests = jscorpus.play(seed, kinds, max_moves=400, every_move=False)
    state = new_match(record.rules, record.players)
    for index, (after, _events) in enumerate(record.steps()):
        seat = state.to_act
        if seat is not None and len(view(state, seat).legal) > 1:
            taken = record.moves[index].move
            assert isinstance(taken, Action)
            missed = seat in after.unclaimed and seat not in state.unclaimed
            yield record, index, state, taken, missed
        state = after


def hint_cases(count: int) -> Iterator[dict[str, Any]]:
    """Views with made-up outcomes, the hint the Python coach gives, and the judgement
    of the move taken there (with a made-up confirmation table)."""
    made = 0
    for seed in range(10_000):
        for record, index, state, taken, missed in decision_states(seed):
            if index % 3:
                continue
            rng = random.Random(seed * 100_003 + index)
            seat_view = view(state, state.to_act)
            seat = seat_view.to_act
            assert seat is not None
            players = len(seat_view.players)
            fractional = made % 4 == 3
            table = outcome_table(seat_view.legal, seat, players, rng, fractional=fractional)
            fresh = outcome_table(seat_view.legal, seat, players, rng, fractional=fractional)
            found = compared(seat_view, table)
            hint = hint_of(seat_view, found)
            judged = verdict(seat_view, taken, found, confirmed(seat_view, fresh, taken),
                             missed_call=missed)
            yield {"kind": "hint", "rules": record.rules.to_dict(),
                   "view": view_json(seat_view), "outcomes": _table_json(table),
                   "fresh": _table_json(fresh), "taken": str(taken), "missed": missed,
                   "hint": hint.to_json(), "decision": judged.to_json()}
            made += 1
            if made >= count:
                return


def confirm_cases(count: int) -> Iterator[dict[str, Any]]:
    """Sequences of paired outcomes and the confirmation's interval on them."""
    rng = random.Random(7)
    for case in range(count):
        n = 2 * SAMPLES + EXTRA
        gap = rng.choice((0.0, 0.02, 0.1, 0.3))
        a = [float(rng.random() < 0.5 + gap) for _ in range(n)]
        b = [float(rng.random() < 0.5) if rng.random() < 0.5 else a[k] for k in range(n)]
        if case % 5 == 0:
            b = list(a)
        batch = rng.choice((BATCH, 3, 200))
        diff = confirm_paired(lambda s, c, a=a, b=b: (a[s:s + c], b[s:s + c]), 2 * SAMPLES,
                              EXTRA, batch)
        yield {"kind": "confirm", "a": a, "b": b, "samples": 2 * SAMPLES, "extra": EXTRA,
               "batch": batch, "paired": {"mean": diff.mean, "low": diff.low,
                                          "high": diff.high, "n": diff.n}}


def review_cases(count: int) -> Iterator[dict[str, Any]]:
    """Whole seeded matches reviewed with made-up outcomes at every decision (without the
    match-odds table, as on this device): the review's JSON."""
    for seed in range(count):
        record, _digests = jscorpus.play(500 + seed, ("greedy", "kid", "random")[:2 + seed % 2],
                                         max_moves=300, every_move=False)
        tables: dict[int, tuple[Any, Any]] = {}

        def judged_by(seat_view: View, taken: Action, _samples: int, at: int, _engine: Engine,
                      threshold: float, missed: bool,
                      tables: dict[int, tuple[Any, Any]] = tables
                      ) -> tuple[Decision, Comparison]:
            rng = random.Random(at)
            seat = seat_view.to_act
            assert seat is not None
            players = len(seat_view.players)
            made = small_outcome_table if at % 4 == 0 else outcome_table
            table = made(seat_view.legal, seat, players, rng)
            fresh = made(seat_view.legal, seat, players, rng)
            tables[at] = (table, fresh)
            found = compared(seat_view, table)
            return verdict(seat_view, taken, found, confirmed(seat_view, fresh, taken),
                           threshold, missed), found

        result = review(record, SAMPLES, judged_by=judged_by, odds_table=False)
        positions, _count = _positions(record, None)
        yield {"kind": "review", "record": record.to_json(), "positions": positions,
               "tables": {str(at): {"outcomes": _table_json(t), "fresh": _table_json(f)}
                          for at, (t, f) in tables.items()},
               "review": result.to_json()}


#: The budgets checked: (samples, moves) for every pair of these.
BUDGET_SAMPLES = (8, 16, 300)
BUDGET_MOVES = tuple(range(1, 13))


def budget_cases() -> Iterator[dict[str, Any]]:
    """The default extra budget of a comparison (compare.extra_deals) by its samples and
    its number of sampled moves."""
    for samples in BUDGET_SAMPLES:
        for moves in BUDGET_MOVES:
            yield {"kind": "budget", "samples": samples, "moves": moves,
                   "extra": extra_deals(samples, moves)}


def cases(hints: int, confirms: int, reviews: int) -> Iterator[dict[str, Any]]:
    yield from hint_cases(hints)
    yield from confirm_cases(confirms)
    yield from budget_cases()
    yield from review_cases(reviews)
