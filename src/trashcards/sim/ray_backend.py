"""Play chunks of matches as Ray tasks, on a local Ray or on a cluster.

:class:`RayPool` connects to Ray once (``ray.init(address=...)``, or a local Ray of
``num_cpus`` CPUs when no address is given), then plays the chunks of each run as Ray
tasks, keeping at most two tasks per cluster CPU in flight so that memory stays constant.
Each task sends back its chunk's totals as plain JSON (``SimStats.to_json``), which the
driver adds up; since every match depends only on ``(seed, index)``, the totals are
identical to the local backend's.

On a cluster every node needs the same version of ``trashcards`` (with the ``sim`` extra
for the fast engine). Match records (``--records``) are written by the node that played
the chunk, into that path on that node.
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from ..bots import bot_modules
from ..rules import Rules
from ..simulation import SimStats
from .chunks import Chunk, chunk_player, in_flight, load_bots, set_engine_threads

__all__ = ["RayPool", "play_chunk_task", "ray_module"]

_INSTALL_HINT = "the ray backend needs Ray: pip install 'trashcards[sim]' (or pip install ray)"


def ray_module() -> Any:
    """The ``ray`` module, or an :class:`ImportError` that says how to install it."""
    try:
        return importlib.import_module("ray")
    except ImportError as exc:
        raise ImportError(f"{_INSTALL_HINT} ({exc})", name="ray") from exc


def play_chunk_task(engine: str, rules: dict[str, Any], bots: tuple[str, ...], seed: int,
                    start: int, count: int, records: str | None,
                    modules: tuple[str, ...] = ()) -> dict[str, Any]:
    """The body of one Ray task: play one chunk on one CPU and return its totals as JSON,
    after importing the ``modules`` that register its bots (the ``expert``).

    The fast kernel gets one thread, since Ray already runs one task per CPU.
    """
    load_bots(modules)
    set_engine_threads(engine, 1)
    player = chunk_player(engine)
    stats = player(Rules.from_dict(rules), bots, seed, start, count,
                   records=Path(records) if records is not None else None)
    return stats.to_json()


class RayPool:
    """A connection to Ray that plays chunks as tasks; :meth:`close` shuts Ray down only
    if this pool started it."""

    def __init__(self, address: str | None = None, cpus: int | None = None) -> None:
        ray = ray_module()
        self._ray = ray
        self._started = False
        if not ray.is_initialized():
            options: dict[str, Any] = {"include_dashboard": False,
                                       "logging_level": logging.WARNING}
            if address is not None:
                ray.init(address=address, **options)
            else:
                # "local": always a fresh Ray on this machine, even if a cluster runs here.
                ray.init(address="local", num_cpus=cpus, **options)
            self._started = True
        #: CPUs of the cluster, which bound the tasks in flight.
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._task: Any = ray.remote(num_cpus=1)(play_chunk_task)

    def play(self, engine: str, rules: Rules, bots: tuple[str, ...], seed: int,
             chunks: Iterator[Chunk], records: Path | None,
             progress: Callable[[int], None] | None) -> Iterator[tuple[Chunk, SimStats]]:
        """Play every chunk as a Ray task; yield each chunk with its totals as they come."""
        ray = self._ray
        rules_json = rules.to_dict()
        where = str(records) if records is not None else None
        modules = bot_modules(bots)
        yield from in_flight(
            chunks, 2 * self.cpus,
            submit=lambda chunk: self._task.remote(engine, rules_json, bots, seed, chunk.start,
                                                   chunk.count, where, modules),
            wait_any=lambda refs: ray.wait(refs, num_returns=1)[0],
            result=lambda ref: SimStats.from_json(ray.get(ref)),
            progress=progress)

    def close(self) -> None:
        """Shut down the local Ray this pool started (a cluster it joined keeps running)."""
        if self._started and self._ray.is_initialized():
            self._ray.shutdown()
        self._started = False
