"""A one-line reason for each legal action, for people, computed from the view alone
("7♦ fits slot 7", "slot 9: only one 9 is still unseen")."""

from __future__ import annotations

from collections import Counter

from ..actions import Action, Verb
from ..cards import Card
from ..deals import unseen_cards
from ..engine import playable
from ..rules import WILD
from ..state import Board, Phase
from ..views import View

__all__ = ["reason", "unseen_naturals"]

_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
_NAMES = {1: "Ace", 10: "10"}


def _count(n: int) -> str:
    return _WORDS[n] if n < len(_WORDS) else str(n)


def _rank(slot: int, n: int) -> str:
    name = _NAMES.get(slot, str(slot))
    return f"{name}{'s' if n != 1 else ''}"


def unseen_naturals(view: View) -> Counter[int]:
    """How many natural cards of each slot 1…10 are not in sight (in the stock or face
    down, as far as anyone knows)."""
    roles = view.rules.roles()
    return Counter(roles[card] for card in unseen_cards(view) if roles[card] > 0)


def _board(view: View, seat: int) -> Board:
    """A board with the face-up cards of the view (face-down slots hold a placeholder
    that :func:`playable` never reads)."""
    slots = view.players[seat].slots
    filler = next(card for card in view.rules.match_cards(len(view.players)))
    return Board(len(slots), tuple(card or filler for card in slots),
                 tuple(card is not None for card in slots))


def _next_can_use(view: View, card: Card) -> bool:
    seat = (view.to_act + 1) % len(view.players)  # type: ignore[operator]
    return playable(card, _board(view, seat), view.rules.roles())


def reason(view: View, action: Action) -> str:
    """Why one might play ``action`` (or what it gives up), in one line."""
    roles = view.rules.roles()
    seat = view.to_act
    assert seat is not None
    me = view.players[seat]
    unseen = unseen_naturals(view)
    hand = view.in_hand
    if action.verb is Verb.CALL:
        return 'call "Trash!" now: it costs nothing, and a board completed this turn counts'
    if action.verb is Verb.DISCARD:
        top = view.top_discard
        assert top is not None
        role = roles[top]
        if role == WILD:
            return f"{top.pretty()} is wild: it fills a face-down slot of your choice"
        if me.slots[role - 1] is None:
            return f"{top.pretty()} fits slot {role}"
        return f"{top.pretty()} takes slot {role} and frees its wild for a face-down slot"
    if action.verb is Verb.STOCK:
        if view.phase is Phase.DRAW and len(view.legal) > 1 and view.top_discard is not None:
            top = view.top_discard
            note = " — and the next player may take it" if _next_can_use(view, top) else ""
            return f"leave {top.pretty()} and try the stock ({view.stock_count} cards){note}"
        return f"draw from the stock ({view.stock_count} cards)"
    if action.verb is Verb.WILD:
        k = action.slot
        n = unseen[k]
        if n == 0:
            return f"slot {k}: no {_rank(k, 2)} left unseen — only a wild can fill it"
        hardest = min((s for s in range(1, me.board_size + 1) if me.slots[s - 1] is None),
                      key=lambda s: (unseen[s], -s))
        if k == hardest:
            return (f"slot {k}: {'only ' if n < 3 else ''}{_count(n)} {_rank(k, n)} still "
                    "unseen, the fewest of your face-down slots")
        return f"slot {k}: {_count(n)} {_rank(k, n)} still unseen, so it may still come"
    if action.verb is Verb.SWAP:
        assert hand is not None
        role = roles[hand]
        wild_card = me.slots[role - 1]
        assert wild_card is not None
        return (f"{hand.pretty()} takes slot {role}; the wild {wild_card.pretty()} goes on "
                "to a face-down slot")
    # trash
    assert hand is not None
    if view.phase is Phase.SWAP:
        role = roles[hand]
        return (f"keep the wild on slot {role} and throw {hand.pretty()} away: "
                "your turn ends")
    note = " — and the next player can use it" if _next_can_use(view, hand) else ""
    return f"throw the wild {hand.pretty()} away: your turn ends{note}"
