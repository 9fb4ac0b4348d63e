"""Steps per second of the environments, against the reference engine's apply rate in the
same run.

Every side plays uniformly random legal moves, match after match, for ``--seconds``:

* engine: :func:`trashcards.apply` of the actions and chance moves, choosing from
  :func:`trashcards.legal_actions` and :func:`trashcards.sample_chance`, nothing else;
* AEC: PettingZoo's loop on ``raw_env`` (``last()`` with the observation and mask, then
  ``step``), and the same through ``env()`` with PettingZoo's wrappers;
* Gymnasium: ``TrashEnv`` with the agent against ``random`` bots (one step is the
  agent's action and the bots' replies), and against ``greedy`` bots (the ratio of the
  vector env against ``greedy`` to it is printed);
* OpenSpiel: ``python_trash`` states, chance nodes included (``--openspiel``);
* the vector env: ``TrashVectorEnv`` of each ``--num-envs`` tables (1,024 and 4,096)
  against ``random`` bots, ``greedy`` bots and a small numpy MLP opponent (233-64-15,
  random weights: a batched policy called once per round trip for all tables that wait
  for it), a random legal action per table per step (``argmax`` of the mask times
  noise), autoreset on; its agent steps per second of wall clock and per CPU second of
  this process, each as a ratio to the engine's player actions per second and to the
  Gymnasium env against the same opponent (one table, one step at a time), all in the
  same run (the machine may be shared: the load average is printed before and after);
* the observation alone: ``observation_batch`` of 1,024 public encodings of one seat (what
  a vector environment computes per step), and of one.

The ratio is environment steps (player actions) per second over the engine's player
actions per second.

    python benchmarks/envs.py [--seconds 5] [--preset standard] [--players 2] [--openspiel]
                              [--num-envs 1024 4096]
"""

from __future__ import annotations

import os

# Small matrices gain nothing from BLAS threads, and on a shared machine their spinning
# costs several times the work (the MLP opponent: 8x): one thread, unless told otherwise.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from trashcards import Phase, Rules, apply, legal_actions, new_match, sample_chance, view
from trashcards.envs.gymnasium import TrashEnv
from trashcards.envs.observation import observation_batch
from trashcards.envs.pettingzoo import env, raw_env
from trashcards.envs.policy import MLPPolicy
from trashcards.envs.public import public_array
from trashcards.envs.vector import TrashVectorEnv

Rate = tuple[int, int, float]  # player actions, all moves, seconds


def engine(rules: Rules, players: int, seconds: float, seed: int = 1) -> Rate:
    """Random legal matches through ``apply``: (actions, applies, elapsed)."""
    rng = random.Random(seed)
    names = tuple(f"p{seat}" for seat in range(players))
    actions = moves = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = new_match(rules, names)
        while state.phase is not Phase.MATCH_OVER:
            legal = legal_actions(state)
            if legal:
                state, _events = apply(state, rng.choice(legal))
                actions += 1
            else:
                state, _events = apply(state, sample_chance(state, rng))
            moves += 1
    return actions, moves, time.perf_counter() - began


def aec(make: Callable[[], Any], seconds: float, seed: int = 1) -> Rate:
    """PettingZoo's agent loop with random legal actions: (steps, steps, elapsed)."""
    table = make()
    rng = np.random.default_rng(seed)
    steps = 0
    began = time.perf_counter()
    episode = 0
    while time.perf_counter() - began < seconds:
        table.reset(seed=seed + episode)
        episode += 1
        for _agent in table.agent_iter():
            _obs, _reward, terminated, truncated, info = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            table.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
            steps += 1
    return steps, steps, time.perf_counter() - began


def gymnasium_steps(rules: Rules, players: int, seconds: float, seed: int = 1,
                    opponent: str = "random") -> Rate:
    """The single-agent env against ``opponent`` bots: (agent steps, all actions,
    elapsed)."""
    single = TrashEnv(opponents=[opponent] * (players - 1), rules=rules)
    rng = np.random.default_rng(seed)
    steps = actions = 0
    began = time.perf_counter()
    episode = 0
    while time.perf_counter() - began < seconds:
        _obs, info = single.reset(seed=seed + episode)
        episode += 1
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, _reward, terminated, truncated, info = single.step(action)
            steps += 1
            done = terminated or truncated
        actions += single.episode.moves
    return steps, actions, time.perf_counter() - began


def small_mlp(seed: int = 0, hidden: int = 64) -> MLPPolicy:
    """A 233-64-15 numpy MLP with random weights: an opponent policy's cost."""
    rng = np.random.default_rng(seed)
    return MLPPolicy([(rng.normal(0, 0.1, (233, hidden)), np.zeros(hidden)),
                      (rng.normal(0, 0.1, (hidden, 15)), np.zeros(15))])


def vector_steps(rules: Rules, players: int, seconds: float, num_envs: int,
                 seed: int = 1, opponent: Any = "random") -> tuple[int, int, float, float]:
    """The vector env against ``opponent`` at every other seat, random legal actions:
    (agent steps, agent steps, elapsed, CPU seconds of this process). Steps that only
    reset a table (autoreset) are not counted."""
    vec = TrashVectorEnv(num_envs, [opponent] * (players - 1), rules=rules)
    noise = np.random.default_rng(seed).random((64, num_envs, 15)).astype(np.float32)
    _obs, info = vec.reset(seed=seed)
    vec.step((info["action_mask"] * noise[0]).argmax(axis=1))  # compiled before timing
    ended = np.zeros(num_envs, dtype=bool)
    steps = calls = 0
    began, cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - began < seconds:
        actions = (info["action_mask"] * noise[calls % 64]).argmax(axis=1)
        _obs, _rewards, terminated, truncated, info = vec.step(actions)
        steps += num_envs - int(ended.sum())
        ended = terminated | truncated
        calls += 1
    return steps, steps, time.perf_counter() - began, time.process_time() - cpu


def openspiel_steps(rules: Rules, players: int, seconds: float, seed: int = 1) -> Rate:
    """``python_trash`` with random play: (player actions, all actions, elapsed)."""
    import pyspiel

    import trashcards.envs.openspiel  # noqa: F401 - registers the game

    params = {"players": players, "preset": rules.preset}
    game = pyspiel.load_game("python_trash", params)
    rng = random.Random(seed)
    actions = moves = 0
    began = time.perf_counter()
    while time.perf_counter() - began < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, weights)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
            moves += 1
    return actions, moves, time.perf_counter() - began


def observations(rules: Rules, players: int, seconds: float, seed: int = 1) -> tuple[float, float]:
    """Microseconds per ``observation_batch`` call of 1,024 rows and of 1 row."""
    rng = random.Random(seed)
    state = new_match(rules, tuple(f"p{seat}" for seat in range(players)))
    rows: list[Any] = []
    while len(rows) < 1024:
        if state.phase is Phase.MATCH_OVER:
            state = new_match(rules, state.names)
        legal = legal_actions(state)
        state, _events = apply(state, rng.choice(legal) if legal else sample_chance(state, rng))
        rows.append(public_array(view(state, 0)))
    batch = np.array(rows, dtype=np.int32)
    out = []
    for size in (1024, 1):
        calls, began = 0, time.perf_counter()
        while time.perf_counter() - began < seconds / 2:
            observation_batch(batch[:size], rules)
            calls += 1
        out.append((time.perf_counter() - began) / calls * 1e6)
    return out[0], out[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per side")
    parser.add_argument("--preset", default="standard", help="rules preset")
    parser.add_argument("--players", type=int, default=2, help="2 to 4")
    parser.add_argument("--openspiel", action="store_true", help="also time python_trash")
    parser.add_argument("--num-envs", type=int, nargs="+", default=[1024, 4096],
                        help="tables of the vector env (each is timed)")
    args = parser.parse_args()
    rules = Rules.preset_named(args.preset)
    rules.check_players(args.players)
    print(f"{args.preset}, {args.players} players, random legal moves, "
          f"{args.seconds:g} s per side; load average {os.getloadavg()[0]:.1f} "
          f"(on {os.cpu_count()} cores)")
    cpu = time.process_time()
    actions, moves, seconds = engine(rules, args.players, args.seconds)
    base = actions / seconds
    base_cpu = actions / (time.process_time() - cpu)
    print(f"engine apply:        {moves / seconds:10,.0f} applies/s "
          f"({base:,.0f} player actions/s)")
    sides: list[tuple[str, Rate]] = [
        ("PettingZoo raw_env", aec(lambda: raw_env(rules=rules, players=args.players),
                                   args.seconds)),
        ("PettingZoo env()", aec(lambda: env(rules=rules, players=args.players),
                                 args.seconds)),
    ]
    if args.openspiel:
        sides.append(("OpenSpiel", openspiel_steps(rules, args.players, args.seconds)))
    opponents: dict[str, Any] = {"random": "random", "greedy": "greedy",
                                 "MLP 233-64-15": small_mlp()}
    singles: dict[str, tuple[float, float]] = {}  # steps per second of wall clock, of CPU
    for name, opponent in opponents.items():
        cpu = time.process_time()
        single = gymnasium_steps(rules, args.players, args.seconds, opponent=opponent)
        singles[name] = (single[0] / single[2], single[0] / (time.process_time() - cpu))
        sides.append((f"Gymnasium vs {name}", single))
    big, one = observations(rules, args.players, args.seconds)
    print(f"observation_batch:   {big / 1000:10.2f} ms per 1,024 rows "
          f"({1024e6 / big:,.0f} rows/s), {one:.1f} us for one row")
    for name, (steps, every, elapsed) in sides:
        rate = steps / elapsed
        extra = f" ({every / elapsed:,.0f} with chance and bots)" if every != steps else ""
        print(f"{name + ':':24s} {rate:10,.0f} steps/s, ratio to the engine's player "
              f"actions {rate / base:.3f}{extra}")
    print(f"engine per CPU second: {base_cpu:,.0f} player actions; the Gymnasium env per CPU "
          f"second: {', '.join(f'{n} {c:,.0f}' for n, (_w, c) in singles.items())}")
    print("\nTrashVectorEnv, agent steps per second (x: ratio to the engine's player "
          "actions/s, and to the Gymnasium env against the same opponent, wall clock to "
          "wall clock and CPU time to CPU time):")
    header = (f"{'N':>6} {'opponent':<14} {'steps/s':>11} {'x engine':>9} {'x Gym':>7} "
              f"{'steps/CPU-s':>12} {'x engine':>9} {'x Gym':>7}")
    print(header)
    print("-" * len(header))
    for num_envs in args.num_envs:
        for name, opponent in opponents.items():
            steps, _every, elapsed, cpu = vector_steps(rules, args.players, args.seconds,
                                                       num_envs, opponent=opponent)
            single_wall, single_cpu = singles[name]
            wall_rate, cpu_rate = steps / elapsed, steps / cpu
            print(f"{num_envs:>6,} {name:<14} {wall_rate:>11,.0f} {wall_rate / base:>8,.0f}x "
                  f"{wall_rate / single_wall:>6,.0f}x {cpu_rate:>12,.0f} "
                  f"{cpu_rate / base_cpu:>8,.0f}x {cpu_rate / single_cpu:>6,.0f}x")
    print(f"load average after the run: {os.getloadavg()[0]:.1f} "
          f"(on {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
