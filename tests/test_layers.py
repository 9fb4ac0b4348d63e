"""The package's layering, read from the source: the core imports only the standard
library, imports go one way (core <- bots, pictures <- simulation <- sim <- ai <- envs,
lab <- tui, web <- cli; docs/architecture.md draws it), and no module reaches itself
through its imports. The browser's modules (``web/static/js``) are held to the same: no
circle, and the table page's state and controller reach no module that draws.

The arrows are read at the granularity of modules (one file = one node), from every
import statement anywhere in a file (at the top, inside functions, under
``TYPE_CHECKING``) and from every string that names a module of the package (an import
by name through ``importlib``). ``from package import name`` is an arrow to the module
``package.name`` when there is one, else to the package's ``__init__``. Merely being in
a package is no arrow: importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__``
too, but an ``__init__`` that gathers its own modules is not a circle.
"""

from __future__ import annotations

import ast
import functools
import re
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "trashcards"

CORE = frozenset({
    "__init__", "actions", "boundedjson", "cards", "chance", "deals", "digits", "engine",
    "files",
    "discards", "errors", "estimates", "events", "names", "public", "record", "rules",
    "session", "spec",
    "state", "statejson", "tutorial", "views",
})
RANK = dict.fromkeys(CORE, 0) | {
    "bots": 1, "pictures": 1, "simulation": 2, "sim": 3, "ai": 4, "envs": 5, "lab": 5,
    "players": 5,
    "tui": 6, "web": 6, "arena": 6, "cli": 7, "__main__": 8,
}

Arrow = tuple[str, str]


def _unit(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _modules(package: Path) -> dict[str, Path]:
    """Every module of the package rooted at ``package``, by dotted name."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = (package.name, *path.relative_to(package).with_suffix("").parts)
        found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def imports(package: Path) -> list[Arrow]:
    """(importing module, imported module) for every import in the package rooted at
    ``package`` (see the module's docstring); imports from outside keep their name."""
    modules = _modules(package)
    by_name = re.compile(rf"{re.escape(package.name)}(\.\w+)+")
    found = []
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        here = module.split(".") if is_package else module.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found += [(module, alias.name) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here[:len(here) - node.level + 1]
                    target = ".".join((*base, node.module) if node.module else base)
                else:
                    target = node.module or ""
                for alias in node.names:
                    submodule = f"{target}.{alias.name}"
                    found.append((module, submodule if submodule in modules else target))
            elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
                  and by_name.fullmatch(node.value) and node.value in modules):
                found.append((module, node.value))
    return sorted(set(found))


def circles(arrows: Iterable[Arrow]) -> list[list[str]]:
    """The circles among modules: each strongly connected set of two or more modules
    (Tarjan's algorithm), sorted."""
    graph: dict[str, set[str]] = {}
    for source, target in arrows:
        if source != target:
            graph.setdefault(source, set()).add(target)
            graph.setdefault(target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for after in sorted(graph[node]):
            if after not in index:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in on_stack:
                low[node] = min(low[node], index[after])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def arrows_up(arrows: Iterable[Arrow], rank: dict[str, int]) -> list[Arrow]:
    """The imports of a unit from another unit of its own rank or higher; the floor
    (rank 0, the core's modules) is one layer whose modules import each other."""
    found = []
    for module, target in arrows:
        if target.split(".")[0] != module.split(".")[0] or _unit(target) == _unit(module):
            continue
        here, there = rank[_unit(module)], rank[_unit(target)]
        if there > here or (there == here and here > 0):
            found.append((module, target))
    return found


@functools.cache
def _imports() -> list[Arrow]:
    return imports(PACKAGE)


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
    bad = [arrow for arrow in arrows_up(_imports(), RANK) if _unit(arrow[0]) == unit]
    assert bad == []


def test_no_module_imports_itself_through_others() -> None:
    assert circles(_imports()) == []


# -- the browser's modules ------------------------------------------------------------------

JS = PACKAGE / "web" / "static" / "js"
#: ``import … from "./x.js"``, ``export … from "./x.js"``, ``import "./x.js"`` and
#: ``import("./x.js")`` with a relative path (a worker's ``new URL(…)`` starts another
#: program: no arrow)
_JS_IMPORT = re.compile(r"""(?:\bfrom|^\s*import|\bimport\s*\()\s*["'](\.{1,2}/[^"']+)["']""",
                        re.MULTILINE)
#: The modules that draw, play sounds or talk to the network: the table page's state and
#: controller and its speech run under Node (tests/web/js/table.test.mjs, speech.test.mjs)
#: and reach none of them.
_PAGE_ONLY = frozenset({"announce.js", "api.js", "board.js", "connection.js", "dom.js",
                        "hint.js", "keys.js", "log.js", "motion.js", "sound.js", "table/view.js",
                        "table/socket.js", "winbar.js"})


def js_imports(root: Path) -> list[Arrow]:
    """(importing module, imported module) for every relative import of the JavaScript
    modules under ``root``, as paths below it."""
    arrows = []
    for path in sorted(root.rglob("*.js")):
        text = re.sub(r"/\*.*?\*/|//[^\n]*", "", path.read_text(encoding="utf-8"), flags=re.S)
        for target in _JS_IMPORT.findall(text):
            arrows.append((path.relative_to(root).as_posix(),
                           (path.parent / target).resolve().relative_to(root.resolve())
                           .as_posix()))
    return arrows


def _reached(arrows: Iterable[Arrow], start: str) -> set[str]:
    graph: dict[str, set[str]] = {}
    for source, target in arrows:
        graph.setdefault(source, set()).add(target)
    seen, todo = set(), [start]
    while todo:
        for after in graph.get(todo.pop(), ()):
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


def test_no_javascript_module_imports_itself_through_others() -> None:
    arrows = js_imports(JS)
    assert len(arrows) > 50
    assert circles(arrows) == []


def test_every_javascript_import_names_a_module_that_is_there() -> None:
    missing = [arrow for arrow in js_imports(JS) if not (JS / arrow[1]).is_file()]
    assert missing == []


@pytest.mark.parametrize("module", ["table/state.js", "table/controller.js", "table/speech.js"])
def test_the_table_pages_state_and_controller_reach_no_module_that_draws(module: str) -> None:
    assert _reached(js_imports(JS), module) & _PAGE_ONLY == set()


def test_the_javascript_checks_find_a_circle_however_the_import_is_written(
        tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.js").write_text('import { b } from "./sub/b.js";\n'
                                   '// import "./c.js"; is a comment\n')
    (tmp_path / "sub" / "b.js").write_text('export const b = () => import("../c.js");\n')
    (tmp_path / "c.js").write_text('export * from "./a.js";\n'
                                   'const w = new URL("./worker.js", import.meta.url);\n')
    arrows = js_imports(tmp_path)
    assert sorted(arrows) == [("a.js", "sub/b.js"), ("c.js", "a.js"), ("sub/b.js", "c.js")]
    assert circles(arrows) == [["a.js", "c.js", "sub/b.js"]]
    assert _reached(arrows, "a.js") == {"a.js", "c.js", "sub/b.js"}


# -- the checks themselves find what they are for ------------------------------------------


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root / "pkg"


def test_the_checks_find_a_circle_and_an_arrow_up_however_the_import_is_written(
        tmp_path: Path) -> None:
    package = _write(tmp_path, {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/a.py": "def f():\n    import importlib\n"
                    "    return importlib.import_module('pkg.high.b')\n",
        "high/__init__.py": "",
        "high/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from ..high import c\n",
        "high/c.py": "from . import b\nfrom .. import low\nimport pkg.low as low2\n",
    })
    arrows = imports(package)
    assert ("pkg.high.b", "pkg.high.c") in arrows
    assert ("pkg.high.c", "pkg.high.b") in arrows
    assert ("pkg.high.c", "pkg.low") in arrows
    assert ("pkg.low.a", "pkg.high.b") in arrows
    assert circles(arrows) == [["pkg.high.b", "pkg.high.c"]]
    assert arrows_up(arrows, {"__init__": 0, "low": 1, "high": 2}) == [
        ("pkg.low.a", "pkg.high.b")]


def test_a_package_that_gathers_its_modules_is_no_circle(tmp_path: Path) -> None:
    package = _write(tmp_path, {
        "__init__.py": "from .a import A\nfrom .b import B\n",
        "a.py": "A = 1\n",
        "b.py": "from .a import A\nB = A\n",
    })
    assert circles(imports(package)) == []
