"""The greedy bot."""

from __future__ import annotations

from ..actions import CALL, Action, Verb
from ..views import View
from .base import Bot, greedy_choice, wants_to_call

__all__ = ["GreedyBot"]


class GreedyBot(Bot):
    """Calls "Trash!" when one face-down slot is left; takes the top discard whenever it is
    playable; puts a wild on the highest face-down slot; always swaps. No randomness."""

    name = "greedy"

    def choose(self, view: View) -> Action:
        if wants_to_call(view):
            return CALL
        slots = [a.slot for a in view.legal if a.verb is Verb.WILD]
        return greedy_choice(view, max(slots) if slots else 0)
