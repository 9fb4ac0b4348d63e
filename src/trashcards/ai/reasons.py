"""Why a move is good or what it costs: a reason per action, as a code with parameters,
built from the comparison that ranks the moves (:mod:`.compare`) and the view alone.

A reason never argues against the pick: the reported best gets a reason *for* it (a
fitting discard, the free call, any slot as good for a wild …), an action equal to the
best gets a reason for it or "as good", and an action measurably worse gets what it
costs (leaving a discard that fits, feeding the next player, throwing a wild away, not
calling "Trash!" first …) with the cost in match-win points from the same paired
interval that ranked it. A number of points or of moves is the parameter ``count`` and
picks the message's plural form, as the catalogs do (``{"one": …, "other": …}``,
chosen by CLDR's rules: "1 point", "1.5 points"); a cost or lead that would round to 0.0
gets its own code instead ("by less than 0.1 points"). Front ends translate the codes:
the catalogs ``web/static/i18n/*.json`` hold ``reason.<code>`` in every language
(tests/ai/test_coach.py checks it), and :data:`ENGLISH` is what the terminal and
``trashcards hint`` print.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from ..actions import CALL, Action, Verb
from ..bots.base import greedy_choice
from ..cards import Card
from ..engine import playable
from ..rules import WILD
from ..state import Board, Phase
from ..views import View
from .compare import Comparison
from .symmetry import representative

__all__ = ["AGAINST", "CODES", "ENGLISH", "FOR", "Reason", "number", "reasons"]


def _plural(one: str, other: str) -> dict[str, str]:
    return {"one": one, "other": other}


#: Every reason code and its English text (``{name}`` marks a parameter; a message with
#: a ``count`` has a singular and a plural form).
ENGLISH: Final[dict[str, str | dict[str, str]]] = {
    "only_move": "The only legal move.",
    "call_free": "Call “Trash!” now: calling costs nothing, and a board completed this "
                 "turn then counts at once.",
    "fits_slot": "{card} fits your face-down slot {slot}.",
    "wild_discard": "{card} is wild: it fills a face-down slot of your choice.",
    "frees_wild": "{card} takes slot {slot} and frees its wild for a face-down slot.",
    "no_fit": "{card} fits none of your face-down slots: try the stock.",
    "draw_stock": "Draw from the stock: there is no other way to go on.",
    "wild_any": "Any face-down slot is as good for the wild.",
    "keep_wild": "Keep the wild on slot {slot} and throw {card} away.",
    "swap_natural": "{card} takes slot {slot}; the wild moves on to a face-down slot.",
    "best_by": _plural(
        "Better than every other move: {count} point of match-win chance ahead of the "
        "next best.",
        "Better than every other move: {count} points of match-win chance ahead of the "
        "next best."),
    "best_by_little": "Better than every other move, by less than 0.1 points of match-win "
                      "chance.",
    "standard_tie": _plural("The standard play; {count} other move is as good.",
                            "The standard play; {count} other moves are as good."),
    "tie_lead": _plural("As good as {count} other move.",
                        "As good as {count} other moves."),
    "equal": "As good as the best move within the noise.",
    "equal_exact": "Exactly as good as the best move.",
    "leaves_fitting": _plural(
        "Leaves {card}, which fits your slot {slot}: costs {count} point of match-win "
        "chance.",
        "Leaves {card}, which fits your slot {slot}: costs {count} points of match-win "
        "chance."),
    "feeds_next": _plural(
        "Gives the next player {card}, which fits their board: costs {count} point of "
        "match-win chance.",
        "Gives the next player {card}, which fits their board: costs {count} points of "
        "match-win chance."),
    "throws_wild": _plural(
        "Throws the wild {card} away: costs {count} point of match-win chance.",
        "Throws the wild {card} away: costs {count} points of match-win chance."),
    "call_first": _plural(
        "Call “Trash!” first (it costs nothing), then play this: without the call it "
        "costs {count} point of match-win chance.",
        "Call “Trash!” first (it costs nothing), then play this: without the call it "
        "costs {count} points of match-win chance."),
    "costs": _plural(
        "Costs {count} point of match-win chance against the best move.",
        "Costs {count} points of match-win chance against the best move."),
    "costs_little": "Worse than the best move, by less than 0.1 points of match-win "
                    "chance.",
}
CODES: Final = tuple(ENGLISH)
#: Codes that speak for a move (the best's and the tied moves' reasons).
FOR: Final = frozenset({"only_move", "call_free", "fits_slot", "wild_discard", "frees_wild",
                        "no_fit", "draw_stock", "wild_any", "keep_wild",
                        "swap_natural", "best_by", "best_by_little", "standard_tie",
                        "tie_lead", "equal", "equal_exact"})
#: Codes that say what a measurably worse move costs.
AGAINST: Final = frozenset({"leaves_fitting", "feeds_next", "throws_wild", "call_first",
                            "costs", "costs_little"})


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason: its code (a key of :data:`ENGLISH`) and parameters."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def text(self) -> str:
        """In English."""
        message = ENGLISH[self.code]
        params = dict(self.params)
        if isinstance(message, dict):
            count = params["count"]
            message = message["one" if count == 1 else "other"]
            params["count"] = number(count)
        return message.format(**params)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.params.items()))))


def _board(view: View, seat: int) -> Board:
    """A board with the face-up cards of the view (face-down slots hold a placeholder
    that :func:`playable` never reads)."""
    slots = view.players[seat].slots
    filler = next(card for card in view.rules.match_cards(len(view.players)))
    return Board(len(slots), tuple(card or filler for card in slots),
                 tuple(card is not None for card in slots))


def _fits(view: View, seat: int, card: Card) -> bool:
    return playable(card, _board(view, seat), view.rules.roles())


def _next_seat(view: View) -> int:
    assert view.to_act is not None
    return (view.to_act + 1) % len(view.players)


def _pp(value: float) -> float:
    return round(abs(value) * 100, 1)


def number(value: float) -> str:
    """A count of points or moves as the messages show it: ``1``, ``1.5``, ``12`` (no
    trailing ``.0``, as the browser writes numbers)."""
    return f"{value:g}"


def reasons(view: View, comparison: Comparison) -> dict[Action, Reason]:
    """The reason of every compared action (see the module)."""
    out: dict[Action, Reason] = {}
    for action in comparison.order:
        if len(comparison.order) == 1:
            out[action] = Reason("only_move")
        elif action == comparison.best:
            out[action] = _for_best(view, comparison, action)
        elif comparison.equal_to_best(action):
            out[action] = _for_tied(view, comparison, action)
        else:
            out[action] = _against(view, comparison, action)
    return out


def _specific(view: View, comparison: Comparison, action: Action) -> Reason | None:
    """A reason for ``action`` that follows from the cards, where one does."""
    roles = view.rules.roles()
    seat = view.to_act
    assert seat is not None
    me = view.players[seat]
    top, hand = view.top_discard, view.in_hand
    if action == CALL:
        return Reason("call_free")
    if action.verb is Verb.DISCARD and top is not None:
        role = roles[top]
        if role == WILD:
            return Reason("wild_discard", {"card": top.pretty()})
        if me.slots[role - 1] is None:
            return Reason("fits_slot", {"card": top.pretty(), "slot": role})
        return Reason("frees_wild", {"card": top.pretty(), "slot": role})
    if action.verb is Verb.STOCK:
        if top is not None and Action(Verb.DISCARD) in view.legal \
                and not _fits(view, seat, top):
            return Reason("no_fit", {"card": top.pretty()})
        if len(view.legal) == 1 or (view.legal == (CALL, action)):
            return Reason("draw_stock")
        return None
    if action.verb is Verb.WILD:
        # All placements are one move (symmetry.py): the sampled ones are always tied.
        wilds = [a for a in comparison.order if a.verb is Verb.WILD]
        if len(wilds) > 1 and all(comparison.equal_to_best(a) for a in wilds):
            return Reason("wild_any")
        return None
    if action.verb is Verb.SWAP and hand is not None:
        return Reason("swap_natural", {"card": hand.pretty(), "slot": roles[hand]})
    if action.verb is Verb.TRASH and view.phase is Phase.SWAP and hand is not None:
        return Reason("keep_wild", {"card": hand.pretty(), "slot": roles[hand]})
    return None


def _for_best(view: View, comparison: Comparison, action: Action) -> Reason:
    found = _specific(view, comparison, action)
    if found is not None:
        return found
    others = len(comparison.tied) - 1
    if others:
        code = "standard_tie" if action == comparison.greedy else "tie_lead"
        return Reason(code, {"count": others})
    # the lead over the next best move: the smallest mean lead
    lead = _pp(min(-comparison.vs_best[a].mean for a in comparison.order if a != action))
    return Reason("best_by", {"count": lead}) if lead > 0 else Reason("best_by_little")


def _for_tied(view: View, comparison: Comparison, action: Action) -> Reason:
    found = _specific(view, comparison, action)
    if found is not None and found.code in ("wild_any", "fits_slot", "wild_discard",
                                           "frees_wild", "no_fit", "swap_natural",
                                           "keep_wild", "call_free"):
        return found
    return Reason("equal_exact" if comparison.exact else "equal")


def _against(view: View, comparison: Comparison, action: Action) -> Reason:
    """What a measurably worse action costs (the paired mean against the best)."""
    pp = _pp(comparison.vs_best[action].mean)
    if pp == 0:
        return Reason("costs_little")
    after = _after_call(view)
    if after is not None and representative(view, action) == representative(view, after):
        return Reason("call_first", {"count": pp})
    return _cost(view, action, pp)


def _after_call(view: View) -> Action | None:
    """Where calling "Trash!" is legal (call-trash, until the player calls in a turn),
    the move the standard play makes once the call is made: the discard that fits, else
    the stock; the wild on the highest face-down slot; the swap. That move (or one equal
    to it by symmetry) is worse than calling only for not calling: its lesson is the
    call."""
    if CALL not in view.legal:
        return None
    slots = [a.slot for a in view.legal if a.verb is Verb.WILD]
    return greedy_choice(view, max(slots) if slots else 0)


def _cost(view: View, action: Action, pp: float) -> Reason:
    roles = view.rules.roles()
    seat = view.to_act
    assert seat is not None
    cost = {"count": pp}
    top, hand = view.top_discard, view.in_hand
    nxt = _next_seat(view)
    if action.verb is Verb.STOCK and top is not None and Action(Verb.DISCARD) in view.legal:
        if _fits(view, seat, top):
            role = roles[top]
            slot = role if role != WILD else None
            if slot is not None and view.players[seat].slots[slot - 1] is None:
                return Reason("leaves_fitting", {"card": top.pretty(), "slot": slot, **cost})
        if _fits(view, nxt, top):
            return Reason("feeds_next", {"card": top.pretty(), **cost})
    if action.verb is Verb.TRASH and hand is not None:
        if view.phase is Phase.WILD:
            return Reason("throws_wild", {"card": hand.pretty(), **cost})
        if _fits(view, nxt, hand):
            return Reason("feeds_next", {"card": hand.pretty(), **cost})
    return Reason("costs", cost)
