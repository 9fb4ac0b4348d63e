"""The counting bot."""

from __future__ import annotations

from collections import Counter

from ..actions import CALL, Action, Verb
from ..views import View
from .base import Bot, greedy_choice, wants_to_call

__all__ = ["CounterBot", "unseen_by_rank"]


def unseen_by_rank(view: View) -> Counter[int]:
    """How many cards of each rank 1…10 are not in sight: the match holds ``4 × decks``
    of each; in sight are the face-up cards of every board and the discard pile."""
    decks = view.rules.deck_count(len(view.players))
    seen: Counter[int] = Counter()
    for player in view.players:
        for card in player.slots:
            if card is not None:
                seen[card.rank] += 1
    for card in view.discard:
        seen[card.rank] += 1
    return Counter({rank: 4 * decks - seen[rank] for rank in range(1, 11)})


class CounterBot(Bot):
    """Like greedy, but puts a wild on the face-down slot whose natural rank has the fewest
    cards not in sight (:func:`unseen_by_rank`; ties: the highest slot). It counts what is
    in sight now, not what it saw earlier: it keeps no memory. No randomness."""

    name = "counter"

    def choose(self, view: View) -> Action:
        if wants_to_call(view):
            return CALL
        slots = [a.slot for a in view.legal if a.verb is Verb.WILD]
        if not slots:
            return greedy_choice(view, 0)
        unseen = unseen_by_rank(view)
        best = min(slots, key=lambda k: (unseen[k], -k))
        return greedy_choice(view, best)
