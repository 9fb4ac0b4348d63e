"""Write generated files, or check that they are up to date: the one tail of
``write_spec.py`` and ``write_playthroughs.py``."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path


def write_or_check(root: Path, outputs: Iterable[tuple[str, Callable[[], str]]],
                   check: bool, stale_word: str) -> int:
    """Make each ``(path relative to root, maker)``; write the ones whose text changed, or
    with ``check`` only list them after ``stale_word``. The exit status: 1 when checking
    found one out of date, else 0."""
    stale = []
    for relative, make in outputs:
        path = root / relative
        text = make()
        if path.exists() and path.read_text(encoding="utf-8") == text:
            continue
        stale.append(relative)
        if not check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    for relative in stale:
        print(f"{stale_word if check else 'wrote'}: {relative}")
    return 1 if check and stale else 0
