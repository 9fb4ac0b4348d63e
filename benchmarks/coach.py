"""The coach's quality bars (issues 17 and 28): review precision, recall and missed calls
(mistakes and small losses apart), ties on exact positions, the sampled hint's false
strict bests on exactly tied positions and its lead detection, seed stability, hint
latency and the share of tied hints.

Run from a checkout::

    python benchmarks/coach.py                  # 20 matches of each kind, 200 cases
    python benchmarks/coach.py --matches 5 --cases 50          # quicker
    python benchmarks/coach.py --only sampled --only stability --only latency
    python benchmarks/coach.py --only recall --only calls      # the review's recall
    python benchmarks/coach.py --json out.json  # also write the figures

* **Review precision**: ``--matches`` greedy-against-greedy and as many
  expert-against-greedy matches (standard, two players, ten slots), each reviewed at the
  default budget; the share of the greedy and the expert decisions flagged as mistakes
  (bar: at most 0.5 %), and the share shown as small losses.
* **Review recall**: kid-against-greedy matches (kid at seat 0) until ``--cases`` of the
  kid's draws from the stock when the top discard fitted one of its face-down slots (a
  natural of that slot, or a wild) were reviewed; the share shown as a mistake or a
  small loss, with its 95 % (Wilson) interval (bar: lower bound at least 75 %), and the
  mistakes and the small losses apart.
* **Missed calls**: kid-against-greedy matches under call-trash until ``--cases``
  decisions where the kid did not call "Trash!" with one face-down slot left (where
  greedy calls); the share shown as a mistake or a small loss, apart the boards
  completed without calling (always a mistake), and why the rest are not (calling
  changes no deal's outcome: a later decision of the same turn can still call; or a
  loss too small to confirm).
* **Ties on exact positions**: every decision of ``--rounds`` greedy rounds of boards
  2 + 2, 2 + 1 and 1 + 1 (solved exactly; the first solve of 2 + 2 takes seconds):
  actions with equal exact values must both be ``equal_to_best``; where the best leads
  by more than 5 pp it must be the reported best and the second not equal.
* **The sampled hint on exact positions** (``sampled``): the exact solver's corpora
  (``--corpus``, default tests/data/exact-corpus.json.gz, written by
  scripts/exact_corpus.py: decisions of greedy and kid matches with boards of at most 3
  slots, one of 2 or 3, under the standard, kings-wild, kids, jokers and all-faces-wild
  presets, solved exactly): a *tie corpus* (the best value shared by two moves or more,
  within 1e-9) and a *leads corpus* (the best ahead of every other move by at least 2 pp
  of match-win chance); each position is hinted by sampling alone (``exact=False``, the
  default budget) at ``--seeds`` seeds. Reported: the share of tie-corpus hints that
  name a strict best (bar ≤ 5 %) and of leads-corpus hints that name the right strict
  best (bar ≥ 98 %), in all, by largest board (2 or 3 slots) and by preset, for the
  coach as shipped, for its sequential test alone (wild placements sampled one by one,
  as before issue 28) and for the rule before issue 28 (a 95 % interval re-checked after
  every batch, placements one by one). ``--corpus FILE.jsonl`` reads JSON lines
  ``{"record": <trash/1 record>, "upto": N, "kind": "tie" | "lead", "best":
  "<action>"}`` instead; ``--corpus-rounds N`` deals the corpora from N greedy rounds of
  boards 2 + 2, 2 + 1 and 1 + 2 (standard, kids, jokers, kings-wild in turn).
* **Seed stability** (``stability``): every decision of the first round of
  ``--hint-matches`` greedy matches (ten slots), and every decision with two wild
  placements or more of ``--wild-matches`` whole greedy matches, hinted at ``--seeds``
  seeds; of every two hints of one position that both name a strict best, the share that
  name the same (bar ≥ 99 %), and the share of positions where the move one seed reports
  best another calls worse — as shipped and with the rule before issue 28.
* **Hint latency**: every decision with a choice of the first round of ``--hint-matches``
  greedy matches (two players, standard, ten slots) with the default budget, after one
  warm-up; the 50th and 99th percentiles of the wall time (bar: p99 ≤ 100 ms with numba)
  and of the thread's CPU time (what one free core would take, on a shared machine), the
  share of hints that end in a tie, and the deals a hint plays (mean, and the share that
  spend the whole budget).

Matches are seeded (``--seed``), so the figures are reproducible up to timing.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import itertools
import json
import random
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from unittest import mock

import trashcards.ai.compare as compare_module
import trashcards.ai.evaluate as evaluate_module
from trashcards import Rules, apply, new_match, sample_chance, view
from trashcards.actions import CALL, DISCARD, STOCK, Action
from trashcards.ai.compare import Comparison, compare
from trashcards.ai.evaluate import fast_problem
from trashcards.ai.hints import DEFAULT_SAMPLES, hint
from trashcards.ai.odds import round_start
from trashcards.ai.review import DEFAULT_SAMPLES as REVIEW_SAMPLES
from trashcards.ai.review import THRESHOLD, review
from trashcards.bots import make_bot
from trashcards.bots.base import wants_to_call
from trashcards.estimates import wilson_interval
from trashcards.record import Record, from_json
from trashcards.rules import WILD, preset_names
from trashcards.session import play_match
from trashcards.state import Phase, State
from trashcards.views import View

STANDARD = Rules.preset_named("standard")
CALL_TRASH = Rules.preset_named("call-trash")


def _match(kinds: tuple[str, str], seed: int, rules: Rules = STANDARD) -> Record:
    bots = [make_bot(kind, random.Random(f"coach:{seed}:{seat}"))
            for seat, kind in enumerate(kinds)]
    return play_match(rules, kinds, bots, random.Random(f"coach:{seed}")).record


def _fits(v: View) -> bool:
    top = v.top_discard
    if top is None or DISCARD not in v.legal or v.to_act is None:
        return False
    role = v.rules.roles()[top]
    slots = v.players[v.to_act].slots
    return role == WILD or (1 <= role <= len(slots) and slots[role - 1] is None)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


#: Other thresholds (match-win chance) the figures are also given for.
THRESHOLDS = (0.001, 0.0025, 0.005, 0.01)


def _would_flag(d: Any, threshold: float) -> bool:
    """Whether the decision would be flagged with another threshold (the confirmation's
    estimate is kept in the decision)."""
    if d.kind == "missed_call":
        return True
    if d.equal_to_best:
        return False
    return bool(d.measured >= threshold and (d.exact or d.cost_ci[0] > 0))


def _share(count: int, total: int) -> dict[str, Any]:
    """A share with its 95 % Wilson interval."""
    low, high = wilson_interval(count, total)
    return {"count": count, "of": total, "share": count / total if total else 0.0,
            "ci": [low, high]}


def _pct(figure: dict[str, Any]) -> str:
    low, high = figure["ci"]
    return (f"{figure['count']}/{figure['of']} = {figure['share'] * 100:.1f} % "
            f"({low * 100:.1f}–{high * 100:.1f} %)")


def _precision_of(kinds: tuple[str, str], matches: int, seed: int,
                  samples: int) -> dict[str, Any]:
    """The review of ``matches`` matches of ``kinds`` (seeds from ``seed``): the decisions
    of each kind of player flagged as mistakes and shown as small losses."""
    decisions = dict.fromkeys(kinds, 0)
    flagged = dict.fromkeys(kinds, 0)
    small = dict.fromkeys(kinds, 0)
    at = {kind: dict.fromkeys(THRESHOLDS, 0) for kind in kinds}
    seconds = []
    moves = []
    for index in range(matches):
        record = _match(kinds, seed + index)
        start = time.perf_counter()
        result = review(record, samples)
        seconds.append(time.perf_counter() - start)
        moves.append(len(record.moves))
        for d in result.decisions:
            kind = kinds[d.seat]
            decisions[kind] += 1
            flagged[kind] += d.mistake
            small[kind] += d.small_loss
            for threshold in THRESHOLDS:
                at[kind][threshold] += _would_flag(d, threshold)
        _say(f"precision {'-'.join(kinds)} {index + 1}/{matches}: "
             + ", ".join(f"{k} {flagged[k]} mistakes and {small[k]} small losses in "
                         f"{decisions[k]}" for k in decisions)
             + f"; {len(record.moves)} moves reviewed in {seconds[-1]:.1f} s")
    return {"kinds": list(kinds), "matches": matches,
            "by_kind": {k: {"decisions": decisions[k], "mistakes": _share(flagged[k],
                                                                          decisions[k]),
                            "small_losses": _share(small[k], decisions[k]),
                            "share_at_threshold": {f"{t * 100:g} pp": at[k][t] / decisions[k]
                                                   for t in THRESHOLDS}}
                        for k in decisions},
            "review_seconds_max": max(seconds), "review_seconds_mean":
            sum(seconds) / len(seconds), "moves_max": max(moves)}


def precision(matches: int, seed: int, samples: int) -> dict[str, Any]:
    """Review precision on greedy play (greedy against greedy) and on expert play (expert
    against greedy): the decisions of greedy and of the expert flagged as mistakes."""
    return {"greedy": _precision_of(("greedy", "greedy"), matches, seed, samples),
            "expert": _precision_of(("expert", "greedy"), matches, 500 + seed, samples)}


def recall(cases: int, seed: int, samples: int) -> dict[str, Any]:
    """Kid-against-greedy matches until ``cases`` draws of the kid from the stock past a
    fitting discard were reviewed: how many were shown as mistakes, as small losses."""
    draws = caught = small = 0
    natural = natural_caught = 0
    at = dict.fromkeys(THRESHOLDS, 0)
    misses: list[dict[str, Any]] = []
    index = 0
    while draws < cases:
        record = _match(("kid", "greedy"), 1000 + seed + index)
        result = review(record, samples)
        judged = {d.move: d for d in result.decisions}
        state: State = new_match(record.rules, record.players)
        for move, (after, _events) in enumerate(record.steps()):
            decision = judged.get(move)
            if decision is not None and decision.seat == 0 and decision.taken == STOCK:
                v = view(state, 0)
                if _fits(v):
                    draws += 1
                    caught += decision.mistake
                    small += decision.small_loss
                    for threshold in THRESHOLDS:
                        at[threshold] += _would_flag(decision, threshold)
                    top = v.top_discard
                    assert top is not None
                    if v.rules.roles()[top] != WILD:
                        natural += 1
                        natural_caught += not decision.matched
                    if decision.matched:
                        misses.append({"seed": 1000 + seed + index, "move": move,
                                       "measured": decision.measured,
                                       "cost_ci": list(decision.cost_ci),
                                       "tied": decision.equal_to_best})
            state = after
        index += 1
        _say(f"recall {index} matches: {caught} mistakes + {small} small losses of "
             f"{draws} draws")
    return {"matches": index, "draws": draws, "mistakes": _share(caught, draws),
            "small_losses": _share(small, draws), "shown": _share(caught + small, draws),
            "share_at_threshold": {f"{t * 100:g} pp": at[t] / draws for t in at},
            "natural_draws": natural, "natural_shown": natural_caught, "misses": misses}


def missed_calls(cases: int, seed: int, samples: int) -> dict[str, Any]:
    """Kid-against-greedy matches under call-trash until ``cases`` decisions where the
    kid did not call with one face-down slot left were reviewed: how many were shown
    (mistake, small loss), and why the others were not."""
    forgot = caught = small = zero = open_ = completed = completed_caught = 0
    forgot_completed = 0
    open_costs: list[float] = []
    index = 0
    while forgot < cases:
        record = _match(("kid", "greedy"), 3000 + seed + index, CALL_TRASH)
        result = review(record, samples)
        judged = {d.move: d for d in result.decisions}
        state: State = new_match(record.rules, record.players)
        for move, (after, _events) in enumerate(record.steps()):
            decision = judged.get(move)
            if decision is not None and decision.seat == 0:
                if decision.kind == "missed_call" or (0 in after.unclaimed
                                                      and 0 not in state.unclaimed):
                    completed += 1
                    completed_caught += decision.kind == "missed_call"
                if wants_to_call(view(state, 0)) and decision.taken != CALL:
                    forgot += 1
                    caught += decision.mistake
                    small += decision.small_loss
                    forgot_completed += decision.kind == "missed_call"
                    if decision.matched:
                        low, high = decision.cost_ci
                        if low == high == 0:
                            zero += 1
                        else:
                            open_ += 1
                            open_costs.append(decision.measured)
            state = after
        index += 1
        _say(f"missed calls {index} matches: {caught} mistakes + {small} small losses of "
             f"{forgot} non-calls with one slot left; {completed_caught}/{completed} boards "
             "completed without calling flagged")
    return {"matches": index, "not_called": forgot, "mistakes": _share(caught, forgot),
            "small_losses": _share(small, forgot), "shown": _share(caught + small, forgot),
            "completed_the_board": forgot_completed, "no_effect": zero,
            "too_small_to_confirm": open_,
            "too_small_max_pp": max(open_costs, default=0.0) * 100,
            "shown_with_a_cost": _share(caught + small, forgot - zero),
            "completed_without_call": _share(completed_caught, completed)}


def _decisions(state: State, seed: int, rng: random.Random) -> Iterator[View]:
    """Play greedy against greedy from ``state`` to the round's end, yielding the view of
    every decision with more than one legal action before the bot takes it."""
    bots = [make_bot("greedy", random.Random(seed * 2 + s)) for s in range(2)]
    while state.phase not in (Phase.ROUND_OVER, Phase.MATCH_OVER):
        seat = state.to_act
        if seat is None:
            state = apply(state, sample_chance(state, rng))[0]
            continue
        v = view(state, seat)
        if len(v.legal) > 1:
            yield v
        state = apply(state, bots[seat].choose(v))[0]


def exact_ties(rounds: int, seed: int) -> dict[str, Any]:
    positions = exact = equal_pairs = equal_ok = leads = leads_ok = 0
    for index in range(rounds):
        rng = random.Random(f"coach-exact:{seed}:{index}")
        start = round_start(STANDARD, ((2, 2), (2, 1), (1, 1))[index % 3])
        for v in _decisions(start, index, rng):
            positions += 1
            found = compare(v, 50, seed=index, exact_nodes=300_000, exact_total=300_000)
            if not found.exact:
                continue
            exact += 1
            values = sorted(((found.values[a].match_win.value, a) for a in found.order),
                            key=lambda p: -p[0])
            for (va, a), (vb, b) in itertools.pairwise(values):
                if abs(va - vb) <= 1e-9:
                    equal_pairs += 1
                    equal_ok += found.equal_to_best(a) == found.equal_to_best(b)
            if values[0][0] - values[1][0] > 0.05:
                leads += 1
                leads_ok += (found.best == values[0][1]
                             and not found.equal_to_best(values[1][1]))
    return {"rounds": rounds, "positions": positions, "exact": exact,
            "equal_pairs": equal_pairs, "equal_pairs_both_equal": equal_ok,
            "leads_over_5pp": leads, "leads_reported": leads_ok}


# -- the sampled hint on exactly solved positions (issue 28) -------------------------------

#: The least lead (match-win chance) of a leads-corpus position.
LEAD = 0.02
#: The sizes the built-in corpus deals (the exact solver does them in seconds).
CORPUS_SIZES = ((2, 2), (2, 1), (1, 2))
#: The presets it deals them under, in turn.
CORPUS_PRESETS = ("standard", "kids", "jokers", "kings-wild")


#: The exact solver's corpora (scripts/exact_corpus.py): boards of up to 3 slots.
EXACT_CORPUS = Path(__file__).resolve().parent.parent / "tests" / "data" / "exact-corpus.json.gz"


@dataclass(frozen=True)
class Solved:
    """A position of a corpus: its view, ``kind`` ("tie" or "lead"), for a lead the best
    action, and the group it is counted in (its preset and largest board)."""

    view: View
    kind: str
    best: Action | None
    group: tuple[str, str] = ("", "")


def _group(rules: Rules, preset: str, sizes: Sequence[int]) -> tuple[str, str]:
    """The preset (named, or the one ``rules`` equal; "" if none) and the largest board."""
    if not preset:
        preset = next((name for name in preset_names() if Rules.preset_named(name) == rules),
                      "")
    return preset, f"{max(sizes)} slots"


def exact_corpus(rounds: int, seed: int) -> list[Solved]:
    """Every decision of ``rounds`` greedy rounds of boards :data:`CORPUS_SIZES` under
    the presets :data:`CORPUS_PRESETS` in turn, solved exactly: the tied ones (the best
    value shared) and the leads (≥ :data:`LEAD`)."""
    found = []
    for index in range(rounds):
        sizes = CORPUS_SIZES[index % len(CORPUS_SIZES)]
        preset = CORPUS_PRESETS[index // len(CORPUS_SIZES) % len(CORPUS_PRESETS)]
        rules = Rules.preset_named(preset)
        rng = random.Random(f"coach-corpus:{seed}:{index}")
        for v in _decisions(round_start(rules, sizes), index, rng):
            solved = compare(v, 20, seed=index, exact_nodes=300_000, exact_total=300_000)
            if not solved.exact:
                continue
            ranked = sorted(solved.order, key=lambda a: -solved.values[a].match_win.value)
            top, second = (solved.values[a].match_win.value for a in ranked[:2])
            group = _group(rules, preset, [p.board_size for p in v.players])
            if top - second <= compare_module.EXACT_TOLERANCE:
                found.append(Solved(v, "tie", None, group))
            elif top - second >= LEAD:
                found.append(Solved(v, "lead", ranked[0], group))
    return found


def _exact_corpus_file(data: dict[str, Any]) -> list[Solved]:
    """The positions of the exact solver's corpora (``trash-exact-corpus/1``)."""
    wanted: dict[int, set[int]] = {}
    for kind in ("ties", "leads"):
        for row in data[kind]:
            wanted.setdefault(row["record"], set()).add(row["upto"])
    states: dict[tuple[int, int], State] = {}
    for number, uptos in wanted.items():
        for moves, (state, _events) in enumerate(from_json(data["records"][number]).steps(),
                                                 start=1):
            if moves in uptos:
                states[(number, moves)] = state
    found = []
    for kind, name in (("ties", "tie"), ("leads", "lead")):
        for row in data[kind]:
            state = states[(row["record"], row["upto"])]
            assert state.to_act == row["seat"], "the corpus does not match its records"
            v = view(state, state.to_act)
            best = next(a for a in v.legal if str(a) == row["best"]) if name == "lead" else None
            found.append(Solved(v, name, best, _group(v.rules, row["preset"], row["sizes"])))
    return found


def corpus_file(path: Path) -> list[Solved]:
    """Positions from the exact solver's corpora (a ``.json.gz`` file written by
    scripts/exact_corpus.py) or from JSON lines ``{"record", "upto", "kind", "best"}``."""
    if path.suffix == ".gz":
        data = json.loads(gzip.decompress(path.read_bytes()))
        assert data.get("format") == "trash-exact-corpus/1", f"{path}: not an exact corpus"
        return _exact_corpus_file(data)
    found = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        item = json.loads(line)
        state = from_json(item["record"]).replay(item["upto"])
        assert state.to_act is not None, f"no decision at move {item['upto']}"
        v = view(state, state.to_act)
        best = next((a for a in v.legal if str(a) == item.get("best")), None)
        found.append(Solved(v, item["kind"], best,
                            _group(v.rules, "", [p.board_size for p in v.players])))
    return found


def _one_by_one(_view: View, action: Action, _policy: str = "greedy") -> Action:
    return action


def _fixed_budget(samples: int, _moves: int) -> int:
    """The extra budget before the rollout rule (compare.extra_deals)."""
    return 3 * samples


@contextlib.contextmanager
def coach_variant(variant: str) -> Iterator[None]:
    """The coach as shipped (``"shipped"``), as shipped but with the budget before the
    rollout rule (``"fixed budget"``: ``3 × samples`` extra deals whatever the number of
    moves), its sequential test alone with every wild placement sampled on its own
    (``"test alone"``), or the rule before issue 28 (``"before"``: placements one by one,
    the fixed budget, and a 95 % interval re-checked after every batch, with no
    correction for the looks)."""
    with contextlib.ExitStack() as stack:
        if variant in ("fixed budget", "before"):
            stack.enter_context(mock.patch.object(compare_module, "extra_deals",
                                                  _fixed_budget))
        if variant in ("test alone", "before"):
            for module in (compare_module, evaluate_module):
                stack.enter_context(mock.patch.object(module, "representative", _one_by_one))
        if variant == "before":
            stack.enter_context(mock.patch.object(compare_module, "ALPHA", 0.05))
            stack.enter_context(mock.patch.object(compare_module, "planned_looks",
                                                  return_value=1))
        yield


def _hit_share(hits: int, total: int) -> dict[str, Any]:
    low, high = wilson_interval(hits, total)
    return {"hits": hits, "total": total, "share": hits / total if total else 0.0,
            "low": low, "high": high}


def sampled_on_exact(corpus: Sequence[Solved], seeds: int,
                     variants: Iterable[str] = ("shipped", "fixed budget", "test alone",
                                                "before"),
                     ) -> dict[str, Any]:
    """False strict bests on the tie corpus and leads named on the leads corpus, by the
    sampled hint (``exact=False``, the default budget) at ``seeds`` seeds each; in all,
    and by largest board and by preset (``groups``)."""
    out: dict[str, Any] = {"ties": sum(p.kind == "tie" for p in corpus),
                           "leads": sum(p.kind == "lead" for p in corpus), "seeds": seeds}
    for variant in variants:
        counts: dict[str, dict[str, list[int]]] = {}
        with coach_variant(variant):
            for index, position in enumerate(corpus):
                for seed in range(seeds):
                    found = compare(position.view, DEFAULT_SAMPLES, seed=1000 * seed + index,
                                    exact=False)
                    hit = (found.decided if position.kind == "tie"
                           else found.decided and found.best == position.best)
                    preset, size = position.group
                    for group in ("all", size, preset):
                        if group:
                            tally = counts.setdefault(
                                group, {"tie": [0, 0], "lead": [0, 0]})[position.kind]
                            tally[0] += hit
                            tally[1] += 1
        groups = {group: {"false_strict_best": _hit_share(*c["tie"]),
                          "leads_named": _hit_share(*c["lead"])}
                  for group, c in sorted(counts.items(),
                                         key=lambda g: (not g[0].endswith("slots"), g[0]))}
        out[variant] = {**groups.pop("all"), "groups": groups}
        _say(f"sampled on exact positions, {variant}: {out[variant]}")
    return out


def _first_round_views(matches: int, seed: int) -> list[View]:
    views: list[View] = []
    for index in range(matches):
        rng = random.Random(f"coach-latency:{seed}:{index}")
        views.extend(_decisions(new_match(STANDARD, ("a", "b")), index, rng))
    return views


def _wild_views(matches: int, seed: int) -> list[View]:
    """The decisions with two wild placements or more of ``matches`` greedy matches (two
    players, standard), every round."""
    views = []
    for index in range(matches):
        record = _match(("greedy", "greedy"), 5000 + seed + index)
        state = new_match(record.rules, record.players)
        for after, _events in record.steps():
            if state.to_act is not None and state.phase is Phase.WILD:
                v = view(state, state.to_act)
                if sum(a.verb.value == "wild" for a in v.legal) > 1:
                    views.append(v)
            state = after
    return views


def seed_stability(views: Sequence[View], seeds: int,
                   variant: str = "shipped") -> dict[str, Any]:
    """Of every two hints of one position (seeds 0 … ``seeds`` − 1) that both name a
    strict best, the share that name the same; and the positions where the move one seed
    reports best (first, strict or tied) another calls measurably worse."""
    pairs = agree = claims = hints = contradicted = 0
    with coach_variant(variant):
        for v in views:
            named: list[Action] = []
            worse: set[Action] = set()
            reported: set[Action] = set()
            for seed in range(seeds):
                found: Comparison = hint(v, DEFAULT_SAMPLES, seed=seed).comparison
                hints += 1
                worse.update(a for a in found.order if a not in found.tied)
                reported.add(found.best)
                if found.decided and len(found.order) > 1:
                    named.append(found.best)
            claims += len(named)
            contradicted += bool(worse & reported)
            for a, b in itertools.combinations(named, 2):
                pairs += 1
                agree += a == b
    return {"variant": variant, "positions": len(views), "hints": hints, "claims": claims,
            "agreement": _hit_share(agree, pairs),
            "best_then_worse": _hit_share(contradicted, len(views))}


def latency(matches: int, seed: int, variant: str = "shipped") -> dict[str, Any]:
    views = _first_round_views(matches, seed)
    times = []
    cpu = []
    tied = deals = full = 0
    with coach_variant(variant):
        hint(views[0], DEFAULT_SAMPLES)  # warm-up: the kernel and the odds table
        for index, v in enumerate(views):
            start, start_cpu = time.perf_counter(), time.thread_time()
            result = hint(v, DEFAULT_SAMPLES, seed=index)
            times.append(time.perf_counter() - start)
            cpu.append(time.thread_time() - start_cpu)
            tied += len(result.tied) > 1
            used = result.comparison.samples
            deals += used
            stand_in = vars(compare_module)["representative"]  # as the variant plays them
            moves = len({stand_in(v, a) for a in v.legal})
            budget = compare_module.extra_deals(DEFAULT_SAMPLES, moves)
            full += used >= DEFAULT_SAMPLES + budget // 2
    times.sort()
    cpu.sort()

    def pct(values: list[float], q: float) -> float:
        return values[min(len(values) - 1, int(q * len(values)))] * 1000

    return {"variant": variant, "positions": len(views), "p50_ms": pct(times, 0.5),
            "p99_ms": pct(times, 0.99), "max_ms": times[-1] * 1000,
            "cpu_p50_ms": pct(cpu, 0.5), "cpu_p99_ms": pct(cpu, 0.99),
            "tied_share": tied / len(views), "mean_deals_per_action": deals / len(views),
            "whole_budget_share": full / len(views),
            "engine": "fast" if fast_problem() is None else "reference"}


def _shares(figures: dict[str, Any]) -> str:
    return ", ".join(f"{name} {share * 100:.1f} %"
                     for name, share in figures["share_at_threshold"].items())


def _pct_of(figure: dict[str, Any]) -> str:
    return (f"{figure['hits']}/{figure['total']} = {figure['share'] * 100:.1f} % "
            f"({figure['low'] * 100:.1f}–{figure['high'] * 100:.1f} %)")


def _report_latency(f: dict[str, Any]) -> None:
    print(f"hint latency ({f['variant']}, {f['engine']} engine, {f['positions']} positions): "
          f"p50 {f['p50_ms']:.1f} ms, p99 {f['p99_ms']:.1f} ms (bar 100 ms), "
          f"max {f['max_ms']:.1f} ms; CPU time of the thread p50 {f['cpu_p50_ms']:.1f} "
          f"ms, p99 {f['cpu_p99_ms']:.1f} ms; tied {f['tied_share'] * 100:.1f} %; deals per "
          f"action (most of any action) mean {f['mean_deals_per_action']:.0f}, whole budget "
          f"{f['whole_budget_share'] * 100:.1f} %", flush=True)


PARTS = ("latency", "sampled", "stability", "ties", "precision", "recall", "calls")


def _review_parts(args: argparse.Namespace, parts: list[str],
                  figures: dict[str, Any]) -> None:
    """The review's figures: precision, recall and missed calls."""
    if "precision" in parts:
        figures["precision"] = found = precision(args.matches, args.seed, args.samples)
        for name, f in found.items():
            for kind, g in f["by_kind"].items():
                if kind != name:
                    continue
                print(f"review precision ({name} play: {'-'.join(f['kinds'])}, "
                      f"{f['matches']} matches): mistakes {_pct(g['mistakes'])} of {kind}'s "
                      f"decisions (bar ≤ 0.5 %); small losses {_pct(g['small_losses'])}; "
                      f"at other thresholds: {_shares(g)}; slowest review "
                      f"{f['review_seconds_max']:.1f} s (longest match {f['moves_max']} "
                      "moves)", flush=True)
    if "recall" in parts:
        figures["recall"] = f = recall(args.cases, args.seed, args.samples)
        print(f"review recall (kid v greedy, {f['matches']} matches): of {f['draws']} "
              f"stock draws past a fitting discard, shown {_pct(f['shown'])} (bar: lower "
              f"bound ≥ 75 %): mistakes {_pct(f['mistakes'])}, small losses "
              f"{_pct(f['small_losses'])}; naturals only {f['natural_shown']}/"
              f"{f['natural_draws']}; mistakes at other thresholds: {_shares(f)}",
              flush=True)
    if "calls" in parts:
        figures["calls"] = f = missed_calls(args.cases, args.seed, args.samples)
        print(f"missed calls (kid v greedy, call-trash, {f['matches']} matches): of "
              f"{f['not_called']} decisions without the call with one slot left, shown "
              f"{_pct(f['shown'])}: mistakes {_pct(f['mistakes'])} ("
              f"{f['completed_the_board']} completed the board), small losses "
              f"{_pct(f['small_losses'])}; not shown: {f['no_effect']} where calling "
              f"changes no deal, {f['too_small_to_confirm']} too small to confirm (at most "
              f"{f['too_small_max_pp']:.2f} pp measured); shown of those with any cost "
              f"{_pct(f['shown_with_a_cost'])}; boards completed without calling flagged "
              f"{_pct(f['completed_without_call'])}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=20,
                        help="matches of each kind for precision")
    parser.add_argument("--cases", type=int, default=200,
                        help="cases for the recall and for the missed calls")
    parser.add_argument("--rounds", type=int, default=200,
                        help="rounds of boards 1 + 1 for the exact ties")
    parser.add_argument("--corpus", type=Path, default=EXACT_CORPUS,
                        help="the tie and leads corpora: the exact solver's (.json.gz, "
                             "default tests/data/exact-corpus.json.gz) or JSON lines")
    parser.add_argument("--corpus-rounds", type=int, default=0,
                        help="instead, deal the corpora from this many greedy rounds of "
                             "boards of at most 2 slots")
    parser.add_argument("--seeds", type=int, default=3,
                        help="seeds each corpus position and each stability position is "
                             "hinted at")
    parser.add_argument("--hint-matches", type=int, default=20,
                        help="matches whose first round's decisions are timed and checked "
                             "for seed stability")
    parser.add_argument("--wild-matches", type=int, default=4,
                        help="greedy matches whose wild decisions are checked for seed "
                             "stability")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--samples", type=int, default=REVIEW_SAMPLES,
                        help="the review's deals per move (its --samples)")
    parser.add_argument("--only", choices=PARTS, action="append",
                        help="run only these parts (repeatable)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures")
    args = parser.parse_args()
    parts = args.only or list(PARTS)
    figures: dict[str, Any] = {"threshold_pp": THRESHOLD * 100,
                               "review_samples": args.samples}
    if "latency" in parts:
        figures["latency"] = [latency(args.hint_matches, args.seed, variant)
                              for variant in ("shipped", "fixed budget", "test alone",
                                              "before")]
        for f in figures["latency"]:
            _report_latency(f)
    if "sampled" in parts:
        corpus = (exact_corpus(args.corpus_rounds, args.seed) if args.corpus_rounds
                  else corpus_file(args.corpus))
        figures["sampled"] = f = sampled_on_exact(corpus, args.seeds)
        source = (f"built-in: boards {CORPUS_SIZES}, presets {', '.join(CORPUS_PRESETS)}, "
                  f"{args.corpus_rounds} rounds" if args.corpus_rounds else args.corpus.name)
        for variant in ("shipped", "fixed budget", "test alone", "before"):
            print(f"sampled hint on exact positions ({source}; {f['ties']} tied and "
                  f"{f['leads']} leads × {f['seeds']} seeds), {variant}: false strict bests "
                  f"{_pct_of(f[variant]['false_strict_best'])} (bar ≤ 5 %); leads named "
                  f"{_pct_of(f[variant]['leads_named'])} (bar ≥ 98 %)", flush=True)
            for group, g in f[variant]["groups"].items():
                print(f"  {group}: false strict bests {_pct_of(g['false_strict_best'])}; "
                      f"leads named {_pct_of(g['leads_named'])}", flush=True)
    if "stability" in parts:
        sets = {"first-round decisions": _first_round_views(args.hint_matches, args.seed),
                "wild decisions": _wild_views(args.wild_matches, args.seed)}
        figures["stability"] = []
        for name, views in sets.items():
            for variant in ("shipped", "before"):
                f = seed_stability(views, args.seeds, variant)
                f["set"] = name
                figures["stability"].append(f)
                print(f"seed stability ({name}, {variant}; {f['positions']} positions × "
                      f"{args.seeds} seeds, {f['claims']} of {f['hints']} hints name a "
                      f"strict best): the same best in {_pct_of(f['agreement'])} of the "
                      f"pairs (bar ≥ 99 %); the move reported best at one seed called "
                      f"worse at another in {_pct_of(f['best_then_worse'])} of the "
                      "positions", flush=True)
    if "ties" in parts:
        figures["ties"] = f = exact_ties(args.rounds, args.seed)
        print(f"exact ties: {f['exact']} of {f['positions']} positions exact; "
              f"{f['equal_pairs_both_equal']}/{f['equal_pairs']} equal pairs both "
              f"equal_to_best; {f['leads_reported']}/{f['leads_over_5pp']} leads over "
              "5 pp reported best with the second not equal", flush=True)
    _review_parts(args, parts, figures)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=2, default=str) + "\n",
                             encoding="utf-8")


if __name__ == "__main__":
    main()
