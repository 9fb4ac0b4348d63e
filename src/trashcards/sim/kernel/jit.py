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

How the kernel compiles once (numba's own defaults would compile it many times over):

* **Inlined by LLVM, typed once.** A small function the game calls in its inner loop is
  marked ``inline=True``: numba types and lowers it once, as a function of its own, and
  LLVM inlines it into every caller (numba's ``forceinline``). numba's own inlining
  (``inline="always"``) copied its source into every caller instead, where numba typed
  and lowered each copy again: the game's four shuffles, three bot decisions and five
  stores, and the whole game inside the vector step, took most of the compile time (the
  vector step alone about 100 s of CPU; docs/compile.md).
* **One signature per function.** numba compiles a called function once per distinct
  set of argument types, and it types a constant argument as its own literal type
  (``Literal[int](0)``), so ``next_key(chance, 0)``, ``next_key(chance, 1)`` and
  ``next_key(chance, n)`` were three compilations. The kernel's dispatcher
  (:class:`KernelDispatcher`) types every call from compiled code by the arguments'
  plain types, integers narrower than 64 bits widened to ``int64``: a literal, an
  ``int32`` read from a state and an ``int64`` all share one compiled copy (the call
  converts them). A test checks that every kernel function has one signature.
* **No reference counting in the game.** numba counts the references to an array's
  memory with an atomic increment and decrement each time a compiled function receives
  it or a row of it is taken, and LLVM cannot remove an atomic operation, even inlined:
  the game's small functions (a bot's decision, a shuffle step) each took and released
  the state's arrays, about a quarter of a round's time. Every entry point passes the
  game its arrays :func:`unowned`.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final, TypeVar, cast

import numba
from numba.core import cgutils, event, types
from numba.core.registry import CPUDispatcher
from numba.extending import intrinsic

__all__ = ["CACHE_DIR", "SOURCES", "STALE_DAYS", "KernelDispatcher", "cache_dir",
           "canonical", "compiling", "guarded_jit", "hold", "kjit", "source_hash",
           "unowned"]

_F = TypeVar("_F", bound=Callable[..., Any])

_CONFIG: Any = numba.config  # typed loosely: its settings are set at import time
_TYPES: Any = types  # numba's types, untyped
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


def canonical(kind: Any) -> Any:
    """The numba type a kernel function is compiled for when called with an argument of
    numba type ``kind``: its plain type (no literal value), an integer narrower than
    64 bits widened to ``int64``."""
    kind = _TYPES.unliteral(kind)
    if isinstance(kind, _TYPES.Integer) and kind.bitwidth < 64:
        return _TYPES.int64
    return kind


class KernelDispatcher(CPUDispatcher):  # numba's, untyped
    """numba's CPU dispatcher, compiling a call from compiled code for the
    :func:`canonical` types of its arguments (see the module)."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        return super().get_call_template(tuple(canonical(a) for a in args),
                                         {k: canonical(v) for k, v in kws.items()})


def guarded_jit(directory: str | None, inline: bool = False,
                parallel: bool = False) -> Callable[[_F], _F]:
    """A :class:`KernelDispatcher`: nopython, without the GIL, cached in ``directory``
    (not cached if ``None``); ``inline``: LLVM inlines it into its callers."""

    def wrap(func: _F) -> _F:
        options = {"nopython": True, "nogil": True, "parallel": parallel,
                   "forceinline": inline}
        saved = _CONFIG.CACHE_DIR
        _CONFIG.CACHE_DIR = directory or saved
        try:
            dispatcher = KernelDispatcher(py_func=func, locals={}, targetoptions=options)
            if directory is not None:
                dispatcher.enable_caching()
        finally:
            _CONFIG.CACHE_DIR = saved
        return cast(_F, dispatcher)

    return wrap


def kjit(inline: bool = False, parallel: bool = False) -> Callable[[_F], _F]:
    """The kernel's decorator: compiled without the GIL, cached in :data:`CACHE_DIR`;
    ``inline``: a small function LLVM inlines into every caller, compiled once."""
    return guarded_jit(CACHE_DIR, inline, parallel)


class _FirstCompile(event.Listener):  # numba's, untyped
    def __init__(self, notice: Callable[[], None]) -> None:
        self.notice: Callable[[], None] | None = notice

    def on_start(self, _event: Any) -> None:
        notice, self.notice = self.notice, None
        if notice is not None:
            notice()

    def on_end(self, _event: Any) -> None:
        pass


@contextlib.contextmanager
def compiling(notice: Callable[[], None]) -> Iterator[None]:
    """Within the block, ``notice()`` is called once, when numba starts compiling (and
    never when it loads everything from its cache): a command says that it compiles,
    and only when it does."""
    with event.install_listener("numba:compile", _FirstCompile(notice)):
        yield


_CGUTILS: Any = cgutils  # typed loosely: numba has no annotations


@intrinsic
def _unowned_intrinsic(typingctx: Any, arr: Any) -> Any:
    """``arr`` without its memory's owner (numba's reference-counted meminfo): the same
    data, shape and strides, but the array and every view of it are not counted, so
    passing it to a compiled function or taking a row costs no atomic increment and
    decrement. Only for arrays the caller keeps alive for the whole call."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        ary = context.make_array(arr)(context, builder, value=args[0])
        ary.meminfo = _CGUTILS.get_null_value(ary.meminfo.type)
        ary.parent = _CGUTILS.get_null_value(ary.parent.type)
        return ary._getvalue()

    return arr(arr), codegen


#: :func:`_unowned_intrinsic` as the kernel calls it: an entry point passes the game
#: (:func:`~.game.run`) its arrays unowned, arrays its caller holds for the whole call
#: (arguments, or arrays allocated before and used after). Counted, every array the game
#: hands to one of its small functions (a bot's decision, a shuffle step, a store) was an
#: atomic increment and decrement of its owner's count (numba's ``NRT_incref``): about a
#: quarter of a round's time (docs/compile.md), a fifth of a vector step's.
unowned: Callable[[Any], Any] = cast(Any, _unowned_intrinsic)


@intrinsic
def _hold_intrinsic(typingctx: Any, arr: Any) -> Any:
    """Nothing, but a use of ``arr``: numba releases an array after its last use, so a
    function that passes :func:`unowned` views of an array it allocated holds the array
    itself to the end with ``hold(arr)``."""
    if not isinstance(arr, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return context.get_dummy_value()

    return types.none(arr), codegen


#: :func:`_hold_intrinsic` as the kernel calls it.
hold: Callable[[Any], None] = cast(Any, _hold_intrinsic)
