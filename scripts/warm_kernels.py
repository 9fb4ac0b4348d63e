"""Compile the numba kernels into numba's on-disk cache, so that the tests find them
there: ``python3 scripts/warm_kernels.py vector`` (the vector environment's kernel, about
two minutes on a first run) or ``... game`` (the simulation kernel, its record-writing
twin and the AI's). ``scripts/check`` runs both in the background while ruff, mypy and
the first tests run, so that a fresh clone's suite does not wait for them one by one.
A later run loads them from the cache in about a second."""

from __future__ import annotations

import sys


def vector() -> None:
    import numpy as np

    from trashcards.envs.vector import TrashVectorEnv

    env = TrashVectorEnv(4, ["greedy"], preset="standard")
    _obs, info = env.reset(seed=0)
    for _ in range(20):
        _obs, _reward, _term, _trunc, info = env.step(np.argmax(info["action_mask"], axis=1))


def game() -> None:
    from trashcards.sim.fast import warm_up
    from trashcards.web.advice import warm_up as warm_ai

    warm_up()
    warm_up(traced=True)
    warm_ai()


if __name__ == "__main__":
    kinds = {"vector": vector, "game": game}
    if len(sys.argv) != 2 or sys.argv[1] not in kinds:
        sys.exit(f"usage: python3 scripts/warm_kernels.py {{{'|'.join(kinds)}}}")
    kinds[sys.argv[1]]()
