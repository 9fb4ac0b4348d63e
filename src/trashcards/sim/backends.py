"""The remote backends the runner chooses from by name.

The ``local`` backend is the runner itself (this process, or a pool of processes on this
machine); every other backend is a :class:`Backend` that this module opens by name.
``ray`` (:mod:`trashcards.sim.ray_backend`) is the only one today. A backend builds on
:mod:`trashcards.sim.chunks` and never imports the runner, so a new one is a module below
the runner plus a line in :data:`REMOTE`.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import Final, Protocol

from ..rules import Rules
from ..simulation import SimStats
from .chunks import Chunk, Progress

__all__ = ["BACKENDS", "REMOTE", "Backend", "open_backend"]

#: Remote backends by name: the module and the class (``Class(address, cpus)``).
REMOTE: Final = {"ray": ("trashcards.sim.ray_backend", "RayPool")}
#: Every backend's name, the local one first.
BACKENDS: Final = ("local", *REMOTE)


class Backend(Protocol):
    """What the runner needs of a remote backend."""

    #: CPUs the backend plays on, which bound the chunks in flight.
    cpus: int

    def play(self, engine: str, rules: Rules, bots: tuple[str, ...], seed: int,
             chunks: Iterator[Chunk], records: Path | None,
             progress: Progress | None) -> Iterator[tuple[Chunk, SimStats]]:
        """Play every chunk; yield each chunk with its totals as they come."""
        ...

    def close(self) -> None:
        """Release what the backend started (a cluster it joined keeps running)."""
        ...


def open_backend(name: str, address: str | None, cpus: int | None) -> Backend:
    """Connect to the remote backend ``name`` (``address``: a running cluster, or
    ``None`` for a local one of ``cpus`` CPUs)."""
    if name not in REMOTE:
        raise ValueError(f"unknown remote backend {name!r}; they are {', '.join(REMOTE)}")
    module, cls = REMOTE[name]
    backend: Backend = getattr(importlib.import_module(module), cls)(address, cpus)
    return backend
