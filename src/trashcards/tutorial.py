"""The guided first game: one stacked deal and the steps that walk a new player through
it, written once. ``trashcards play --learn`` (:mod:`trashcards.tui.learn`) plays it on
this engine; ``scripts/write_spec.py`` writes it into the browser's
``static/js/tutorial.js``, whose lobby starts it on a table "On this device" (the
browser's own engine) and whose table page shows the steps (``static/js/learn.js``).

The deal is the ``kids`` preset (slots A to 5) for one round, the learner in seat 0
against one computer player in seat 1. The deck is stacked so that the learner meets, in
three decisions, every situation the game is made of: a draw from the stock that is
placed and turns up a card that goes on to its own slot (a chain) until a trash card
ends the turn; a card the opponent throws away that fits the learner's board; a wild put
on a face-down slot; and a completed board that wins the round. Every decision of the
opponent has exactly one legal action, so any bot plays the same game
(tests/core/test_tutorial.py replays the script and checks each of these).

Each step is one sentence (a message key of the catalogs ``web/static/i18n/*.json``,
``learn.step.<name>``). A step with an action (``do``) is a decision: the learner is told
what to do, and any other move is not played but answered by ``learn.try.<name>``, a
gentle sentence naming the move to make (the tutorial never leaves its script). A step
without an action tells what the last move did; the learner reads on.
"""

from __future__ import annotations

from collections import Counter
from typing import Final, NamedTuple

from .actions import Dealer, Deck, parse_move
from .cards import parse_cards
from .record import Entry, Record
from .rules import Rules

__all__ = ["DEALER", "LEARNER", "OPPONENT", "RULES", "STEPS", "Step", "deck", "opening",
           "record", "script_json"]


class Step(NamedTuple):
    """One sentence of the guided game: ``name`` (its keys ``learn.step.<name>`` and,
    for a decision, ``learn.try.<name>``), the learner's action it asks for (``do``, the
    record's text), or None for a step that tells what just happened."""

    name: str
    do: str | None = None

    @property
    def key(self) -> str:
        return f"learn.step.{self.name}"

    @property
    def try_key(self) -> str | None:
        return None if self.do is None else f"learn.try.{self.name}"


#: The rules of the guided game: boards of five (A to 5), one round decides.
RULES: Final = Rules.preset_named("kids").with_fields({"rounds_to_win": 1})
#: The learner's seat (plays first) and the computer opponent's seat name in the record.
LEARNER: Final = 0
OPPONENT: Final = "bot:greedy"
#: The seat that deals: the learner, on its left, plays first.
DEALER: Final = 1
#: The face-down boards, slot A first: the learner's, then the opponent's.
BOARDS: Final = ("Qd 5d As Jh 9s", "7c 8d 6h 4s Kc")
#: The top of the stock: the learner's first draw, then the opponent's.
STOCK: Final = "3h 4c"

#: The steps, in order. The learner draws the 3 (placed on slot 3, it turns up the Ace,
#: which goes on to slot A and turns up a Queen: trash, the turn ends); the opponent
#: draws a 4 for its slot 4 and throws away the 4 that was there; the learner takes
#: that 4 (slot 4 turns up the Jack, a wild), puts the Jack on slot 2, whose 5 goes on
#: to slot 5: the board is complete and the round is won.
STEPS: Final = (
    Step("draw", "stock"),
    Step("place"),
    Step("chain"),
    Step("trash"),
    Step("discard", "discard"),
    Step("wild", "wild 2"),
    Step("won"),
)


def deck() -> Deck:
    """The stacked deck: dealt one card at a time from the learner on, then the stock;
    the cards no one meets follow in the rules' order."""
    hands = [list(parse_cards(board)) for board in BOARDS]
    order = [card for pair in zip(*hands, strict=True) for card in pair]
    order.extend(parse_cards(STOCK))
    rest = Counter(RULES.match_cards(len(BOARDS))) - Counter(order)
    for card in RULES.match_cards(len(BOARDS)):
        if rest[card] > 0:
            rest[card] -= 1
            order.append(card)
    return Deck(tuple(order))


def opening() -> tuple[str, ...]:
    """The record's chance moves that start the guided game (the dealer, the deck)."""
    return (str(Dealer(DEALER)), str(deck()))


def record(name: str = "You") -> Record:
    """The guided game just dealt, the learner named ``name``."""
    moves = tuple(Entry(*parse_move(text)) for text in opening())
    return Record(RULES, (name, OPPONENT), moves)


def script_json() -> dict[str, object]:
    """The script as the browser reads it (``static/js/tutorial.js``)."""
    return {
        "rules": RULES.to_dict(),
        "learner": LEARNER,
        "opponent": OPPONENT.removeprefix("bot:"),
        "opening": list(opening()),
        "steps": [{"name": step.name, "key": step.key, "do": step.do,
                   "try": step.try_key} for step in STEPS],
    }

