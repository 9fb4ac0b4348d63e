"""Why a card went to the discard pile: the fact a screen tells when a turn ends on a
discard ("Q♠: Queens are trash", "7♥: slot 7 already holds 7♦").

Only public facts are used: the card (face up as it is discarded), the rules, and the
discarding player's face-up slots at that moment (``None`` for a face-down slot). The
terminal's narration words the reason in English; the web server sends it to browsers
as data, which word it in the viewer's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, NamedTuple

from .cards import Card
from .rules import TRASH, WILD, Rules

__all__ = ["REASONS", "DiscardReason", "discard_reason"]

#: Every reason a discard can have: those of :class:`DiscardReason`, and ``"complete"``
#: (the board was complete, so the card in hand went to the pile; the web's events say
#: it, trashcards.web.eventjson).
REASONS: Final = ("trash", "wild", "no_slot", "kept_wild", "taken", "complete")


class DiscardReason(NamedTuple):
    """Why ``card`` was discarded.

    ``reason`` is one of:

    - ``"trash"``: the card is a trash card (a face card that is not wild);
    - ``"wild"``: a wild thrown away by choice (only a choice ever discards a wild);
    - ``"no_slot"``: the board has no slot of the card's rank (``size`` slots);
    - ``"kept_wild"``: the card was thrown away instead of swapping out the wild
      ``held`` on slot ``slot``;
    - ``"taken"``: slot ``slot`` is already face up with ``held``.
    """

    reason: str
    slot: int | None = None
    held: Card | None = None
    size: int | None = None


def discard_reason(rules: Rules, card: Card, slots: Sequence[Card | None]
                   ) -> DiscardReason | None:
    """Why ``card`` could not stay with a player whose board shows ``slots`` (slot 1
    first, ``None`` face down); ``None`` if the board does not explain it (the card's
    slot is face down: it was not discarded by the chain)."""
    role = rules.roles()[card]
    if role == TRASH:
        return DiscardReason("trash")
    if role == WILD:
        return DiscardReason("wild")
    if role > len(slots):
        return DiscardReason("no_slot", slot=role, size=len(slots))
    held = slots[role - 1]
    if held is None:
        return None
    if rules.roles()[held] == WILD:
        return DiscardReason("kept_wild", slot=role, held=held)
    return DiscardReason("taken", slot=role, held=held)
