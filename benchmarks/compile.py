"""Where the numba kernel's compile time goes: per command, per kernel function and
signature, from an empty cache, and what the same start costs once cached.

    python benchmarks/compile.py                  # every group below, ~2 min of CPU
    python benchmarks/compile.py ai vector        # some groups
    python benchmarks/compile.py --top 25         # more functions per group
    python benchmarks/compile.py --json out.json  # also write the figures

Each group runs in a fresh Python with an empty ``NUMBA_CACHE_DIR`` (a temporary folder),
doing what its command does first, and listens to numba's compile events
(:mod:`numba.core.event`): for every function numba compiles, and each signature, the
CPU seconds (``time.process_time``, which a loaded machine inflates far less than wall
time) spent compiling it, its own (``self``: without the functions its compilation made
numba compile meanwhile) and, of those, the part inside LLVM (optimisation and machine
code, numba's ``llvm_lock`` events; the rest is numba's typing and lowering, in
Python). Then a second fresh Python on the cache just written does the same work: the
cached start. The groups:

* ``ai``: the server's warm-up (:func:`trashcards.web.advice.warm_up`: one hint), which
  compiles what hints, win chances, expert bots and reviews use (the batch evaluation);
* ``simulate``: ``trashcards simulate`` (bulk matches on every core);
* ``records``: ``trashcards simulate --records`` (the traced match);
* ``rollouts``: :mod:`trashcards.sim.rollouts` (rollouts of a state, deal samples);
* ``vector``: ``TrashVectorEnv(4)``'s ``reset`` and first ``step`` (the time to the first
  step is printed apart), then an opponent outside the kernel (a batched policy).

The load average is printed before and after: compare figures of one run, or of runs at
a like load.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

GROUPS = ("ai", "simulate", "records", "rollouts", "vector")


# -- the child: one group's work, with numba's events recorded --------------------------------


def _work(group: str) -> dict[str, float]:
    """Do what the group's command does first; returns named wall/CPU marks."""
    marks: dict[str, float] = {}
    if group == "ai":
        from trashcards.web.advice import warm_up

        warm_up()
    elif group == "simulate":
        from trashcards.sim.fast import warm_up as sim_warm_up

        sim_warm_up()
    elif group == "records":
        from trashcards.sim.fast import warm_up as sim_warm_up

        sim_warm_up(traced=True)
    elif group == "rollouts":
        import random

        from trashcards.chance import sample_chance
        from trashcards.engine import apply, chance_due
        from trashcards.rules import Rules
        from trashcards.sim.rollouts import rollout, rollouts, sample_deals
        from trashcards.state import new_match
        from trashcards.views import view

        rng = random.Random(0)
        state = new_match(Rules.preset_named("standard"), ("a", "b"))
        while chance_due(state) is not None:
            state, _events = apply(state, sample_chance(state, rng))
        rollouts(state, ["greedy", "greedy"], 4, 0, horizon="match")
        rollout(state, ["greedy", "greedy"], 0, 1)
        sample_deals(view(state, None), 2, 0)
    elif group == "vector":
        wall, cpu = time.perf_counter(), time.process_time()
        import numpy as np

        from trashcards.envs.vector import TrashVectorEnv

        marks["import_wall"] = time.perf_counter() - wall
        marks["import_cpu"] = time.process_time() - cpu
        env = TrashVectorEnv(4, ["greedy"], preset="standard")
        _obs, info = env.reset(seed=0)
        env.step(np.argmax(info["action_mask"], axis=1))
        marks["first_step_wall"] = time.perf_counter() - wall
        marks["first_step_cpu"] = time.process_time() - cpu

        def policy(obs: Any, mask: Any) -> Any:
            return np.argmax(mask, axis=1)

        outside = TrashVectorEnv(4, [policy], preset="standard")
        _obs, info = outside.reset(seed=0)
        outside.step(np.argmax(info["action_mask"], axis=1))
    else:
        raise SystemExit(f"unknown group {group!r}")
    return marks


def child(group: str) -> None:
    from numba.core import event

    rows: dict[tuple[str, str], list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    stack: list[list[Any]] = []  # [kind, key, start, nested compile time, nested llvm]

    class Recorder(event.Listener):  # numba's, untyped
        def __init__(self, kind: str) -> None:
            self.kind = kind

        def on_start(self, ev: Any) -> None:
            key = None
            if self.kind == "compile":
                func = ev.data["dispatcher"].py_func
                key = (f"{func.__module__.removeprefix('trashcards.sim.kernel.')}."
                       f"{func.__qualname__}", _signature(ev.data["args"]))
            stack.append([self.kind, key, time.process_time(), 0.0, 0.0])

        def on_end(self, ev: Any) -> None:
            kind, key, start, nested, llvm = stack.pop()
            total = time.process_time() - start
            if kind == "compile":
                row = rows[key]
                row[0] += total - nested
                row[1] += total
                row[2] += llvm
                row[3] += 1
                if stack:
                    stack[-1][3] += total
            else:  # llvm: charged to the function being compiled
                for frame in reversed(stack):
                    if frame[0] == "compile":
                        frame[4] += total
                        break

    events: Any = event  # numba's, untyped
    events.register("numba:compile", Recorder("compile"))
    events.register("numba:llvm_lock", Recorder("llvm"))
    wall, cpu = time.perf_counter(), time.process_time()
    marks = _work(group)
    out = {"group": group, "wall": time.perf_counter() - wall,
           "cpu": time.process_time() - cpu, "marks": marks,
           "functions": [{"name": name, "signature": sig, "self": r[0], "total": r[1],
                          "llvm": r[2], "compiles": r[3]}
                         for (name, sig), r in rows.items()]}
    print(json.dumps(out))


def _signature(args: Any) -> str:
    return ", ".join(str(a).replace("Array(", "A(").replace(", aligned=True", "")
                     .replace(", False", "") for a in args)


# -- the parent: fresh processes, cold then cached --------------------------------------------


def _run(group: str, cache: Path) -> dict[str, Any]:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONUNBUFFERED": "1"}
    done = subprocess.run([sys.executable, __file__, "--child", group], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{group} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def _load() -> str:
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min: {five:.1f}) on {os.cpu_count()} cores"


def report(group: str, cold: dict[str, Any], warm: dict[str, Any], top: int) -> None:
    funcs = sorted(cold["functions"], key=lambda f: -f["self"])
    kernel = [f for f in funcs if not f["name"].startswith("numba.")]
    compiled = sum(f["self"] for f in funcs)
    llvm = sum(f["llvm"] for f in funcs)
    per_name: dict[str, int] = defaultdict(int)
    for f in kernel:
        per_name[f["name"]] += 1
    repeated = {name: n for name, n in per_name.items() if n > 1}
    print(f"\n== {group}: empty cache {cold['cpu']:.1f} s CPU ({cold['wall']:.1f} s wall), "
          f"of which compiling {compiled:.1f} s ({llvm:.1f} s in LLVM); "
          f"cached {warm['cpu']:.1f} s CPU ({warm['wall']:.1f} s wall)")
    marks = cold["marks"]
    if "first_step_cpu" in marks:
        print(f"   vector env first step: {marks['first_step_cpu']:.1f} s CPU "
              f"({marks['first_step_wall']:.1f} s wall; imports {marks['import_cpu']:.1f} s "
              f"CPU) from an empty cache, {warm['marks']['first_step_cpu']:.1f} s CPU "
              f"({warm['marks']['first_step_wall']:.1f} s wall) cached")
    print(f"   {len(funcs)} compilations ({len(kernel)} of kernel functions, "
          f"{len(per_name)} functions"
          + (f"; more than one signature: {', '.join(sorted(repeated))}" if repeated else "")
          + ")")
    print(f"   {'self s':>7} {'LLVM s':>7} {'total s':>8}  function (signature)")
    for f in funcs[:top]:
        print(f"   {f['self']:7.2f} {f['llvm']:7.2f} {f['total']:8.2f}  {f['name']} "
              f"({f['signature'][:70]}{'…' if len(f['signature']) > 70 else ''})")
    rest = funcs[top:]
    if rest:
        print(f"   {sum(f['self'] for f in rest):7.2f} {sum(f['llvm'] for f in rest):7.2f}"
              f" {'':8}  {len(rest)} more compilations")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("groups", nargs="*", metavar="GROUP",
                        help=f"some of {', '.join(GROUPS)} (default: all)")
    parser.add_argument("--top", type=int, default=12, help="functions listed per group")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    import numba

    groups = args.groups or list(GROUPS)
    unknown = set(groups) - set(GROUPS)
    if unknown:
        parser.error(f"unknown groups {', '.join(sorted(unknown))}; the groups: "
                     f"{', '.join(GROUPS)}")
    print(f"numba {numba.__version__}, Python {sys.version.split()[0]}; {_load()}")
    results = []
    for group in groups:
        with tempfile.TemporaryDirectory(prefix="trashcards-compile-") as folder:
            cache = Path(folder)
            cold = _run(group, cache)
            warm = _run(group, cache)
        report(group, cold, warm, args.top)
        results.append({"group": group, "cold": cold, "cached": warm})
    print(f"\n{_load()}")
    if args.json:
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
