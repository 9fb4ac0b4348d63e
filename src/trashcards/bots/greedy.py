"""The greedy bot."""

from __future__ import annotations

import random

from ..actions import CALL, DISCARD, STOCK, Action, Verb
from ..views import View
from .base import Bot, greedy_choice, wants_to_call

__all__ = ["EndBlindBot", "GreedyBot", "LowWildBot", "SometimesDiscardBot", "StockOnlyBot"]


class GreedyBot(Bot):
    """Calls "Trash!" when one face-down slot is left; takes the top discard whenever it is
    playable; puts a wild on the highest face-down slot; always swaps. No randomness."""

    name = "greedy"

    def choose(self, view: View) -> Action:
        if wants_to_call(view):
            return CALL
        slots = [a.slot for a in view.legal if a.verb is Verb.WILD]
        return greedy_choice(view, max(slots) if slots else 0)


class SometimesDiscardBot(GreedyBot):
    """Greedy, but when the top discard is playable it draws one number ``u`` and takes
    the discard only when ``u < take_discard`` (0.5 by default); otherwise the stock."""

    name = "sometimes"

    def __init__(self, rng: random.Random | None = None, take_discard: float = 0.5) -> None:
        super().__init__(rng)
        self.take_discard = take_discard

    def choose(self, view: View) -> Action:
        action = super().choose(view)
        if action is DISCARD and not self.rng.random() < self.take_discard:
            return STOCK
        return action


class StockOnlyBot(GreedyBot):
    """Greedy that never takes the discard pile (for measuring what the pile is worth)."""

    name = "stockonly"

    def choose(self, view: View) -> Action:
        action = super().choose(view)
        return STOCK if action is DISCARD else action


class LowWildBot(GreedyBot):
    """Greedy, but puts a wild on the lowest face-down slot (for the lab's tips)."""

    name = "lowwild"

    def choose(self, view: View) -> Action:
        if wants_to_call(view):
            return CALL
        slots = [a.slot for a in view.legal if a.verb is Verb.WILD]
        return greedy_choice(view, min(slots) if slots else 0)


class EndBlindBot(GreedyBot):
    """Greedy that stops looking at the discard pile near the end: once any other player
    has at most two face-down slots left, it always draws from the stock (for the lab)."""

    name = "endblind"

    def choose(self, view: View) -> Action:
        action = super().choose(view)
        if action is DISCARD and any(
                p.face_down <= 2 for seat, p in enumerate(view.players) if seat != view.to_act):
            return STOCK
        return action
