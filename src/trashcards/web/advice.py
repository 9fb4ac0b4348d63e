"""The server's AI work: hints, every seat's win chances, game reviews and the expert
bots' decisions, all computed in worker threads, never on the event loop.

Every function the workers run here takes a :class:`~trashcards.views.View` (or a
record a client sent), never a table's :class:`~trashcards.state.State`: the table builds
the view on the loop and hands only that over, so no hidden card can reach a hint or a
win chance (RULES.md §8). The numba kernel releases the GIL, so the workers run beside
the loop on other cores.

:class:`Advisor` is a fair scheduler for that work (docs/protocol.md, "AI work"):

* **Priority.** Each job has a :class:`Work` kind: an expert bot's move first, then a
  hint a player asked for, then win chances, then reviews. A job runs on one of
  ``workers + 2`` threads, and each kind may only take so many of them: reviews one,
  chances and reviews together ``workers``, hints and everything below ``workers + 1``,
  so there is always a thread a bot's move can take and one a hint can take, whatever
  floods the lower kinds.
* **Fair shares.** Within a kind, the waiting jobs are taken in turn per *key* (the
  client address; win chances: the address watching the table), so one address's flood
  waits behind itself; every address may have at most ``per_address`` jobs waiting (more
  are refused ``busy``), and all addresses together ``queue``.
* **Cancellation.** A job waiting for a requester that went away (the awaiting task was
  cancelled: its socket closed, its HTTP client hung up, its table has no watcher or
  moved on) leaves the queue at once; a review already running stops at its next
  decision (:class:`Budget`). A job whose ``wanted()`` says no when its turn comes is
  dropped.
* **Deadlines.** A hint or win-chance job that waited past its deadline is refused
  ``busy`` with a retry time (chances: skipped); a review has a deadline for the whole
  job and a budget of deals (:func:`review_message`).
* **Degrading.** When a kind has more work waiting than threads, hints and chances are
  computed with a quarter of their deals and say why (``"coarse": "…"``).

Warm-up (``web/warmup.py``): on a first start numba compiles the fast engine, in a
process of its own, into the kernel's cache, which the server then loads in about a
second (later starts only load it, and AI work waits that second). Until a compiled
engine is ready, AI work never waits for it: hints and win chances are
computed by the reference engine with a quarter of their deals and say so (``"coarse"``,
``"engine": "reference"``), expert bots search with it (at most
:data:`~trashcards.ai.expert.REFERENCE_SAMPLES` deals), and reviews are refused ``busy``
with a retry time (:func:`slower_path`).

Match-odds tables: those of the presets ship with the package; for other rules
:class:`OddsTables` computes each table once, in the background, one at a time, at most
``ODDS_WAITING`` waiting; until it is there, hints, chances and bots of those rules play
positions out to the end of the match with fewer deals (saying so), and reviews of them
are refused ``busy`` with a retry time. No request ever waits for a table.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import enum
import fcntl
import logging
import multiprocessing
import os
import random
import threading
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from ..actions import Action
from ..ai.evaluate import Engine, evaluate, fast_problem
from ..ai.expert import REFERENCE_SAMPLES, ExpertBot
from ..ai.hints import chances, hint
from ..ai.odds import DEFAULT_ROUNDS as ODDS_ROUNDS
from ..ai.odds import SHIPPED_DIR as ODDS_SHIPPED
from ..ai.odds import cache_dir, match_odds, odds_key
from ..ai.review import review
from ..chance import sample_chance
from ..engine import apply, chance_due
from ..errors import RecordError
from ..record import Record, loads
from ..rules import Rules
from ..state import Phase, new_match
from ..statejson import view_json
from ..views import View, view
from .protocol import ProtocolError

__all__ = ["COARSE_WARMING", "Advisor", "Budget", "BusyError", "OddsTables",
           "OutOfBudgetError", "Warming", "Work", "chances_message", "compile_apart", "compiled",
           "expert_choice", "hint_message", "review_message", "slower_path", "stop_compiling",
           "warm_up"]

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Seconds after which a client may ask again when the workers are busy.
BUSY_RETRY: Final = 1.0
#: Seconds a hint may wait for a thread, and win chances, before they are given up.
HINT_WAIT: Final = 2.0
CHANCES_WAIT: Final = 5.0
#: Rules whose match-odds table may wait to be computed (more: not computed).
ODDS_WAITING: Final = 4
#: Share of the deals a coarse hint or win-chance update uses.
COARSE: Final = 4


class Work(enum.IntEnum):
    """The kinds of AI work, most urgent first."""

    BOT = 0
    HINT = 1
    CHANCES = 2
    REVIEW = 3


class BusyError(ProtocolError):
    """The AI workers have as much work as they may take: try again later."""

    def __init__(self, why: str = "the server is busy computing hints: try again in a "
                                  "moment", retry_after: float = BUSY_RETRY) -> None:
        super().__init__("busy", why, retry_after=retry_after)


class OutOfBudgetError(Exception):
    """A running job was cancelled or ran past its deadline (raised in its thread)."""


class Budget:
    """What a running job may still spend: it stops (:meth:`check` raises
    :class:`OutOfBudgetError`) once cancelled or past ``deadline`` (``time.monotonic``)."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.cancelled = False

    def check(self, *_progress: int) -> None:
        if self.cancelled:
            raise OutOfBudgetError("cancelled: its requester went away")
        if time.monotonic() > self.deadline:
            raise OutOfBudgetError("past its deadline")


@dataclass(eq=False)
class _Job:
    kind: Work
    key: str
    function: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]
    deadline: float
    wanted: Callable[[], bool] | None
    budget: Budget | None
    started: bool = False


@dataclass
class _Lane:
    """The waiting jobs of one kind, a queue per key, the keys taken in turn."""

    queues: OrderedDict[str, deque[_Job]] = field(default_factory=OrderedDict)
    waiting: int = 0

    def push(self, job: _Job) -> None:
        self.queues.setdefault(job.key, deque()).append(job)
        self.waiting += 1

    def pop(self, full: Callable[[str], bool] = lambda _key: False) -> _Job | None:
        """The next key's first job, skipping the keys that are ``full``."""
        for key, queue in self.queues.items():
            if full(key):
                continue
            job = queue.popleft()
            self.waiting -= 1
            del self.queues[key]
            if queue:
                self.queues[key] = queue  # this key's next job: after the other keys
            return job
        return None

    def remove(self, job: _Job) -> bool:
        queue = self.queues.get(job.key)
        if queue is None or job not in queue:
            return False
        queue.remove(job)
        self.waiting -= 1
        if not queue:
            del self.queues[job.key]
        return True

    def count(self, key: str) -> int:
        queue = self.queues.get(key)
        return len(queue) if queue else 0


class Advisor:
    """The fair scheduler of the AI work (see the module)."""

    def __init__(self, workers: int, queue: int, per_address: int = 8,
                 odds_in_background: bool = True) -> None:
        workers = max(1, workers)
        self.threads = workers + 2
        #: how many threads the jobs of each kind and the kinds below it may take
        self.limits = {Work.BOT: self.threads, Work.HINT: workers + 1,
                       Work.CHANCES: workers, Work.REVIEW: 1}
        # bots and hints on threads of normal priority; win chances and reviews on
        # threads of a lower one, so they take the CPU the event loop leaves them
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.threads, thread_name_prefix="trashcards-ai")
        self._low = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.limits[Work.CHANCES], thread_name_prefix="trashcards-ai-low",
            initializer=_lower_priority)
        self.queue = max(1, queue)
        self.per_address = max(1, per_address)
        self._lanes = {kind: _Lane() for kind in Work}
        self._running = dict.fromkeys(Work, 0)
        #: jobs running per kind and key, and how many one key may run of each kind
        #: (half the threads of the kind: the other half is for the other addresses)
        self._running_keys: Counter[tuple[Work, str]] = Counter()
        self.per_key = {kind: max(1, self.limits[kind] // 2) for kind in Work}
        self.per_key[Work.BOT] = self.threads
        self._clock = time.monotonic
        #: jobs run, dropped (cancelled, stale or late) and refused, for tests and logs
        self.done = 0
        self.dropped = 0
        self.refused = 0
        self.odds = OddsTables(odds_in_background)
        #: The server's warm-up: until it is done, jobs take the slower path
        #: (:func:`slower_path`). ``None``: they wait for the fast engine instead.
        self.warm: Warming | None = None

    def warming(self) -> bool:
        """Whether jobs starting now take the slower path: the fast engine is being
        compiled (from the cache it loads in about a second, which they wait for)."""
        return self.warm is not None and self.warm.cold and not self.warm.done.is_set()

    @property
    def waiting(self) -> int:
        """Jobs waiting for a thread."""
        return sum(lane.waiting for lane in self._lanes.values())

    @property
    def running(self) -> int:
        return sum(self._running.values())

    @property
    def pending(self) -> int:
        """Jobs waiting or running."""
        return self.waiting + self.running

    def busy(self, kind: Work) -> bool:
        """Whether jobs of ``kind`` wait for a thread (so new ones had better be coarse)."""
        return self._lanes[kind].waiting > 0

    async def run(self, function: Callable[..., T], *args: Any, kind: Work = Work.BOT,
                  key: str = "", wait: float | None = None,
                  wanted: Callable[[], bool] | None = None,
                  budget: Budget | None = None, required: bool = False) -> T:
        """``function(*args)`` in a worker thread, in its turn (see the module). Raises
        :class:`BusyError` when ``key`` or everyone has as much waiting as allowed or the
        job waited over ``wait`` seconds (never for ``required`` work or a bot's move),
        and :class:`ProtocolError` ``stale_version`` when ``wanted()`` says no when its
        turn comes. Cancelling the
        awaiting task takes a waiting job out of the queue and stops a running review."""
        if required:
            kind = Work.BOT
        lane = self._lanes[kind]
        if kind is not Work.BOT:
            if lane.count(key) >= self.per_address:
                self.refused += 1
                raise BusyError("your address has as much AI work waiting as it may: try "
                                "again in a moment")
            if self.waiting >= self.queue:
                self.refused += 1
                raise BusyError
        loop = asyncio.get_running_loop()
        job = _Job(kind, key, function, args, loop.create_future(),
                   self._clock() + wait if wait is not None else float("inf"), wanted,
                   budget)
        lane.push(job)
        self._pump()
        try:
            return await asyncio.shield(job.future)
        except asyncio.CancelledError:
            self.cancel(job)
            raise

    def cancel(self, job: _Job) -> None:
        if not job.started:
            if self._lanes[job.kind].remove(job):
                self.dropped += 1
                if not job.future.done():
                    job.future.cancel()
                self._pump()
        elif job.budget is not None:
            job.budget.cancelled = True

    def _fits(self, kind: Work) -> bool:
        below = sum(n for k, n in self._running.items() if k >= kind)
        return self.running < self.threads and below < self.limits[kind]

    def _pump(self) -> None:
        """Start waiting jobs while threads are free for them, most urgent kind first."""
        now = self._clock()
        for kind in Work:
            lane = self._lanes[kind]
            while lane.waiting and self._fits(kind):
                job = lane.pop(lambda key, kind=kind:  # type: ignore[misc]
                               self._running_keys[kind, key] >= self.per_key[kind])
                if job is None:
                    break  # every waiting key runs all it may
                if job.future.done():
                    continue
                if job.wanted is not None and not job.wanted():
                    self.dropped += 1
                    job.future.set_exception(ProtocolError(
                        "stale_version", "the table moved on before this was computed"))
                    continue
                if now > job.deadline:
                    self.dropped += 1
                    job.future.set_exception(BusyError(
                        "the server had too much AI work to start this in time: try again"))
                    continue
                self._start(job)

    def _start(self, job: _Job) -> None:
        job.started = True
        self._running[job.kind] += 1
        self._running_keys[job.kind, job.key] += 1
        pool = self._pool if job.kind <= Work.HINT else self._low
        done = asyncio.get_running_loop().run_in_executor(pool, _on_path, self.warming(),
                                                          job.function, *job.args)

        def finished(result: asyncio.Future[Any]) -> None:
            self._running[job.kind] -= 1
            self._running_keys[job.kind, job.key] -= 1
            if not self._running_keys[job.kind, job.key]:
                del self._running_keys[job.kind, job.key]
            self.done += 1
            if not job.future.done():
                if result.cancelled():
                    job.future.cancel()
                elif result.exception() is not None:
                    job.future.set_exception(result.exception())  # type: ignore[arg-type]
                else:
                    job.future.set_result(result.result())
            self._pump()

        done.add_done_callback(finished)

    def close(self) -> None:
        for lane in self._lanes.values():
            while (job := lane.pop()) is not None:
                if not job.future.done():
                    job.future.cancel()
        self._pool.shutdown(wait=False, cancel_futures=True)
        self._low.shutdown(wait=False, cancel_futures=True)
        self.odds.close()


_PATH = threading.local()


def _on_path(slower: bool, function: Callable[..., T], *args: Any) -> T:
    """In a worker: ``function(*args)``, on the slower path if ``slower``."""
    _PATH.slower = slower
    try:
        return function(*args)
    finally:
        _PATH.slower = False


def slower_path() -> bool:
    """Whether the job running in this worker thread takes the slower path: the
    :class:`Advisor` started it while the fast engine was still warming up, so it must
    not wait for it (see the module)."""
    return bool(getattr(_PATH, "slower", False))


def _lower_priority() -> None:
    """In a new low-priority worker thread: a nicer thread (Linux: per thread)."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 10)


class OddsTables:
    """Which rules have a match-odds table at hand, and the background computation of
    the others (one at a time, at most :data:`ODDS_WAITING` waiting, each once)."""

    def __init__(self, compute: bool = True) -> None:
        #: whether tables that are neither shipped nor cached are computed (else never)
        self.compute = compute
        self._ready: set[Rules] = set()
        #: every rules asked for (each is computed at most once), and how many wait
        self._asked: set[Rules] = set()
        self._queued = 0
        self._process: multiprocessing.process.BaseProcess | None = None
        self._closed = False
        self._lock = threading.Lock()
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="trashcards-odds")

    def ready(self, rules: Rules, players: int) -> bool:
        """Whether positions of ``rules`` can be valued with a table now (or need none:
        more than two players); if not, its computation is asked for."""
        if players != 2 or rules in self._ready:
            return True
        name = f"{odds_key(rules, 2, 'greedy', ODDS_ROUNDS)}.json"
        if (ODDS_SHIPPED / name).is_file() or (cache_dir() / name).is_file():
            self._ready.add(rules)
            return True
        if self.compute:
            self._ask(rules)
        return False

    def _ask(self, rules: Rules) -> None:
        with self._lock:
            if rules in self._asked or self._queued >= ODDS_WAITING:
                return
            self._asked.add(rules)
            self._queued += 1
        log.info("computing the match-odds table of %s in the background", rules.describe())
        self._pool.submit(self._compute, rules)

    def _compute(self, rules: Rules) -> None:
        """In the odds thread: compute the table in a process of its own (at a lower
        CPU priority, so it takes what the games leave; it writes the table to the
        cache directory, where :meth:`ready` finds it)."""
        process = multiprocessing.get_context("spawn").Process(
            target=_odds_process, args=(rules,), daemon=True, name="trashcards-odds")
        try:
            with self._lock:
                if self._closed:
                    return
                self._process = process
                process.start()
            process.join()
            if process.exitcode != 0:
                log.warning("the match-odds table of %s could not be computed (exit %s)",
                            rules.describe(), process.exitcode)
        finally:
            with self._lock:
                self._queued -= 1
                self._process = None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._process is not None and self._process.is_alive():
                self._process.terminate()
        self._pool.shutdown(wait=False, cancel_futures=True)


def _odds_process(rules: Rules) -> None:
    """The process computing a match-odds table (into the cache directory). One process
    of the machine computes a table: the others (the server's other workers) wait on its
    lock file and then read the table it wrote."""
    with contextlib.suppress(OSError):
        os.nice(10)
    folder = cache_dir()
    with contextlib.suppress(OSError):
        folder.mkdir(parents=True, exist_ok=True)
    try:
        handle = (folder / f"{odds_key(rules, 2, 'greedy', ODDS_ROUNDS)}.lock").open("a")
    except OSError:  # no writable cache: compute alone
        match_odds(rules, 2)
        return
    with handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes
        match_odds(rules, 2)  # reads the table when another process wrote it meanwhile


def warm_up(apart: bool = False) -> str:
    """Load the AI (the numba kernel and its compiled code, or the reference engine) by
    computing the chances of one opening position; returns the engine used. The server
    calls it at start-up, so that the first hint is as fast as the others and the memory
    the kernel takes is taken before the first table. ``apart``: compile what is not in
    the kernel's cache in a process of its own first (:func:`compile_apart`), so that
    this process only loads it (about a second) and keeps its CPU and its GIL for the
    games and the slower path meanwhile."""
    if apart:
        compile_apart()
    rng = random.Random(0)
    state = new_match(Rules.preset_named("standard"), ("warm", "up"))
    while chance_due(state) is not None:
        state, _events = apply(state, sample_chance(state, rng))
    engine = hint(view(state, None), 8).evaluation.engine
    marker = _warm_marker()
    if engine == "fast" and marker is not None:
        with contextlib.suppress(OSError):
            marker.touch()
    return engine


def _warm_marker() -> Path | None:
    """The file that says the AI's kernel is in the kernel's cache (a warm-up finished
    with it), in the cache's folder: it is named after the kernel's sources, so a
    changed kernel has none. ``None``: no fast engine or no cache."""
    if fast_problem() is not None:
        return None
    from ..sim.kernel import jit

    return None if jit.CACHE_DIR is None else Path(jit.CACHE_DIR) / "ai-warmed-up"


#: The processes compiling the kernel (:func:`compile_apart`), under their lock.
_COMPILING: set[multiprocessing.process.BaseProcess] = set()
_COMPILING_LOCK = threading.Lock()


def compile_apart() -> bool:
    """Compile the AI's kernel into the kernel's on-disk cache in a process of its own
    (what :func:`warm_up` loads; nothing to do when a warm-up did it already). False
    when it cannot: no fast engine, no writable cache (the kernel then compiles where it
    is used), or the process failed."""
    marker = _warm_marker()
    if marker is None:
        return False
    if marker.exists():
        return True
    process = multiprocessing.get_context("spawn").Process(
        target=_compile_process, daemon=True, name="trashcards-compile")
    with _COMPILING_LOCK:
        _COMPILING.add(process)
        process.start()
    try:
        process.join()
    finally:
        with _COMPILING_LOCK:
            _COMPILING.discard(process)
    return process.exitcode == 0


def _compile_process() -> None:
    """The process compiling the AI's kernel."""
    warm_up()


def compiled() -> bool:
    """Whether a warm-up finished with the fast engine in the kernel's cache (which then
    loads in about a second), or there is no fast engine to compile."""
    if fast_problem() is not None:
        return True
    marker = _warm_marker()
    return marker is not None and marker.exists()


def stop_compiling() -> None:
    """Stop the processes compiling the kernel (the server stops)."""
    with _COMPILING_LOCK:
        for process in _COMPILING:
            if process.is_alive():
                process.terminate()


class Warming(Protocol):
    """What the scheduler reads of the server's warm-up (``web/warmup.py``'s ``WarmUp``)."""

    #: whether the fast engine is being compiled (until the warm-up knows: yes)
    cold: bool
    done: threading.Event


#: What a coarse answer says about itself.
COARSE_BUSY: Final = "the server is busy: computed with fewer deals than usual"
COARSE_ODDS: Final = ("no match-odds table for these rules yet: played out to the end of "
                      "the match with fewer deals")
COARSE_WARMING: Final = ("the AI is still warming up after a start: computed by the slower "
                         "engine with fewer deals")


def _path(samples: int, coarse: str | None) -> tuple[int, str | None, Engine]:
    """The deals, the reason they are fewer and the engine of a hint or win-chance job
    (on the slower path: a quarter of the deals on the reference engine)."""
    if slower_path():
        return max(8, samples // COARSE), COARSE_WARMING, "reference"
    return samples, coarse, "auto"


def hint_message(seat_view: View, version: int, samples: int, coarse: str | None = None,
                 odds: bool = True) -> dict[str, Any]:
    """The ``hint`` message for the seat to act: :meth:`trashcards.ai.hints.Hint.to_json`
    (every legal action best first, with its win chances, 95 % intervals, its paired
    interval against the best, ``equal_to_best`` and a reason ``{"code", "params"}``;
    ``exact``, ``samples`` (the deals used, 0 when exact), ``tied``) with the type,
    version and seat. Seeded by the version, so the same view at the same version always
    gets the same hint, and the same as ``trashcards hint --seed VERSION``. Without
    ``odds`` (no table for these rules yet) the positions are played to the end of the
    match; ``coarse`` says why the deals were fewer than usual. On the slower path
    (:func:`slower_path`), a quarter of the deals on the reference engine."""
    samples, coarse, engine = _path(samples, coarse)
    result = hint(seat_view, samples, seed=version, engine=engine,
                  horizon="auto" if odds else "match")
    return {"type": "hint", "version": version, "seat": result.to_act,
            **result.to_json(), "engine": result.evaluation.engine,
            **({"coarse": coarse} if coarse else {})}


def chances_message(public: View, version: int, samples: int, coarse: str | None = None,
                    odds: bool = True) -> dict[str, Any] | None:
    """The ``chances`` message of a table at ``version`` (from the spectators' view), or
    ``None`` where no chance can be given (``odds`` and ``coarse``: as for hints)."""
    samples, coarse, engine = _path(samples, coarse)
    extra = {"coarse": coarse} if coarse else {}
    if odds or public.phase is Phase.MATCH_OVER:
        found = chances(public, samples, seed=version, engine=engine)
        if found is None:
            return None
        return {"type": "chances", "version": version, **found.to_json(), **extra}
    if public.to_act is None or public.phase not in (Phase.DRAW, Phase.WILD, Phase.SWAP):
        return None  # between rounds: the table would be needed
    best = evaluate(public, public.legal, samples, version, "match", engine).best
    return {"type": "chances", "version": version,
            "match_win": [round(v, 4) for v in best.match_wins],
            "round_win": [round(v, 4) for v in best.round_wins], "source": "search", **extra}


def expert_choice(bot: ExpertBot, seat_view: View, odds: bool) -> Action:
    """The expert bot's decision (without ``odds``: playing positions out to the end of
    the match, since its rules have no table yet; on the slower path: searching with the
    reference engine, on at most :data:`~trashcards.ai.expert.REFERENCE_SAMPLES` deals)."""
    bot.horizon = "auto" if odds else "match"
    if not slower_path():
        return bot.choose(seat_view)
    engine, samples = bot.engine, bot.samples
    bot.engine, bot.samples = "reference", min(samples, REFERENCE_SAMPLES)
    try:
        return bot.choose(seat_view)
    finally:
        bot.engine, bot.samples = engine, samples


def review_message(text: bytes, samples: int, max_moves: int, deals: int = 1 << 62,
                   budget: Budget | None = None,
                   odds: Callable[[Rules, int], bool] | None = None) -> dict[str, Any]:
    """The review of the record ``text`` (a ``trash/1`` file) with the position before
    the first move and after every move as the spectators saw it; raises
    :class:`ProtocolError` ``bad_record`` (with the reason) for anything that is not a
    legal record of at most ``max_moves`` moves, and ``busy`` when ``odds(rules,
    players)`` says its match-odds table is not there yet or the ``budget`` ran out
    (cancelled or past its deadline) or the AI is still warming up (the slower path
    would take minutes). At most ``deals`` deals are sampled in all: a long record gets
    fewer per decision (at least 8; its notes say so)."""
    if slower_path():
        raise BusyError("the AI is still warming up after a start: try again in a minute",
                        retry_after=30.0)
    try:
        record = loads(text)
        if len(record.moves) > max_moves:
            raise ProtocolError("bad_record", f"a record of {len(record.moves)} moves is "
                                              f"over the {max_moves} this server reviews")
        positions, decisions = _positions(record, budget)
    except RecordError as exc:
        raise ProtocolError("bad_record", str(exc)) from None
    except OutOfBudgetError as exc:
        raise _late(exc) from None
    if odds is not None and not odds(record.rules, len(record.players)):
        raise BusyError("the match-odds table of these rules is being computed: try again "
                        "in a few minutes", retry_after=60.0)
    used = max(8, min(samples, deals // max(1, decisions)))
    try:
        result = review(record, used, progress=budget.check if budget else None)
    except OutOfBudgetError as exc:
        raise _late(exc) from None
    out = {**result.to_json(), "positions": positions}
    if used < samples:
        out["notes"] = [*out.get("notes", []), f"a long record: {used} deals per decision "
                                                f"instead of {samples}"]
    return out


def _late(exc: OutOfBudgetError) -> BusyError:
    return BusyError(f"the review was stopped ({exc}): try again later or with a shorter "
                     "record", retry_after=10.0)


def _positions(record: Record, budget: Budget | None) -> tuple[list[dict[str, Any]], int]:
    """The spectators' view before the first move and after every move (checks every
    move: raises what a broken record raises), and the number of decisions with a
    choice."""
    state = new_match(record.rules, record.players)
    out = [view_json(view(state, None))]
    decisions = 0
    for index, (after, _events) in enumerate(record.steps()):
        if state.to_act is not None and len(view(state, state.to_act).legal) > 1:
            decisions += 1
        out.append(view_json(view(after, None)))
        state = after
        if budget is not None and index % 64 == 0:
            budget.check()
    return out, decisions
