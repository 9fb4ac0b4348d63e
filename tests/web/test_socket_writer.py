"""A websocket's writer task ends when its connection ends (found by the soak run,
benchmarks/soak.py: under load the server logged "Task was destroyed but it is
pending!" for writers waiting on their queue). The handler cancels the writer when the
client is gone; a cancellation that came just as a frame's write completed was
swallowed by Python 3.11's ``asyncio.wait_for``, and the writer went back to wait for a
frame no one would queue, until the garbage collector destroyed it."""

from __future__ import annotations

import asyncio

from trashcards.web.connection import Connection
from trashcards.web.sockets import _write


class _Socket:
    """A websocket whose writes complete at once."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int, reason: str) -> None:
        pass


async def _cancelled_as_the_write_completes() -> tuple[bool, bool]:
    """(whether the writer is done, whether cancelled), before the loop ends (which
    cancels whatever is left)."""
    conn = Connection(16, 1 << 16)
    ws = _Socket()
    conn.queue.put_nowait("a frame")
    writer = asyncio.create_task(_write(ws, conn, 5.0, lambda: None))  # type: ignore[arg-type]
    while not ws.sent:  # the write has completed; the writer has not resumed yet
        await asyncio.sleep(0)
    writer.cancel()
    for _ in range(20):
        await asyncio.sleep(0)
    return writer.done(), writer.done() and writer.cancelled()


def test_a_writer_cancelled_as_its_write_completes_ends() -> None:
    assert asyncio.run(_cancelled_as_the_write_completes()) == (True, True)


def test_the_package_never_waits_with_asyncio_wait_for() -> None:
    """The same swallowed cancellation waits in every ``asyncio.wait_for`` on Python 3.11
    (the oldest Python the package supports): ``asyncio.timeout`` is the one way to bound
    a wait."""
    import re
    from pathlib import Path

    import trashcards

    package = Path(trashcards.__file__).parent
    found = [f"{path.relative_to(package)}:{number}"
             for path in sorted(package.rglob("*.py"))
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if re.search(r"\bwait_for\(", line) and "asyncio" in line]
    assert found == []
