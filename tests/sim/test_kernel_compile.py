"""The kernel compiles each of its functions once: one signature per function, whatever
constants, integer widths or callers it is called with (docs/compile.md)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest.importorskip("numba")

SRC = Path(__file__).resolve().parents[2] / "src"

#: Every entry point of the kernel, the way the package calls it, then the number of
#: signatures of every compiled function of the kernel's modules.
EXERCISE = textwrap.dedent("""
    import json, random
    import numpy as np
    from numba.core.dispatcher import Dispatcher
    from trashcards.chance import sample_chance
    from trashcards.engine import apply, chance_due
    from trashcards.rules import Rules
    from trashcards.sim import fast, rollouts
    from trashcards.sim.kernel import bots, game, matches, numbers, vector
    from trashcards.sim.kernel import rollouts as krollouts
    from trashcards.sim.vector import VectorTables
    from trashcards.envs.vector import TrashVectorEnv
    from trashcards.state import new_match
    from trashcards.views import view

    rules = Rules.preset_named("standard")
    fast.play_chunk(rules, ["greedy", "counter"], 0, 0, 20)
    fast.play_traced(rules, ["random", "kid", "sometimes"], 0, 0)
    rng = random.Random(0)
    state = new_match(rules, ("a", "b"))
    while chance_due(state) is not None:
        state, _ = apply(state, sample_chance(state, rng))
    rollouts.rollouts(state, ["greedy", "greedy"], 4, 0, horizon="match")
    rollouts.rollout(state, ["greedy", "greedy"], 0, 1)
    rollouts.sample_deals(view(state, None), 2, 0)
    rollouts.evaluate(view(state, state.to_act), ["counter", "greedy"], 4, 0)
    tables = VectorTables(rules, ["greedy", None, "random"], 3,
                          outside=lambda which, seats, obs, mask, floats: np.argmax(mask, axis=1))
    tables.reset(range(3), seeds=[1, 2, 3])
    tables.step(tables.mask.argmax(axis=1))
    env = TrashVectorEnv(4, [lambda obs, mask: np.argmax(mask, axis=1), "greedy"])
    _obs, info = env.reset(seed=0)
    env.step(np.argmax(info["action_mask"], axis=1))
    counts = {}
    for module in (bots, game, matches, numbers, krollouts, vector):
        for name, value in vars(module).items():
            if isinstance(value, Dispatcher) and value.__module__ == module.__name__:
                counts[f"{module.__name__.rsplit('.', 1)[1]}.{name}"] = len(value.signatures)
    print(json.dumps(counts))
    """)


@pytest.mark.numba_compile
@pytest.mark.slow
def test_every_kernel_function_compiles_one_signature(tmp_path: Path) -> None:
    """Literal constants (``next_key(chance, 0)``), ``int32`` values read from a state and
    ``int64`` values would each make numba compile the function again; the kernel's
    dispatcher compiles one copy for all of them. (An empty cache: a function loaded
    with its caller from the cache is not compiled at all.)"""
    env = {**os.environ, "PYTHONPATH": f"{SRC}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
           "NUMBA_CACHE_DIR": str(tmp_path / "cache")}  # empty: everything is compiled
    done = subprocess.run([sys.executable, "-c", EXERCISE], env=env, capture_output=True,
                          text=True, check=False, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    counts = json.loads(done.stdout.strip().splitlines()[-1])
    for name in ("game.run", "bots.decide", "bots.counter_slot", "numbers.next_key",
                 "numbers.fy_step", "game.stock_empty", "vector.advance", "vector.encode"):
        assert counts[name] == 1, (name, counts)
    assert {name: n for name, n in counts.items() if n > 1} == {}
