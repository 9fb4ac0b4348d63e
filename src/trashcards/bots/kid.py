"""The kid bot: a beginner, for playing with children."""

from __future__ import annotations

from ..actions import CALL, DISCARD, STOCK, Action, Verb
from ..views import View
from .base import Bot, greedy_choice, wants_to_call

__all__ = ["KidBot"]


class KidBot(Bot):
    """Greedy, but forgetful. At each decision where greedy would call, it draws one
    number ``u`` and forgets the call when ``u < forget_call``; when the top discard is
    playable it draws one number ``u`` and forgets to look at the pile (draws from the
    stock) when ``u < forget_discard``. The call is considered first."""

    name = "kid"
    forget_call = 0.5
    forget_discard = 0.3

    def choose(self, view: View) -> Action:
        if wants_to_call(view) and self.rng.random() >= self.forget_call:
            return CALL
        legal = view.legal
        if DISCARD in legal:
            return STOCK if self.rng.random() < self.forget_discard else DISCARD
        slots = [a.slot for a in legal if a.verb is Verb.WILD]
        return greedy_choice(view, max(slots) if slots else 0)
