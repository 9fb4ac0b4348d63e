"""What every bot is, and the decisions the simple bots share."""

from __future__ import annotations

import random
from typing import ClassVar

from ..actions import CALL, DISCARD, STOCK, SWAP, Action, Verb
from ..views import View

__all__ = ["Bot", "greedy_choice", "wants_to_call"]


class Bot:
    """A player that decides from a view. Subclasses implement :meth:`choose`."""

    name: ClassVar[str] = "bot"

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng if rng is not None else random.Random(0)

    def choose(self, view: View) -> Action:
        """One of ``view.legal``; ``view.to_act`` is this bot's seat."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


def wants_to_call(view: View) -> bool:
    """Greedy's call rule: call "Trash!" when one face-down slot is left."""
    me = view.players[view.to_act]  # type: ignore[index]
    return CALL in view.legal and me.face_down == 1


def greedy_choice(view: View, wild_slot: int) -> Action:
    """Greedy's choice once the call was considered: the playable discard, the wild on
    ``wild_slot``, always the swap."""
    legal = view.legal
    if legal[0] == STOCK:
        return DISCARD if DISCARD in legal else STOCK
    if legal[0].verb is Verb.WILD:
        return next(a for a in legal if a.verb is Verb.WILD and a.slot == wild_slot)
    return SWAP
