"""Rounds per second of the full engine, against a minimal round loop in the same run.

The engine side plays greedy-vs-greedy 2-player standard matches through the real
interfaces: chance from :func:`trashcards.sample_chance`, a :func:`trashcards.view` for
every decision, the greedy bot, and :func:`trashcards.apply` with all its events. The
baseline is a bare round loop (lists of ints, no events, no views, no checks) written for
this benchmark alone, so the ratio says what the engine's clarity and safety cost.

    python benchmarks/engine.py [--seconds 5]
"""

from __future__ import annotations

import argparse
import random
import time

from trashcards import Phase, Rules, apply, new_match, sample_chance, view
from trashcards.bots import GreedyBot


def engine_rounds(seconds: float, seed: int = 1) -> tuple[int, float]:
    """Whole matches through the engine until ``seconds`` pass; (rounds, elapsed)."""
    rules = Rules()
    rng = random.Random(seed)
    bots = [GreedyBot(rng), GreedyBot(rng)]
    rounds = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = new_match(rules, ("a", "b"))
        while state.phase is not Phase.MATCH_OVER:
            seat = state.to_act
            if seat is None:
                state, _events = apply(state, sample_chance(state, rng))
            else:
                state, _events = apply(state, bots[seat].choose(view(state, seat)))
        rounds += state.round
    return rounds, time.perf_counter() - began


def engine_split(matches: int = 200, seed: int = 1) -> dict[str, float]:
    """Microseconds per round spent in each part of the engine loop, and decisions per
    round (timers around each call; slower than the plain run, for proportions)."""
    rules = Rules()
    rng = random.Random(seed)
    bots = [GreedyBot(rng), GreedyBot(rng)]
    spent = dict.fromkeys(("view", "bot", "apply", "chance"), 0.0)
    rounds = decisions = 0
    clock = time.perf_counter
    for _ in range(matches):
        state = new_match(rules, ("a", "b"))
        while state.phase is not Phase.MATCH_OVER:
            seat = state.to_act
            if seat is None:
                began = clock()
                state, _events = apply(state, sample_chance(state, rng))
                spent["chance"] += clock() - began
                continue
            began = clock()
            seen = view(state, seat)
            viewed = clock()
            action = bots[seat].choose(seen)
            chosen = clock()
            state, _events = apply(state, action)
            spent["view"] += viewed - began
            spent["bot"] += chosen - viewed
            spent["apply"] += clock() - chosen
            decisions += 1
        rounds += state.round
    split = {part: seconds / rounds * 1e6 for part, seconds in spent.items()}
    split["decisions"] = decisions / rounds
    return split


def baseline_rounds(seconds: float, seed: int = 1) -> tuple[int, float]:
    """A minimal hand-written greedy round loop: 2 players, boards of 10, Jacks wild."""
    rng = random.Random(seed)
    deck = [r for r in range(1, 14) for _ in range(4)]  # 11 = J (wild), 12-13 trash
    rounds = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        for _ in range(100):
            rng.shuffle(deck)
            boards = [deck[0:20:2], deck[1:20:2]]
            up = [[False] * 10, [False] * 10]
            down = [10, 10]
            stock = deck[20:]
            discard: list[int] = []
            seat = 0
            winner = -1
            while winner < 0:
                b, u = boards[seat], up[seat]
                top = discard[-1] if discard else 0
                if top and ((top <= 10 and (not u[top - 1] or b[top - 1] == 11)) or top == 11):
                    card = discard.pop()
                else:
                    if not stock:
                        stock = discard[:-1]
                        rng.shuffle(stock)
                        discard = discard[-1:]
                    card = stock.pop()
                while True:
                    if card == 11:
                        k = max(i for i in range(10) if not u[i])
                    elif card <= 10 and (not u[card - 1] or b[card - 1] == 11):
                        k = card - 1
                        if u[k]:
                            b[k], card = card, b[k]
                            continue
                    else:
                        discard.append(card)
                        break
                    b[k], card = card, b[k]
                    u[k] = True
                    down[seat] -= 1
                    if down[seat] == 0:
                        winner = seat
                        break
                seat = 1 - seat
            rounds += 1
    return rounds, time.perf_counter() - began


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per side")
    parser.add_argument("--split", action="store_true",
                        help="also print where the engine's time goes, per round")
    args = parser.parse_args()
    base_rounds, base_time = baseline_rounds(args.seconds)
    eng_rounds, eng_time = engine_rounds(args.seconds)
    engine_rate = eng_rounds / eng_time
    base_rate = base_rounds / base_time
    print(f"engine:   {eng_rounds:8d} rounds in {eng_time:5.2f} s = {engine_rate:10,.0f} rounds/s")
    print(f"baseline: {base_rounds:8d} rounds in {base_time:5.2f} s = {base_rate:10,.0f} rounds/s")
    print(f"ratio engine/baseline: {engine_rate / base_rate:.3f}")
    if args.split:
        split = engine_split()
        print(f"per round: {split['decisions']:.1f} decisions; "
              + ", ".join(f"{part} {split[part]:.1f} us"
                          for part in ("view", "bot", "apply", "chance")))


if __name__ == "__main__":
    main()
