"""The server's AI work: hints, every seat's win chances, game reviews and the expert
bots' decisions, all computed in worker processes, never on the event loop.

Every function the workers run here takes a :class:`~trashcards.views.View` (or a
record a client sent), never a table's :class:`~trashcards.state.State`: the table builds
the view on the loop and hands only that over, so no hidden card can reach a hint or a
win chance (RULES.md §8).

:class:`Advisor` is the fair scheduler of that work
(:class:`~trashcards.web.scheduler.Scheduler`: priority and room by kind, bounds per
kind, fair shares per requester, cancellation, deadlines) on worker processes
(:mod:`trashcards.web.aipool`), so that no AI work holds the event loop or the
interpreter lock the moves need; the functions the workers run are here. When a kind has
more work waiting than processes, hints and chances are computed with a quarter of their
deals and say why (``"coarse": "…"``).

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

import concurrent.futures
import contextlib
import fcntl
import json
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
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
from .aipool import ProcessPool, ThreadPool, die_with, ignore_sigint, sigint_held
from .protocol import ProtocolError
from .scheduler import Budget, BusyError, OutOfBudgetError, Pool, Scheduler, Work

__all__ = ["COARSE_WARMING", "Advisor", "Budget", "BusyError", "OddsTables",
           "OutOfBudgetError", "Warming", "Work", "chances_message", "compile_apart",
           "compiled", "expert_choice", "expert_move", "hint_message", "odds_on_disk",
           "review_job", "review_message", "slower_path", "stop_compiling", "warm_up"]

log = logging.getLogger(__name__)


#: Seconds a hint may wait for a process, and win chances, before they are given up.
HINT_WAIT: Final = 2.0
CHANCES_WAIT: Final = 5.0
#: Rules whose match-odds table may wait to be computed (more: not computed).
ODDS_WAITING: Final = 4
#: Share of the deals a coarse hint or win-chance update uses.
COARSE: Final = 4


class Advisor(Scheduler):
    """The fair scheduler of the AI work (:class:`~trashcards.web.scheduler.Scheduler`)
    on ``workers`` + 1 worker processes (``processes=False``: threads of this process),
    with the match-odds tables at hand: win chances and reviews may take ``workers`` of
    them, so one is always left for hints and bots."""

    def __init__(self, workers: int, queue: int, per_address: int = 8,
                 odds_in_background: bool = True, processes: bool = False) -> None:
        size = max(1, workers) + 1
        self._processes = ProcessPool(size, warm=warm_worker) if processes else None
        pool: Pool = self._processes or ThreadPool(size)
        super().__init__(pool, queue, per_address)
        self.odds = OddsTables(odds_in_background)
        #: The server's warm-up: until it is done, jobs take the slower path
        #: (:func:`slower_path`). ``None``: they wait for the fast engine instead.
        self.warm: Warming | None = None

    def warming(self) -> bool:
        """Whether jobs starting now take the slower path: the fast engine is being
        compiled (from the cache it loads in about a second, which they wait for)."""
        return self.warm is not None and self.warm.cold and not self.warm.done.is_set()

    def submission(self, function: Callable[..., Any], args: tuple[Any, ...]
                   ) -> tuple[Callable[..., Any], tuple[Any, ...]]:
        """The job as it is handed to a worker: on the slower path while warming up."""
        if self.warming():
            return _on_path, (True, function, *args)
        return function, args

    def start(self) -> None:
        """Start the worker processes (and their warm-up) now: a server does at start,
        so that its first hint does not wait for them."""
        if self._processes is not None:
            self._processes.start()

    async def review(self, text: bytes, samples: int, max_moves: int, deals: int,
                     deadline: float, key: str) -> str:
        """The review of the record ``text`` as JSON text (:func:`review_message`), in its
        turn among the reviews, stopped ``deadline`` seconds from now; raises what
        :func:`review_message` raises, and :class:`BusyError` (the queue is full, or the
        record's rules have no match-odds table yet: it is being computed)."""
        budget = Budget(time.monotonic() + deadline)
        answer = await self.run(review_job, text, samples, max_moves, deals, budget,
                                kind=Work.REVIEW, key=key, wait=deadline, budget=budget)
        if answer[0] == "odds":
            self.odds.ready(Rules.from_dict(answer[1]), answer[2])  # computed from now on
            raise BusyError("the match-odds table of these rules is being computed: try "
                            "again in a few minutes", retry_after=60.0)
        text_out: str = answer[1]
        return text_out

    def close(self) -> None:
        super().close()
        self.odds.close()


T = TypeVar("T")
_PATH = threading.local()


def _on_path(slower: bool, function: Callable[..., T], *args: Any) -> T:
    """In a worker: ``function(*args)``, on the slower path if ``slower``."""
    _PATH.slower = slower
    try:
        return function(*args)
    finally:
        _PATH.slower = False


def slower_path() -> bool:
    """Whether the job running in this worker takes the slower path: the
    :class:`Advisor` started it while the fast engine was still warming up, so it must
    not wait for it (see the module)."""
    return bool(getattr(_PATH, "slower", False))


def odds_on_disk(rules: Rules, players: int) -> bool:
    """Whether positions of ``rules`` can be valued with a match-odds table (shipped, or
    in this machine's cache), or need none (more than two players)."""
    if players != 2:
        return True
    name = f"{odds_key(rules, 2, 'greedy', ODDS_ROUNDS)}.json"
    return (ODDS_SHIPPED / name).is_file() or (cache_dir() / name).is_file()


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
        if odds_on_disk(rules, players):
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
                with sigint_held():
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
    ignore_sigint()
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
        target=_compile_process, args=(os.getpid(),), daemon=True, name="trashcards-compile")
    with _COMPILING_LOCK, sigint_held():
        _COMPILING.add(process)
        process.start()
    try:
        process.join()
    finally:
        with _COMPILING_LOCK:
            _COMPILING.discard(process)
    return process.exitcode == 0


def warm_worker() -> str | None:
    """In a new AI worker process: load the AI where its kernel is compiled already
    (else a job on the slower path does not wait for it, and the first job after the
    server's warm-up loads it from the cache)."""
    return warm_up() if compiled() else None


def _compile_process(server: int) -> None:
    """The process compiling the AI's kernel, which ends with the ``server`` that
    started it, however that ends (a compile takes half a minute or more)."""
    ignore_sigint()
    die_with(server)
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


class _Drawn(random.Random):
    """The one number an expert draws for a decision, drawn at its table."""

    def __init__(self, value: float) -> None:
        super().__init__(0)
        self.value = value

    def random(self) -> float:
        return self.value


#: In a worker process: the expert that decides for every table's expert bot there.
_expert: list[ExpertBot] = []


def expert_move(seat_view: View, odds: bool, draw: float) -> Action:
    """In a worker: the decision of an expert bot whose generator gave ``draw`` for it
    (the table draws it, so its bots' decisions are the same wherever they are made)."""
    if not _expert:
        _expert.append(ExpertBot())
    bot = _expert[0]
    bot.rng = _Drawn(draw)
    return expert_choice(bot, seat_view, odds)


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


def review_job(text: bytes, samples: int, max_moves: int, deals: int,
               budget: Budget) -> tuple[Any, ...]:
    """In a worker: ``("review", JSON text)`` of :func:`review_message`, or ``("odds",
    rules, players)`` when the record's rules have no match-odds table here yet (the
    server then has it computed)."""
    missing: list[tuple[Rules, int]] = []

    def odds(rules: Rules, players: int) -> bool:
        if odds_on_disk(rules, players):
            return True
        missing.append((rules, players))
        return False

    try:
        message = review_message(text, samples, max_moves, deals, budget, odds)
    except BusyError:
        if missing:
            return ("odds", missing[0][0].to_dict(), missing[0][1])
        raise
    return ("review", json.dumps(message, ensure_ascii=False, separators=(",", ":")))


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
