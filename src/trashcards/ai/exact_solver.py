"""Exact round values for two players, computed for every count of dead cards at once.

The game and the values are those of :mod:`.solver` (docs/ai.md, "The exact solver": card
classes, chance from the unseen multiset, bounds on what follows a reshuffle); only the
bookkeeping differs, and it makes the solver some hundred times faster in pure Python:

* **The dead cards are a vector index.** A node of :mod:`.solver` differs from many others
  only in ``x``, the number of unseen dead (class X) cards. Drawing or turning up a dead
  card changes nothing but ``x`` (one fewer) and, for a draw, the turn; every other card
  leaves ``x`` alone. So the solver keys its memo by everything but ``x`` (a *type*) and
  computes each type's values for every ``x`` at once, as lists indexed by ``x``. The one
  loop this creates — a dead card drawn by one seat hands the turn to the other, whose
  dead card hands it back — is the pair of *pool* types of the two seats with the same
  boards and live cards, computed together, ``x`` ascending (:meth:`RoundSolver._pools`).
* **What the top discard does not change is not in the type.** The discard pile's cards
  follow from the rest (the match's cards less those on the boards, in hand and unseen),
  so below the top nothing is kept; the top itself matters only to the player about to
  draw, and only if they can play it — or when the stock is empty, where the solver
  reshuffles (and bounds what follows, as :mod:`.solver` does). After a draw the top is
  buried when the turn ends, so decisions inside a turn (a wild to place, a swap) carry
  no top at all.
* **Symmetry.** Pip classes that play the same role are relabelled into a canonical
  order (:mod:`.solver`'s argument), and with boards of equal sizes the two seats are
  too: a type of seat 1 is stored as seat 0's with the boards and values swapped.

Values are bounds, as in :mod:`.solver`'s ``"bound"`` mode: each seat's chance of winning
the round lies in ``[low, low + width]``; widths come only from positions after a
reshuffle, and a value is exact when its widths are 0. Chance is a weighted sum and a
decision takes, for each ``x``, the action the player to act prefers (every action that
may be the best, when widths are not 0), exactly as :func:`.solver._choose` does, so the
values agree with :mod:`.solver` to rounding (a test compares them position by position).

:class:`RoundSolver` takes a *table* (``get(key)``: the shipped values of large pool
types, :mod:`.exact_tables`) and a *budget* (types computed before it gives up,
:class:`~.solver.OutOfReachError`), so that an answer costs a bounded amount of work.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from ..actions import DISCARD, STOCK, SWAP, TRASH, Action, wild
from ..rules import WILD, Rules
from ..state import Phase
from ..views import View
from .solver import ActionSolution, OutOfReachError, Solution

__all__ = ["EPS", "POOL", "PoolKey", "Position", "RoundSolver", "Trace", "TypeKey", "Vec",
           "choose_point", "class_totals", "plain_entries", "position_of", "solve_position"]

DOWN, NATURAL, WILD_SLOT = 0, 1, 2
DRAW, WILD_PHASE, SWAP_PHASE, POOL = 0, 1, 2, 3
_PHASES: Final = {Phase.DRAW: DRAW, Phase.WILD: WILD_PHASE, Phase.SWAP: SWAP_PHASE}
#: Chances closer than this are equal for the player choosing (as in :mod:`.solver`).
EPS: Final = 1e-15

Board = tuple[int, ...]
#: A memoised type: ``(POOL, turn, board 0, board 1, live)``,
#: ``(DRAW, turn, b0, b1, live, top)``, ``(WILD_PHASE, turn, b0, b1, live, must)`` or
#: ``(SWAP_PHASE, turn, b0, b1, live, hand, must)``; ``live`` counts the unseen cards of
#: each pip class and the wild class.
TypeKey = tuple[object, ...]
#: A pool type's key (what :mod:`.exact_tables` ships).
PoolKey = tuple[int, int, Board, Board, tuple[int, ...]]
Point = tuple[float, float, float, float]
_VOID: Final[Point] = (0.0, 0.0, 0.0, 0.0)
_UNKNOWN: Final[Point] = (0.0, 1.0, 0.0, 1.0)
_WINS: Final[tuple[Point, Point]] = ((1.0, 0.0, 0.0, 0.0), (0.0, 0.0, 1.0, 0.0))


class Vec:
    """A type's values for every count ``x`` of unseen dead cards: seat 0's and seat 1's
    lowest round-win chance (``a0``, ``a1``) and the widths of their intervals (``w0``,
    ``w1``; ``None`` when all are 0, i.e. exact)."""

    __slots__ = ("a0", "a1", "w0", "w1")

    def __init__(self, a0: list[float], a1: list[float], w0: list[float] | None = None,
                 w1: list[float] | None = None) -> None:
        self.a0, self.a1, self.w0, self.w1 = a0, a1, w0, w1

    def swapped(self) -> Vec:
        """The same values with the seats exchanged."""
        return Vec(self.a1, self.a0, self.w1, self.w0)

    def at(self, x: int) -> Point:
        """``(low 0, width 0, low 1, width 1)`` at ``x``."""
        return (self.a0[x], self.w0[x] if self.w0 is not None else 0.0, self.a1[x],
                self.w1[x] if self.w1 is not None else 0.0)

    def window(self, shift: int, length: int) -> Vec:
        """Entries ``shift`` … ``shift + length − 1`` (for a caller with ``shift`` fewer
        dead cards: the cards of a class that just died count as dead from then on)."""
        if shift == 0 and len(self.a0) == length:
            return self
        return Vec(self.a0[shift:shift + length], self.a1[shift:shift + length],
                   None if self.w0 is None else self.w0[shift:shift + length],
                   None if self.w1 is None else self.w1[shift:shift + length])


Table = Callable[[TypeKey], "Vec | None"]


class Trace(Protocol):
    """What a solver reports while it computes, for :mod:`.exact_tables`: a type (or a
    pair of pools) begins, a computed type is used again, the type just begun ends."""

    def enter(self, keys: tuple[TypeKey, ...]) -> None: ...

    def use(self, key: TypeKey) -> None: ...

    def leave(self, length: int) -> None: ...


def class_totals(rules: Rules, size: int) -> tuple[int, ...]:
    """The match's cards by class for boards of at most ``size`` slots: pip classes 1 …
    ``size``, then wild, then dead (RULES.md §1; two players)."""
    totals = [0] * (size + 2)
    roles = rules.roles()
    for card in rules.match_cards(2):
        role = roles[card]
        if role == WILD:
            totals[size] += 1
        elif 1 <= role <= size:
            totals[role - 1] += 1
        else:
            totals[size + 1] += 1
    return tuple(totals)


class RoundSolver:
    """Exact round values (bounds after reshuffles) for one pair of board sizes and one
    set of card counts (:func:`class_totals`), seat 0's board at least as large as seat
    1's. ``table``: values of pool types computed beforehand; ``budget``: the most types
    (a pair of pools counts once) it may compute before it raises
    :class:`~.solver.OutOfReachError`."""

    def __init__(self, sizes: tuple[int, int], totals: Sequence[int],
                 table: Table | None = None, budget: int | None = None) -> None:
        if not all(1 <= n <= 10 for n in sizes):
            raise ValueError("board sizes are 1 to 10")
        m = max(sizes)
        if len(totals) != m + 2:
            raise ValueError(f"{m + 2} class counts expected for boards of {sizes}")
        self.sizes = sizes
        self.m = m
        self.w = m
        self.x = m + 1
        self.totals = tuple(totals)
        small = min(sizes)
        self.groups = tuple(g for g in (tuple(range(small)), tuple(range(small, m)))
                            if len(g) > 1)
        self.symmetric_seats = sizes[0] == sizes[1]
        self.table = table
        self.budget = budget
        self.memo: dict[TypeKey, Vec] = {}
        #: what each type asked for came to, as asked (before the symmetries), and the
        #: memoised type it rests on
        self.raw: dict[TypeKey, tuple[Vec, TypeKey]] = {}
        #: types computed (a pair of pools once), the measure of work
        self.computed = 0
        self.looked_up = 0
        self._xcap: dict[tuple[Board, Board], int] = {}
        self._weights: dict[tuple[int, int, int], list[float]] = {}
        #: records which types each type needs (:mod:`.exact_tables` builds on it)
        self.trace: Trace | None = None
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

    # -- the abstraction ---------------------------------------------------------------

    def dead_cap(self, b0: Board, b1: Board) -> int:
        """The dead cards of the match with these boards: class X and every pip class no
        board can use any more (its slot holds its natural on every board that has it)."""
        found = self._xcap.get((b0, b1))
        if found is None:
            found = self.totals[self.x]
            for c in range(self.m):
                if (c >= len(b0) or b0[c] == NATURAL) and (c >= len(b1) or b1[c] == NATURAL):
                    found += self.totals[c]
            self._xcap[(b0, b1)] = found
        return found

    def playable(self, c: int, board: Board) -> bool:
        if c == self.w:
            return DOWN in board
        return 0 <= c < self.m and c < len(board) and board[c] != NATURAL

    def canonical(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...], top: int,
                  hand: int) -> tuple[int, Board, Board, tuple[int, ...], int, int, bool]:
        """The representative of a type under the symmetries (and whether the seats were
        exchanged): equal boards' seats, then pip classes sorted within their group by
        everything the type says about them."""
        swapped = False
        if self.symmetric_seats and turn == 1:
            turn, b0, b1, swapped = 0, b1, b0, True
        for group in self.groups:
            n0, n1 = len(b0), len(b1)
            marks = [((((b0[c] if c < n0 else 3) * 4 + (b1[c] if c < n1 else 3)) * 64
                       + live[c]) * 4 + (c == top) * 2 + (c == hand)) for c in group]
            if marks == sorted(marks):
                continue
            order = sorted(range(len(group)), key=marks.__getitem__)
            perm = list(range(self.m + 2))
            for slot, k in zip(group, order, strict=True):
                perm[slot] = group[k]
            b0 = tuple([b0[perm[i]] for i in range(n0)])
            b1 = tuple([b1[perm[i]] for i in range(n1)])
            live = tuple([live[perm[i]] for i in range(len(live))])
            if top >= 0 or hand >= 0:
                inverse = [0] * len(perm)
                for i, c in enumerate(perm):
                    inverse[c] = i
                top = inverse[top] if top >= 0 else top
                hand = inverse[hand] if hand >= 0 else hand
        return turn, b0, b1, live, top, hand, swapped

    def _memo(self, key: TypeKey, swapped: bool, compute: Callable[[], Vec]) -> Vec:
        found = self.memo.get(key)
        if found is None:
            if self.budget is not None and self.computed >= self.budget:
                raise OutOfReachError(f"over the budget of {self.budget} solver types")
            if self.trace is not None:
                self.trace.enter((key,))
            found = compute()
            self.computed += 1
            self.memo[key] = found
            if self.trace is not None:
                self.trace.leave(len(found.a0))
        elif self.trace is not None:
            self.trace.use(key)
        return found.swapped() if swapped else found

    # -- types -------------------------------------------------------------------------

    def _seen(self, raw: TypeKey) -> Vec | None:
        """A type asked for before, as asked (no symmetry to apply)."""
        found = self.raw.get(raw)
        if found is None:
            return None
        if self.trace is not None:
            self.trace.use(found[1])
        return found[0]

    def draw(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...], top: int) -> Vec:
        """The start of ``turn``'s turn, ``top`` on the discard pile (-1: none)."""
        raw: TypeKey = (DRAW, turn, b0, b1, live, top)
        found = self._seen(raw)
        if found is not None:
            return found
        mine = b1 if turn else b0
        if top < 0 or not self.playable(top, mine):
            # only the stock: the top is buried when the turn ends, and matters only to
            # a reshuffle (the stock is empty when x is down − live)
            found = self.pool(turn, b0, b1, live)
            empty = b0.count(DOWN) + b1.count(DOWN) - sum(live)
            if 0 <= empty < len(found.a0):
                found = _patched(found, empty, self.reshuffle(turn, b0, b1, live, empty, top))
            self.raw[raw] = (found, self.raw[(POOL, turn, b0, b1, live)][1])
            return found
        t, c0, c1, cl, ctop, _hand, swapped = self.canonical(turn, b0, b1, live, top, -1)
        key: TypeKey = (DRAW, t, c0, c1, cl, ctop)
        found = self._memo(key, swapped, lambda: self._draw(t, c0, c1, cl, ctop))
        self.raw[raw] = (found, key)
        return found

    def _draw(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...], top: int) -> Vec:
        pool = self.pool(turn, b0, b1, live)
        empty = b0.count(DOWN) + b1.count(DOWN) - sum(live)
        if 0 <= empty < len(pool.a0):
            pool = _patched(pool, empty, self.reshuffle(turn, b0, b1, live, empty, top))
        return choose([pool, self.resolve(turn, b0, b1, live, top, True)], turn)

    def pool(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...]) -> Vec:
        """A card drawn at random from the unseen cards (a stock draw before any
        reshuffle, or the card a placement turns up) comes into ``turn``'s hand."""
        raw: TypeKey = (POOL, turn, b0, b1, live)
        seen = self._seen(raw)
        if seen is not None:
            return seen
        t, c0, c1, cl, _top, _hand, swapped = self.canonical(turn, b0, b1, live, -1, -1)
        key: TypeKey = (POOL, t, c0, c1, cl)
        found = self._pool(key, swapped, turn, b0, b1, live)
        self.raw[raw] = (found, key)
        return found

    def _pool(self, key: TypeKey, swapped: bool, turn: int, b0: Board, b1: Board,
              live: tuple[int, ...]) -> Vec:
        found = self.memo.get(key)
        if found is None and self.table is not None:
            found = self.table(key)
            if found is not None:
                self.looked_up += 1
                self.memo[key] = found
        if found is None:
            if self.budget is not None and self.computed >= self.budget:
                raise OutOfReachError(f"over the budget of {self.budget} solver types")
            keys = []
            for seat in (0, 1):
                s, s0, s1, sl, _t, _h, flip = self.canonical(seat, b0, b1, live, -1, -1)
                keys.append(((POOL, s, s0, s1, sl), flip))
            if self.trace is not None:
                self.trace.enter(tuple(k for k, _flip in keys))
            pair = self._pools(b0, b1, live)
            self.computed += 1
            for (k, flip), v in zip(keys, pair, strict=True):
                self.memo.setdefault(k, v.swapped() if flip else v)
            if self.trace is not None:
                self.trace.leave(len(pair[0].a0))
            return pair[turn]
        if self.trace is not None:
            self.trace.use(key)
        return found.swapped() if swapped else found

    def _pools(self, b0: Board, b1: Board, live: tuple[int, ...]) -> tuple[Vec, Vec]:
        """Both seats' pools with these boards and live cards. A live card ``c`` leads to
        fewer live cards; a dead card to the other seat's turn (it ends this one) with
        one dead card fewer: ``P_t(x) = G_t(x) + x/(n + x) · D_{1−t}(x − 1)``, where
        ``G_t`` is the live part and ``D_s`` the other seat's draw with a dead top —
        ``P_s`` itself, except on an empty stock, where the pile is reshuffled."""
        d = self.dead_cap(b0, b1) + 1
        n = sum(live)
        down = b0.count(DOWN) + b1.count(DOWN)
        empty = down - n  # the x at which the stock is empty
        low = max(0, empty + 1)  # the pool holds at least one card of the stock or below
        parts = []
        wide = False
        for turn in (0, 1):
            a0 = [0.0] * d
            a1 = [0.0] * d
            w0: list[float] | None = None
            w1: list[float] | None = None
            for c, k in enumerate(live):
                if not k:
                    continue
                v = self.resolve(turn, b0, b1, (*live[:c], k - 1, *live[c + 1:]), c, False)
                p = self._weight(k, n, d)
                a0 = [s + q * y for s, q, y in zip(a0, p, v.a0, strict=True)]
                a1 = [s + q * y for s, q, y in zip(a1, p, v.a1, strict=True)]
                if v.w0 is not None and v.w1 is not None:
                    if w0 is None or w1 is None:
                        w0, w1 = [0.0] * d, [0.0] * d
                    w0 = [s + q * y for s, q, y in zip(w0, p, v.w0, strict=True)]
                    w1 = [s + q * y for s, q, y in zip(w1, p, v.w1, strict=True)]
            wide = wide or w0 is not None
            parts.append((a0, a1, w0, w1))
        ends: list[Point] = [_VOID, _VOID]
        if 0 <= empty < d:
            ends = [self.reshuffle(s, b0, b1, live, empty, self.x) for s in (0, 1)]
            wide = wide or any(e[1] or e[3] for e in ends)
        comps = (0, 1, 2, 3) if wide else (0, 1)
        full = []
        for a0, a1, w0, w1 in parts:
            full.append([a0, a1, w0 if w0 is not None else [0.0] * d,
                         w1 if w1 is not None else [0.0] * d])
        f0, f1 = full
        lows = (ends[0][0], ends[0][2], ends[0][1], ends[0][3]), \
            (ends[1][0], ends[1][2], ends[1][1], ends[1][3])
        dead = self._weight(-1, n, d)
        for x in range(max(low, 1), d):
            q = dead[x]
            if x - 1 == empty:
                for j in comps:
                    f0[j][x] += q * lows[1][j]
                    f1[j][x] += q * lows[0][j]
            else:
                for j in comps:
                    f0[j][x] += q * f1[j][x - 1]
                    f1[j][x] += q * f0[j][x - 1]
        out = []
        for a0, a1, w0, w1 in full:
            for i in range(min(low, d)):
                a0[i] = a1[i] = w0[i] = w1[i] = 0.0
            if wide and (any(w0) or any(w1)):
                out.append(Vec(a0, a1, w0, w1))
            else:
                out.append(Vec(a0, a1))
        return out[0], out[1]

    def _weight(self, k: int, n: int, d: int) -> list[float]:
        """``k / (n + x)`` for every x (``k = -1``: ``x / (n + x)``, a dead card)."""
        key = (k, n, d)
        found = self._weights.get(key)
        if found is None:
            found = [((x if k < 0 else k) / (n + x)) if n + x else 0.0 for x in range(d)]
            self._weights[key] = found
        return found

    def resolve(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...], c: int,
                must: bool) -> Vec:
        """Card class ``c`` in ``turn``'s hand (already out of ``live``): the chain
        (RULES.md §5.2)."""
        if c == self.w:
            return self.wild(turn, b0, b1, live, must)
        mine = b1 if turn else b0
        if c < len(mine):
            slot = mine[c]
            if slot == DOWN:
                return self.place(turn, b0, b1, live, c, NATURAL)
            if slot == WILD_SLOT:
                return self.swap(turn, b0, b1, live, c, must)
        return self.draw(1 - turn, b0, b1, live, c)

    def place(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...], k: int,
              what: int) -> Vec:
        """A card face up on ``turn``'s face-down slot ``k``: the round is won, or the card
        there is turned up (a draw from the pool)."""
        mine = b1 if turn else b0
        new = (*mine[:k], what, *mine[k + 1:])
        d = self.dead_cap(b0, b1) + 1
        if DOWN not in new:
            return _win(turn, d)
        n0, n1 = (b0, new) if turn else (new, b1)
        shift = 0
        if what == NATURAL and (k >= len(n0) or n0[k] == NATURAL) \
                and (k >= len(n1) or n1[k] == NATURAL):
            shift = live[k]  # the class is dead now: its unseen cards with it
            live = (*live[:k], 0, *live[k + 1:])
        return self.pool(turn, n0, n1, live).window(shift, d)

    def wild(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...],
             must: bool) -> Vec:
        """A wild in ``turn``'s hand: on a face-down slot, or trashed (not when taken
        from the discard pile)."""
        raw: TypeKey = (WILD_PHASE, turn, b0, b1, live, must)
        found = self._seen(raw)
        if found is not None:
            return found
        t, c0, c1, cl, _top, _hand, swapped = self.canonical(turn, b0, b1, live, -1, self.w)
        key: TypeKey = (WILD_PHASE, t, c0, c1, cl, must)
        found = self._memo(key, swapped, lambda: self._wild(t, c0, c1, cl, must))
        self.raw[raw] = (found, key)
        return found

    def _wild(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...],
              must: bool) -> Vec:
        mine = b1 if turn else b0
        options = [self.place(turn, b0, b1, live, k, WILD_SLOT)
                   for k, slot in enumerate(mine) if slot == DOWN]
        if not must:
            options.append(self.draw(1 - turn, b0, b1, live, self.w))
        return options[0] if len(options) == 1 else choose(options, turn)

    def swap(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...], c: int,
             must: bool) -> Vec:
        """Pip ``c`` in ``turn``'s hand with a wild on its slot: swap, or trash."""
        raw: TypeKey = (SWAP_PHASE, turn, b0, b1, live, c, must)
        found = self._seen(raw)
        if found is not None:
            return found
        t, c0, c1, cl, _top, ch, swapped = self.canonical(turn, b0, b1, live, -1, c)
        key: TypeKey = (SWAP_PHASE, t, c0, c1, cl, ch, must)
        found = self._memo(key, swapped, lambda: self._swap(t, c0, c1, cl, ch, must))
        self.raw[raw] = (found, key)
        return found

    def _swap(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...], c: int,
              must: bool) -> Vec:
        swapped = self.swap_in(turn, b0, b1, live, c)
        if must:
            return swapped
        return choose([swapped, self.draw(1 - turn, b0, b1, live, c)], turn)

    def swap_in(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...],
                c: int) -> Vec:
        """Pip ``c`` takes its slot; the wild comes into hand (and must not be trashed
        only if it came from the discard pile: here it did not)."""
        mine = b1 if turn else b0
        new = (*mine[:c], NATURAL, *mine[c + 1:])
        n0, n1 = (b0, new) if turn else (new, b1)
        shift = 0
        if (c >= len(n0) or n0[c] == NATURAL) and (c >= len(n1) or n1[c] == NATURAL):
            shift = live[c]
            live = (*live[:c], 0, *live[c + 1:])
        return self.wild(turn, n0, n1, live, False).window(shift, self.dead_cap(b0, b1) + 1)

    # -- the stock runs out ------------------------------------------------------------

    def reshuffle(self, turn: int, b0: Board, b1: Board, live: tuple[int, ...], x: int,
                  top: int) -> Point:
        """``turn`` draws from an empty stock with ``x`` dead cards unseen: a void round,
        or the pile below ``top`` becomes the stock (RULES.md §5.4). The first card drawn
        and the chain it starts are solved; every position after it is bounded by
        [0, 1] for each seat, as :mod:`.solver` does."""
        left = list(self.totals)
        for board in (b0, b1):
            for k, slot in enumerate(board):
                if slot == NATURAL:
                    left[k] -= 1
                elif slot == WILD_SLOT:
                    left[self.w] -= 1
        for c in range(self.m):
            if all(c >= len(b) or b[c] == NATURAL for b in (b0, b1)):
                left[self.x] += left[c]
                left[c] = 0
        unseen = (*live, x)
        below = [a - b for a, b in zip(left, unseen, strict=True)]
        if top >= 0:
            below[top] -= 1
        if sum(below) == 0:
            return _VOID
        pile = [c for c, k in enumerate(below) if k] + ([top] if top >= 0 else [])
        if not any(self.playable(c, b) for c in pile for b in (b0, b1)):
            return _VOID
        total = sum(below)
        out = [0.0, 0.0, 0.0, 0.0]
        for c, k in enumerate(below):
            if k:
                v = self._after_reshuffle(turn, b0, b1, unseen, c)
                for i in range(4):
                    out[i] += k / total * v[i]
        return (out[0], out[1], out[2], out[3])

    def _after_reshuffle(self, turn: int, b0: Board, b1: Board, down: tuple[int, ...],
                         c: int) -> Point:
        """Card ``c`` in hand after a reshuffle, ``down`` the face-down cards by class: a
        completed board is a win; any other position is bounded."""
        mine = b1 if turn else b0
        if not (c < self.m and c < len(mine) and mine[c] == DOWN):
            return _UNKNOWN
        new = (*mine[:c], NATURAL, *mine[c + 1:])
        if DOWN not in new:
            return _WINS[turn]
        n0, n1 = (b0, new) if turn else (new, b1)
        if all(c >= len(b) or b[c] == NATURAL for b in (n0, n1)) and down[c]:
            merged = list(down)
            merged[self.x] += merged[c]
            merged[c] = 0
            down = tuple(merged)
        total = sum(down)
        out = [0.0, 0.0, 0.0, 0.0]
        for d, k in enumerate(down):
            if k:
                v = self._after_reshuffle(turn, n0, n1, (*down[:d], k - 1, *down[d + 1:]), d)
                for i in range(4):
                    out[i] += k / total * v[i]
        return (out[0], out[1], out[2], out[3])


def _win(seat: int, d: int) -> Vec:
    one, zero = [1.0] * d, [0.0] * d
    return Vec(one, zero) if seat == 0 else Vec(zero, one)


def _patched(v: Vec, x: int, point: Point) -> Vec:
    """``v`` with the entry at ``x`` replaced."""
    a0, a1 = list(v.a0), list(v.a1)
    w0 = list(v.w0) if v.w0 is not None else [0.0] * len(a0)
    w1 = list(v.w1) if v.w1 is not None else [0.0] * len(a0)
    a0[x], w0[x], a1[x], w1[x] = point
    if not any(w0) and not any(w1):
        return Vec(a0, a1)
    return Vec(a0, a1, w0, w1)


def choose(options: Sequence[Vec], turn: int) -> Vec:
    """A decision of ``turn``, for every x: the highest chance for themselves, then the
    lowest for the other (which matters only when a void round is possible); with
    bounds, every action whose interval reaches the best lower bound is a candidate and
    the result covers them all (:func:`.solver._choose`)."""
    first = options[0]
    if all(v.w0 is None for v in options):
        best, other = (first.a0, first.a1) if turn == 0 else (first.a1, first.a0)
        for v in options[1:]:
            mine, theirs = (v.a0, v.a1) if turn == 0 else (v.a1, v.a0)
            pick = [m > b + EPS or (m >= b - EPS and (t < u or (t == u and m > b)))
                    for m, b, t, u in zip(mine, best, theirs, other, strict=True)]
            if any(pick):
                best = [m if k else b for m, b, k in zip(mine, best, pick, strict=True)]
                other = [t if k else u for t, u, k in zip(theirs, other, pick, strict=True)]
        return Vec(best, other) if turn == 0 else Vec(other, best)
    # the exact rule wherever no option has a width, the bounds rule where one has
    points = choose([Vec(v.a0, v.a1) for v in options], turn)
    n = len(first.a0)
    zero = [0.0] * n
    lows = [(v.a0, v.a1) if turn == 0 else (v.a1, v.a0) for v in options]
    widths = [((v.w0, v.w1) if turn == 0 else (v.w1, v.w0)) if v.w0 is not None
              and v.w1 is not None else (zero, zero) for v in options]
    best, other = (list(points.a0), list(points.a1)) if turn == 0 \
        else (list(points.a1), list(points.a0))
    wb, wo = [0.0] * n, [0.0] * n
    wide: set[int] = set()
    for wm, wt in widths:
        if wm is not zero:
            wide.update(i for i, (p, q) in enumerate(zip(wm, wt, strict=True)) if p or q)
    options_at = range(len(options))
    for i in sorted(wide):
        low = best[i]
        candidates = [k for k in options_at if lows[k][0][i] + widths[k][0][i] >= low - EPS]
        if len(candidates) == 1:
            k = candidates[0]
            best[i], other[i] = lows[k][0][i], lows[k][1][i]
            wb[i], wo[i] = widths[k][0][i], widths[k][1][i]
        elif any(widths[k][0][i] or widths[k][1][i] for k in candidates):
            top = max([lows[k][0][i] + widths[k][0][i] for k in candidates])
            floor = min([lows[k][1][i] for k in candidates])
            roof = max([lows[k][1][i] + widths[k][1][i] for k in candidates])
            best[i], wb[i], other[i], wo[i] = low, top - low, floor, roof - floor
        # else: the candidates are points, and the exact rule above chose among them
    if not any(wb) and not any(wo):
        return Vec(best, other) if turn == 0 else Vec(other, best)
    return Vec(best, other, wb, wo) if turn == 0 else Vec(other, best, wo, wb)


def choose_point(values: Sequence[Point], turn: int) -> Point:
    """:func:`.solver._choose` on points ``(low 0, width 0, low 1, width 1)``."""
    mine, theirs = 2 * turn, 2 - 2 * turn
    low = max([v[mine] for v in values])
    candidates = [v for v in values if v[mine] - low + v[mine + 1] >= -EPS]
    if len(candidates) == 1:
        return candidates[0]
    if not any(v[1] or v[3] for v in candidates):
        return min(candidates, key=lambda v: (v[theirs], -v[mine]))
    width = max([v[mine] - low + v[mine + 1] for v in candidates])
    other = min([v[theirs] for v in candidates])
    spread = max([v[theirs] - other + v[theirs + 1] for v in candidates])
    return (low, width, other, spread) if turn == 0 else (other, spread, low, width)


# -- positions ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Position:
    """A decision of a two-player view in the solver's terms, seat 0 the larger board
    (``flipped``: the view's seats are exchanged): the phase, the player to act, the
    boards, the unseen cards by class (``live``, and ``x`` dead), the top discard, the
    card in hand and whether it must be played; under call-trash (``call_trash``),
    whether the player to act has called this turn and the seat whose completed board
    waits to be claimed (-1: none)."""

    sizes: tuple[int, int]
    totals: tuple[int, ...]
    phase: int
    turn: int
    b0: Board
    b1: Board
    live: tuple[int, ...]
    x: int
    top: int
    hand: int
    must: bool
    flipped: bool
    call_trash: bool = False
    called: bool = False
    unclaimed: int = -1


def position_of(view: View) -> Position:
    """The solver's position of a two-player view with a plain-turn decision due, before
    any reshuffle of the round (:class:`ValueError` otherwise)."""
    rules = view.rules
    if len(view.players) != 2 or view.to_act is None or view.phase not in _PHASES:
        raise ValueError("the solver takes two-player positions with a decision due")
    if rules.last_chance:
        raise ValueError("the solver does not play last chance")
    if len(view.unclaimed) > 1 or view.final_from is not None:
        raise ValueError("a claim is pending for more than one seat")
    if view.stock_known is not None:
        raise ValueError("the stock was reshuffled this round: the solver bounds what "
                         "follows a reshuffle")
    players = view.players
    flipped = players[1].board_size > players[0].board_size
    order = (1, 0) if flipped else (0, 1)
    sizes = (players[order[0]].board_size, players[order[1]].board_size)
    m = sizes[0]
    totals = class_totals(rules, m)
    roles = rules.roles()

    def cls(card: object) -> int:
        role = roles[card]  # type: ignore[index]
        if role == WILD:
            return m
        return role - 1 if 1 <= role <= m else m + 1

    boards = []
    left = list(totals)
    for seat in order:
        slots = []
        for k, card in enumerate(players[seat].slots):
            if card is None:
                slots.append(DOWN)
            elif roles[card] == WILD:
                slots.append(WILD_SLOT)
                left[m] -= 1
            else:
                slots.append(NATURAL)
                left[k] -= 1
        boards.append(tuple(slots))
    b0, b1 = boards
    for card in view.discard:
        left[cls(card)] -= 1
    hand = cls(view.in_hand) if view.in_hand is not None else -1
    if hand >= 0:
        left[hand] -= 1
    top = cls(view.discard[-1]) if view.discard else -1
    for c in range(m):  # classes no board can use are dead
        if (c >= len(b0) or b0[c] == NATURAL) and (c >= len(b1) or b1[c] == NATURAL):
            left[m + 1] += left[c]
            left[c] = 0
            top = m + 1 if top == c else top
            hand = m + 1 if hand == c else hand
    turn = order.index(view.to_act)
    unclaimed = order.index(view.unclaimed[0]) if view.unclaimed else -1
    return Position(sizes, totals, _PHASES[view.phase], turn, b0, b1, tuple(left[:m + 1]),
                    left[m + 1], top, hand, view.must_play, flipped, rules.call_trash,
                    view.called, unclaimed)


def solve_position(solver: RoundSolver, p: Position) -> Solution:
    """Every legal action's values at ``p`` (legal order), for the view's seats."""
    if p.call_trash:
        from .exact_calls import call_trash_entries

        entries = call_trash_entries(solver, p)
    else:
        entries = plain_entries(solver, p)
    actions = []
    for action, (l0, w0, l1, w1) in entries:
        if p.flipped:
            l0, w0, l1, w1 = l1, w1, l0, w0
        actions.append(ActionSolution(action, (l0 + w0 / 2, l1 + w1 / 2),
                                      ((l0, w0), (l1, w1))))
    seat = 1 - p.turn if p.flipped else p.turn
    return Solution(seat, tuple(actions), all(a.error == 0.0 for a in actions))


def plain_entries(solver: RoundSolver, p: Position) -> list[tuple[Action, Point]]:
    """Every legal action of the plain turn at ``p`` with its point (legal order)."""
    s = solver
    turn, b0, b1, live, x = p.turn, p.b0, p.b1, p.live, p.x
    mine = b1 if turn else b0
    entries: list[tuple[Action, Point]] = []
    if p.phase == DRAW:
        if x == b0.count(DOWN) + b1.count(DOWN) - sum(live):
            entries.append((STOCK, s.reshuffle(turn, b0, b1, live, x, p.top)))
        else:
            entries.append((STOCK, s.pool(turn, b0, b1, live).at(x)))
        if p.top >= 0 and s.playable(p.top, mine):
            entries.append((DISCARD, s.resolve(turn, b0, b1, live, p.top, True).at(x)))
    elif p.phase == WILD_PHASE:
        for k, slot in enumerate(mine):
            if slot == DOWN:
                entries.append((wild(k + 1), s.place(turn, b0, b1, live, k, WILD_SLOT).at(x)))
        if not p.must:
            entries.append((TRASH, s.draw(1 - turn, b0, b1, live, s.w).at(x)))
    else:
        entries.append((SWAP, s.swap_in(turn, b0, b1, live, p.hand).at(x)))
        if not p.must:
            entries.append((TRASH, s.draw(1 - turn, b0, b1, live, p.hand).at(x)))
    return entries
