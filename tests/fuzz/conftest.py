"""The fuzz suite's scale (``--fuzz-scale``) and its summary at the end of the run."""

from __future__ import annotations

import contextlib
import sys
import warnings
from pathlib import Path

import pytest
from fuzzkit import TALLIES

sys.path.insert(0, str(Path(__file__).parent.parent / "web"))  # webtools, for the server
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
with contextlib.suppress(ImportError):  # imported under the filter (webtools needs it)
    import starlette.testclient  # noqa: F401


@pytest.fixture
def fuzz_scale(request: pytest.FixtureRequest) -> float:
    """How many times the CI number of inputs to try (``--fuzz-scale``, default 1)."""
    scale: float = request.config.getoption("--fuzz-scale")
    return scale


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TALLIES:
        terminalreporter.section("fuzz: inputs tried")
        for tally in TALLIES.values():
            terminalreporter.write_line(tally.line())
