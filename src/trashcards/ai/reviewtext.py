"""A review in words: each judged decision as sentences a person reads — what the player
did, the better move, and what it cost with its interval — and each player's figures at a
glance, as message keys with parameters.

The browser's catalogs (``web/static/i18n/*.json``) translate the ``review.*`` keys, and
the Review page builds the same keys from the positions it holds (static/js/review.js);
:data:`ENGLISH` is what ``trashcards review`` prints, and a test checks that it is the
English catalog's text, key by key, and that every catalog has every key with the same
parameters.

A move is named by what it did with which card: ``stock_past`` (drawing from the stock
while the top discard fitted), ``stock``, ``discard``, ``wild`` (a wild in hand put on a
slot), ``trash_wild`` (a wild in hand thrown away), ``swap`` (the card in hand swapped for
the wild on its slot), ``keep_wild`` (that card thrown away, the wild kept) and ``call``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Final

from ..actions import Action, Verb
from ..cards import Card, parse_card
from ..state import Phase
from ..views import View
from .review import Decision, PlayerSummary

__all__ = ["ENGLISH", "FORMS", "Message", "english", "figures", "form", "heading", "lesson",
           "points"]

#: What a move did, by its form (see the module).
FORMS: Final = ("stock_past", "stock", "discard", "wild", "trash_wild", "swap", "keep_wild",
                "call")

#: Every ``review.*`` key of a lesson and of a player's figures, and its English text
#: (``{name}`` marks a parameter; a plural message has a form for ``one`` and ``other``,
#: chosen by the ``count`` parameter).
ENGLISH: Final[dict[str, str | dict[str, str]]] = {
    "review.col_player": "Player",
    "review.col_mistakes": "Mistakes",
    "review.none": "none",
    "review.did.stock_past": "{name} left {card} on the discard pile and drew from the "
                             "stock.",
    "review.did.stock": "{name} drew from the stock.",
    "review.did.discard": "{name} took {card} from the discard pile.",
    "review.did.wild": "{name} put the wild {card} in slot {slot}.",
    "review.did.trash_wild": "With the wild {card} in hand, {name} chose to throw it away.",
    "review.did.swap": "{name} put {card} in slot {slot} and took back the wild.",
    "review.did.keep_wild": "{name} kept the wild in slot {slot} and chose to throw {card}"
                            " away.",
    "review.did.call": "{name} called “Trash!”, which costs nothing.",
    "review.better.stock_past": "Leaving {card} and drawing from the stock was better.",
    "review.better.stock": "Drawing from the stock was better.",
    "review.better.discard": "Taking {card} from the discard pile was better.",
    "review.better.wild": "Putting it in slot {slot} was better.",
    "review.better.trash_wild": "Throwing it away was better.",
    "review.better.swap": "Putting {card} in slot {slot} and taking back the wild was "
                          "better.",
    "review.better.keep_wild": "Keeping the wild in slot {slot} and throwing {card} away "
                               "was better.",
    "review.better.call": "Calling “Trash!” first was better: calling costs nothing.",
    "review.no_call": "That completed the board without a call of “Trash!”, so the round "
                      "could not be claimed at once.",
    "review.cost": "It cost {points} points of match-win chance (95 %: {low} to {high}).",
    "review.cost_exact": "It cost exactly {points} points of match-win chance.",
    "review.cost_small": "A small loss: {points} points of match-win chance (95 %: {low} "
                         "to {high}).",
    "review.cost_small_exact": "A small loss: exactly {points} points of match-win chance.",
    "review.cost_none": "Here it cost nothing measurable (95 %: {low} to {high} points).",
    "review.ok_best": "The best move.",
    "review.ok_tied": "As good as the best move within the noise.",
    "review.kind.mistake": "Mistake",
    "review.kind.missed_call": "No call",
    "review.kind.small_loss": "Small loss",
    "review.heading": "Move {move} · round {round} · {name}",
    "review.col_small": "Small losses",
    "review.col_matched": "Matched the best move",
    "review.col_largest": "Largest single loss",
    "review.matched": {
        "one": "{matched} of {count} decision ({percent} %)",
        "other": "{matched} of {count} decisions ({percent} %)"},
    "review.largest": "{points} points of match-win chance (move {move})",
    "review.count": "{count}",
}


@dataclass(frozen=True, slots=True)
class Message:
    """A catalog key and its parameters."""

    key: str
    params: Mapping[str, str | int]


def points(value: float, digits: int | None = None) -> str:
    """Match-win chance in points (percentage points), for people: one decimal, two under
    one point (``4.2``, ``0.34``), or ``digits``. Rounded as the browser's
    ``Intl.NumberFormat`` rounds (the shortest decimal of the number, ties away from
    zero), with no sign on a zero."""
    if digits is None:
        digits = _digits(value)
    rounded = Decimal(repr(value * 100)).quantize(Decimal(1).scaleb(-digits), ROUND_HALF_UP)
    return f"{abs(rounded) if rounded == 0 else rounded}"


def _digits(cost: float) -> int:
    return 1 if abs(cost) >= 0.01 else 2


def form(action: Action, before: View) -> tuple[str, dict[str, str | int]]:
    """What ``action`` does in the position ``before`` (the seat's view, or the
    spectators'), as a form of :data:`FORMS` and its parameters (``card``: the card
    concerned, as its text; ``slot``: the slot number)."""
    top = before.top_discard
    hand = before.in_hand
    verb = action.verb
    if verb is Verb.STOCK:
        playable = top is not None and any(a.verb is Verb.DISCARD for a in before.legal)
        return ("stock_past", {"card": _card(top)}) if playable and top else ("stock", {})
    if verb is Verb.DISCARD:
        return "discard", {"card": _card(top)}
    if verb is Verb.WILD:
        return "wild", {"card": _card(hand), "slot": action.slot}
    if verb is Verb.CALL:
        return "call", {}
    slot = _own_slot(hand, before)
    if verb is Verb.SWAP:
        return "swap", {"card": _card(hand), "slot": slot}
    if before.phase is Phase.SWAP:  # trash with a natural in hand: the wild stays
        return "keep_wild", {"card": _card(hand), "slot": slot}
    return "trash_wild", {"card": _card(hand)}


def _card(card: Card | None) -> str:
    return "?" if card is None else card.text


def _own_slot(card: Card | None, before: View) -> int:
    """The slot of the natural ``card`` (its role), or 0."""
    if card is None:
        return 0
    role = before.rules.roles()[card]
    return role if role >= 1 else 0


def lesson(decision: Decision, before: View, name: str) -> tuple[Message, ...]:
    """The decision in sentences (the state ``before`` it, the player's ``name``): what
    the player did; for a mistake, a small loss or a missed call the better move and
    what it cost (its 95 % interval, or exact); otherwise that it matched the best."""
    did, params = form(decision.taken, before)
    out = [Message(f"review.did.{did}", {"name": name, **params})]
    if decision.matched:
        out.append(Message("review.ok_best" if decision.taken == decision.best
                           else "review.ok_tied", {}))
        return tuple(out)
    if decision.kind == "missed_call":
        out.append(Message("review.no_call", {}))
    if decision.best != decision.taken:
        better, more = form(decision.best, before)
        out.append(Message(f"review.better.{better}", more))
    out.append(_cost(decision))
    return tuple(out)


def _cost(decision: Decision) -> Message:
    low, high = decision.cost_ci
    digits = _digits(decision.cost if decision.cost else decision.measured)
    value = {"points": points(decision.cost, digits), "low": points(low, digits),
             "high": points(high, digits)}
    if decision.kind == "missed_call" and not (decision.exact or low > 0):
        return Message("review.cost_none", value)
    small = "_small" if decision.kind == "small_loss" else ""
    if decision.exact:
        return Message(f"review.cost{small}_exact", {"points": value["points"]})
    return Message(f"review.cost{small}", value)


def heading(decision: Decision, name: str) -> Message:
    """Where the decision was: its move (counted from 1, as people count), round and
    player."""
    return Message("review.heading", {"move": decision.move + 1, "round": decision.round,
                                      "name": name})


def figures(summary: PlayerSummary) -> tuple[Message, ...]:
    """A player's figures at a glance, under the ``review.col_*`` headings: mistakes,
    small losses, the decisions that matched the best, the largest single loss (its
    move counted from 1, as people count)."""
    largest = summary.largest
    return (Message("review.count", {"count": summary.mistakes}),
            Message("review.count", {"count": summary.small_losses}),
            Message("review.matched", {"matched": summary.matched,
                                       "count": summary.decisions,
                                       "percent": _percent(summary.matched,
                                                           summary.decisions)}),
            Message("review.none", {}) if largest is None else
            Message("review.largest", {"points": points(largest.cost),
                                       "move": largest.move + 1}))


def _percent(part: int, whole: int) -> int:
    """A whole percentage, halves rounded up (as the browser's ``Math.round``)."""
    return math.floor(100 * part / whole + 0.5) if whole else 100


def english(message: Message) -> str:
    """The message in English, cards as people write them (``7♥``, ``Joker``)."""
    params = dict(message.params)
    card = params.get("card")
    if isinstance(card, str) and card != "?":
        parsed = parse_card(card)
        params["card"] = "Joker" if parsed.is_joker else parsed.pretty()
    text = ENGLISH[message.key]
    if isinstance(text, dict):
        text = text["one" if params.get("count") == 1 else "other"]
    return re.sub(r"\{(\w+)\}", lambda m: str(params.get(m.group(1), m.group(0))), text)
