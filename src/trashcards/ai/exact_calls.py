"""Exact values under call-trash (RULES.md §9), on top of the plain turn's.

Calling "Trash!" costs nothing and may be done at every decision of one's own turn, so
a player who plays well calls at the first decision of each turn, and from then on the
round is the plain one: :class:`~.exact_solver.RoundSolver` values every position after
a call. What differs is the value of an action taken *before* calling:

* the chain it starts (RULES.md §5.2) runs on by itself until a decision (a wild to
  place, a swap on offer: the player calls there, and the plain values hold), the end of
  the turn (the plain values again), or the board complete — **without a call**. Then
  the card in hand is discarded, a penalty card drawn from the stock goes on top of it,
  and the other player has one turn to complete their own board (calling first) before
  the claim: they win if they do, else the completer does (:func:`one_turn`).
* calling is worth the plain value of the decision itself.

While a completed board waits to be claimed, the player to act has that one turn: every
action's value is their chance of completing in it (having called; a completion without
a call is claimed too late).

The chains are followed card by card (their probabilities from the unseen cards, as
everywhere in the solver); a stock that runs out on the way is bounded by [0, 1], as
after any reshuffle.
"""

from __future__ import annotations

from collections.abc import Callable

from ..actions import CALL, DISCARD, STOCK, SWAP, TRASH, Action, wild
from .exact_solver import (
    DOWN,
    DRAW,
    NATURAL,
    SWAP_PHASE,
    WILD_PHASE,
    WILD_SLOT,
    Board,
    Point,
    Position,
    RoundSolver,
    choose_point,
    plain_entries,
)

__all__ = ["call_trash_entries", "one_turn"]

_UNKNOWN: Point = (0.0, 1.0, 0.0, 1.0)
#: A chance of the player to act, as (low, width).
Chance = tuple[float, float]


def _win(seat: int) -> Point:
    return (1.0, 0.0, 0.0, 0.0) if seat == 0 else (0.0, 0.0, 1.0, 0.0)


def _split(seat: int, q: Chance) -> Point:
    """``seat`` completes with chance ``q``, the other seat wins otherwise."""
    low, width = q
    other = (max(0.0, 1.0 - low - width), width)
    return (low, width, *other) if seat == 0 else (*other, low, width)


def _best(options: list[Chance]) -> Chance:
    """The player's best option when only their own chance counts (bounds: every option
    that may be the best)."""
    low = max(lo for lo, _w in options)
    high = max(lo + w for lo, w in options if lo + w >= low)
    return (low, high - low)


def _mix(parts: list[tuple[float, Point]]) -> Point:
    out = [0.0, 0.0, 0.0, 0.0]
    for p, point in parts:
        for i in range(4):
            out[i] += p * point[i]
    return (out[0], out[1], out[2], out[3])


def one_turn(m: int, board: Board, down: int, unseen: tuple[int, ...], top: int,
             phase: int = DRAW, hand: int = -1, must: bool = False) -> Chance:
    """The chance that the player with ``board`` completes it in this one turn, having
    called, from the start of the turn (``top`` on the pile) or from a decision in it
    (``phase``, ``hand``, ``must``); ``unseen`` counts the unseen cards by class (pips
    1 … ``m``, wild, dead), ``down`` the face-down cards of both boards."""
    memo: dict[tuple[object, ...], Chance] = {}
    w = m

    def fits(c: int, b: Board) -> bool:
        return (c == w and DOWN in b) or (0 <= c < min(m, len(b)) and b[c] != NATURAL)

    def pool(b: Board, u: tuple[int, ...], down: int, draw: bool) -> Chance:
        total = sum(u)
        if draw and total == down:  # the stock is empty: a reshuffle
            return (0.0, 1.0)
        low = width = 0.0
        for c, n in enumerate(u):
            if n:
                lo, wi = chain(b, (*u[:c], n - 1, *u[c + 1:]), down, c, False)
                low += n / total * lo
                width += n / total * wi
        return (low, width)

    def chain(b: Board, u: tuple[int, ...], down: int, c: int, must: bool) -> Chance:
        key = (b, u, down, c, must)
        found = memo.get(key)
        if found is not None:
            return found
        if c == w:
            options = [place(b, u, down, k, WILD_SLOT) for k, s in enumerate(b) if s == DOWN]
            found = _best(options + ([] if must else [(0.0, 0.0)]))
        elif c < min(m, len(b)) and b[c] == DOWN:
            found = place(b, u, down, c, NATURAL)
        elif c < min(m, len(b)) and b[c] == WILD_SLOT:
            swapped = (*b[:c], NATURAL, *b[c + 1:])
            found = _best([chain(swapped, u, down, w, False)]
                          + ([] if must else [(0.0, 0.0)]))
        else:
            found = (0.0, 0.0)  # the turn ends
        memo[key] = found
        return found

    def place(b: Board, u: tuple[int, ...], down: int, k: int, what: int) -> Chance:
        new = (*b[:k], what, *b[k + 1:])
        if DOWN not in new:
            return (1.0, 0.0)
        return pool(new, u, down - 1, False)

    if phase == DRAW:
        options = [pool(board, unseen, down, True)]
        if top >= 0 and fits(top, board):
            options.append(chain(board, unseen, down, top, True))
        return _best(options)
    return chain(board, unseen, down, hand, must)


class _Segment:
    """The chain of one action taken before calling, up to the first decision, the end
    of the turn or the board complete: what each of those is worth is given."""

    def __init__(self, s: RoundSolver, p: Position,
                 decision: Callable[[int, Board, Board, tuple[int, ...], int, int, bool], Point],
                 turn_end: Callable[[Board, Board, tuple[int, ...], int, int], Point],
                 complete: Callable[[Board, Board, tuple[int, ...], int], Point]) -> None:
        self.s, self.p = s, p
        self.decision, self.turn_end, self.complete = decision, turn_end, complete

    def resolve(self, b0: Board, b1: Board, live: tuple[int, ...], x: int, c: int,
                must: bool) -> Point:
        s, turn = self.s, self.p.turn
        mine = b1 if turn else b0
        if c == s.w:
            return self.decision(WILD_PHASE, b0, b1, live, x, c, must)
        if c < min(s.m, len(mine)):
            if mine[c] == DOWN:
                return self.place(b0, b1, live, x, c, NATURAL)
            if mine[c] == WILD_SLOT:
                return self.decision(SWAP_PHASE, b0, b1, live, x, c, must)
        return self.turn_end(b0, b1, live, x, c)

    def place(self, b0: Board, b1: Board, live: tuple[int, ...], x: int, k: int,
              what: int) -> Point:
        turn = self.p.turn
        mine = b1 if turn else b0
        new = (*mine[:k], what, *mine[k + 1:])
        n0, n1 = (b0, new) if turn else (new, b1)
        if what == NATURAL and (k >= len(n0) or n0[k] == NATURAL) \
                and (k >= len(n1) or n1[k] == NATURAL):
            x += live[k]  # the class is dead now
            live = (*live[:k], 0, *live[k + 1:])
        if DOWN not in new:
            return self.complete(n0, n1, live, x)
        return self.draw(n0, n1, live, x, stock=False)

    def draw(self, b0: Board, b1: Board, live: tuple[int, ...], x: int,
             stock: bool) -> Point:
        """A card from the unseen cards (the stock before any reshuffle, or a turn-up)."""
        total = sum(live) + x
        if stock and total == b0.count(DOWN) + b1.count(DOWN):
            return _UNKNOWN  # a reshuffle
        parts = [(n / total, self.resolve(b0, b1, (*live[:c], n - 1, *live[c + 1:]), x, c,
                                          False)) for c, n in enumerate(live) if n]
        if x:
            parts.append((x / total, self.turn_end(b0, b1, live, x - 1, self.s.x)))
        return _mix(parts)

    def entries(self) -> list[tuple[Action, Point]]:
        """Each plain action of the position, taken before calling."""
        p, s = self.p, self.s
        turn, b0, b1, live, x = p.turn, p.b0, p.b1, p.live, p.x
        mine = b1 if turn else b0
        out: list[tuple[Action, Point]] = []
        if p.phase == DRAW:
            out.append((STOCK, self.draw(b0, b1, live, x, stock=True)))
            if p.top >= 0 and s.playable(p.top, mine):
                out.append((DISCARD, self.resolve(b0, b1, live, x, p.top, True)))
        elif p.phase == WILD_PHASE:
            for k, slot in enumerate(mine):
                if slot == DOWN:
                    out.append((wild(k + 1), self.place(b0, b1, live, x, k, WILD_SLOT)))
            if not p.must:
                out.append((TRASH, self.turn_end(b0, b1, live, x, s.w)))
        else:
            new = (*mine[:p.hand], NATURAL, *mine[p.hand + 1:])
            n0, n1 = (b0, new) if turn else (new, b1)
            shift = 0
            if (p.hand >= len(n0) or n0[p.hand] == NATURAL) \
                    and (p.hand >= len(n1) or n1[p.hand] == NATURAL):
                shift = live[p.hand]
                live = (*live[:p.hand], 0, *live[p.hand + 1:])
            out.append((SWAP, self.decision(WILD_PHASE, n0, n1, live, x + shift, s.w, False)))
            if not p.must:
                out.append((TRASH, self.turn_end(b0, b1, p.live, x, p.hand)))
        return out


def call_trash_entries(s: RoundSolver, p: Position) -> list[tuple[Action, Point]]:
    """Every legal action at a call-trash position, with its point (legal order:
    the plain turn's actions, then "call" while it is legal)."""
    if p.unclaimed >= 0:
        return _pending(s, p)
    if p.called:
        return plain_entries(s, p)
    turn = p.turn
    other = 1 - turn

    def decision(phase: int, b0: Board, b1: Board, live: tuple[int, ...], x: int,
                 hand: int, must: bool) -> Point:
        if phase == WILD_PHASE:
            return s.wild(turn, b0, b1, live, must).at(x)
        return s.swap(turn, b0, b1, live, hand, must).at(x)

    def turn_end(b0: Board, b1: Board, live: tuple[int, ...], x: int, top: int) -> Point:
        return s.draw(other, b0, b1, live, top).at(x)

    def complete(b0: Board, b1: Board, live: tuple[int, ...], x: int) -> Point:
        """The board is complete, not claimed: the card turned up is discarded, a
        penalty card goes on top of it, and the other player has one turn."""
        board = b1 if other else b0
        down = board.count(DOWN)
        parts: list[tuple[float, Point]] = []
        for d, after in _draws(live, x):  # the card under the last slot
            dlive, dx = after
            total = sum(dlive) + dx
            if total == down:  # no stock for the penalty card: a reshuffle
                parts.append((d, _UNKNOWN))
                continue
            for e, (elive, ex), top in _draws_with_class(dlive, dx, s.x):
                q = one_turn(s.m, board, down, (*elive, ex), top)
                parts.append((d * e, _split(other, q)))
        return _mix(parts)

    entries = _Segment(s, p, decision, turn_end, complete).entries()
    calls = plain_entries(s, p)
    return [*entries, (CALL, choose_point([point for _a, point in calls], turn))]


def _pending(s: RoundSolver, p: Position) -> list[tuple[Action, Point]]:
    """The player to act has one turn to complete before the other claims."""
    turn = p.turn
    claimer = p.unclaimed
    mine = p.b1 if turn else p.b0
    m = s.m

    def down_of(b0: Board, b1: Board) -> int:
        return (b1 if turn else b0).count(DOWN)

    def decision(phase: int, b0: Board, b1: Board, live: tuple[int, ...], x: int,
                 hand: int, must: bool) -> Point:
        board = b1 if turn else b0
        return _split(turn, one_turn(m, board, down_of(b0, b1), (*live, x), -1, phase,
                                     hand, must))

    def claimed(b0: Board, b1: Board, live: tuple[int, ...], x: int, top: int) -> Point:
        return _win(claimer)  # the turn ends: the other player claims

    def completed(b0: Board, b1: Board, live: tuple[int, ...], x: int) -> Point:
        # with a call, the round is won; without, it is claimed after the other's claim
        return _win(turn) if p.called else _win(claimer)

    entries = _Segment(s, p, decision, claimed, completed).entries()
    if p.called:
        return entries
    start = one_turn(m, mine, mine.count(DOWN), (*p.live, p.x), p.top, p.phase, p.hand,
                     p.must)
    return [*entries, (CALL, _split(turn, start))]


def _draws(live: tuple[int, ...], x: int) -> list[tuple[float, tuple[tuple[int, ...], int]]]:
    """A card from the unseen cards: each class's chance and what is left unseen."""
    return [(p, after) for p, after, _c in _draws_with_class(live, x, -1)]


def _draws_with_class(live: tuple[int, ...], x: int, dead: int
                      ) -> list[tuple[float, tuple[tuple[int, ...], int], int]]:
    total = sum(live) + x
    out = [(n / total, ((*live[:c], n - 1, *live[c + 1:]), x), c)
           for c, n in enumerate(live) if n]
    if x:
        out.append((x / total, (live, x - 1), dead))
    return out
