"""The random bot: uniform over the legal actions."""

from __future__ import annotations

from ..actions import Action
from ..views import View
from .base import Bot

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Picks ``legal[int(rng.random() * len(legal))]``: one number per decision."""

    name = "random"

    def choose(self, view: View) -> Action:
        legal = view.legal
        return legal[int(self.rng.random() * len(legal))]
