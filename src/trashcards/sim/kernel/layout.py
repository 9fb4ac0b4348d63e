"""The kernel's numbers: where each part of a table and of a match state lives in its
arrays, and the codes of phases, actions, bots and results.

Three arrays make a match the kernel can play, stop and resume:

* ``tab`` (int64, one per rules and table size, shared by every state of that table):
  the rule numbers ``T_*``, then per card id its role (``T_ROLES + id``: slot 1…10,
  0 wild, -1 trash), its rank (``T_RANKS``, 0 for a Joker), its class (``T_CLASS``: pip
  rank 1…10 → 0…9, wild → 10, trash → 11), the ids in the cards' canonical order
  (``T_ORDER``: :class:`~trashcards.cards.Card` order, ties by id) and the number of cards
  of each class in the match (``T_CLASS_TOTAL``). Per-card parts have :data:`MAX_CARDS`
  entries, so every offset is a constant.
* ``st`` (int32, one row per state, :func:`state_width` entries): the scalars ``S_*``, the
  per-seat parts (four seats' room, ``O_BCARD + seat * 10 + k`` is slot k+1), then the
  deck (``O_DECK …``: the stock is ``deck[sp:se]``, top first) and the discard pile
  (``discard_at(ncards) …``, bottom first).
* ``ky`` (uint64, ``KEYS`` entries): the chance stream's key, the current shuffle's key
  and each seat's bot stream key.

A card is its id: its index in ``rules.match_cards(players)``. An action is ``verb * 16 +
slot`` inside the kernel (``V_*``); outside it, an index in the fixed action list of
:mod:`trashcards.public` (0 stock, 1 discard, 2…11 wild 1…10, 12 swap, 13 trash, 14
call), which masks, environments and candidate actions use.
"""

from __future__ import annotations

from typing import Final

from ...public import ACTION_CALL, ACTION_SWAP, ACTION_WILD, ACTIONS, CLASSES

# -- table (``tab``) --------------------------------------------------------------------------

T_PLAYERS: Final = 0
T_CARDS: Final = 1
T_DECKS: Final = 2
T_START_SIZE: Final = 3
T_TARGET: Final = 4
T_CALL_TRASH: Final = 5
T_LAST_CHANCE: Final = 6
#: Player actions of a match (every seat's) after which ``run`` stops at the next decision,
#: whoever's it is (:data:`R_MOVE_CAP`); 0: no cap (vector tables set it, see
#: :mod:`trashcards.sim.vector`).
T_MOVE_CAP: Final = 7
#: Cards of each class in the match (12 entries).
T_CLASS_TOTAL: Final = 8
#: Largest number of cards a match can hold (8 packs of 52 and 4 Jokers each).
MAX_CARDS: Final = 8 * 56
T_ROLES: Final = 32
T_RANKS: Final = T_ROLES + MAX_CARDS
T_CLASS: Final = T_RANKS + MAX_CARDS
T_ORDER: Final = T_CLASS + MAX_CARDS
TAB_SIZE: Final = T_ORDER + MAX_CARDS

assert CLASSES == 12  # T_CLASS_TOTAL holds one entry per class

# -- state (``st``) ---------------------------------------------------------------------------

S_PHASE: Final = 0
S_TURN: Final = 1  # the seat whose turn it is (kept after the round ends: the last one)
S_HAND: Final = 2  # the card in hand (wild and swap phases), else -1
S_CALLED: Final = 3
S_MUST_PLAY: Final = 4
S_UNCLAIMED: Final = 5  # bit mask of seats waiting to claim
S_FINAL_FROM: Final = 6  # -1 when no last-chance lap runs
S_WINNERS: Final = 7  # bit mask: the winners of the round so far
S_MATCH_WINNER: Final = 8  # -1 until the match is over
S_DEALER: Final = 9  # -1 before the cut
S_ROUND: Final = 10
S_SP: Final = 11  # the stock is deck[sp:se]
S_SE: Final = 12
S_DL: Final = 13  # the discard pile is discard[0:dl]
S_SHUFFLED: Final = 14  # 1: deck[sp:se] is in its final order; 0: a lazy shuffle runs
S_STOCK_PUBLIC: Final = 15  # a reshuffle this round made the stock's cards public
S_NSHUF: Final = 16  # shuffles of the chance stream used so far
S_TURNS: Final = 17  # statistics of the round: turns so far,
S_DECIDED: Final = 18  # … whether someone won it,
S_STARTER_WON: Final = 19  # … whether its first player won it
S_FIRST: Final = 20  # the match's first player (statistics), -1 if unknown
S_MOVES: Final = 21  # player actions of the match so far, every seat's (calls included)
O_BCARD: Final = 24  # 4 seats × 10 slots
O_DOWN: Final = O_BCARD + 40  # per seat: bit mask of face-down slots,
O_WILD: Final = O_DOWN + 4  # … of face-up slots holding a wild,
O_SIZE: Final = O_WILD + 4  # … board size,
O_WON: Final = O_SIZE + 4  # … rounds won,
O_CTR: Final = O_WON + 4  # … numbers its bot stream gave so far
O_DECK: Final = O_CTR + 4


def discard_at(ncards: int) -> int:
    """Where the discard pile starts in a state of a match of ``ncards`` cards."""
    return O_DECK + ncards


def state_width(ncards: int) -> int:
    """Entries of a state of a match of ``ncards`` cards."""
    return O_DECK + 2 * ncards


K_CHANCE: Final = 0
K_SHUFFLE: Final = 1
K_BOT: Final = 2  # … 5, one per seat
KEYS: Final = 8

# -- phases -----------------------------------------------------------------------------------

PH_DRAW: Final = 0
PH_RESHUFFLE: Final = 1  # the stock ran out on a draw: reshuffle, then draw its top card
PH_WILD: Final = 2
PH_SWAP: Final = 3
PH_PENALTY: Final = 4  # … on the call-trash penalty card: reshuffle, then that card
PH_DEAL: Final = 5  # the first round's deck is due (the dealer is known)
PH_DEALER: Final = 6  # a new match: the cut for the dealer is due
PH_ROUND_OVER: Final = 7
PH_MATCH_OVER: Final = 8

#: How far :func:`~trashcards.sim.kernel.game.run` plays.
H_ROUND: Final = 0
H_MATCH: Final = 1
#: Like ``H_MATCH``, but stops at the end of every round (``R_ROUND_OVER``); called again
#: from a round's end, it deals the next round and plays on.
H_ROUNDS: Final = 2

#: What :func:`~trashcards.sim.kernel.game.run` stopped at.
R_DECIDE: Final = 0  # the external seat must decide
R_ROUND_OVER: Final = 1
R_MATCH_OVER: Final = 2
R_MOVE_CAP: Final = 3  # the match reached ``T_MOVE_CAP`` player actions at a decision

# -- actions ----------------------------------------------------------------------------------

#: Verbs of kernel actions (an action is ``verb * 16 + slot``).
V_STOCK: Final = 0
V_DISCARD: Final = 1
V_WILD: Final = 2
V_SWAP: Final = 3
V_TRASH: Final = 4
V_CALL: Final = 5

#: The fixed action list (:data:`trashcards.public.ACTIONS`) as kernel actions.
ACTION_COUNT: Final = len(ACTIONS)
ACTION_CODES: Final = (V_STOCK * 16, V_DISCARD * 16, *(V_WILD * 16 + k for k in range(1, 11)),
                       V_SWAP * 16, V_TRASH * 16, V_CALL * 16)
assert len(ACTION_CODES) == len(ACTIONS)
assert ACTION_CODES[ACTION_SWAP] == V_SWAP * 16
assert ACTION_CODES[ACTION_WILD] == V_WILD * 16 + 1
assert ACTION_CODES[ACTION_CALL] == V_CALL * 16


# -- bots -------------------------------------------------------------------------------------

#: A seat decided outside the kernel: :func:`~trashcards.sim.kernel.game.run` stops there.
B_EXTERNAL: Final = -1
#: A seat decided outside the kernel but for its decisions with one legal action, which
#: the vector tables take themselves (:func:`~trashcards.sim.kernel.vector.advance`).
B_TAKES_FORCED: Final = -2
B_RANDOM: Final = 0
B_GREEDY: Final = 1
B_COUNTER: Final = 2
B_KID: Final = 3
B_SOMETIMES: Final = 4
B_STOCKONLY: Final = 5

# -- trace log --------------------------------------------------------------------------------

#: Log entries: ``[LOG_DEALER, seat]``, ``[LOG_DECK, n, card…]``, ``[LOG_RESHUFFLE, n,
#: card…]``, ``[LOG_ACTION, seat, verb, slot]``.
LOG_DEALER: Final = 0
LOG_DECK: Final = 1
LOG_RESHUFFLE: Final = 2
LOG_ACTION: Final = 3

# -- statistics -------------------------------------------------------------------------------

#: Indices into an accumulator row.
A_MATCHES: Final = 0
A_ROUNDS: Final = 1
A_DECIDED: Final = 2
A_TURNS: Final = 3
A_FIRST_WINS: Final = 4
A_STARTER_WINS: Final = 5
A_WINS: Final = 6  # … 9, one per seat
A_ROUND_WINS: Final = 10  # … 13
A_OVERFLOW: Final = 14  # entries used in the overflow list
A_ERROR: Final = 15  # 1: the overflow list overflowed
ACC_SIZE: Final = 16

#: Histogram sizes: turns per round, rounds per match; larger values go to the overflow
#: list as (0, turns) or (1, rounds) pairs.
TURNS_HIST: Final = 1024
ROUNDS_HIST: Final = 128
OVERFLOW_SIZE: Final = 1024
