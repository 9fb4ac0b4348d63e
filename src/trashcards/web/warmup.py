"""The AI's warm-up at a server's start, in a thread of its own (``/healthz`` tells how
it stands)."""

from __future__ import annotations

import contextlib
import importlib
import logging
import threading
import time

from .advice import compiled, stop_compiling, warm_up

__all__ = ["WarmUp"]

log = logging.getLogger(__name__)
#: The warm-up's two lines ("warming up …", "ready …"): ``trashcards serve`` shows them.
warm_log = logging.getLogger(f"{__name__}.lines")


class WarmUp:
    """The AI's warm-up (:func:`~trashcards.web.advice.warm_up`; on a first start numba
    compiles the fast kernel, in a process of its own) in a thread of its own, so that the
    server answers at once. Until it is done, if the fast engine must be compiled
    (:attr:`cold`), AI work takes the slower path (the ``Advisor`` knowing of it:
    :func:`~trashcards.web.advice.slower_path`); from the cache it loads in about a
    second, which AI work waits for. ``/healthz`` says ``"ai": "warming_up"`` and the
    table page shows a note. ``say`` logs its two lines ("warming up …", "ready …")."""

    def __init__(self, say: logging.Logger = warm_log) -> None:
        self.done = threading.Event()
        #: whether the fast engine is being compiled (until the warm-up knows: yes)
        self.cold = True
        #: the engine the AI runs on ("fast" or "reference"), once done
        self.engine: str | None = None
        self.seconds: float | None = None
        self._say = say

    @property
    def state(self) -> str:
        return "ready" if self.done.is_set() else "warming_up"

    def start(self) -> None:
        # numpy is imported here first: its modules import one another, and two threads
        # importing it at once (this one's kernel and, say, a request's pytest.approx or a
        # worker's) can be handed a partly initialised module by Python's deadlock
        # avoidance ("partially initialized module 'numpy'").
        with contextlib.suppress(ImportError):
            importlib.import_module("numpy")
        threading.Thread(target=self._run, name="trashcards-warm-up", daemon=True).start()

    def _run(self) -> None:
        start = time.monotonic()
        self._say.info("warming up the AI: until it is ready, hints and win chances are "
                       "coarser and expert bots search less (a first start compiles the "
                       "fast engine: half a minute or more)")
        try:
            self.cold = not compiled()
            self.engine = warm_up(apart=True)
        except Exception:  # the AI's own errors show where it is used; never kill the start
            log.exception("the AI's warm-up failed")
        finally:
            self.seconds = time.monotonic() - start
            self.done.set()
        self._say.info("the AI is ready (%s engine, warmed up in %.1f s)",
                       self.engine or "no", self.seconds)

    @staticmethod
    def close() -> None:
        """Stop the processes compiling the kernel (the server stops)."""
        stop_compiling()
