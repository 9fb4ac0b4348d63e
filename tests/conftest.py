import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--fuzz-scale", type=float, default=float(os.environ.get("TRASHCARDS_FUZZ_SCALE", 1)),
        help="Multiply the number of fuzzed inputs (tests/fuzz): 1 in CI (10,000 records, "
             "bodies and frames), 10 for the long run (100,000 each). Also "
             "TRASHCARDS_FUZZ_SCALE.")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Browser tests run last: Playwright's sync API keeps an event loop running in the
    main thread for the rest of the session, where ``asyncio.run`` (the storage tests)
    would refuse to start."""
    items.sort(key=lambda item: "browser" in item.path.parts
               or item.get_closest_marker("browser") is not None)
