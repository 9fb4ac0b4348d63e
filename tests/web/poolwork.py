"""Jobs for the worker-process tests (tests/web/test_scheduler.py): functions of a module
that imports nothing of the test run, so that a worker process imports them cheaply."""

from __future__ import annotations

import os
import time

from trashcards.web.protocol import ProtocolError
from trashcards.web.scheduler import Budget, BusyError


def where() -> int:
    return os.getpid()


def refuse(why: str) -> None:
    raise BusyError(why, retry_after=7.0)


def stale() -> None:
    raise ProtocolError("stale_version", "moved on")


def endless(budget: Budget) -> None:
    while True:
        budget.check()
        time.sleep(0.01)


def die() -> None:
    os._exit(3)
