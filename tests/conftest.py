"""What every test run shares: its own home and cache folders, the markers of what a test
needs, and the fast tier's guard.

- **Nothing outside the clone.** Each test process (each pytest-xdist worker too) gets
  fresh, empty ``HOME`` and ``XDG_*`` folders, set here before anything is imported, and
  inherited by every subprocess a test starts. So no test reads or writes the user's
  cache (match-odds tables), data (databases) or configuration, and a fresh machine runs
  exactly what this one does.
- **Markers by need** (``pyproject.toml``): ``browser``, ``postgres``, ``node``,
  ``numba_compile``, ``torch``, ``slow``. Browser and PostgreSQL tests are marked here
  from the fixtures they use; the rest are marked in their modules.
- **The fast tier** (``bash scripts/check --fast``, or ``pytest --fast``) runs the tests
  that need none of them. Its guard: numba's cache is pointed at an empty folder, and a
  test after which compiled kernels appear there fails, naming the marker it lacks.
"""

from __future__ import annotations

import atexit
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

_OWN = Path(tempfile.mkdtemp(prefix="trashcards-tests-"))
atexit.register(shutil.rmtree, _OWN, True)
for _name in ("HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
    (_OWN / _name.lower()).mkdir()
    os.environ[_name] = str(_OWN / _name.lower())
os.environ.pop("TRASHCARDS_CACHE", None)

#: What the fast tier leaves out.
NEEDS = ("slow", "browser", "postgres", "node", "numba_compile", "torch")
#: Fixtures that mean a marker.
FIXTURE_MARKERS = {"browser": "browser", "new_context": "browser", "page": "browser",
                   "pg_cluster": "postgres", "pg_url": "postgres"}
#: Parametrised backends that mean a marker (the ``database`` and ``client`` fixtures).
PARAM_MARKERS = {"postgres": "postgres"}


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fuzz-scale", type=float, default=float(os.environ.get("TRASHCARDS_FUZZ_SCALE", 1)),
        help="Multiply the number of fuzzed inputs (tests/fuzz): 1 in CI (10,000 records, "
             "bodies and frames), 10 for the long run (100,000 each). Also "
             "TRASHCARDS_FUZZ_SCALE.")
    parser.addoption(
        "--fast", action="store_true", default=False,
        help=f"The fast tier: only tests marked none of {', '.join(NEEDS)}; a test that "
             "compiles numba kernels without its marker fails.")


#: The numba functions a fast-tier test tried to compile (see _forbid_compiles).
_COMPILES: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("--fast"):
        numba_cache = _OWN / "numba-cache"
        numba_cache.mkdir(exist_ok=True)
        os.environ["NUMBA_CACHE_DIR"] = str(numba_cache)
        _forbid_compiles()
        _skip_servers_warm_up()


def _forbid_compiles() -> None:
    """In the fast tier, a numba function's first call in this process (its compile, or
    its load from the cache) raises at once and is noted for the test that made it; a
    subprocess's compile shows as files in the empty cache folder instead."""
    try:
        from numba.core import dispatcher
    except ImportError:
        return

    def compile(self: object, sig: object) -> object:
        name = getattr(getattr(self, "py_func", None), "__qualname__", repr(self))
        _COMPILES.append(name)
        raise RuntimeError(f"the fast tier compiles no numba function ({name}): mark the "
                           "test numba_compile")

    dispatcher.Dispatcher.compile = compile  # type: ignore[method-assign]


def _skip_servers_warm_up() -> None:
    """In the fast tier, a server's AI warm-up ends at once, having loaded nothing. It
    would compile the kernels (see trashcards.web.warmup) in a thread that outlives the
    test that started the server, so the compile it is refused would fail whichever test
    runs then. Tests of the warm-up itself are marked numba_compile."""
    try:
        from trashcards.web.warmup import WarmUp
    except ImportError:
        return

    def run(self: WarmUp) -> None:
        self.done.set()

    WarmUp._run = run  # type: ignore[method-assign]


def _needs(item: pytest.Item) -> set[str]:
    found = {mark.name for mark in item.iter_markers() if mark.name in NEEDS}
    names = set(getattr(item, "fixturenames", ()))
    found |= {mark for fixture, mark in FIXTURE_MARKERS.items() if fixture in names}
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        found |= {PARAM_MARKERS[value] for value in callspec.params.values()
                  if isinstance(value, str) and value in PARAM_MARKERS}
    if "browser" in item.path.parts:
        found.add("browser")
    return found


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark each test by what it needs; in the fast tier, leave out those that need any.
    Browser tests run last: Playwright's sync API keeps an event loop running in the main
    thread for the rest of the session, where ``asyncio.run`` (the storage tests) would
    refuse to start."""
    for item in items:
        for need in _needs(item) - {m.name for m in item.iter_markers()}:
            item.add_marker(need)
    if config.getoption("--fast"):
        kept = [item for item in items if not _needs(item)]
        left = [item for item in items if _needs(item)]
        if left:
            config.hook.pytest_deselected(items=left)
        items[:] = kept
    items.sort(key=lambda item: "browser" in item.path.parts
               or item.get_closest_marker("browser") is not None)


def _compiled(item: pytest.Item) -> None:
    """Fail a fast-tier test that compiled numba code, itself or in a subprocess."""
    if not item.config.getoption("--fast"):
        return
    cache = Path(os.environ["NUMBA_CACHE_DIR"])
    files = [p.name for p in cache.rglob("*") if p.is_file()]
    names = sorted(set(_COMPILES))
    _COMPILES.clear()
    if files:
        shutil.rmtree(cache)
        cache.mkdir()
    if names or files:
        what = ", ".join(names) or f"{len(files)} cache files, e.g. {files[0]}"
        pytest.fail(f"this test needs the numba kernels ({what}): mark it numba_compile",
                    pytrace=False)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> object:
    try:
        return (yield)
    finally:  # also when the compile's error failed the test: then this says why
        _compiled(item)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> object:
    try:
        return (yield)
    finally:
        _compiled(item)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say in one line how many tests skipped for want of torch, and how to get it."""
    skipped = terminalreporter.stats.get("skipped", [])
    torch = [report for report in skipped
             if "torch" in str(getattr(report, "longrepr", "")).lower()
             or "sb3_contrib" in str(getattr(report, "longrepr", ""))]
    if torch:
        terminalreporter.write_line(
            f"{len(torch)} tests need PyTorch and were skipped: pip install "
            "--require-hashes --no-deps -r requirements-train.txt && pip install -r "
            "requirements-torch.txt (docs/development.md)", yellow=True)
