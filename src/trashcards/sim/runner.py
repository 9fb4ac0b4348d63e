"""Run many matches: split them into seeded chunks, play the chunks on this machine or on
a Ray cluster, and add up their :class:`~trashcards.simulation.SimStats`.

A chunk is a range of match indices ``(start, count)``. Match ``i`` of a run with seed
``s`` depends on ``(s, i)`` alone (in both engines), so the totals are identical however
the matches are split into chunks, whichever backend plays them and however many workers
it has; only ``elapsed_s`` (the wall-clock time of the run) differs.

Memory stays constant: at most a few chunks are in flight at once, and each returns one
``SimStats`` that is added to the running total and dropped.

Engines: ``fast`` (the numba kernel of :mod:`trashcards.sim.fast`, from the ``sim``
extra; it parallelises inside a chunk, so it gets big chunks and runs them one after the
other) and ``reference`` (:func:`trashcards.simulation.play_chunk`, the rules engine;
chunks run in one process per core). Backends: ``local`` (this module) and the remote
ones of :mod:`trashcards.sim.backends` (``ray``: :mod:`trashcards.sim.ray_backend`). The
chunks and their players live in :mod:`trashcards.sim.chunks`, below both.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

from ..bots import bot_modules
from ..rules import Rules
from ..simulation import SimStats
from .backends import BACKENDS, Backend, open_backend
from .chunks import (
    ENGINES,
    Chunk,
    ChunkPlayer,
    Progress,
    chunk_player,
    engine_threads,
    fast_engine_problem,
    in_flight,
    load_bots,
    play_counted,
)

__all__ = [
    "BACKENDS",
    "ENGINES",
    "Chunk",
    "ChunkPlayer",
    "EngineChoice",
    "Runner",
    "choose_engine",
    "chunk_player",
    "fast_engine_problem",
    "plan_chunks",
    "run",
]

#: Largest chunk of the reference engine (about a second of play): small enough for a
#: smooth progress bar and an even spread over the workers.
_REFERENCE_MAX_CHUNK = 250
#: Largest chunk of the fast engine: big, since the kernel spreads a chunk over the cores.
_FAST_MAX_CHUNK = 200_000
_FAST_MIN_CHUNK = 2_000


@dataclass(frozen=True, slots=True)
class EngineChoice:
    """The engine that will run and, when it is not the one asked for, why."""

    name: str
    notice: str | None = None


def choose_engine(requested: str | None) -> EngineChoice:
    """The engine to use for ``requested`` (``None``: the fast one when available).

    Asking for ``fast`` (or for the default) where numba (the ``sim`` extra) or the kernel
    is missing falls back to the reference engine with a notice saying so.
    """
    if requested is not None and requested not in ENGINES:
        raise ValueError(f"unknown engine {requested!r}; the engines are {', '.join(ENGINES)}")
    if requested == "reference":
        return EngineChoice("reference")
    problem = fast_engine_problem()
    if problem is None:
        return EngineChoice("fast")
    return EngineChoice("reference", (
        f"the fast engine is not available ({problem}); using the reference engine. "
        "Install it with: pip install 'trashcards[sim]'"))


def default_chunk_size(engine: str, backend: str, matches: int, workers: int) -> int:
    """A chunk size that keeps every worker busy and the progress bar moving: about 8
    chunks per worker, except for the local fast engine, which spreads each chunk over
    the cores itself and gets about 20 big chunks."""
    if engine == "fast":
        share = matches / 20 if backend == "local" else matches / (8 * workers)
        return max(_FAST_MIN_CHUNK, min(_FAST_MAX_CHUNK, math.ceil(share)))
    return max(1, min(_REFERENCE_MAX_CHUNK, math.ceil(matches / (8 * workers))))


def batch_bounds(matches: int, batches: int) -> list[tuple[int, int]]:
    """``batches`` consecutive ranges ``(start, count)`` covering ``0 … matches - 1``."""
    if batches < 1:
        raise ValueError("batches must be at least 1")
    edges = [matches * b // batches for b in range(batches + 1)]
    return [(edges[b], edges[b + 1] - edges[b]) for b in range(batches)]


def plan_chunks(matches: int, chunk_size: int, batches: int = 1) -> Iterator[Chunk]:
    """The chunks of a run, in order; a chunk never straddles two batches."""
    if chunk_size < 1:
        raise ValueError("chunk_size must be at least 1")
    for batch, (first, count) in enumerate(batch_bounds(matches, batches)):
        for start in range(first, first + count, chunk_size):
            yield Chunk(batch, start, min(chunk_size, first + count - start))


@contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C (SIGINT) back while pool workers may be started: a started worker
    inherits the blocked signal, so one still starting never dies of it with a
    traceback; here it is delivered as soon as the block ends."""
    if not hasattr(signal, "pthread_sigmask"):  # pragma: no cover - Windows
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _ignore_interrupts() -> None:
    """Pool worker start: leave Ctrl-C (SIGINT) to the main process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _play_in_worker(engine: str, rules: Rules, bots: tuple[str, ...], seed: int,
                    chunk: Chunk, records: Path | None, modules: tuple[str, ...]) -> SimStats:
    """Process-pool task: play one chunk (module level so that it pickles), after
    importing the ``modules`` that register its bots (the ``expert``)."""
    load_bots(modules)
    return chunk_player(engine)(rules, bots, seed, chunk.start, chunk.count, records=records)


class Runner:
    """Plays runs of matches with one engine on one backend, reusing its worker pool or
    Ray connection from one run to the next. Use it as a context manager.

    ``workers``: processes of the local reference engine, threads of the local fast
    engine, CPUs of a local Ray (default: every core). ``ray_address``: a running Ray
    cluster (``auto``, ``ray://host:10001``…); without it the ``ray`` backend starts a
    local Ray.
    """

    def __init__(self, engine: str | None = "fast", backend: str = "local",
                 workers: int | None = None, chunk_size: int | None = None,
                 ray_address: str | None = None) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"unknown backend {backend!r}; the backends are "
                             f"{', '.join(BACKENDS)}")
        if workers is not None and workers < 1:
            raise ValueError("workers must be at least 1")
        if chunk_size is not None and chunk_size < 1:
            raise ValueError("chunk_size must be at least 1")
        choice = choose_engine(engine)
        self.engine = choice.name
        #: Why the engine differs from the one asked for (``None`` when it does not).
        self.notice = choice.notice
        self.backend = backend
        self.workers = workers
        self.chunk_size = chunk_size
        self.ray_address = ray_address
        self._pool: ProcessPoolExecutor | None = None
        self._remote: Backend | None = None

    # -- lifetime ---------------------------------------------------------------------------

    def __enter__(self) -> Runner:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    def close(self) -> None:
        """Stop the worker processes, and a local Ray (remote backend) this runner started."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
        if self._remote is not None:
            self._remote.close()
            self._remote = None

    # -- runs ----------------------------------------------------------------------------

    def run(self, rules: Rules, bots: Sequence[str], matches: int, seed: int,
            records: Path | None = None, progress: Progress | None = None) -> SimStats:
        """Totals of matches ``0 … matches - 1``; ``elapsed_s`` is the wall-clock time."""
        return self.run_batches(rules, bots, matches, seed, 1, records, progress)[0]

    def run_batches(self, rules: Rules, bots: Sequence[str], matches: int, seed: int,
                    batches: int, records: Path | None = None,
                    progress: Progress | None = None) -> list[SimStats]:
        """Totals of ``batches`` consecutive, equal ranges of matches (batch means give
        honest confidence intervals of per-round figures); they add up to :meth:`run`."""
        if matches < 0:
            raise ValueError("matches must not be negative")
        rules.check_players(len(bots))
        bots = tuple(bots)
        batches = max(1, min(batches, matches))
        workers = self._worker_count()
        size = self.chunk_size or default_chunk_size(self.engine, self.backend, matches,
                                                     workers)
        chunks = plan_chunks(matches, size, batches)
        began = time.perf_counter()
        totals = [SimStats(len(bots)) for _ in range(batches)]
        for chunk, stats in self._play(rules, bots, seed, chunks, records, progress):
            totals[chunk.batch] = totals[chunk.batch] + stats
        elapsed = time.perf_counter() - began
        for total in totals:
            total.elapsed_s = elapsed / batches
        return totals

    def _worker_count(self) -> int:
        if self.workers is not None:
            return self.workers
        if self.backend != "local":
            return self._remote_backend().cpus
        return os.cpu_count() or 1

    def _play(self, rules: Rules, bots: tuple[str, ...], seed: int, chunks: Iterator[Chunk],
              records: Path | None,
              progress: Progress | None) -> Iterator[tuple[Chunk, SimStats]]:
        if self.backend != "local":
            yield from self._remote_backend().play(self.engine, rules, bots, seed, chunks,
                                             records, progress)
        elif self.engine == "fast" or self._worker_count() == 1:
            player = chunk_player(self.engine)
            with engine_threads(self.engine, self.workers):
                for chunk in chunks:
                    yield chunk, play_counted(player, rules, bots, seed, chunk, records,
                                              progress)
        else:
            yield from self._play_in_pool(rules, bots, seed, chunks, records, progress)

    def _play_in_pool(self, rules: Rules, bots: tuple[str, ...], seed: int,
                      chunks: Iterator[Chunk], records: Path | None,
                      progress: Progress | None) -> Iterator[tuple[Chunk, SimStats]]:
        if self._pool is None:
            # spawn, not fork: the caller may be running threads (a progress bar's).
            # Ctrl-C reaches the whole process group: the main process stops the run, the
            # workers ignore it (else each prints a KeyboardInterrupt traceback).
            self._pool = ProcessPoolExecutor(self._worker_count(),
                                             mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_ignore_interrupts)
        pool = self._pool
        modules = bot_modules(bots)

        def submit(chunk: Chunk) -> Future[SimStats]:
            with _interrupts_held():  # a worker may be started here
                return pool.submit(_play_in_worker, self.engine, rules, bots, seed, chunk,
                                   records, modules)

        yield from in_flight(
            chunks, 2 * self._worker_count(), submit=submit,
            wait_any=lambda futures: wait(futures, return_when=FIRST_COMPLETED)[0],
            result=lambda future: future.result(),
            progress=progress)

    def _remote_backend(self) -> Backend:
        if self._remote is None:
            self._remote = open_backend(self.backend, self.ray_address, self.workers)
        return self._remote


def run(rules: Rules, bots: Sequence[str], matches: int, seed: int,
        engine: str | None = "fast", backend: str = "local", workers: int | None = None,
        chunk_size: int | None = None, records: Path | None = None,
        progress: Progress | None = None, ray_address: str | None = None) -> SimStats:
    """Play ``matches`` matches of ``bots`` (one per seat) under ``rules``.

    The totals depend only on ``rules``, ``bots``, ``matches``, ``seed`` and the engine —
    never on ``backend``, ``workers`` or ``chunk_size``. ``progress(n)`` is called as
    matches finish. ``engine="fast"`` falls back to the reference engine (with a warning)
    when the ``sim`` extra is missing; use :class:`Runner` to read that notice yourself.
    """
    with Runner(engine, backend, workers, chunk_size, ray_address) as runner:
        if runner.notice:
            import warnings

            warnings.warn(runner.notice, RuntimeWarning, stacklevel=2)
        return runner.run(rules, bots, matches, seed, records, progress)
