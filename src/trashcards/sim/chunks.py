"""Chunks of a run and what plays them, shared by the runner and its backends.

A chunk is a range of match indices ``(start, count)`` of one batch. This module is the
floor under :mod:`trashcards.sim.runner` and the backends it chooses from
(:mod:`trashcards.sim.backends`): an engine's chunk player, the numba thread setting,
and the loop that keeps a bounded number of chunks in flight. It imports neither.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

from ..rules import Rules
from ..simulation import SimStats

__all__ = [
    "ENGINES",
    "Chunk",
    "ChunkPlayer",
    "Progress",
    "chunk_player",
    "engine_threads",
    "fast_engine_problem",
    "in_flight",
    "load_bots",
    "play_counted",
    "set_engine_threads",
]

ENGINES = ("fast", "reference")

Progress = Callable[[int], None]


class ChunkPlayer(Protocol):
    """The signature both engines share: play matches ``start … start + count - 1``."""

    def __call__(self, rules: Rules, bots: Sequence[str], seed: int, start: int, count: int,
                 records: Path | None = None,
                 progress: Progress | None = None) -> SimStats: ...


@dataclass(frozen=True, slots=True)
class Chunk:
    """Matches ``start … start + count - 1``, all counted in batch ``batch``."""

    batch: int
    start: int
    count: int


def fast_engine_problem() -> str | None:
    """Why the fast engine cannot run here, or ``None`` when it can."""
    try:
        importlib.import_module("trashcards.sim.fast")
    except ImportError as exc:
        return str(exc) or type(exc).__name__
    return None


def chunk_player(engine: str) -> ChunkPlayer:
    """The ``play_chunk`` function of an engine (``fast`` must be importable)."""
    if engine == "fast":
        module = importlib.import_module("trashcards.sim.fast")
    elif engine == "reference":
        module = importlib.import_module("trashcards.simulation")
    else:
        raise ValueError(f"unknown engine {engine!r}; the engines are {', '.join(ENGINES)}")
    player: ChunkPlayer = module.play_chunk
    return player


def load_bots(modules: Sequence[str]) -> None:
    """Import the modules that register bots from above :mod:`trashcards.bots` (see
    :func:`trashcards.bots.bot_modules`), in a fresh process that is to make them: a
    worker of the process pool or a Ray task does not share its parent's registry."""
    for module in modules:
        importlib.import_module(module)


def set_engine_threads(engine: str, threads: int | None) -> None:
    """Let the fast kernel use ``threads`` threads (``None``: leave numba's default)."""
    if engine != "fast" or threads is None:
        return
    numba = importlib.import_module("numba")
    numba.set_num_threads(max(1, min(threads, numba.config.NUMBA_NUM_THREADS)))


@contextmanager
def engine_threads(engine: str, threads: int | None) -> Iterator[None]:
    """Run the fast kernel on ``threads`` threads for a while, then restore the number."""
    if engine != "fast" or threads is None:
        yield
        return
    numba = importlib.import_module("numba")
    before = numba.get_num_threads()
    set_engine_threads(engine, threads)
    try:
        yield
    finally:
        numba.set_num_threads(before)


def play_counted(player: ChunkPlayer, rules: Rules, bots: Sequence[str], seed: int,
                 chunk: Chunk, records: Path | None, progress: Progress | None) -> SimStats:
    """Play one chunk in this process; the progress callback sees exactly ``chunk.count``."""
    if progress is None:
        return player(rules, bots, seed, chunk.start, chunk.count, records=records)
    reported = 0

    def tick(n: int) -> None:
        nonlocal reported
        n = min(n, chunk.count - reported)
        if n > 0:
            reported += n
            progress(n)

    stats = player(rules, bots, seed, chunk.start, chunk.count, records=records, progress=tick)
    tick(chunk.count - reported)
    return stats


Handle = TypeVar("Handle", bound=Hashable)


def in_flight(chunks: Iterable[Chunk], limit: int, *, submit: Callable[[Chunk], Handle],
              wait_any: Callable[[list[Handle]], Iterable[Handle]],
              result: Callable[[Handle], SimStats],
              progress: Callable[[int], None] | None) -> Iterator[tuple[Chunk, SimStats]]:
    """Keep at most ``limit`` chunks running (``submit`` starts one, ``wait_any`` returns
    the finished ones, ``result`` their totals); yield each chunk with its totals as it
    finishes. Shared by the process pool and the Ray backend."""
    pending: dict[Handle, Chunk] = {}
    todo = iter(chunks)
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < limit:
            chunk = next(todo, None)
            if chunk is None:
                exhausted = True
                break
            pending[submit(chunk)] = chunk
        if not pending:
            break
        for handle in wait_any(list(pending)):
            chunk = pending.pop(handle)
            stats = result(handle)
            if progress is not None:
                progress(chunk.count)
            yield chunk, stats
