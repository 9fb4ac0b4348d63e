"""Hints and the expert: latency per decision and the precision a hint buys.

Run from a checkout::

    python benchmarks/ai.py                  # 60 positions, about 3 minutes
    python benchmarks/ai.py --positions 20   # quicker
    python benchmarks/ai.py --json out.json  # also write the figures

Positions: decisions with more than one legal action from two-player standard matches
(boards of 10 slots at the start) between greedy bots, seeded. For each position it times

* a hint (:func:`trashcards.ai.hints.hint`, default samples) and records the precision it
  bought: the 95 % half-width of each action's match-win and round-win chance, and of the
  paired difference between the best and the second-best action;
* a decision of the expert at its default budget;
* (after one warm-up hint, timed apart: it loads the match-odds table and, with the
  fast engine, compiles or loads the kernel);
* baselines in the same run: one greedy decision (view and choice) and one reference
  round played out from the position (what a rollout costs), so that the ratios hold on a
  machine shared with other work.

The engine is the one :func:`trashcards.ai.evaluate.evaluate` picks (``auto``): the fast
kernel once its batch evaluation exists, the rules engine until then (the figures say
which).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from quantiles import percentile
from trashcards import Rules, apply, new_match, sample_chance, view
from trashcards.ai.evaluate import fast_problem
from trashcards.ai.expert import ExpertBot
from trashcards.ai.hints import DEFAULT_SAMPLES, hint
from trashcards.ai.rollout import play_out, rollout_bots
from trashcards.bots import make_bot
from trashcards.deals import sample_state
from trashcards.state import Phase
from trashcards.views import View


def positions(count: int, seed: int) -> list[View]:
    rules = Rules.preset_named("standard")
    rng = random.Random(seed)
    found: list[View] = []
    bots = [make_bot("greedy", random.Random(s)) for s in range(2)]
    while len(found) < count:
        state = new_match(rules, ["A", "B"])
        while state.phase is not Phase.MATCH_OVER and len(found) < count:
            if state.to_act is None:
                state = apply(state, sample_chance(state, rng))[0]
                continue
            v = view(state, state.to_act)
            if len(v.legal) > 1 and rng.random() < 0.3:
                found.append(v)
            state = apply(state, bots[state.to_act].choose(v))[0]
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    views = positions(args.positions, args.seed)
    hint_ms, expert_ms, greedy_ms, round_ms = [], [], [], []
    match_hw, round_hw, diff_hw = [], [], []
    greedy = make_bot("greedy", random.Random(0))
    expert = ExpertBot(random.Random(0))
    began = time.perf_counter()
    hint(views[0], seed=-1)  # warm-up: loads the odds table (and compiles the kernel)
    warm_up_s = time.perf_counter() - began
    for i, v in enumerate(views):
        began = time.perf_counter()
        h = hint(v, seed=i)
        hint_ms.append((time.perf_counter() - began) * 1000)
        for line in h.lines:
            match_hw.append(line.value.match_win.half_width or 0.0)
            round_hw.append(line.value.round_win.half_width or 0.0)
        if len(h.lines) > 1:  # the paired interval of the second move against the best
            diff = h.evaluation.vs_best[h.lines[1].action]
            diff_hw.append((diff.high - diff.low) / 2)
        began = time.perf_counter()
        expert.choose(v)
        expert_ms.append((time.perf_counter() - began) * 1000)
        began = time.perf_counter()
        greedy.choose(v)
        greedy_ms.append((time.perf_counter() - began) * 1000)
        state = sample_state(v, random.Random(i))
        bots = rollout_bots("greedy", [random.Random(s) for s in range(2)])
        began = time.perf_counter()
        play_out(apply(state, v.legal[0])[0], bots, random.Random(i), "round")
        round_ms.append((time.perf_counter() - began) * 1000)
    figures: dict[str, Any] = {
        "positions": len(views), "engine": "fast" if fast_problem() is None else "reference",
        "warm_up_s": warm_up_s,
        "hint_samples": DEFAULT_SAMPLES, "expert_samples": expert.samples,
        "hint_ms_p50": percentile(hint_ms, 0.5), "hint_ms_p99": percentile(hint_ms, 0.99),
        "expert_ms_p50": percentile(expert_ms, 0.5), "expert_ms_p99": percentile(expert_ms, 0.99),
        "greedy_decision_ms_p50": percentile(greedy_ms, 0.5),
        "rollout_to_round_end_ms_mean": statistics.fmean(round_ms),
        "match_win_half_width_mean": statistics.fmean(match_hw),
        "match_win_half_width_max": max(match_hw),
        "round_win_half_width_mean": statistics.fmean(round_hw),
        "best_minus_second_half_width_mean": statistics.fmean(diff_hw),
        "best_minus_second_half_width_p90": percentile(diff_hw, 0.9),
    }
    figures["hint_p99_in_rollouts"] = figures["hint_ms_p99"] / \
        figures["rollout_to_round_end_ms_mean"]
    figures["expert_p99_in_greedy_decisions"] = figures["expert_ms_p99"] / \
        figures["greedy_decision_ms_p50"]
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value:.4g}" if isinstance(value, float) else
              f"{key:<{width}}  {value}")
    if fast_problem() is not None:
        print(f"kernel rollouts vs whole rounds: n/a ({fast_problem()})")
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
