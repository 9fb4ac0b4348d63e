"""Start and stop ``trashcards serve`` as a subprocess: the one way the tests (webtools,
the cluster tests, the browser tests, the fuzzers) and the benchmarks
(benchmarks/server.py) do it.

:func:`launch` starts ``python -m trashcards serve --port PORT --db DB OPTIONS…`` with
unbuffered output, reads the line that says where it listens and returns the process
and its base URL (``http://127.0.0.1:PORT``); :func:`wait_healthy` waits until
``/healthz`` answers; :func:`stop` ends it (SIGKILL, or SIGINT first for a clean
shutdown); :func:`running` does all three around a ``with`` block.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

__all__ = ["ServerError", "command", "drain", "launch", "launch_with_banner", "port_of",
           "running", "stop", "wait_healthy"]

#: The base URL in the line ``trashcards serve`` prints when it listens.
_URL = re.compile(r"http://[\w.]+:(\d+)/?")


def command(*args: str) -> list[str]:
    """The command line of ``trashcards serve ARGS…`` in this interpreter (for a run that
    is to stop at once, such as a refused database, with :func:`subprocess.run`)."""
    return [sys.executable, "-m", "trashcards", "serve", *args]


#: Run by :func:`_bound`: arm Linux's parent-death signal (SIGKILL), leave at once if the
#: parent is already gone, then become the command (exec keeps the signal armed).
_BOUND = """
import ctypes, ctypes.util, os, signal, sys
libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
libc.prctl(1, signal.SIGKILL)
if os.getppid() != int(sys.argv[1]):
    os._exit(1)
os.execv(sys.argv[2], sys.argv[2:])
"""


def _bound(argv: list[str]) -> list[str]:
    """``argv``, killed with the process that starts it (a test worker that pytest-timeout
    ended takes its servers along), where that is possible: on Linux, from the main thread
    (the signal follows the thread that started the process, and other threads end
    earlier)."""
    if not sys.platform.startswith("linux") \
            or threading.current_thread() is not threading.main_thread():
        return argv
    return [sys.executable, "-S", "-c", _BOUND, str(os.getpid()), *argv]


class ServerError(RuntimeError):
    """The server did not start (its output says why) or did not answer in time."""


def launch(db: Path | str, options: Sequence[str] = (), *, port: int = 0,
           env: dict[str, str] | None = None) -> tuple[subprocess.Popen[str], str]:
    """``trashcards serve`` on ``db`` and ``port`` (0: a free one) with ``options``; the
    process (stdout and stderr on one pipe) and its base URL, without a trailing ``/``.
    Raises :class:`ServerError` with the server's output when it prints no URL."""
    proc, url, _line = launch_with_banner(db, options, port=port, env=env)
    return proc, url


def launch_with_banner(db: Path | str, options: Sequence[str] = (), *, port: int = 0,
                       env: dict[str, str] | None = None
                       ) -> tuple[subprocess.Popen[str], str, str]:
    """:func:`launch`, with the line the server printed when it started listening."""
    proc = subprocess.Popen(
        _bound(command("--port", str(port), "--db", str(db), *options)),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        env={**os.environ, **(env or {}), "PYTHONUNBUFFERED": "1"})
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = _URL.search(line)
    if found is None:
        stop(proc)
        rest = proc.stdout.read() if not proc.stdout.closed else ""
        raise ServerError(f"trashcards serve printed no URL: {line}{rest}")
    return proc, found.group(0).rstrip("/"), line


def port_of(url: str) -> int:
    """The port of a base URL :func:`launch` returned."""
    found = _URL.search(url + "/")
    assert found is not None, url
    return int(found.group(1))


def wait_healthy(url: str, proc: subprocess.Popen[str] | None = None,
                 timeout: float = 30.0) -> None:
    """Until ``url/healthz`` answers 200; :class:`ServerError` when ``proc`` exits first
    or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise ServerError(f"trashcards serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=5) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.05)
    raise ServerError(f"trashcards serve did not answer {url}/healthz in {timeout:g} s")


def wait_ai_ready(url: str, proc: subprocess.Popen[str] | None = None,
                  timeout: float = 600.0) -> None:
    """Until ``url/healthz`` says the AI is ready: while it warms up (a fresh clone
    compiles the kernels), bots and hints take the slower path, so a seeded game would
    play other moves than once it is ready."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise ServerError(f"trashcards serve exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=5) as response:
                if json.loads(response.read()).get("ai") == "ready":
                    return
        except (OSError, ValueError):
            pass
        time.sleep(0.1)
    raise ServerError(f"trashcards serve's AI was not ready in {timeout:g} s")


def drain(proc: subprocess.Popen[str], prefix: str | None = None) -> threading.Thread:
    """Read the server's output in a thread, so that it never blocks on a full pipe;
    echo each line to stderr after ``prefix`` (``None``: ``[serve PID]``)."""
    label = prefix if prefix is not None else f"[serve {proc.pid}] "

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            sys.stderr.write(f"{label}{line}")

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    return thread


def stop(proc: subprocess.Popen[str], grace: float = 0.0, timeout: float = 30.0,
         sig: signal.Signals = signal.SIGINT) -> None:
    """End the server: SIGKILL at once (``grace`` 0, as a crash would), or ``sig``
    (SIGINT: a clean shutdown, as Ctrl-C; SIGTERM: as a service manager) and SIGKILL
    after ``grace`` seconds if it still runs; then wait for it (up to ``timeout``
    seconds)."""
    if proc.poll() is None:
        if grace > 0:
            proc.send_signal(sig)
            try:
                proc.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                proc.kill()
        else:
            proc.kill()
    proc.wait(timeout=timeout)


@contextmanager
def running(db: Path | str, options: Sequence[str] = (), *, grace: float = 0.0,
            healthy: float = 30.0) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A server on ``db`` with ``options`` for the ``with`` block, answering its health
    check: yields the process and its base URL; stopped afterwards (see :func:`stop`)."""
    proc, url = launch(db, options)
    try:
        wait_healthy(url, proc, healthy)
        yield proc, url
    finally:
        stop(proc, grace)
        if proc.stdout is not None:
            proc.stdout.close()
