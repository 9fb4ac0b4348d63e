"""The examples in the package docstring and in the README run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import trashcards

ROOT = Path(__file__).parent.parent


def test_package_docstring_examples() -> None:
    result = doctest.testmod(trashcards, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


def test_readme_python_examples() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted >= 5
    assert result.failed == 0
