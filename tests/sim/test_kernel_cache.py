"""The kernel's cache guard: a change to any kernel module compiles afresh; a stale
cache is never used (numba alone checks only each function's own file)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

pytest.importorskip("numba")

from trashcards.sim.kernel import jit

SRC = Path(jit.__file__).resolve().parents[3]

CALLEE = "VALUE = {value}\n\n\n@kjit(inline=True)\ndef value():\n    return VALUE\n"
CALLER = "from .callee import value\nfrom .jit import kjit\n\n\n@kjit()\ndef answer():\n" \
         "    return value() * 10\n"
GUARDED = textwrap.dedent("""
    from pathlib import Path
    from trashcards.sim.kernel.jit import cache_dir, guarded_jit
    HERE = Path(__file__).resolve().parent
    DIR = cache_dir(tuple(sorted(HERE.glob("*.py"))), HERE)
    def kjit(**options):
        return guarded_jit(DIR, **options)
    """)
PLAIN = textwrap.dedent("""
    import numba
    def kjit(inline=False):
        return numba.njit(cache=True, forceinline=inline)
    """)


def _package(root: Path, jit_source: str, value: int) -> None:
    pkg = root / "pkg"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "jit.py").write_text(jit_source)
    (pkg / "callee.py").write_text("from .jit import kjit\n\n\n" + CALLEE.format(value=value))
    (pkg / "caller.py").write_text(CALLER)


def _dirs(root: Path) -> list[Path]:
    """The package's cache directories (importing the kernel's jit module makes its own
    there too)."""
    own = f"trashcards-kernel-{jit.source_hash()}"
    return [d for d in (root / "cache").iterdir() if d.name != own]


def _answer(root: Path) -> int:
    env = os.environ | {"PYTHONPATH": f"{root}{os.pathsep}{SRC}",
                        "NUMBA_CACHE_DIR": str(root / "cache")}
    out = subprocess.run([sys.executable, "-c", "from pkg.caller import answer; "
                          "print(answer())"], env=env, capture_output=True, text=True,
                         check=True, cwd=root)
    return int(out.stdout)


@pytest.mark.slow
def test_a_changed_callee_module_is_compiled_afresh(tmp_path: Path) -> None:
    _package(tmp_path, GUARDED, 1)
    assert _answer(tmp_path) == 10
    assert _answer(tmp_path) == 10  # from the cache
    dirs = _dirs(tmp_path)
    assert len(dirs) == 1
    assert any(dirs[0].rglob("*.nbi"))  # it was cached
    _package(tmp_path, GUARDED, 2)  # only the callee's module changes
    assert _answer(tmp_path) == 20
    assert len(_dirs(tmp_path)) == 2


@pytest.mark.slow
def test_without_the_guard_numba_would_use_the_stale_cache(tmp_path: Path) -> None:
    """What the guard prevents (and so what the test above would catch)."""
    _package(tmp_path, PLAIN, 1)
    assert _answer(tmp_path) == 10
    _package(tmp_path, PLAIN, 2)
    assert _answer(tmp_path) == 10  # stale: the caller's file did not change


def test_the_kernel_caches_under_the_hash_of_all_its_sources() -> None:
    assert jit.CACHE_DIR is not None
    assert Path(jit.CACHE_DIR).name == f"trashcards-kernel-{jit.source_hash()}"
    kernel = Path(jit.__file__).parent
    assert set(kernel.glob("*.py")) <= set(jit.SOURCES)


def test_every_module_the_kernel_takes_constants_from_is_hashed() -> None:
    """The kernel's modules import from trashcards only modules whose source is hashed."""
    kernel = Path(jit.__file__).parent
    package = kernel.parents[1]  # src/trashcards
    for path in kernel.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = path.parent
                for _ in range(node.level - 1):
                    base = base.parent
                target = base.joinpath(*(node.module or "").split("."))
                source = target / "__init__.py" if target.is_dir() else target.with_suffix(".py")
                assert source.resolve() in {p.resolve() for p in jit.SOURCES}, (path.name,
                                                                                source)
                assert package in source.resolve().parents


def test_old_caches_of_other_sources_are_removed(tmp_path: Path) -> None:
    import numba

    (tmp_path / "a.py").write_text("x = 1\n")
    sources = (tmp_path / "a.py",)
    base = tmp_path / "cache"
    stale, recent = base / "trashcards-kernel-0000", base / "trashcards-kernel-1111"
    for d in (stale, recent):
        d.mkdir(parents=True)
        (d / "f.nbi").write_text("")
    week = jit.STALE_DAYS * 86400
    os.utime(stale, (time.time() - week - 60,) * 2)
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = str(base)
    try:
        path = jit.cache_dir(sources, tmp_path)
    finally:
        numba.config.CACHE_DIR = saved
    assert path == str(base / f"trashcards-kernel-{jit.source_hash(sources)}")
    assert not stale.exists()
    assert recent.exists()
