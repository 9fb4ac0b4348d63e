"""The fair scheduler of the AI work (trashcards.web.scheduler, the server's
trashcards.web.advice.Advisor), on its own: priority by kind, a process always left for
bots and hints, fair turns per address (and per table creator for expert bots), bounds
per kind (a full queue of a lower kind never refuses a higher one), cancellation of work
nobody waits for, stale work dropped, deadlines; and the worker processes themselves
(trashcards.web.aipool): answers and refusals come back, a running review stops when its
requester goes, a dead worker costs its job only."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import poolwork
import pytest

from trashcards.web.advice import Advisor, Budget, BusyError, OutOfBudgetError, Work
from trashcards.web.aipool import ProcessPool
from trashcards.web.protocol import ProtocolError
from trashcards.web.scheduler import Scheduler

from support import running


class Gate:
    """Jobs that block in their thread until :meth:`open`; records the order they ran
    (the advisors here run their jobs in threads: ``processes=False``)."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.started: list[str] = []
        self._lock = threading.Lock()

    def job(self, name: str) -> str:
        with self._lock:
            self.started.append(name)
        self.event.wait(20)
        return name

    def open(self) -> None:
        self.event.set()


async def _until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def _run(body: Callable[[Advisor, Gate], Any], workers: int = 1, queue: int = 64,
         per_address: int = 8) -> None:
    async def main() -> None:
        advisor = Advisor(workers, queue, per_address)
        gate = Gate()
        try:
            await body(advisor, gate)
        finally:
            gate.open()
            advisor.close()
    asyncio.run(main())


def test_kinds_start_most_urgent_first() -> None:
    async def body(advisor: Advisor, gate: Gate) -> None:
        # fill every process with bots' moves (of tables of several creators)
        blockers = [asyncio.ensure_future(advisor.run(gate.job, f"b{i}", kind=Work.BOT,
                                                      key=f"creator{i}"))
                    for i in range(advisor.slots)]
        await _until(lambda: len(gate.started) == advisor.slots)
        order = [("review", Work.REVIEW), ("chances", Work.CHANCES), ("hint", Work.HINT),
                 ("bot", Work.BOT)]
        later = [asyncio.ensure_future(advisor.run(gate.job, name, kind=kind, key="a"))
                 for name, kind in order]
        await _until(lambda: advisor.waiting == 4)
        order_started: list[str] = []
        start = advisor._start

        def recording(job: Any) -> None:
            order_started.append(job.args[0])
            start(job)

        advisor._start = recording  # type: ignore[method-assign]
        gate.open()
        await asyncio.gather(*blockers, *later)
        assert order_started == ["bot", "hint", "chances", "review"]
    _run(body)


def test_a_review_flood_leaves_processes_for_bots_and_hints() -> None:
    async def body(advisor: Advisor, gate: Gate) -> None:
        reviews = [asyncio.ensure_future(advisor.run(gate.job, f"r{i}", kind=Work.REVIEW,
                                                     key=f"attacker{i}")) for i in range(5)]
        await _until(lambda: len(gate.started) == 1)
        await asyncio.sleep(0.05)
        assert gate.started == ["r0"]  # one review at a time
        chances = [asyncio.ensure_future(advisor.run(gate.job, f"c{i}", kind=Work.CHANCES,
                                                     key=f"attacker{i}")) for i in range(5)]
        await _until(lambda: len(gate.started) == advisor.limits[Work.CHANCES])
        await asyncio.sleep(0.05)
        assert len(gate.started) == advisor.slots - 1  # one process left over
        hint = asyncio.ensure_future(advisor.run(lambda: "hint", kind=Work.HINT, key="victim"))
        assert await asyncio.wait_for(hint, 5) == "hint"
        bot = asyncio.ensure_future(advisor.run(lambda: "bot", required=True))
        assert await asyncio.wait_for(bot, 5) == "bot"
        gate.open()
        await asyncio.gather(*reviews, *chances)
    _run(body, workers=3)


def test_addresses_take_turns_within_a_kind() -> None:
    async def body(advisor: Advisor, gate: Gate) -> None:
        blockers = [asyncio.ensure_future(advisor.run(gate.job, f"x{i}", required=True,
                                                       key=f"x{i}"))
                    for i in range(advisor.slots)]
        await _until(lambda: len(gate.started) == advisor.slots)
        flood = [asyncio.ensure_future(advisor.run(gate.job, f"a{i}", kind=Work.HINT,
                                                   key="attacker")) for i in range(6)]
        victim = asyncio.ensure_future(advisor.run(gate.job, "v", kind=Work.HINT,
                                                   key="victim"))
        await _until(lambda: advisor.waiting == 7)
        gate.open()
        await asyncio.gather(*blockers, *flood, victim)
        hints = gate.started[advisor.slots:]
        assert hints.index("v") <= 1  # after at most one of the flood's
    _run(body, workers=1)


def test_a_full_queue_of_a_lower_kind_never_refuses_a_higher_one() -> None:
    """Issue 33: nine addresses with 8 reviews each, each within its own cap, filled the
    one queue of 64 jobs, and 16 of 30 hints of another player were refused ``busy``.
    Each kind has its own bound now."""
    async def body(advisor: Advisor, gate: Gate) -> None:
        blockers = [asyncio.ensure_future(advisor.run(gate.job, f"x{i}", required=True,
                                                       key=f"x{i}"))
                    for i in range(advisor.slots)]
        await _until(lambda: len(gate.started) == advisor.slots)
        reviews = [asyncio.ensure_future(advisor.run(gate.job, f"r{a}.{i}", kind=Work.REVIEW,
                                                     key=f"10.0.0.{a}"))
                   for a in range(9) for i in range(8)]
        chances = [asyncio.ensure_future(advisor.run(gate.job, f"c{a}.{i}",
                                                     kind=Work.CHANCES, key=f"10.0.1.{a}"))
                   for a in range(9) for i in range(8)]
        await asyncio.sleep(0.05)
        assert sum(t.done() for t in reviews) == 72 - 64  # the reviews' queue is full
        assert sum(t.done() for t in chances) == 72 - 64  # and so is the chances'
        hints = [asyncio.ensure_future(advisor.run(gate.job, f"h{i}", kind=Work.HINT,
                                                   key="victim")) for i in range(8)]
        await asyncio.sleep(0.05)
        assert not any(t.done() for t in hints)  # waiting, none refused
        gate.open()
        assert await asyncio.gather(*hints) == [f"h{i}" for i in range(8)]
        await asyncio.gather(*blockers, *reviews, *chances, return_exceptions=True)
    _run(body, workers=1, queue=64, per_address=8)


def test_expert_bots_take_turns_by_their_tables_creator() -> None:
    """Issue 33: every table's expert moves went into one queue with the same key and
    could take every thread, so one address's 20 expert tables slowed everyone's bots.
    Now a creator's bots run on at most half the processes, and another creator's bot
    goes after at most one of the first's."""
    async def body(advisor: Advisor, gate: Gate) -> None:
        flood = [asyncio.ensure_future(advisor.run(gate.job, f"a{i}", kind=Work.BOT,
                                                   key="creator-a")) for i in range(20)]
        await _until(lambda: len(gate.started) == advisor.per_key[Work.BOT])
        await asyncio.sleep(0.05)
        assert len(gate.started) == advisor.slots // 2  # the other half is for the others
        other = asyncio.ensure_future(advisor.run(lambda: "b", kind=Work.BOT,
                                                  key="creator-b"))
        assert await asyncio.wait_for(other, 5) == "b"  # at once, on the half left
        gate.open()
        await asyncio.gather(*flood)
    _run(body, workers=4)


def test_waiting_work_is_capped_per_address_and_in_all() -> None:
    async def body(advisor: Advisor, gate: Gate) -> None:
        blockers = [asyncio.ensure_future(advisor.run(gate.job, f"x{i}", required=True,
                                                       key=f"x{i}"))
                    for i in range(advisor.slots)]
        await _until(lambda: len(gate.started) == advisor.slots)
        mine = [asyncio.ensure_future(advisor.run(gate.job, f"a{i}", kind=Work.HINT,
                                                  key="a")) for i in range(3)]
        await asyncio.sleep(0.05)
        assert [t.done() for t in mine] == [False, False, True]
        assert isinstance(mine[2].exception(), BusyError)
        other = [asyncio.ensure_future(advisor.run(gate.job, f"{k}", kind=Work.HINT, key=k))
                 for k in "bcd"]
        await asyncio.sleep(0.05)
        assert [t.done() for t in other] == [False, False, True]  # 4 waiting in all
        assert advisor.refused == 2
        gate.open()
        await asyncio.gather(*blockers, *mine[:2], *other[:2])
    _run(body, workers=1, queue=4, per_address=2)


def test_work_whose_requester_went_away_leaves_the_queue() -> None:
    async def body(advisor: Advisor, gate: Gate) -> None:
        blockers = [asyncio.ensure_future(advisor.run(gate.job, f"x{i}", required=True,
                                                       key=f"x{i}"))
                    for i in range(advisor.slots)]
        await _until(lambda: len(gate.started) == advisor.slots)
        waiting = [asyncio.ensure_future(advisor.run(gate.job, f"h{i}", kind=Work.HINT,
                                                     key="a")) for i in range(5)]
        await _until(lambda: advisor.waiting == 5)
        for task in waiting:
            task.cancel()
        await asyncio.sleep(0)
        assert advisor.waiting == 0
        assert advisor.dropped == 5
        gate.open()
        await asyncio.gather(*blockers)
        assert not any(s.startswith("h") for s in gate.started)
    _run(body)


def test_a_running_review_stops_when_its_requester_goes() -> None:
    stopped = threading.Event()

    def review(budget: Budget) -> None:
        try:
            while True:
                budget.check()
                time.sleep(0.01)
        except OutOfBudgetError:
            stopped.set()
            raise

    async def body(advisor: Advisor, _gate: Gate) -> None:
        budget = Budget(time.monotonic() + 60)
        task = asyncio.ensure_future(advisor.run(review, budget, kind=Work.REVIEW,
                                                 budget=budget))
        await _until(lambda: advisor.running == 1)
        task.cancel()
        await _until(stopped.is_set)
        await _until(lambda: advisor.running == 0)
    _run(body)


def test_a_review_past_its_deadline_stops() -> None:
    def review(budget: Budget) -> None:
        while True:
            budget.check()
            time.sleep(0.01)

    async def body(advisor: Advisor, _gate: Gate) -> None:
        budget = Budget(time.monotonic() + 0.3)
        started = time.monotonic()
        with pytest.raises(OutOfBudgetError):
            await advisor.run(review, budget, kind=Work.REVIEW, budget=budget)
        assert time.monotonic() - started < 2.0
    _run(body)


def test_stale_and_late_work_is_dropped_when_its_turn_comes() -> None:
    async def body(advisor: Advisor, gate: Gate) -> None:
        blockers = [asyncio.ensure_future(advisor.run(gate.job, f"x{i}", required=True,
                                                       key=f"x{i}"))
                    for i in range(advisor.slots)]
        await _until(lambda: len(gate.started) == advisor.slots)
        version = [1]
        stale = asyncio.ensure_future(advisor.run(gate.job, "stale", kind=Work.HINT,
                                                  key="a", wanted=lambda: version[0] == 1))
        late = asyncio.ensure_future(advisor.run(gate.job, "late", kind=Work.CHANCES,
                                                 key="b", wait=0.05))
        await asyncio.sleep(0.2)
        version[0] = 2
        gate.open()
        with pytest.raises(ProtocolError) as found:
            await stale
        assert found.value.code == "stale_version"
        with pytest.raises(BusyError):
            await late
        await asyncio.gather(*blockers)
        assert "stale" not in gate.started
        assert "late" not in gate.started
    _run(body)


def test_one_address_cannot_take_every_thread_of_a_kind() -> None:
    async def body(advisor: Advisor, gate: Gate) -> None:
        flood = [asyncio.ensure_future(advisor.run(gate.job, f"a{i}", kind=Work.HINT,
                                                   key="attacker")) for i in range(6)]
        await _until(lambda: len(gate.started) == advisor.per_key[Work.HINT])
        await asyncio.sleep(0.05)
        assert len(gate.started) < advisor.limits[Work.HINT]  # a thread is left over
        victim = asyncio.ensure_future(advisor.run(lambda: "victim", kind=Work.HINT,
                                                   key="victim"))
        assert await asyncio.wait_for(victim, 5) == "victim"
        gate.open()
        await asyncio.gather(*flood)
    _run(body, workers=2)


def test_one_process_of_the_machine_computes_a_match_odds_table(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """Two of the server's processes asking for the same table at once: the second waits
    on the first's lock file and reads its table, instead of computing it again."""
    from trashcards import Rules
    from trashcards.web import advice

    table = tmp_path / "odds.json"
    computed: list[Rules] = []
    running = [0, 0]  # now, most at once

    def fake_match_odds(rules: Rules, players: int) -> None:
        running[0] += 1
        running[1] = max(running[1], running[0])
        if not table.exists():  # the real one reads a cached table the same way
            time.sleep(0.3)
            table.write_text("{}")
            computed.append(rules)
        running[0] -= 1

    monkeypatch.setattr(advice, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(advice, "match_odds", fake_match_odds)
    rules = Rules.preset_named("standard").with_fields({"start_size": 7})
    threads = [threading.Thread(target=advice._odds_process, args=(rules,)) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert running[1] == 1
    assert computed == [rules]


# -- the worker processes ------------------------------------------------------------------


@pytest.mark.slow
def test_worker_processes_answer_refuse_stop_and_survive_a_death() -> None:
    async def main() -> None:
        pool = ProcessPool(2)
        scheduler = Scheduler(pool, 64, 8)
        try:
            pid = await scheduler.run(poolwork.where, kind=Work.HINT, key="a")
            assert pid != os.getpid()  # not this process: not its loop, not its GIL
            with pytest.raises(BusyError) as busy:
                await scheduler.run(poolwork.refuse, "full", kind=Work.HINT, key="a")
            assert (busy.value.message, busy.value.retry_after) == ("full", 7.0)
            with pytest.raises(ProtocolError) as stale:
                await scheduler.run(poolwork.stale, kind=Work.HINT, key="a")
            assert stale.value.code == "stale_version"
            # a running review stops when its requester goes, in the other process
            budget = Budget(time.monotonic() + 60)
            task = asyncio.ensure_future(scheduler.run(poolwork.endless, budget, kind=Work.REVIEW,
                                                       key="a", budget=budget))
            await _until(lambda: scheduler.running == 1, 60)
            await asyncio.sleep(0.2)
            task.cancel()
            await _until(lambda: scheduler.running == 0, 30)
            # and one past its deadline stops by itself
            late = Budget(time.monotonic() + 0.3)
            with pytest.raises(OutOfBudgetError):
                await scheduler.run(poolwork.endless, late, kind=Work.REVIEW, key="a", budget=late)
            # a worker that dies takes its job only: the next one runs on new workers
            with pytest.raises(BrokenProcessPool):
                await scheduler.run(poolwork.die, kind=Work.BOT, key="a")
            assert await scheduler.run(poolwork.where, kind=Work.BOT, key="a") != os.getpid()
            assert pool.renewed == 1
        finally:
            scheduler.close()
    asyncio.run(main())


#: A server that starts its AI workers and is killed (``starting``: at once, while they
#: start; ``started``: once they run, by the test).
_KILLED_SERVER = """
import os, signal, sys, time
from trashcards.web.aipool import ProcessPool
ProcessPool(2).start()
if sys.argv[1] == "starting":
    os.kill(os.getpid(), signal.SIGKILL)
time.sleep(600)
"""


def _marked(mark: str, command: bytes = b"") -> list[int]:
    """The running processes whose environment holds ``mark`` (the server, its
    resource tracker, its workers) and whose command line holds ``command``."""
    found = []
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            with open(f"/proc/{entry.name}/environ", "rb") as env, \
                    open(f"/proc/{entry.name}/cmdline", "rb") as line:
                if mark.encode() in env.read() and command in line.read() \
                        and running(int(entry.name)):
                    found.append(int(entry.name))
        except OSError:
            continue
    return found


@contextlib.contextmanager
def _marked_server(script: str, *args: str, **env: str
                   ) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """``script`` run as a server in miniature, with a mark in its environment that its
    processes inherit; whatever carries the mark is killed afterwards."""
    mark = uuid.uuid4().hex
    server = subprocess.Popen([sys.executable, "-c", script, *args],
                              env={**os.environ, **env, "TRASHCARDS_TEST_MARK": mark})
    try:
        yield server, mark
    finally:
        server.kill()
        for pid in _marked(mark):
            os.kill(pid, signal.SIGKILL)


def _until_gone(pids: list[int], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while left := [pid for pid in pids if running(pid)]:
        assert time.monotonic() < deadline, f"{what} left running: {left}"
        time.sleep(0.1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("when", ["starting", "started"])
def test_worker_processes_end_with_a_killed_server(when: str) -> None:
    """However the server ends, even killed while its workers are still starting (they
    then belong to init, which they must not take for the server), they end too."""
    with _marked_server(_KILLED_SERVER, when) as (server, mark):
        if when == "started":
            deadline = time.monotonic() + 60
            while len(_marked(mark, b"spawn_main")) < 2:  # the two workers
                assert time.monotonic() < deadline, "the workers never started"
                time.sleep(0.1)
            time.sleep(1.0)  # past the workers' start-up
            server.kill()
        assert server.wait(60) == -signal.SIGKILL
        deadline = time.monotonic() + 20
        while _marked(mark):
            assert time.monotonic() < deadline, f"workers left behind: {_marked(mark)}"
            time.sleep(0.2)


#: A server in miniature that starts compiling the AI's kernel apart (as its warm-up does
#: on a first start: ``NUMBA_CACHE_DIR`` is a new, empty folder), then waits to be killed.
_COMPILING_SERVER = """
import threading, time
from trashcards.web import advice
threading.Thread(target=advice.compile_apart, daemon=True).start()
time.sleep(600)
"""


def _threads(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return 0


@pytest.mark.numba_compile
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_kernels_compiler_ends_with_a_killed_server(tmp_path: Any) -> None:
    """A server killed on its first start, while a process of its own compiles the
    kernel (half a minute or more), leaves no compiler running."""
    with _marked_server(_COMPILING_SERVER, NUMBA_CACHE_DIR=str(tmp_path / "numba")) \
            as (server, mark):
        deadline = time.monotonic() + 120
        # the compiler has started and armed its watch (its second thread)
        while not any(_threads(pid) >= 2 for pid in _marked(mark, b"spawn_main")):
            assert time.monotonic() < deadline, "the compiler never started"
            assert server.poll() is None
            time.sleep(0.05)
        compiler = _marked(mark, b"spawn_main")
        server.kill()
        assert server.wait(60) == -signal.SIGKILL
        _until_gone(compiler, 10, "the compiler was")  # the watch looks every second
