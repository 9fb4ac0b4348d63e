"""Rounds per second of the fast kernel against the reference engine.

Run from a checkout with the ``sim`` extra installed::

    python benchmarks/sim.py                 # the three tables, ~1 minute
    python benchmarks/sim.py --quick         # fewer matches, for a smoke test
    python benchmarks/sim.py --json out.json # also write the figures
    python benchmarks/sim.py --profile       # where a round's time goes (2p standard)

For each table (greedy bots: 2-player standard, 4-player standard and a variant-heavy
preset) it times the kernel on one thread and on every thread numba has, and the
reference engine (:func:`trashcards.simulation.play_chunk`, one process) in the same run,
and prints rounds per second and the ratio. Compile (or cache load) time is measured
apart and excluded. Wall-clock rates depend on what else the machine runs, so the CPU
time of the process is shown too (rounds per CPU-second, summed over threads), with the
ratio to the reference both ways: wall clock (what a user waits) and CPU time (the work).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar, cast

import numba
import numpy as np

from trashcards import simulation
from trashcards.actions import Action
from trashcards.rules import Rules
from trashcards.sim import fast
from trashcards.sim.kernel import numbers
from trashcards.simulation import SimStats

TABLES: dict[str, tuple[Rules, tuple[str, ...]]] = {
    "2p standard": (Rules.preset_named("standard"), ("greedy", "greedy")),
    "4p standard": (Rules.preset_named("standard"), ("greedy",) * 4),
    "2p kings+jokers+call+last": (
        Rules.preset_named("kings-wild").with_fields(
            {"jokers_per_deck": 2, "call_trash": True, "last_chance": True}),
        ("greedy", "greedy")),
}


@dataclass
class Timing:
    """One timed run."""

    rounds: int
    wall_s: float
    cpu_s: float

    @property
    def per_s(self) -> float:
        return self.rounds / self.wall_s

    @property
    def per_cpu_s(self) -> float:
        return self.rounds / self.cpu_s


def timed(play: Callable[[], SimStats]) -> Timing:
    wall, cpu = time.perf_counter(), time.process_time()
    stats = play()
    return Timing(stats.rounds, time.perf_counter() - wall, time.process_time() - cpu)


def reference(rules: Rules, bots: Sequence[str], seconds: float) -> Timing:
    """The reference engine for about ``seconds``, in batches of 10 matches."""
    total = Timing(0, 0.0, 0.0)
    start = 0
    while total.wall_s < seconds:
        t = timed(partial(simulation.play_chunk, rules, bots, 1, start, 10))
        total = Timing(total.rounds + t.rounds, total.wall_s + t.wall_s, total.cpu_s + t.cpu_s)
        start += 10
    return total


F = TypeVar("F", bound=Callable[..., Any])
#: ``numba.njit`` as a decorator that keeps the function's signature for mypy
njit = cast(Callable[[F], F], numba.njit)


# Not cached: they inline kernel functions, which numba's cache would not see change.
@njit
def _rng_chain(n: int) -> np.uint64:
    """n dependent counter-based numbers (latency, as in a lazy shuffle)."""
    x = np.uint64(1)
    for _ in range(n):
        x = numbers.mix64(x + numbers.G)
    return x


@njit
def _shuffles(rounds: int, ncards: int, steps: int) -> int:
    """What a round's shuffling costs: reset the deck, then ``steps`` lazy Fisher–Yates
    positions (the deal and the stock drawn)."""
    deck = np.empty(ncards, dtype=np.int16)
    total = 0
    key = np.uint64(7)
    for r in range(rounds):
        for i in range(ncards):
            deck[i] = i
        key = numbers.next_key(key, r)
        for p in range(steps):
            total += numbers.fy_step(deck, 0, p, ncards, key)
    return total


def profile() -> None:
    """Split the time of a 2-player standard greedy round: random numbers, shuffling, and
    the rest (the rules and the bots: mostly data-dependent branches)."""
    rules, bots = TABLES["2p standard"]
    numba.set_num_threads(1)
    match = fast.play_traced(rules, bots, 1, 0)
    rounds = match.rounds
    actions = sum(1 for m in match.record.moves if isinstance(m.move, Action))
    drawn = [0]
    for _state, events in match.record.steps():
        drawn[0] += sum(1 for e in events if type(e).__name__ in ("Drew", "PenaltyDrawn")
                        and getattr(e, "source", "stock") == "stock")
    steps = round(2 * rules.start_size + drawn[0] / rounds)
    n = 20_000_000
    _rng_chain(10)
    cpu = time.process_time()
    _rng_chain(n)
    rng_ns = (time.process_time() - cpu) / n * 1e9
    _shuffles(10, 52, steps)
    cpu = time.process_time()
    _shuffles(n // 20, 52, steps)
    shuffle_ns = (time.process_time() - cpu) / (n // 20) * 1e9
    fast.play_chunk(rules, bots, 1, 0, 10)
    full = timed(partial(fast.play_chunk, rules, bots, 1, 0, 100_000))
    round_ns = 1e9 / full.per_cpu_s
    print(f"2p standard greedy, one thread; per round (sample match: {actions / rounds:.1f} "
          f"decisions, ~{steps} Fisher-Yates positions)")
    print(f"  one counter-based number (dependent chain): {rng_ns:6.1f} ns")
    print(f"  shuffling (deck reset + {steps} positions):   {shuffle_ns:6.1f} ns "
          f"({shuffle_ns / round_ns:.0%})")
    print(f"  whole round:                                {round_ns:6.1f} ns "
          f"({1e9 / round_ns:,.0f} rounds/s)")
    print(f"  rules, bots, statistics (the rest):         {round_ns - shuffle_ns:6.1f} ns")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200_000,
                        help="matches per kernel run (2-player; 4-player runs a quarter)")
    parser.add_argument("--reference-seconds", type=float, default=5.0)
    parser.add_argument("--quick", action="store_true", help="20,000 matches, 1 s reference")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--profile", action="store_true", help="only the time split")
    args = parser.parse_args(argv)
    if args.profile:
        profile()
        return 0
    matches = 20_000 if args.quick else args.matches
    ref_seconds = 1.0 if args.quick else args.reference_seconds
    threads = numba.get_num_threads()

    began = time.perf_counter()
    for rules, bots in TABLES.values():
        fast.play_chunk(rules, bots, 0, 0, 10)
    print(f"kernel compile / cache load: {time.perf_counter() - began:.1f} s; "
          f"numba {numba.__version__}, {threads} threads; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

    results = []
    header = (f"{'table':<27} {'engine':<18} {'rounds/s':>11} {'rounds/cpu-s':>13} "
              f"{'× ref (wall)':>13} {'× ref (cpu)':>12}")
    print(header)
    print("-" * len(header))
    for name, (rules, bots) in TABLES.items():
        n = matches if len(bots) == 2 else matches // 4
        ref = reference(rules, bots, ref_seconds)
        numba.set_num_threads(1)
        one = timed(partial(fast.play_chunk, rules, bots, 1, 0, n))
        numba.set_num_threads(threads)
        every = timed(partial(fast.play_chunk, rules, bots, 1, 0, n))
        for engine, t in (("reference", ref), ("kernel, 1 thread", one),
                          (f"kernel, {threads} threads", every)):
            print(f"{name:<27} {engine:<18} {t.per_s:>11,.0f} {t.per_cpu_s:>13,.0f} "
                  f"{t.per_s / ref.per_s:>12,.0f}× {t.per_cpu_s / ref.per_cpu_s:>11,.0f}×")
        results.append({"table": name, "players": len(bots), "threads": threads,
                        "reference": asdict(ref), "kernel_1": asdict(one),
                        "kernel_all": asdict(every),
                        "ratio_1": one.per_s / ref.per_s,
                        "ratio_all": every.per_s / ref.per_s})
    print(f"load average after the run: {os.getloadavg()[0]:.1f}; a round per core: the "
          f"rounds per CPU-second of 'kernel, 1 thread'")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
