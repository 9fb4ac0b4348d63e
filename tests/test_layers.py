"""The package's layering, read from the source's import statements (lazy imports inside
functions included): the core imports only the standard library, and imports go one
way, core <- bots, pictures <- simulation <- sim <- ai, envs <- lab <- tui, web <- cli
(pictures: the table drawn with rich, shared by envs and tui)."""

from __future__ import annotations

import ast
import functools
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "trashcards"

CORE = frozenset({
    "__init__", "actions", "boundedjson", "cards", "chance", "deals", "digits", "engine",
    "discards", "errors", "estimates", "events", "names", "public", "record", "rules",
    "session",
    "state", "statejson", "views",
})
RANK = dict.fromkeys(CORE, 0) | {
    "bots": 1, "pictures": 1, "simulation": 2, "sim": 3, "ai": 4, "envs": 4, "lab": 5,
    "tui": 6, "web": 6, "arena": 6, "cli": 7, "__main__": 8,
}


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


@functools.cache
def _imports() -> list[tuple[str, str]]:
    """(importing module, imported module) for every import in the package."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ("trashcards", *path.relative_to(PACKAGE).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        module = ".".join(parts[:-1] if is_package else parts)
        package = parts[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [(module, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[:len(package) - node.level + 1]
                    target = ".".join((*base, node.module) if node.module else base)
                else:
                    target = node.module or ""
                found.append((module, target))
    return found


def test_every_unit_of_the_package_has_a_layer() -> None:
    units = {_unit(module) for module, _ in _imports()}
    assert units <= set(RANK), sorted(units - set(RANK))


def test_the_core_imports_only_the_standard_library_and_the_core() -> None:
    bad = [(module, target) for module, target in _imports()
           if _unit(module) in CORE
           and (_unit(target) not in CORE if target.startswith("trashcards")
                else target.split(".")[0] not in sys.stdlib_module_names)]
    assert bad == []


@pytest.mark.parametrize("unit", sorted(set(RANK) - CORE))
def test_imports_go_down_the_layers_only(unit: str) -> None:
    bad = [(module, target) for module, target in _imports()
           if _unit(module) == unit and target.startswith("trashcards")
           and _unit(target) != unit and RANK[_unit(target)] >= RANK[unit]]
    assert bad == []
