"""Shipped values of the large pool types, so that every small-board answer is quick.

:class:`~.exact_solver.RoundSolver` computes a position's values from the types it
reaches. Near the deal of boards of 3 slots that is tens of thousands of types (seconds
in pure Python); from later positions it is a handful. The tables here hold the values of
just enough *pool* types (a card drawn from the unseen cards, for both seats with the
same boards and live cards) that no position of a round needs more than :data:`WORST`
types computed: :func:`select` walks the whole round's types, children first, and ships
a pool pair as soon as the types it would take to compute it (the ones not shipped
already) exceed ``reach``; :func:`build` takes the largest ``reach`` that keeps every
answer within :data:`WORST`.

A table is one file per pair of board sizes (larger first) and card counts
(:func:`.exact_solver.class_totals`), in ``exact_data/``: a JSON header line (the
figures, and where each chunk lies), the keys (zlib: the pool keys as integers, sorted,
and where each key's values start), then chunks of about :data:`CHUNK` values, each
compressed on its own and read only when one of its keys is asked for: seat 0's chance
of winning the round from the first ``x`` at which the pool can be drawn, as 31-bit
fractions (within 2.4·10⁻¹⁰ of the solver's floats) differenced along ``x``, the chance
of a void round where it is not 0, and the entries that are bounds (after a reshuffle),
rounded outwards to 16 bits. Made by ``python -m trashcards.ai.exact_tables`` (docs/ai.md
gives the sizes and times).
"""

from __future__ import annotations

import json
import math
import sys
import time
import zlib
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from typing import Any, Final, cast

from ..rules import Rules
from .exact_solver import DOWN, POOL, PoolKey, RoundSolver, TypeKey, Vec, class_totals

__all__ = [
    "CHUNK",
    "DATA_DIR",
    "FORMAT",
    "GAMES",
    "WORST",
    "ExactTable",
    "build",
    "load_table",
    "select",
    "table_name",
]

DATA_DIR: Final = Path(__file__).with_name("exact_data")
FORMAT: Final = "trash-exact/1"
#: Values per chunk, the unit in which a table is read.
CHUNK: Final = 65_536
#: The most types an answer may need once the table is loaded (some 35 ms of one idle core).
WORST: Final = 700
#: The games shipped: presets (by their card counts) and pairs of board sizes.
GAMES: Final = tuple((preset, sizes) for preset in ("standard", "jokers", "all-faces-wild")
                     for sizes in ((2, 1), (2, 2), (3, 1), (3, 2), (3, 3)))
#: Chances are stored as fractions of this (within 2.4·10⁻¹⁰ of the solver's floats).
_TOP: Final = 2**31 - 1
_SCALE: Final = float(_TOP)
#: Bounds (entries that depend on a reshuffle) are stored as fractions of this, the low
#: end rounded down and the high end up: they still hold, a little wider.
_COARSE_TOP: Final = 2**16 - 1
_COARSE: Final = float(_COARSE_TOP)


def table_name(sizes: tuple[int, int], totals: Sequence[int]) -> str:
    """The file of a game: ``3x2-4.4.4.4.36.bin``."""
    return f"{sizes[0]}x{sizes[1]}-{'.'.join(str(n) for n in totals)}.bin"


def _code(key: TypeKey) -> int:
    """A pool key as an integer: the seat to draw, both boards' slots, the live counts."""
    _kind, turn, b0, b1, live = cast(PoolKey, key)
    code = turn
    for slot in (*b0, *b1):
        code = code * 4 + slot
    for count in live:
        code = code * 64 + count
    return code


def _first(key: TypeKey) -> int:
    """The first x at which a pool can be drawn from (the stock or a face-down card)."""
    _kind, _turn, b0, b1, live = cast(PoolKey, key)
    return max(0, b0.count(DOWN) + b1.count(DOWN) - sum(live) + 1)


@dataclass
class _Chunk:
    """The values of a run of keys: seat 0's chances as differences along x (from 0 for
    each key), then the void chances and the bounds, each at an index into the run."""

    seat0: array[int]
    void_at: array[int]
    void: array[int]
    wide_at: array[int]
    wide: array[int]


@dataclass
class ExactTable:
    """A loaded table: :meth:`get` gives a shipped pool type's values, or ``None``. The
    keys are read at once, the values a chunk (:data:`CHUNK` values) at a time, when one
    of its keys is first asked for: an answer reads only the few it needs."""

    sizes: tuple[int, int]
    totals: tuple[int, ...]
    codes: array[int]
    starts: array[int]
    #: the first key of each chunk, and its bytes: offset, length, then its counts of
    #: values, void chances and bounds
    chunk_keys: list[int]
    chunk_spans: list[tuple[int, int, int, int, int]]
    packed: bytes
    chunks: dict[int, _Chunk] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.codes)

    def get(self, key: TypeKey) -> Vec | None:
        if key[0] != POOL:
            return None
        code = _code(key)
        i = bisect_left(self.codes, code)
        if i == len(self.codes) or self.codes[i] != code:
            return None
        c = bisect_right(self.chunk_keys, i) - 1
        chunk = self.chunks.get(c)
        if chunk is None:
            chunk = self.chunks[c] = self._chunk(c)
        base = self.starts[self.chunk_keys[c]]
        begin, end = self.starts[i] - base, self.starts[i + 1] - base
        shift = _first(key) - begin  # the x of the value at index j is j + shift
        seat0 = list(accumulate(chunk.seat0[begin:end]))
        pad = [0.0] * (shift + begin)
        a0 = pad + [q / _SCALE for q in seat0]
        a1 = pad + [1.0 - q / _SCALE for q in seat0]
        for j in range(bisect_left(chunk.void_at, begin), len(chunk.void_at)):
            at = chunk.void_at[j]
            if at >= end:
                break
            a1[at + shift] = 1.0 - (seat0[at - begin] + chunk.void[j]) / _SCALE
        w0: list[float] | None = None
        w1: list[float] | None = None
        for j in range(bisect_left(chunk.wide_at, begin), len(chunk.wide_at)):
            at = chunk.wide_at[j]
            if at >= end:
                break
            if w0 is None or w1 is None:
                w0, w1 = [0.0] * len(a0), [0.0] * len(a0)
            l0, u0, l1, u1 = (q / _COARSE for q in chunk.wide[4 * j:4 * j + 4])
            a0[at + shift], w0[at + shift] = l0, u0 - l0
            a1[at + shift], w1[at + shift] = l1, u1 - l1
        return Vec(a0, a1, w0, w1)

    def _chunk(self, c: int) -> _Chunk:
        offset, length, values, voids, bounds = self.chunk_spans[c]
        body = zlib.decompress(self.packed[offset:offset + length])
        arrays = []
        at = 0
        for count in (values, voids, voids, bounds, 4 * bounds):
            arrays.append(_unplanes(body[at:at + 4 * count], "i", count))
            at += 4 * count
        seat0, void_at, void, wide_gaps, wide = arrays
        return _Chunk(seat0, void_at, void, array("i", accumulate(wide_gaps)), wide)


def _down(p: float) -> int:
    return max(0, min(_COARSE_TOP, math.floor(p * _COARSE)))


def _up(p: float) -> int:
    return max(0, min(_COARSE_TOP, math.ceil(p * _COARSE)))


def _planes(data: array[int]) -> bytes:
    """The bytes of ``data`` grouped by significance (all lowest bytes first …): the
    high bytes of small numbers are zeros in a row, which compress to little."""
    raw = data.tobytes()
    return b"".join(raw[i::data.itemsize] for i in range(data.itemsize))


def _unplanes(blob: bytes, code: str, count: int) -> array[int]:
    out = array(code)
    width = out.itemsize
    raw = bytearray(width * count)
    for i in range(width):
        raw[i::width] = blob[i * count:(i + 1) * count]
    out.frombytes(bytes(raw))
    return out


def _differences(values: Sequence[int]) -> list[int]:
    return [b - a for a, b in zip((0, *values), values, strict=False)]


def write_table(path: Path, sizes: tuple[int, int], totals: Sequence[int],
                entries: dict[TypeKey, Vec], meta: dict[str, Any]) -> None:
    """Write ``entries`` (pool keys and their values) in the table format: a JSON header
    line (with where each chunk lies), the keys (differences of their sorted codes) and
    where each key's values start, then the chunks — each key's seat-0 chances as
    differences along x from 0, the void chances where there are any, and the entries
    that are bounds (low rounded down, high up, so that they still hold)."""
    keys = sorted(entries, key=_code)
    starts = array("i", [0])
    for key in keys:
        starts.append(starts[-1] + len(entries[key].a0) - _first(key))
    chunk_keys: list[int] = []
    blobs: list[bytes] = []
    spans: list[list[int]] = []
    offset = 0
    i = 0
    while i < len(keys):
        chunk_keys.append(i)
        base = starts[i]
        seat0, void_at, void = array("i"), array("i"), array("i")
        wide_at, wide = array("i"), array("i")
        while i < len(keys) and (len(seat0) < CHUNK or not seat0):
            v = entries[keys[i]]
            last = 0
            for x in range(_first(keys[i]), len(v.a0)):
                at = starts[i] - base + x - _first(keys[i])
                l0, w0, l1, w1 = v.at(x)
                if w0 or w1:
                    wide_at.append(at)
                    wide.extend((_down(l0), _up(l0 + w0), _down(l1), _up(l1 + w1)))
                    q = last
                else:
                    q = round(l0 * _SCALE)
                    gap = round((1.0 - l1) * _SCALE) - q
                    if gap > 0:
                        void_at.append(at)
                        void.append(gap)
                seat0.append(q - last)
                last = q
            i += 1
        blob = zlib.compress(b"".join(_planes(a) for a in (
            seat0, void_at, void, array("i", _differences(wide_at)), wide)), 9)
        spans.append([offset, len(blob), len(seat0), len(void), len(wide_at)])
        blobs.append(blob)
        offset += len(blob)
    index = zlib.compress(_planes(array("q", _differences([_code(k) for k in keys])))
                          + _planes(starts), 9)
    header = {"format": FORMAT, "sizes": list(sizes), "totals": list(totals),
              "keys": len(keys), "values": starts[-1], "index": len(index),
              "chunk_keys": chunk_keys, "chunks": spans, **meta}
    path.write_bytes(json.dumps(header).encode() + b"\n" + index + b"".join(blobs))


@lru_cache(maxsize=32)
def load_table(sizes: tuple[int, int], totals: tuple[int, ...]) -> ExactTable | None:
    """The shipped table of a game, or ``None`` (none ships for it)."""
    path = DATA_DIR / table_name(sizes, totals)
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    line, _, rest = raw.partition(b"\n")
    header = json.loads(line)
    if header.get("format") != FORMAT:
        return None
    n = header["keys"]
    index = zlib.decompress(rest[:header["index"]])
    codes = array("q", accumulate(_unplanes(index[:8 * n], "q", n)))
    starts = _unplanes(index[8 * n:], "i", n + 1)
    spans = [(a, b, c, d, e) for a, b, c, d, e in header["chunks"]]
    return ExactTable(sizes, totals, codes, starts, header["chunk_keys"], spans,
                      rest[header["index"]:])


# -- building ------------------------------------------------------------------------------


class _Graph:
    """The types a solve computed, each with the types it needs (a pair of pools is one
    unit), in the order they were finished (children before parents)."""

    def __init__(self) -> None:
        self.unit: dict[TypeKey, int] = {}
        self.keys: list[tuple[TypeKey, ...]] = []
        self.needs: list[set[int]] = []
        self.length: list[int] = []
        self.finished: list[int] = []
        self._stack: list[int] = []

    def enter(self, keys: tuple[TypeKey, ...]) -> None:
        u = len(self.keys)
        for key in keys:
            self.unit[key] = u
        self.keys.append(tuple(dict.fromkeys(keys)))
        self.needs.append(set())
        self.length.append(0)
        if self._stack:
            self.needs[self._stack[-1]].add(u)
        self._stack.append(u)

    def use(self, key: TypeKey) -> None:
        if self._stack:
            self.needs[self._stack[-1]].add(self.unit[key])

    def leave(self, length: int) -> None:
        u = self._stack.pop()
        self.length[u] = length
        self.finished.append(u)


def select(graph: _Graph, reach: int) -> tuple[list[int], int]:
    """The pool units to ship so that none left out needs more than ``reach`` types, and
    the most types any other unit then needs (an answer's cost)."""
    shipped = [False] * len(graph.keys)
    needs: list[set[int]] = [set() for _ in graph.keys]
    worst = 0
    for u in graph.finished:
        found = {u}
        for c in graph.needs[u]:
            if not shipped[c]:
                found |= needs[c]
        if graph.keys[u][0][0] == POOL and len(found) > reach:
            shipped[u] = True
            continue
        needs[u] = found
        worst = max(worst, len(found))
    return [u for u in range(len(shipped)) if shipped[u]], worst


def solve_round(sizes: tuple[int, int], totals: Sequence[int],
                trace: _Graph | None = None) -> RoundSolver:
    """A solver that has solved every position of the round from the deal (either seat
    first, the discard pile empty)."""
    solver = RoundSolver(sizes, totals)
    solver.trace = trace
    live = tuple(totals[:-1])
    for turn in (0, 1):
        solver.draw(turn, (DOWN,) * sizes[0], (DOWN,) * sizes[1], live, -1)
    return solver


def build(preset: str, sizes: tuple[int, int], worst: int = WORST,
          directory: Path = DATA_DIR) -> dict[str, Any]:
    """Solve a game's round from the deal and write its table: the fewest pool pairs
    (by the largest ``reach`` of :func:`select`) that keep every answer within ``worst``
    types. Returns the figures."""
    rules = Rules.preset_named(preset)
    totals = class_totals(rules, sizes[0])
    began = time.perf_counter()
    graph = _Graph()
    solver = solve_round(sizes, totals, graph)
    seconds = time.perf_counter() - began
    # the cost grows about linearly with the reach: a few secant steps find the largest
    # reach that meets the target (reach 1 always does: every pool shipped)
    best, shipped, cost = 1, *select(graph, 1)
    reach = max(2, worst // 3)
    for _ in range(5):
        found, found_cost = select(graph, reach)
        if found_cost <= worst and reach > best:
            best, shipped, cost = reach, found, found_cost
        reach = max(2, min(worst, int(reach * worst / max(found_cost, 1) * 0.98)))
        if reach == best:
            break
    entries = {key: solver.memo[key] for u in shipped for key in graph.keys[u]}
    directory.mkdir(exist_ok=True)
    path = directory / table_name(sizes, totals)
    figures = {"preset": preset, "types": solver.computed, "solve_seconds": round(seconds, 1),
               "reach": best, "shipped_pairs": len(shipped), "worst_cost": cost}
    write_table(path, sizes, totals, entries, figures)
    figures["bytes"] = path.stat().st_size
    return figures


def main(argv: Iterable[str] | None = None) -> None:
    """``python -m trashcards.ai.exact_tables [PRESET:AxB …]``: write the shipped tables
    (all of :data:`GAMES` by default)."""
    args = list(argv if argv is not None else sys.argv[1:])
    games = GAMES if not args else tuple(
        (text.partition(":")[0], (int(text.partition(":")[2].split("x")[0]),
                                  int(text.partition(":")[2].split("x")[1])))
        for text in args)
    for preset, sizes in games:
        figures = build(preset, sizes)
        print(json.dumps(figures), file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
