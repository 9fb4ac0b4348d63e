"""Exact optimal play for small boards: two players, one round, full card counting.

The solver computes, for a position of a two-player round, each player's chance of
winning the round when both play optimally from there (each maximising their own chance
of winning the round), and the value of every legal action. docs/ai.md gives the proof
that the abstraction below is exact; in short:

* **Card classes.** For the rest of a round a card matters only through its role on the
  two boards (RULES.md §1, §5): a pip card of rank *r* ≤ the larger board size is class
  *r*; every wild card is class W; every other card (trash faces, pip cards above both
  board sizes) is class X — drawn or turned up, it is discarded and ends the turn, and it
  can never be placed or taken. Suits never matter. So a position is described exactly by
  class counts.
* **Chance.** Trash has no private information: given the public history, the unseen
  cards are spread uniformly over the face-down slots and the stock (before a reshuffle),
  so every turn-up and every stock draw is a card drawn uniformly from the unseen
  multiset; after a reshuffle, stock draws come from the known stock multiset and turn-ups
  from the rest.
* **The discard pile.** Only its top card and the multiset of the others matter: a card
  below the top is never the top at a decision (taking the top starts a turn that ends
  with a new discard on it), and a reshuffle shuffles the cards below the top.

* **Symmetry.** Pip classes that both boards have (or that only the larger board has)
  hold equally many cards and play the same role for their own slot, so relabelling
  them together with their slots on both boards gives the same game move for move. Nodes
  are stored in a canonical labelling (:meth:`Solver.canonical`): up to 6× fewer nodes on
  boards of 3 + 3.

A node is ``(phase, turn, board0, board1, below, top, hand, must_play, stock)``: each
board a tuple of slot states (0 face down, 1 natural, 2 wild), ``below`` the class counts
of the discard pile under its top, ``top`` and ``hand`` a class or -1, ``stock`` the
class counts of the known stock after a reshuffle (``None`` before one).

Before the first reshuffle of a round the game graph is acyclic: every move either turns
a card face up or swaps a wild for its natural (the board progresses) or draws a card
from the stock, which shrinks the unseen pool. Those values are exact (floating point).
Once the stock has been reshuffled, cards can circulate (stock, discard, stock…) and the
graph has cycles. Two ways to handle them (``reshuffles``):

* ``"bound"`` (the default): every position after a reshuffle is given the bounds
  [0, 1] for each seat, and bounds are carried up exactly (a weighted sum at chance, and
  at a decision every action that may be the best counts). A value is reported with its
  interval and ``error`` (half its width); it is **exact** when every path to a reshuffle
  goes through a move that is worse for sure — which is the case from the deal of
  boards up to 3 + 3 in one pack, so those rounds are solved exactly without iterating.
* ``"solve"``: each closed region after a reshuffle is solved by value iteration until no
  value moves by more than :data:`TOLERANCE` in a sweep, and the values that depend on
  it are flagged as "to tolerance". Regions larger than ``max_region`` nodes are refused
  (:class:`OutOfReachError`).

Either way the solver never approximates silently.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Final, Literal

from ..actions import DISCARD, STOCK, SWAP, TRASH, Action, wild
from ..rules import FLAGS, WILD, Rules
from ..state import Phase
from ..views import View

__all__ = ["TOLERANCE", "ActionSolution", "OutOfReachError", "Reshuffles", "Solution",
           "Solver", "solve_view"]

#: Value iteration stops when no value of a cyclic region moves by more than this.
TOLERANCE: Final = 1e-12
#: Largest cyclic region (nodes) the solver iterates by default.
MAX_REGION: Final = 2_000_000

DRAW, WILD_PHASE, SWAP_PHASE = 0, 1, 2
DOWN, NATURAL, WILD_SLOT = 0, 1, 2
_PHASES: Final = {Phase.DRAW: DRAW, Phase.WILD: WILD_PHASE, Phase.SWAP: SWAP_PHASE}

Key = tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int, bool,
            tuple[int, ...] | None]
#: Bounds on each seat's round-win chance, ``(low 0, width 0, low 1, width 1, exact)``
#: (the chance lies in ``[low, low + width]``; widths are carried on their own so that a
#: tiny one is not lost to rounding):
#: ``exact`` is 1.0 when the value comes from expectimax alone, 0.0 when it depends on a
#: region solved by value iteration or on a reshuffle bounded instead of solved.
Value = tuple[float, float, float, float, float]
#: How positions after a reshuffle are handled: solved by value iteration ("solve"), or
#: bounded (each seat's chance somewhere in [0, 1]) and the bounds carried up ("bound").
Reshuffles = Literal["solve", "bound"]
_UNKNOWN: Final[Value] = (0.0, 1.0, 0.0, 1.0, 0.0)
#: An outcome: a node, or a terminal "seat 0 wins" (0), "seat 1 wins" (1), "void" (-1).
Outcome = Key | int
Transition = tuple[Action, tuple[tuple[float, Outcome], ...]]
#: A value inside a region solved by value iteration: each seat's chance.
Point = tuple[float, float]


class OutOfReachError(RuntimeError):
    """A position whose exact solution this solver will not compute (see the message)."""


@dataclass(frozen=True, slots=True)
class ActionSolution:
    """One legal action: each seat's chance of winning the round after it (``values``,
    the middle of ``bounds``), and the interval each lies in (``bounds``: a point unless
    reshuffles were bounded)."""

    action: Action
    values: tuple[float, float]
    #: per seat, (lowest possible chance, width of the interval)
    bounds: tuple[tuple[float, float], tuple[float, float]]

    def for_seat(self, seat: int) -> float:
        return self.values[seat]

    @property
    def error(self) -> float:
        """How far ``values`` can be from the true values (half the widest interval)."""
        return max(width for _low, width in self.bounds) / 2


@dataclass(frozen=True)
class Solution:
    """The solved position: the seat to act, every legal action's values (legal order),
    whether they are exact (expectimax alone), and ``error``: a proven bound on how far
    any value can be from the true one (0 unless reshuffles were bounded; values after a
    reshuffle solved by value iteration are to :data:`TOLERANCE` instead)."""

    seat: int
    actions: tuple[ActionSolution, ...]
    exact: bool

    @property
    def error(self) -> float:
        return max(a.error for a in self.actions)

    @property
    def best(self) -> ActionSolution:
        seat = self.seat
        return max(self.actions, key=lambda a: (a.values[seat], -a.values[1 - seat]))

    def value_of(self, action: Action) -> float:
        for entry in self.actions:
            if entry.action == action:
                return entry.values[self.seat]
        raise ValueError(f"{action} is not legal here")

    def regret(self, action: Action) -> float:
        """The round-win chance ``action`` gives up against the best action (within
        ``2 * error``)."""
        return self.best.values[self.seat] - self.value_of(action)


@dataclass
class _Stats:
    nodes: int = 0
    regions: int = 0
    bounded: int = 0
    region_nodes: int = 0
    sweeps: int = 0
    seconds: float = 0.0


@dataclass
class Solver:
    """A solver for one set of rules and one pair of board sizes (``sizes``: seat 0's,
    seat 1's). Values are memoised, so solving many positions of the same round reuses
    the work."""

    rules: Rules
    sizes: tuple[int, int]
    max_region: int = MAX_REGION
    reshuffles: Reshuffles = "bound"
    #: relabel symmetric pip classes (:meth:`canonical`); off only to test that it is exact
    symmetry: bool = True
    #: stop (:class:`OutOfReachError`) once this many nodes are solved (``None``: never);
    #: the hint sets it to solve only what fits its budget
    max_nodes: int | None = None
    memo: dict[Key, Value] = field(default_factory=dict)
    stats: _Stats = field(default_factory=_Stats)

    def __post_init__(self) -> None:
        if any(getattr(self.rules, flag) for flag in FLAGS):
            raise OutOfReachError("the solver plays the plain turn: call-trash and last "
                                  "chance (no house rule) are not solved")
        if not all(1 <= n <= 10 for n in self.sizes):
            raise ValueError("board sizes are 1 to 10")
        m = max(self.sizes)
        self.m = m
        self.w = m  # index of the wild class
        self.x = m + 1  # index of the dead class
        self.classes = m + 2
        roles = self.rules.roles()
        totals = [0] * self.classes
        for card in self.rules.match_cards(2):
            totals[self.class_of_role(roles[card])] += 1
        self.totals = tuple(totals)
        # Symmetry: pip classes that both boards have (or that only the larger board has)
        # can be relabelled together with their slots — same card counts, same rules.
        small = min(self.sizes)
        self.groups = tuple(g for g in (tuple(range(small)), tuple(range(small, m)))
                            if len(g) > 1) if self.symmetry else ()
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))

    # -- the abstraction -----------------------------------------------------------------

    def class_of_role(self, role: int) -> int:
        if role == WILD:
            return self.w
        if 1 <= role <= self.m:
            return role - 1
        return self.x

    def key_of(self, view: View) -> Key:
        """The node of a two-player view (a decision must be due)."""
        if len(view.players) != 2 or view.to_act is None:
            raise ValueError("the solver takes two-player positions with a decision due")
        sizes = tuple(p.board_size for p in view.players)
        if sizes != self.sizes:
            raise ValueError(f"this solver is for boards of {self.sizes}, not {sizes}")
        roles = view.rules.roles()
        boards = []
        for player in view.players:
            slots = []
            for k, card in enumerate(player.slots):
                if card is None:
                    slots.append(DOWN)
                else:
                    slots.append(WILD_SLOT if roles[card] == WILD else NATURAL)
                    assert roles[card] in (WILD, k + 1)
            boards.append(tuple(slots))
        below = [0] * self.classes
        for card in view.discard[:-1]:
            below[self.class_of_role(roles[card])] += 1
        top = self.class_of_role(roles[view.discard[-1]]) if view.discard else -1
        hand = self.class_of_role(roles[view.in_hand]) if view.in_hand is not None else -1
        stock = None
        if view.stock_known is not None:
            counts = [0] * self.classes
            for card in view.stock_known:
                counts[self.class_of_role(roles[card])] += 1
            stock = tuple(counts)
        return self._raw(_PHASES[view.phase], view.to_act, (boards[0], boards[1]),
                         tuple(below), top, hand, view.must_play, stock)

    def unseen(self, key: Key) -> list[int]:
        """Class counts of the cards not in sight (face-down slots and stock); a pip class
        that no board can use any more counts as class X."""
        _phase, _turn, b0, b1, below, top, hand, _must, _stock = key
        left = list(self.totals)
        for board in (b0, b1):
            for k, slot in enumerate(board):
                if slot == NATURAL:
                    left[k] -= 1
                elif slot == WILD_SLOT:
                    left[self.w] -= 1
        for c in self._dead(b0, b1):
            left[self.x] += left[c]
            left[c] = 0
        for c, n in enumerate(below):
            left[c] -= n
        if top >= 0:
            left[top] -= 1
        if hand >= 0:
            left[hand] -= 1
        return left

    def _dead(self, b0: tuple[int, ...], b1: tuple[int, ...]) -> tuple[int, ...]:
        """Pip classes that neither board can use any more: on every board big enough for
        it, its slot holds its natural card (a natural never leaves its slot)."""
        return tuple(c for c in range(self.m)
                     if all(c >= len(b) or b[c] == NATURAL for b in (b0, b1)))

    # -- the rules on nodes ----------------------------------------------------------------

    def _playable(self, c: int, board: tuple[int, ...]) -> bool:
        if c == self.w:
            return DOWN in board
        if c < self.m and c < len(board):
            return board[c] != NATURAL
        return False

    def transitions(self, key: Key) -> list[Transition]:
        """Every legal action of a node (legal order) with its outcome distribution."""
        phase, turn, b0, b1, below, top, hand, must, stock = key
        boards = (b0, b1)
        mine = boards[turn]
        out: list[Transition] = []
        if phase == DRAW:
            out.append((STOCK, tuple(self._draw(key))))
            if top >= 0 and self._playable(top, mine):
                out.append((DISCARD, tuple(self._resolve(turn, boards, below, -1, top, True,
                                                         stock, 1.0))))
        elif phase == WILD_PHASE:
            for k, slot in enumerate(mine):
                if slot == DOWN:
                    out.append((wild(k + 1), tuple(self._place(turn, boards, below, top, k,
                                                               WILD_SLOT, stock, 1.0))))
            if not must:
                out.append((TRASH, tuple(self._end_turn(turn, boards, below, top, hand,
                                                        stock, 1.0))))
        else:
            new = list(mine)
            new[hand] = NATURAL
            swapped = _with(boards, turn, tuple(new))
            out.append((SWAP, tuple(self._resolve(turn, swapped, below, top, self.w, False,
                                                  stock, 1.0))))
            if not must:
                out.append((TRASH, tuple(self._end_turn(turn, boards, below, top, hand,
                                                        stock, 1.0))))
        return out

    def _node(self, phase: int, turn: int, boards: tuple[tuple[int, ...], ...],
              below: tuple[int, ...], top: int, hand: int, must: bool,
              stock: tuple[int, ...] | None) -> Key:
        """A node in canonical form (:meth:`_raw`, then :meth:`canonical`)."""
        return self.canonical(self._raw(phase, turn, boards, below, top, hand, must, stock))

    def canonical(self, key: Key) -> Key:
        """The representative of ``key`` under relabelling symmetric pip classes (with
        their slots on both boards): within each group the classes are sorted by
        everything the node says about them. Exact: the relabelled round is the same
        game move for move (the classes have equal card counts and the same roles)."""
        if not self.groups:
            return key
        phase, turn, b0, b1, below, top, hand, must, stock = key
        n0, n1 = len(b0), len(b1)
        perm = list(range(self.classes))
        for group in self.groups:
            order = sorted(group, key=lambda c: (
                b0[c] if c < n0 else 3, b1[c] if c < n1 else 3, below[c], c == top,
                c == hand, stock[c] if stock is not None else 0))
            for slot, c in zip(group, order, strict=True):
                perm[slot] = c
        if all(c == i for i, c in enumerate(perm)):
            return key
        inverse = [0] * self.classes
        for i, c in enumerate(perm):
            inverse[c] = i
        return (phase, turn, tuple(b0[perm[i]] for i in range(n0)),
                tuple(b1[perm[i]] for i in range(n1)), tuple(below[c] for c in perm),
                inverse[top] if top >= 0 else top, inverse[hand] if hand >= 0 else hand,
                must, tuple(stock[c] for c in perm) if stock is not None else None)

    def _raw(self, phase: int, turn: int, boards: tuple[tuple[int, ...], ...],
             below: tuple[int, ...], top: int, hand: int, must: bool,
             stock: tuple[int, ...] | None) -> Key:
        """A node with the pip classes no board can use merged into X (exact: such a card
        behaves like any dead card from now on)."""
        dead = self._dead(boards[0], boards[1])
        if dead:
            below = self._merge(below, dead)
            if stock is not None:
                stock = self._merge(stock, dead)
            if top in dead:
                top = self.x
            if hand in dead:
                hand = self.x
        return (phase, turn, boards[0], boards[1], below, top, hand, must, stock)

    def _merge(self, counts: tuple[int, ...], dead: tuple[int, ...]) -> tuple[int, ...]:
        if not any(counts[c] for c in dead):
            return counts
        out = list(counts)
        for c in dead:
            out[self.x] += out[c]
            out[c] = 0
        return tuple(out)

    def _draw(self, key: Key) -> Iterator[tuple[float, Outcome]]:
        _phase, turn, b0, b1, below, top, _hand, _must, stock = key
        boards = (b0, b1)
        unseen = self.unseen(key)
        down = b0.count(DOWN) + b1.count(DOWN)
        count = sum(unseen) - down if stock is None else sum(stock)
        if count == 0:  # RULES.md §5.4: reshuffle, or a void round
            if sum(below) == 0:
                yield 1.0, -1
                return
            pile = [c for c, n in enumerate(below) if n] + ([top] if top >= 0 else [])
            if not any(self._playable(c, b) for c in pile for b in boards):
                yield 1.0, -1
                return
            stock = below
            below = (0,) * self.classes
        pool = unseen if stock is None else list(stock)
        total = sum(pool)
        for c, n in enumerate(pool):
            if n:
                left = stock
                if stock is not None:
                    left = _minus(stock, c)
                yield from self._resolve(turn, boards, below, top, c, False, left, n / total)

    def _resolve(self, turn: int, boards: tuple[tuple[int, ...], ...], below: tuple[int, ...],
                 top: int, c: int, must: bool, stock: tuple[int, ...] | None,
                 p: float) -> Iterator[tuple[float, Outcome]]:
        """The chain (RULES.md §5.2) from card class ``c`` in hand."""
        mine = boards[turn]
        if c == self.w:
            yield p, self._node(WILD_PHASE, turn, boards, below, top, c, must, stock)
            return
        if c < self.m and c < len(mine):
            slot = mine[c]
            if slot == DOWN:
                yield from self._place(turn, boards, below, top, c, NATURAL, stock, p)
                return
            if slot == WILD_SLOT:
                yield p, self._node(SWAP_PHASE, turn, boards, below, top, c, must, stock)
                return
        yield from self._end_turn(turn, boards, below, top, c, stock, p)

    def _place(self, turn: int, boards: tuple[tuple[int, ...], ...], below: tuple[int, ...],
               top: int, k: int, what: int, stock: tuple[int, ...] | None,
               p: float) -> Iterator[tuple[float, Outcome]]:
        """Put a card face up on face-down slot ``k``; the card there comes into hand."""
        new = list(boards[turn])
        new[k] = what
        if DOWN not in new:
            yield p, turn  # the board is complete: the round is won (RULES.md §6)
            return
        placed = _with(boards, turn, tuple(new))
        # the face-down cards: the unseen pool, less the known stock after a reshuffle
        probe = self._raw(DRAW, turn, placed, below, top, -1, False, stock)
        pool = self.unseen(probe)
        if stock is not None:
            pool = [a - b for a, b in zip(pool, stock, strict=True)]
        total = sum(pool)
        for c, n in enumerate(pool):
            if n:
                yield from self._resolve(turn, placed, below, top, c, False, stock,
                                         p * n / total)

    def _end_turn(self, turn: int, boards: tuple[tuple[int, ...], ...],
                  below: tuple[int, ...], top: int, c: int, stock: tuple[int, ...] | None,
                  p: float) -> Iterator[tuple[float, Outcome]]:
        if top >= 0:
            below = _plus(below, top)
        yield p, self._node(DRAW, 1 - turn, boards, below, c, -1, False, stock)

    # -- values ----------------------------------------------------------------------------

    def value(self, key: Key) -> Value:
        """Bounds on each seat's chance of winning the round at a (canonical) node with
        optimal play (see :data:`Value`)."""
        found = self.memo.get(key)
        if found is not None:
            return found
        if key[8] is not None:
            if self.reshuffles == "bound":
                self.stats.bounded += 1
                return _UNKNOWN
            self._solve_region(key)
            return self.memo[key]
        if self.max_nodes is not None and self.stats.nodes >= self.max_nodes:
            raise OutOfReachError(f"over the budget of {self.max_nodes} solved nodes")
        best = _choose([self._expect(outcomes) for _a, outcomes in self.transitions(key)],
                       key[1])
        self.memo[key] = best
        self.stats.nodes += 1
        return best

    def _expect(self, outcomes: tuple[tuple[float, Outcome], ...]) -> Value:
        l0 = w0 = l1 = w1 = 0.0
        exact = 1.0
        for p, outcome in outcomes:
            if isinstance(outcome, int):
                if outcome == 0:
                    l0 += p
                elif outcome == 1:
                    l1 += p
                continue
            a, b, c, d, ok = self.value(outcome)
            l0 += p * a
            w0 += p * b
            l1 += p * c
            w1 += p * d
            exact = min(exact, ok)
        return (l0, w0, l1, w1, exact)

    def _solve_region(self, entry: Key) -> None:
        """Value iteration over every unsolved node reachable from ``entry`` (all after a
        reshuffle, so the region is closed under moves)."""
        began = time.perf_counter()
        region: dict[Key, list[Transition]] = {}
        todo = [entry]
        while todo:
            key = todo.pop()
            if key in region or key in self.memo:
                continue
            moves = self.transitions(key)
            region[key] = moves
            if len(region) > self.max_region:
                raise OutOfReachError(
                    f"a position after a reshuffle leads to more than {self.max_region:,} "
                    "positions with cycles; the solver does not solve it")
            for _action, outcomes in moves:
                for _p, outcome in outcomes:
                    if not isinstance(outcome, int) and outcome not in region \
                            and outcome not in self.memo:
                        todo.append(outcome)
        # Gauss–Seidel in an order where most successors come first: boards that have
        # progressed further, then smaller stocks, then draws before the decisions of the
        # card drawn; only the reshuffle (an empty stock refilled) points backwards.
        ordered = sorted(region, key=_region_order)
        values: dict[Key, Point] = dict.fromkeys(ordered, (0.0, 0.0))
        memo = self.memo
        sweeps = 0
        while True:
            sweeps += 1
            change = 0.0
            for key in ordered:
                moves = region[key]
                turn = key[1]
                best: Point | None = None
                for _action, outcomes in moves:
                    v0 = v1 = 0.0
                    for p, outcome in outcomes:
                        if isinstance(outcome, int):
                            if outcome == 0:
                                v0 += p
                            elif outcome == 1:
                                v1 += p
                            continue
                        if outcome in values:
                            a, b = values[outcome]
                        else:  # solved before: after a reshuffle too, so a point
                            a, b = memo[outcome][0:3:2]
                        v0 += p * a
                        v1 += p * b
                    if best is None or _better((v0, v1), best, turn):
                        best = (v0, v1)
                assert best is not None
                old = values[key]
                change = max(change, abs(best[0] - old[0]), abs(best[1] - old[1]))
                values[key] = best
            if change <= TOLERANCE:
                break
            if sweeps > 100_000:
                raise OutOfReachError("value iteration did not converge")
        for key, (v0, v1) in values.items():
            self.memo[key] = (v0, 0.0, v1, 0.0, 0.0)
        self.stats.regions += 1
        self.stats.region_nodes += len(region)
        self.stats.sweeps += sweeps
        self.stats.seconds += time.perf_counter() - began

    def solve(self, key: Key) -> Solution:
        """Every legal action's values at a decision node (canonical or not: the actions
        are those of ``key`` as given)."""
        actions = []
        exact = True
        for action, outcomes in self.transitions(key):
            l0, w0, l1, w1, ok = self._expect(outcomes)
            exact = exact and ok == 1.0
            actions.append(ActionSolution(action, (l0 + w0 / 2, l1 + w1 / 2),
                                          ((l0, w0), (l1, w1))))
        return Solution(key[1], tuple(actions), exact)


def _choose(values: list[Value], turn: int) -> Value:
    """The value of a decision of ``turn`` among actions with these bounds: the player to
    act takes the highest chance for themselves, then the lowest for the other (which
    only matters when a void round is possible). With bounds, every action that may be
    the best (its upper bound reaches the best lower bound) is a candidate, and the other
    seat's bounds cover all candidates; with points this is the plain rule."""
    mine, theirs = 2 * turn, 2 - 2 * turn
    low = max(v[mine] for v in values)
    candidates = [v for v in values if v[mine] - low + v[mine + 1] >= -1e-15]
    exact = min(v[4] for v in candidates)
    if all(v[mine + 1] == 0.0 and v[theirs + 1] == 0.0 for v in candidates):
        point = min(candidates, key=lambda v: (v[theirs], -v[mine]))
        return (*point[:4], exact)
    width = max(v[mine] - low + v[mine + 1] for v in candidates)
    other = min(v[theirs] for v in candidates)
    spread = max(v[theirs] - other + v[theirs + 1] for v in candidates)
    out = (low, width, other, spread) if turn == 0 else (other, spread, low, width)
    return (*out, exact)


def _region_order(key: Key) -> tuple[int, int, int]:
    progress = sum((slot != DOWN) + (slot == NATURAL) for b in (key[2], key[3]) for slot in b)
    stock = key[8]
    return (-progress, sum(stock) if stock is not None else 0, key[0])


def _better(v: Point, best: Point, turn: int) -> bool:
    """The player to act prefers a higher chance for themselves, then a lower one for the
    other (which only matters when a void round is possible)."""
    mine, theirs = v[turn], v[1 - turn]
    return mine > best[turn] + 1e-15 or (abs(mine - best[turn]) <= 1e-15
                                          and theirs < best[1 - turn] - 1e-15)


def _with(boards: tuple[tuple[int, ...], ...], seat: int,
          board: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (board, boards[1]) if seat == 0 else (boards[0], board)


def _minus(counts: tuple[int, ...], c: int) -> tuple[int, ...]:
    return (*counts[:c], counts[c] - 1, *counts[c + 1:])


def _plus(counts: tuple[int, ...], c: int) -> tuple[int, ...]:
    return (*counts[:c], counts[c] + 1, *counts[c + 1:])


_SOLVERS: dict[tuple[Rules, tuple[int, int]], Solver] = {}


def solve_view(view: View, max_region: int = MAX_REGION) -> Solution:
    """The exact solution of a two-player view (solvers are kept per rules and sizes)."""
    sizes = (view.players[0].board_size, view.players[1].board_size) \
        if len(view.players) == 2 else (0, 0)
    solver = _SOLVERS.get((view.rules, sizes))
    if solver is None:
        solver = _SOLVERS[(view.rules, sizes)] = Solver(view.rules, sizes, max_region)
    return solver.solve(solver.key_of(view))


def class_counts(view: View) -> Counter[int]:
    """The unseen cards of a view by class (for tests and reports)."""
    solver = Solver(view.rules, (view.players[0].board_size, view.players[1].board_size))
    return Counter(dict(enumerate(solver.unseen(solver.key_of(view)))))
