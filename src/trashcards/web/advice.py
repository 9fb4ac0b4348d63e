"""The server's AI work: hints, every seat's win chances, game reviews and the expert
bots' decisions, all computed in worker threads, never on the event loop.

Every function the workers run here takes a :class:`~trashcards.views.View` (or a
record a client sent), never a table's :class:`~trashcards.state.State`: the table builds
the view on the loop and hands only that over, so no hidden card can reach a hint or a
win chance (RULES.md §8). The numba kernel releases the GIL, so the workers run beside
the loop on other cores.

:class:`Advisor` bounds the work: at most ``workers`` threads compute at once and at most
``queue`` jobs wait or run; a job over that bound is refused with :class:`BusyError` (a hint
request is answered ``busy``, a win-chance update is skipped). An expert bot's decision is
never refused (a table has at most one at a time, so they are bounded by the tables).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
from collections.abc import Callable
from typing import Any, Final, TypeVar

from ..ai.hints import chances, hint
from ..ai.review import review
from ..chance import sample_chance
from ..engine import apply, chance_due
from ..errors import RecordError
from ..record import Record, loads
from ..rules import Rules
from ..state import new_match
from ..statejson import view_json
from ..views import View, view
from .protocol import ProtocolError

__all__ = ["Advisor", "BusyError", "chances_message", "hint_message", "review_message",
           "warm_up"]

T = TypeVar("T")

#: Seconds after which a client may ask again when the workers are busy.
BUSY_RETRY: Final = 1.0


class BusyError(ProtocolError):
    """The AI workers have as much work as they may take: try again later."""

    def __init__(self) -> None:
        super().__init__("busy", "the server is busy computing hints: try again in a moment",
                         retry_after=BUSY_RETRY)


class Advisor:
    """A bounded pool of worker threads for the AI (see the module)."""

    def __init__(self, workers: int, queue: int) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, workers), thread_name_prefix="trashcards-ai")
        self.queue = max(1, queue)
        #: jobs waiting or running
        self.pending = 0

    async def run(self, function: Callable[..., T], *args: Any, required: bool = False) -> T:
        """``function(*args)`` in a worker thread; raises :class:`BusyError` when ``queue``
        jobs are already pending (unless ``required``)."""
        if not required and self.pending >= self.queue:
            raise BusyError
        self.pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, function,
                                                                    *args)
        finally:
            self.pending -= 1

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def warm_up() -> str:
    """Load the AI (the numba kernel and its compiled code, or the reference engine) by
    computing the chances of one opening position; returns the engine used. The server
    calls it at start-up, so that the first hint is as fast as the others and the memory
    the kernel takes is taken before the first table."""
    rng = random.Random(0)
    state = new_match(Rules.preset_named("standard"), ("warm", "up"))
    while chance_due(state) is not None:
        state, _events = apply(state, sample_chance(state, rng))
    return hint(view(state, None), 8).evaluation.engine


def hint_message(seat_view: View, version: int, samples: int) -> dict[str, Any]:
    """The ``hint`` message for the seat to act: :meth:`trashcards.ai.hints.Hint.to_json`
    (every legal action best first, with its win chances, 95 % intervals, its paired
    interval against the best, ``equal_to_best`` and a reason ``{"code", "params"}``;
    ``exact``, ``samples`` (the deals used, 0 when exact), ``tied``) with the type,
    version and seat. Seeded by the version, so the same view at the same version always
    gets the same hint, and the same as ``trashcards hint --seed VERSION``."""
    result = hint(seat_view, samples, seed=version)
    return {"type": "hint", "version": version, "seat": result.to_act,
            **result.to_json(), "engine": result.evaluation.engine}


def chances_message(public: View, version: int, samples: int) -> dict[str, Any] | None:
    """The ``chances`` message of a table at ``version`` (from the spectators' view), or
    ``None`` where no chance can be given."""
    found = chances(public, samples, seed=version)
    if found is None:
        return None
    return {"type": "chances", "version": version, **found.to_json()}


def review_message(text: bytes, samples: int, max_moves: int) -> dict[str, Any]:
    """The review of the record ``text`` (a ``trash/1`` file) with the position before
    the first move and after every move as the spectators saw it; raises
    :class:`ProtocolError` ``bad_record`` (with the reason) for anything that is not a
    legal record of at most ``max_moves`` moves."""
    try:
        record = loads(text)
        if len(record.moves) > max_moves:
            raise ProtocolError("bad_record", f"a record of {len(record.moves)} moves is "
                                              f"over the {max_moves} this server reviews")
        positions = _positions(record)
    except RecordError as exc:
        raise ProtocolError("bad_record", str(exc)) from None
    result = review(record, samples)
    return {**result.to_json(), "positions": positions}


def _positions(record: Record) -> list[dict[str, Any]]:
    """The spectators' view before the first move and after every move (checks every
    move: raises what a broken record raises)."""
    out = [view_json(view(new_match(record.rules, record.players), None))]
    out.extend(view_json(view(state, None)) for state, _events in record.steps())
    return out
