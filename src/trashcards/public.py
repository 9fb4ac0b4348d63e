"""The public position as 100 integers, and the fixed list of actions with its mask.

One layout, computed two ways: :func:`encode` here from a :class:`~trashcards.views.View`
(standard library only, so any environment can use it), and the numba kernel from its
own state (``trashcards.sim.vector``); a test proves the two equal. It holds only what
the view holds, so nothing hidden can reach it.

Seats are absolute (0…3), absent seats padded with zeros. A card's *class*: a pip card
of rank 1…10 is 0…9, a wild (a wild face rank or a Joker) 10, a trash card 11; ``-1``
means none. The entries, by index:

==========  ===================================================================
``0``       players
``1``       phase: 0 draw, 1 wild, 2 swap, 3 chance, 4 round over, 5 match over
``2``       seat to act, -1
``3``       class of the card in hand, -1
``4``       class of the top discard, -1
``5``       stock count
``6``       1 if the stock's cards are public (``View.stock_known``), else 0
``7``       called "Trash!" this turn (0/1)
``8``       the card in hand came from the discard pile and must be played (0/1)
``9``       bit mask of seats waiting to claim
``10``      seat whose completion started the last-chance lap, -1
``11``      bit mask of this round's winners
``12``      match winner, -1
``13``      dealer, -1
``14``      round number
``15-18``   rounds won, per seat
``19-22``   board size, per seat
``23-62``   slot k+1 of seat s at ``23 + 10 s + k``: 0 absent (k ≥ size, or nothing
            dealt yet), 1 face down, 2 face up natural, 3 face up wild
``63-74``   discard pile: cards per class
``75-86``   unseen: cards per class neither face up on a board, nor in the discard
            pile, nor in hand (they are face down or in the stock)
``87-98``   the public stock's cards per class (zeros when the stock is not public)
``99``      the viewer's seat, -1 for a spectator
==========  ===================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .actions import CALL, DISCARD, STOCK, SWAP, TRASH, Action, wild
from .cards import Card
from .rules import TRASH as TRASH_ROLE
from .rules import WILD as WILD_ROLE
from .rules import Rules
from .state import Phase
from .views import View

__all__ = [
    "ACTIONS",
    "ACTION_CALL",
    "ACTION_DISCARD",
    "ACTION_STOCK",
    "ACTION_SWAP",
    "ACTION_TRASH",
    "ACTION_WILD",
    "BOARD_SIZE",
    "CALLED",
    "CLASSES",
    "CLASS_TRASH",
    "CLASS_WILD",
    "DEALER",
    "DISCARD_COUNTS",
    "FINAL_FROM",
    "IN_HAND",
    "MATCH_WINNER",
    "MUST_PLAY",
    "PHASE",
    "PHASE_CODES",
    "PLAYERS",
    "ROUND",
    "ROUNDS_WON",
    "ROUND_WINNERS",
    "SIZE",
    "SLOTS",
    "SLOT_ABSENT",
    "SLOT_DOWN",
    "SLOT_NATURAL",
    "SLOT_WILD",
    "STOCK_COUNT",
    "STOCK_KNOWN",
    "STOCK_KNOWN_COUNTS",
    "TOP_DISCARD",
    "TO_ACT",
    "UNCLAIMED",
    "UNSEEN_COUNTS",
    "VIEWER",
    "action_index",
    "card_class",
    "encode",
    "legal_mask",
]

# -- the fixed action list --------------------------------------------------------------------

#: Every action, in the engine's order; an action's index here is its number in masks
#: and environments.
ACTIONS: Final[tuple[Action, ...]] = (STOCK, DISCARD, *(wild(k) for k in range(1, 11)),
                                      SWAP, TRASH, CALL)
ACTION_STOCK: Final = 0
ACTION_DISCARD: Final = 1
ACTION_WILD: Final = 2  # … 11: wild 1 … wild 10
ACTION_SWAP: Final = 12
ACTION_TRASH: Final = 13
ACTION_CALL: Final = 14
_INDEX: Final = {action: i for i, action in enumerate(ACTIONS)}


def action_index(action: Action) -> int:
    """The index of ``action`` in :data:`ACTIONS`."""
    return _INDEX[action]


def legal_mask(view: View) -> list[int]:
    """1 for each action of :data:`ACTIONS` the view's seat to act may take, else 0."""
    mask = [0] * len(ACTIONS)
    for action in view.legal:
        mask[_INDEX[action]] = 1
    return mask


# -- the encoding -----------------------------------------------------------------------------

SIZE: Final = 100
PLAYERS: Final = 0
PHASE: Final = 1
TO_ACT: Final = 2
IN_HAND: Final = 3
TOP_DISCARD: Final = 4
STOCK_COUNT: Final = 5
STOCK_KNOWN: Final = 6
CALLED: Final = 7
MUST_PLAY: Final = 8
UNCLAIMED: Final = 9
FINAL_FROM: Final = 10
ROUND_WINNERS: Final = 11
MATCH_WINNER: Final = 12
DEALER: Final = 13
ROUND: Final = 14
ROUNDS_WON: Final = 15  # … 18
BOARD_SIZE: Final = 19  # … 22
SLOTS: Final = 23  # … 62
DISCARD_COUNTS: Final = 63  # … 74
UNSEEN_COUNTS: Final = 75  # … 86
STOCK_KNOWN_COUNTS: Final = 87  # … 98
VIEWER: Final = 99

PHASE_CODES: Final = {Phase.DRAW: 0, Phase.WILD: 1, Phase.SWAP: 2, Phase.CHANCE: 3,
                      Phase.ROUND_OVER: 4, Phase.MATCH_OVER: 5}
SLOT_ABSENT: Final = 0
SLOT_DOWN: Final = 1
SLOT_NATURAL: Final = 2
SLOT_WILD: Final = 3
CLASS_WILD: Final = 10
CLASS_TRASH: Final = 11
CLASSES: Final = 12


def card_class(role: int) -> int:
    """The class of a card of ``role`` (:func:`~trashcards.rules.card_roles`)."""
    if role == WILD_ROLE:
        return CLASS_WILD
    if role == TRASH_ROLE:
        return CLASS_TRASH
    return role - 1


def _counts(cards: Sequence[Card], roles: dict[Card, int], out: list[int], at: int) -> None:
    for card in cards:
        out[at + card_class(roles[card])] += 1


def encode(view: View) -> list[int]:
    """The :data:`SIZE` integers of the layout above for ``view``."""
    rules: Rules = view.rules
    roles = rules.roles()
    out = [0] * SIZE
    players = view.players
    out[PLAYERS] = len(players)
    out[PHASE] = PHASE_CODES[view.phase]
    out[TO_ACT] = -1 if view.to_act is None else view.to_act
    out[IN_HAND] = -1 if view.in_hand is None else card_class(roles[view.in_hand])
    top = view.top_discard
    out[TOP_DISCARD] = -1 if top is None else card_class(roles[top])
    out[STOCK_COUNT] = view.stock_count
    out[STOCK_KNOWN] = int(view.stock_known is not None)
    out[CALLED] = int(view.called)
    out[MUST_PLAY] = int(view.must_play)
    out[UNCLAIMED] = sum(1 << seat for seat in view.unclaimed)
    out[FINAL_FROM] = -1 if view.final_from is None else view.final_from
    out[ROUND_WINNERS] = sum(1 << seat for seat in set(view.round_winners))
    out[MATCH_WINNER] = -1 if view.match_winner is None else view.match_winner
    out[DEALER] = -1 if view.dealer is None else view.dealer
    out[ROUND] = view.round
    # Unseen: the match's cards less every card in sight.
    _counts(rules.match_cards(len(players)), roles, out, UNSEEN_COUNTS)
    for seat, player in enumerate(players):
        out[ROUNDS_WON + seat] = player.rounds_won
        out[BOARD_SIZE + seat] = player.board_size
        for k, card in enumerate(player.slots):
            if card is None:
                code = SLOT_DOWN
            else:
                role = roles[card]
                code = SLOT_WILD if role == WILD_ROLE else SLOT_NATURAL
                out[UNSEEN_COUNTS + card_class(role)] -= 1
            out[SLOTS + 10 * seat + k] = code
    _counts(view.discard, roles, out, DISCARD_COUNTS)
    for c in range(CLASSES):
        out[UNSEEN_COUNTS + c] -= out[DISCARD_COUNTS + c]
    if view.in_hand is not None:
        out[UNSEEN_COUNTS + out[IN_HAND]] -= 1
    if view.stock_known is not None:
        _counts(view.stock_known, roles, out, STOCK_KNOWN_COUNTS)
    out[VIEWER] = -1 if view.seat is None else view.seat
    return out
