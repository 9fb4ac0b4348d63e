"""The tests' own way of starting ``trashcards serve`` (tests/web/servetools.py): a
server never outlives the test process that started it, even one that pytest-timeout
ended without any clean-up."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support import running

_STARTER = """
import os, sys
sys.path.insert(0, sys.argv[1])
import servetools
proc, url = servetools.launch(sys.argv[2])
servetools.wait_healthy(url, proc)
print(proc.pid, flush=True)
os._exit(0)  # as pytest-timeout ends a worker: no clean-up at all
"""


@pytest.mark.numba_compile  # its serve subprocess warms up (compiles) the AI
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_server_ends_with_the_test_process_that_started_it(tmp_path: Path) -> None:
    here = str(Path(__file__).parent)
    started = subprocess.run([sys.executable, "-c", _STARTER, here,
                              str(tmp_path / "s.sqlite3")],
                             capture_output=True, text=True, timeout=120, check=True)
    pid = int(started.stdout.split()[-1])
    try:
        deadline = time.monotonic() + 20
        while running(pid):
            assert time.monotonic() < deadline, f"the server {pid} outlived its starter"
            time.sleep(0.1)
    finally:
        if running(pid):
            os.kill(pid, signal.SIGKILL)
