"""Where the AI work runs (:class:`~trashcards.web.scheduler.Scheduler`'s pools).

* :class:`ProcessPool`: worker processes, the server's way. A job there holds neither
  the server's event loop nor its interpreter lock, so the moves of every table go on
  whatever the AI does. The processes start with the server (:meth:`ProcessPool.start`)
  or when the first job comes (each imports the AI and loads its compiled kernel, a few
  seconds). The CPU they may use is bounded by their number and by their priority: they
  run nicer than the server (:data:`NICE`; win chances and reviews nicer still,
  :data:`LOW_NICE`) and as batch work (Linux's ``SCHED_BATCH``: a waking event loop
  is never kept waiting for them), so the event loop takes the CPU it needs first. A process that
  dies takes its job with it (that job fails); the next job starts a new pool. A
  worker ends with its server, however that ends. Each process has a cancel flag per
  slot in shared memory, which a running review's budget reads
  (:class:`~trashcards.web.scheduler.Budget`).
* :class:`ThreadPool`: threads of the server's own process (tests, which start many
  servers in one process and need no isolation).
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import ctypes
import ctypes.util
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Final

from . import scheduler
from .scheduler import call

__all__ = ["LOW_NICE", "NICE", "ProcessPool", "ThreadPool", "die_with", "ignore_sigint",
           "sigint_held"]

log = logging.getLogger(__name__)

#: Linux's prctl option that sends a signal when the parent process ends.
_PR_SET_PDEATHSIG: Final = 1
#: Seconds between two looks of a worker process for its server.
WATCH_EVERY: Final = 1.0
#: How much nicer than the server the worker processes run (bots' moves and hints), and
#: win chances and reviews (a thread of the worker at this many steps more): under a
#: flood the event loop has work all the time, and at the same priority it would share
#: the cores with every busy worker; nicer, the workers take the CPU it leaves. (On a
#: machine busy with other work, nicer workers get little CPU: their answers come late,
#: the moves do not.)
NICE: Final = 5
LOW_NICE: Final = 5


def _lower_priority(steps: int) -> None:
    """Make the calling thread ``steps`` nicer (Linux: per thread)."""
    with contextlib.suppress(OSError, AttributeError):
        tid = threading.get_native_id()
        os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + steps)


@contextlib.contextmanager
def sigint_held() -> Iterator[None]:
    """Start processes inside this: they begin with Ctrl-C's signal blocked (a child
    inherits the mask), so a Ctrl-C at the terminal while they start never prints their
    half-started interpreter's traceback; each calls :func:`ignore_sigint` (the server
    ends them itself)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def ignore_sigint() -> None:
    """In a process started under :func:`sigint_held`: ignore Ctrl-C from now on, and
    let the signals through again (in the main thread only: elsewhere nothing to do)."""
    if threading.current_thread() is not threading.main_thread():
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


class ThreadPool:
    """Jobs in threads of this process: ``size`` at the server's priority and ``size``
    at a lower one (for the low kinds)."""

    def __init__(self, size: int) -> None:
        self.size = max(1, size)
        self._normal = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.size, thread_name_prefix="trashcards-ai")
        self._low = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.size, thread_name_prefix="trashcards-ai-low",
            initializer=_lower_priority, initargs=(NICE + LOW_NICE,))

    def submit(self, function: Callable[..., Any], args: tuple[Any, ...], low: bool
               ) -> concurrent.futures.Future[tuple[Any, ...]]:
        return (self._low if low else self._normal).submit(call, function, args)

    def cancel(self, slot: int) -> None:
        return None  # the job reads its budget's own flag (the same object)

    def clear(self, slot: int) -> None:
        return None

    def close(self) -> None:
        self._normal.shutdown(wait=False, cancel_futures=True)
        self._low.shutdown(wait=False, cancel_futures=True)


def _start_worker(flags: Any, nice: int, warm: Callable[[], object] | None,
                  parent: int) -> None:
    """In a new worker process of the server ``parent``: gone with the server (however
    it ends), nicer than it, the cancel flags at hand, and the AI warming up in the
    background (a job that comes first waits for the kernel where it needs it)."""
    ignore_sigint()
    die_with(parent)
    with contextlib.suppress(OSError):
        os.nice(nice)
    with contextlib.suppress(OSError, AttributeError):  # Linux: never preempt a waker
        os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))
    scheduler.flags = flags
    if warm is not None:
        threading.Thread(target=_warm, args=(warm,), name="trashcards-ai-warm-up",
                         daemon=True).start()


def die_with(parent: int) -> None:
    """In a process the server started (an AI worker, the kernel's compiler): end it
    when ``parent`` ends, even killed (SIGKILL). The kernel's parent-death signal where
    there is one (Linux), and a watch every second besides (the pool's pipes stay open
    in the other workers, so they tell nothing). ``parent`` is the pid the server gave,
    not this process's parent now: a server that ended while this process was starting
    has left it to init, which must not be mistaken for the server (that left workers
    behind for good)."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # ended before the signal was armed
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(WATCH_EVERY)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="trashcards-ai-watch", daemon=True).start()


def _warm(warm: Callable[[], object]) -> None:
    try:
        warm()
    except Exception:  # the AI's own errors show where it is used
        log.exception("an AI worker's warm-up failed")


def _run(function: Callable[..., Any], args: tuple[Any, ...], low: bool) -> tuple[Any, ...]:
    """In a worker process: the job, in a nicer thread when ``low``."""
    if not low:
        return call(function, args)
    out: list[tuple[Any, ...]] = []
    failed: list[BaseException] = []

    def job() -> None:
        _lower_priority(LOW_NICE)
        try:
            out.append(call(function, args))
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=job, name="trashcards-ai-low")
    thread.start()
    thread.join()
    if failed:
        raise failed[0]
    return out[0]


class ProcessPool:
    """``size`` worker processes (see the module), started when the first job comes."""

    def __init__(self, size: int, warm: Callable[[], object] | None = None,
                 nice: int = NICE) -> None:
        self.size = max(1, size)
        self._context = multiprocessing.get_context("spawn")
        #: one cancel flag per slot, in memory shared with every worker process
        self._flags = self._context.Array("b", self.size, lock=False)
        self._warm = warm
        self._nice = nice
        self._executor: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False
        #: pools replaced after a worker process died
        self.renewed = 0

    def _pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._closed:
            raise RuntimeError("the AI workers are closed")
        if self._executor is None:
            self._executor = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.size, mp_context=self._context, initializer=_start_worker,
                initargs=(self._flags, self._nice, self._warm, os.getpid()))
        return self._executor

    def start(self) -> None:
        """Start every worker process now (they warm up the AI), not at the first job."""
        executor = self._pool()
        with sigint_held():
            for _ in range(self.size):
                executor.submit(os.getpid)

    def submit(self, function: Callable[..., Any], args: tuple[Any, ...], low: bool
               ) -> concurrent.futures.Future[tuple[Any, ...]]:
        try:
            executor = self._pool()
            with sigint_held():  # the submit may start a worker process
                future = executor.submit(_run, function, args, low)
        except BrokenProcessPool:
            self._renew(executor)
            executor = self._pool()
            with sigint_held():
                future = executor.submit(_run, function, args, low)

        def broken(done: concurrent.futures.Future[tuple[Any, ...]]) -> None:
            if not done.cancelled() and isinstance(done.exception(), BrokenProcessPool):
                self._renew(executor)

        future.add_done_callback(broken)
        return future

    def _renew(self, executor: concurrent.futures.ProcessPoolExecutor) -> None:
        """A worker process died: the next job starts a new pool."""
        if self._executor is executor:
            log.error("an AI worker process died; its job failed, new workers start")
            self._executor = None
            self.renewed += 1
            _stop(executor)

    def cancel(self, slot: int) -> None:
        self._flags[slot] = 1

    def clear(self, slot: int) -> None:
        self._flags[slot] = 0

    def close(self) -> None:
        self._closed = True
        if self._executor is not None:
            _stop(self._executor)
            self._executor = None


def _stop(executor: concurrent.futures.ProcessPoolExecutor) -> None:
    """Shut ``executor`` down without waiting, its processes ended (a review running
    there would hold the shutdown for its whole deadline)."""
    workers = dict(getattr(executor, "_processes", None) or {})
    executor.shutdown(wait=False, cancel_futures=True)
    for process in workers.values():
        if process.is_alive():
            process.terminate()
