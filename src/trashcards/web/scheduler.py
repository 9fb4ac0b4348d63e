"""The fair scheduler of the server's AI work (docs/protocol.md, "AI work").

Jobs (an expert bot's decision, a hint, win chances, a review) run in a pool of worker
*processes* (:mod:`trashcards.web.aipool`), never on the event loop and never under its
interpreter lock, so a player's move does not wait for anyone's AI work. The scheduler
decides which job runs when:

* **Priority and room by kind.** Each job has a :class:`Work` kind: an expert bot's move
  first, then a hint, then win chances, then reviews. Of the pool's ``P`` processes,
  reviews may take 1, chances and reviews together ``P - 1``, hints and bots all of
  them: there is always a process a hint can take, whatever floods the kinds below it,
  and a bot's move is taken first whenever one comes free.
* **Bounds per kind.** Each kind has its own queue: at most ``queue`` jobs of a kind
  wait (hints, chances, reviews; bots' moves, one per table, always wait their turn), so
  a full queue of a lower kind never refuses a higher one.
* **Fair shares per requester.** Within a kind, the waiting jobs are taken in turn per
  *key*: the client address (win chances: the address watching the table; an expert
  bot: the table's creator), so one address's flood waits behind itself. One key runs
  at most half the processes of a kind, and has at most ``per_address`` jobs of a kind
  waiting (more are refused ``busy``).
* **Cancellation.** A job waiting for a requester that went away (the awaiting task was
  cancelled: its socket closed, its HTTP client hung up, its table has no watcher or
  moved on) leaves the queue at once; a running job with a :class:`Budget` (a review)
  stops at its next check, in whatever process it runs. A job whose ``wanted()`` says no
  when its turn comes is dropped.
* **Deadlines.** A job that waited past its ``wait`` is refused ``busy`` with a retry
  time; a :class:`Budget` has a deadline for the whole job.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import enum
import time
from collections import Counter, OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol, TypeVar

from .protocol import ProtocolError

__all__ = ["BUSY_RETRY", "Budget", "BusyError", "OutOfBudgetError", "Pool", "Scheduler",
           "Work", "call"]

T = TypeVar("T")

#: Seconds after which a client may ask again when the workers are busy.
BUSY_RETRY: Final = 1.0


class Work(enum.IntEnum):
    """The kinds of AI work, most urgent first."""

    BOT = 0
    HINT = 1
    CHANCES = 2
    REVIEW = 3


#: The kinds that run at a lower CPU priority than the others.
LOW: Final = frozenset({Work.CHANCES, Work.REVIEW})


class BusyError(ProtocolError):
    """The AI workers have as much work as they may take: try again later."""

    def __init__(self, why: str = "the server is busy computing hints: try again in a "
                                  "moment", retry_after: float = BUSY_RETRY) -> None:
        super().__init__("busy", why, retry_after=retry_after)


class OutOfBudgetError(Exception):
    """A running job was cancelled or ran past its deadline (raised where it runs)."""


#: In a worker process: the pool's cancel flags, one per slot (shared memory).
flags: Any = None


class Budget:
    """What a running job may still spend: it stops (:meth:`check` raises
    :class:`OutOfBudgetError`) once cancelled or past ``deadline`` (``time.monotonic``,
    the same clock in every process of the machine). In a worker process it reads its
    cancel flag in the pool's shared memory (``slot``, set by the scheduler)."""

    def __init__(self, deadline: float) -> None:
        self.deadline = deadline
        self.cancelled = False
        self.slot: int | None = None

    def check(self, *_progress: int) -> None:
        if self.cancelled or (self.slot is not None and flags is not None
                              and flags[self.slot]):
            raise OutOfBudgetError("cancelled: its requester went away")
        if time.monotonic() > self.deadline:
            raise OutOfBudgetError("past its deadline")


def call(function: Callable[..., Any], args: tuple[Any, ...]) -> tuple[Any, ...]:
    """Run a job where it runs (a worker process or thread): ``("ok", result)``, or a
    refusal as plain values (``("refused", code, message, retry_after)``,
    ``("budget", why)``), which cross a process boundary whatever the exception's
    class."""
    try:
        return ("ok", function(*args))
    except BusyError as exc:
        return ("busy", exc.message, exc.retry_after)
    except ProtocolError as exc:
        return ("refused", exc.code, exc.message, exc.retry_after)
    except OutOfBudgetError as exc:
        return ("budget", str(exc))


def _outcome(answer: tuple[Any, ...]) -> Any:
    """The result of :func:`call`'s answer, or the exception it stands for, raised."""
    if answer[0] == "ok":
        return answer[1]
    if answer[0] == "busy":
        raise BusyError(answer[1], answer[2])
    if answer[0] == "refused":
        raise ProtocolError(answer[1], answer[2], answer[3])
    raise OutOfBudgetError(answer[1])


class Pool(Protocol):
    """Where jobs run (:mod:`trashcards.web.aipool`): ``size`` at once."""

    size: int

    def submit(self, function: Callable[..., Any], args: tuple[Any, ...], low: bool
               ) -> concurrent.futures.Future[tuple[Any, ...]]:
        """Run ``call(function, args)``; ``low``: at a lower CPU priority."""

    def cancel(self, slot: int) -> None:
        """Raise the cancel flag of ``slot`` (a running job's :class:`Budget`)."""

    def clear(self, slot: int) -> None:
        """Lower the cancel flag of ``slot`` (before a job takes it)."""

    def close(self) -> None: ...


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
    #: its requester went away while it ran: its outcome is for nobody
    abandoned: bool = False


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


class Scheduler:
    """The fair scheduler (see the module) of the jobs run on ``pool``."""

    def __init__(self, pool: Pool, queue: int, per_address: int = 8) -> None:
        self.pool = pool
        size = max(1, pool.size)
        #: jobs that may run at once (the pool's processes)
        self.slots = size
        #: how many jobs of each kind and the kinds below it may run at once
        self.limits = {Work.BOT: size, Work.HINT: size, Work.CHANCES: max(1, size - 1),
                       Work.REVIEW: 1}
        #: jobs of each kind that may wait (bots' moves: one per table, no bound)
        self.queue = max(1, queue)
        self.per_address = max(1, per_address)
        self._lanes = {kind: _Lane() for kind in Work}
        self._running = dict.fromkeys(Work, 0)
        #: jobs running per kind and key, and how many one key may run of each kind
        #: (half the processes of the kind: the other half is for the others)
        self._running_keys: Counter[tuple[Work, str]] = Counter()
        self.per_key = {kind: max(1, self.limits[kind] // 2) for kind in Work}
        self._free_slots = list(range(size))
        self._clock = time.monotonic
        #: jobs run, dropped (cancelled, stale or late) and refused, for tests and logs
        self.done = 0
        self.dropped = 0
        self.refused = 0

    @property
    def waiting(self) -> int:
        """Jobs waiting for a process."""
        return sum(lane.waiting for lane in self._lanes.values())

    def waiting_of(self, kind: Work) -> int:
        return self._lanes[kind].waiting

    @property
    def running(self) -> int:
        return sum(self._running.values())

    @property
    def pending(self) -> int:
        """Jobs waiting or running."""
        return self.waiting + self.running

    def busy(self, kind: Work) -> bool:
        """Whether jobs of ``kind`` wait for a process (so new ones had better be coarse)."""
        return self._lanes[kind].waiting > 0

    async def run(self, function: Callable[..., T], *args: Any, kind: Work = Work.BOT,
                  key: str = "", wait: float | None = None,
                  wanted: Callable[[], bool] | None = None,
                  budget: Budget | None = None, required: bool = False) -> T:
        """``function(*args)`` in the pool, in its turn (see the module); ``function``
        and ``args`` must be picklable (a module's function, views, numbers). Raises
        :class:`BusyError` when ``key`` or the kind has as much waiting as allowed or
        the job waited over ``wait`` seconds (never for a bot's move: ``kind`` BOT or
        ``required``), :class:`ProtocolError` ``stale_version`` when ``wanted()`` says no
        when its turn comes, and what the job raised (refusals and
        :class:`OutOfBudgetError` come back from any process). Cancelling the awaiting
        task takes a waiting job out of the queue and stops a running one's budget."""
        if required:
            kind = Work.BOT
        lane = self._lanes[kind]
        if kind is not Work.BOT:
            if lane.count(key) >= self.per_address:
                self.refused += 1
                raise BusyError("your address has as much AI work waiting as it may: try "
                                "again in a moment")
            if lane.waiting >= self.queue:
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
        else:
            job.abandoned = True
        if job.started and job.budget is not None:
            job.budget.cancelled = True
            if job.budget.slot is not None:
                self.pool.cancel(job.budget.slot)

    def _fits(self, kind: Work) -> bool:
        below = sum(n for k, n in self._running.items() if k >= kind)
        return self.running < self.slots and below < self.limits[kind]

    def _pump(self) -> None:
        """Start waiting jobs while processes are free for them, most urgent kind first."""
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

    def submission(self, function: Callable[..., Any], args: tuple[Any, ...]
                   ) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """The job as it is handed to the pool (a subclass may wrap it)."""
        return function, args

    def _start(self, job: _Job) -> None:
        job.started = True
        self._running[job.kind] += 1
        self._running_keys[job.kind, job.key] += 1
        slot = self._free_slots.pop()
        if job.budget is not None:
            job.budget.slot = slot
            self.pool.clear(slot)
        try:
            function, args = self.submission(job.function, job.args)
            done = asyncio.wrap_future(self.pool.submit(function, args, job.kind in LOW))
        except Exception as exc:  # the pool is closed or broken: this job fails
            failed: asyncio.Future[tuple[Any, ...]] = \
                asyncio.get_running_loop().create_future()
            failed.set_exception(exc)
            done = failed

        def finished(result: asyncio.Future[tuple[Any, ...]]) -> None:
            self._running[job.kind] -= 1
            self._running_keys[job.kind, job.key] -= 1
            if not self._running_keys[job.kind, job.key]:
                del self._running_keys[job.kind, job.key]
            self._free_slots.append(slot)
            self.done += 1
            if not job.future.done():
                if result.cancelled() or job.abandoned:
                    job.future.cancel()
                elif result.exception() is not None:
                    job.future.set_exception(result.exception())  # type: ignore[arg-type]
                else:
                    try:
                        job.future.set_result(_outcome(result.result()))
                    except Exception as exc:  # a refusal, raised where it ran
                        job.future.set_exception(exc)
            self._pump()

        done.add_done_callback(finished)

    def close(self) -> None:
        for lane in self._lanes.values():
            while (job := lane.pop()) is not None:
                if not job.future.done():
                    job.future.cancel()
        self.pool.close()
