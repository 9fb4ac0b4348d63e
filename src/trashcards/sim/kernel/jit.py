"""The decorator of every compiled function of the kernel, and its cache guard.

numba's on-disk cache (``cache=True``) checks a compiled function against its own source
file only. The kernel's functions call and inline each other across its modules, so a
change to one module (a bot, say) would leave the cached machine code of every function
that inlined it stale, and numba would load it without a word. The guard: every kernel
function is cached in one directory named after a hash of the sources of all the
kernel's modules (:data:`SOURCES`), so any change to any of them compiles afresh in a new
directory, and a stale cache can never be found.

The directory lies under numba's ``NUMBA_CACHE_DIR`` when that is set, else in the
kernel package's ``__pycache__`` when it is writable, else under the user's cache
directory (``$XDG_CACHE_HOME`` or ``~/.cache``, then ``trashcards``); when none is
writable the kernel compiles in every process and caches nothing (numba's own fallback
locations are never used: they are not guarded). Directories of other versions of the
sources that nothing used for a week are removed. :func:`kjit` points
``numba.config.CACHE_DIR`` there only while it makes each dispatcher (numba fixes a
function's cache location then), so other numba code of the process is not affected.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, Literal, TypeVar, cast

import numba

__all__ = ["CACHE_DIR", "SOURCES", "STALE_DAYS", "cache_dir", "guarded_jit", "kjit",
           "source_hash"]

_F = TypeVar("_F", bound=Callable[..., Any])

_CONFIG: Any = numba.config  # typed loosely: its settings are set at import time
_HERE: Final = Path(__file__).resolve().parent
#: Every source file whose text the compiled kernel depends on: the kernel's modules and
#: the modules they take constants from (a test checks that the list is complete).
SOURCES: Final = (*sorted(_HERE.glob("*.py")), _HERE.parent / "rng.py",
                  _HERE.parent.parent / "public.py")


_PREFIX: Final = "trashcards-kernel-"
#: Days after which the unused cache directory of other kernel sources is removed.
STALE_DAYS: Final = 7


def source_hash(sources: tuple[Path, ...] = SOURCES) -> str:
    """A hash of the sources' names and texts (16 hex digits)."""
    digest = hashlib.sha256()
    for path in sources:
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
    except OSError:
        return False
    return True


def cache_dir(sources: tuple[Path, ...], package: Path) -> str | None:
    """The guarded cache directory for ``sources`` (or ``None``: nowhere writable).

    Using it marks it as used (its time stamp); the directories of other sources beside
    it that nothing used for :data:`STALE_DAYS` are removed.
    """
    name = f"{_PREFIX}{source_hash(sources)}"
    if _CONFIG.CACHE_DIR:
        bases = [Path(_CONFIG.CACHE_DIR)]
    else:
        user = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
        bases = [package / "__pycache__", Path(user) / "trashcards"]
    for base in bases:
        path = base / name
        if _writable(path):
            os.utime(path)
            _prune(base, path)
            return str(path)
    return None


def _prune(base: Path, keep: Path) -> None:
    old = time.time() - STALE_DAYS * 86400
    for other in base.glob(f"{_PREFIX}*"):
        try:
            if other != keep and other.stat().st_mtime < old:
                shutil.rmtree(other)
        except OSError:
            continue  # in use, or removed meanwhile by another process


#: Where the kernel's compiled code is cached (``None``: not cached).
CACHE_DIR: Final = cache_dir(SOURCES, _HERE)


def guarded_jit(directory: str | None, inline: Literal["never", "always"] = "never",
                parallel: bool = False) -> Callable[[_F], _F]:
    """``numba.njit(nogil=True)``, cached in ``directory`` (not cached if ``None``)."""

    def wrap(func: _F) -> _F:
        if directory is None:
            return cast(_F, numba.njit(nogil=True, parallel=parallel, inline=inline)(func))
        saved = _CONFIG.CACHE_DIR
        _CONFIG.CACHE_DIR = directory
        try:
            return cast(_F, numba.njit(nogil=True, cache=True, parallel=parallel,
                                       inline=inline)(func))
        finally:
            _CONFIG.CACHE_DIR = saved

    return wrap


def kjit(inline: Literal["never", "always"] = "never",
         parallel: bool = False) -> Callable[[_F], _F]:
    """The kernel's decorator: compiled without the GIL, cached in :data:`CACHE_DIR`."""
    return guarded_jit(CACHE_DIR, inline, parallel)
