"""Match states as the kernel's arrays, and back.

:func:`load_state` puts a full :class:`~trashcards.state.State` (hidden cards and the
stock's order included: one taken from a game, or a deal sampled by the AI) into a state
row ``st`` of :mod:`trashcards.sim.kernel.layout`, in any phase; :func:`load_view` puts
the public part of a position (a :class:`~trashcards.views.View`) there, with ``-1`` for
every face-down card and for the stock's cards unless a reshuffle made them public (the
kernel's deal sampler fills them in); :func:`to_state` turns a kernel state back into
the engine's ``State``, equal to what the engine would hold.

Cards become ids of the table (:class:`~trashcards.sim.tables.Table`): identical cards of
several packs take their ids in order, which no result depends on.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..cards import Card
from ..rules import WILD
from ..state import Board, Due, Phase, State, public_seats
from ..views import View
from . import rng
from .kernel import layout
from .tables import Table

__all__ = ["load_state", "load_view", "stock_order", "to_state"]

Ints = npt.NDArray[np.int32]

_PHASES = {Phase.DRAW: layout.PH_DRAW, Phase.WILD: layout.PH_WILD, Phase.SWAP: layout.PH_SWAP,
           Phase.ROUND_OVER: layout.PH_ROUND_OVER, Phase.MATCH_OVER: layout.PH_MATCH_OVER}
_DUES = {Due.DEALER: layout.PH_DEALER, Due.DECK: layout.PH_DEAL, Due.RESHUFFLE: layout.PH_RESHUFFLE,
         Due.PENALTY_RESHUFFLE: layout.PH_PENALTY}
_BACK = {layout.PH_DRAW: (Phase.DRAW, None), layout.PH_WILD: (Phase.WILD, None),
         layout.PH_SWAP: (Phase.SWAP, None), layout.PH_RESHUFFLE: (Phase.CHANCE, Due.RESHUFFLE),
         layout.PH_PENALTY: (Phase.CHANCE, Due.PENALTY_RESHUFFLE),
         layout.PH_DEAL: (Phase.CHANCE, Due.DECK), layout.PH_DEALER: (Phase.CHANCE, Due.DEALER),
         layout.PH_ROUND_OVER: (Phase.ROUND_OVER, None),
         layout.PH_MATCH_OVER: (Phase.MATCH_OVER, None)}


class _Ids:
    """Hands out the ids of each card, in order."""

    def __init__(self, table: Table) -> None:
        self.free: dict[Card, list[int]] = defaultdict(list)
        for i, card in reversed(list(enumerate(table.cards))):
            self.free[card].append(i)
        self.used = 0

    def take(self, card: Card | None) -> int:
        if card is None:
            return -1
        ids = self.free.get(card)
        if not ids:
            raise ValueError(f"the position holds more {card.text} than the match has")
        self.used += 1
        return ids.pop()


def _mask(seats: Sequence[int]) -> int:
    return sum(1 << seat for seat in set(seats))


def _fill(table: Table, *, phase: int, turn: int | None, in_hand: Card | None,
          slots: Sequence[Sequence[tuple[Card | None, bool]]], sizes: Sequence[int],
          rounds_won: Sequence[int], discard: Sequence[Card], stock: Sequence[Card | None],
          stock_public: bool, called: bool, must_play: bool, unclaimed: Sequence[int],
          final_from: int | None, round_winners: Sequence[int], match_winner: int | None,
          dealer: int | None, round_number: int) -> tuple[Ints, int]:
    """A state row; also how many cards it placed."""
    players = table.players
    ncards = len(table.cards)
    st = np.zeros(table.width, dtype=np.int32)
    ids = _Ids(table)
    roles = table.rules.roles()
    if turn is None:  # the order of pending claims follows from the last seat to play
        turn = unclaimed[-1] if unclaimed else 0
    st[layout.S_PHASE] = phase
    st[layout.S_TURN] = turn
    st[layout.S_HAND] = ids.take(in_hand)
    st[layout.S_CALLED] = called
    st[layout.S_MUST_PLAY] = must_play
    st[layout.S_UNCLAIMED] = _mask(unclaimed)
    st[layout.S_FINAL_FROM] = -1 if final_from is None else final_from
    st[layout.S_WINNERS] = _mask(round_winners)
    st[layout.S_MATCH_WINNER] = -1 if match_winner is None else match_winner
    st[layout.S_DEALER] = -1 if dealer is None else dealer
    st[layout.S_ROUND] = round_number
    st[layout.S_SP] = 0
    st[layout.S_SE] = len(stock)
    st[layout.S_DL] = len(discard)
    st[layout.S_SHUFFLED] = 1
    st[layout.S_STOCK_PUBLIC] = stock_public
    st[layout.S_DECIDED] = bool(round_winners)
    if dealer is not None:
        st[layout.S_STARTER_WON] = (dealer + 1) % players in round_winners
        st[layout.S_FIRST] = (dealer - round_number + 2) % players
    else:
        st[layout.S_FIRST] = -1
    for seat in range(players):
        st[layout.O_SIZE + seat] = sizes[seat]
        st[layout.O_WON + seat] = rounds_won[seat]
        down = wilds = 0
        for k, (card, up) in enumerate(slots[seat]):
            st[layout.O_BCARD + 10 * seat + k] = ids.take(card)
            if not up:
                down |= 1 << k
            elif card is not None and roles[card] == WILD:
                wilds |= 1 << k
        st[layout.O_DOWN + seat] = down
        st[layout.O_WILD + seat] = wilds
    for i, card in enumerate(stock):
        st[layout.O_DECK + i] = ids.take(card)
    for i, card in enumerate(discard):
        st[layout.discard_at(ncards) + i] = ids.take(card)
    return st, ids.used


def load_state(table: Table, state: State) -> tuple[Ints, npt.NDArray[np.uint64]]:
    """The kernel's state row and keys of ``state`` (any phase; keys zero: the caller
    seeds the streams). Refuses a state whose cards are not the match's cards."""
    _check_table(table, state.rules, state.players)
    if state.phase is Phase.CHANCE:
        assert state.due is not None
        phase = _DUES[state.due]
    else:
        phase = _PHASES[state.phase]
    st, placed = _fill(
        table, phase=phase, turn=state.turn, in_hand=state.in_hand,
        slots=[list(zip(board.cards, board.up, strict=True)) for board in state.boards],
        sizes=[board.size for board in state.boards], rounds_won=state.rounds_won,
        discard=state.discard, stock=state.stock, stock_public=state.stock_public,
        called=state.called, must_play=state.must_play, unclaimed=state.unclaimed,
        final_from=state.final_from, round_winners=state.round_winners,
        match_winner=state.match_winner, dealer=state.dealer, round_number=state.round)
    dealt = phase not in (layout.PH_DEAL, layout.PH_DEALER)
    if dealt and placed != len(table.cards):
        raise ValueError(f"the position holds {placed} cards; the match has "
                         f"{len(table.cards)}")
    return st, np.zeros(layout.KEYS, dtype=np.uint64)


def load_view(table: Table, view: View) -> Ints:
    """The kernel's state row of the public position ``view``: ``-1`` for each face-down
    card and, unless ``view.stock_known``, for each card of the stock.

    A view does not say whose turn it is while a reshuffle is due, so such a view (phase
    ``chance`` after the first deal) is refused.
    """
    _check_table(table, view.rules, len(view.players))
    dealt = any(player.slots for player in view.players)
    if view.phase is Phase.CHANCE:
        if dealt:
            raise ValueError("a view while a reshuffle is due does not show whose turn it "
                             "is: take the position before or after the reshuffle")
        phase = layout.PH_DEALER if view.dealer is None else layout.PH_DEAL
    else:
        phase = _PHASES[view.phase]
    stock: Sequence[Card | None] = (view.stock_known if view.stock_known is not None
                                    else [None] * view.stock_count)
    st, _ = _fill(
        table, phase=phase, turn=view.to_act, in_hand=view.in_hand,
        slots=[[(card, card is not None) for card in player.slots] for player in view.players],
        sizes=[player.board_size for player in view.players],
        rounds_won=[player.rounds_won for player in view.players], discard=view.discard,
        stock=stock, stock_public=view.stock_known is not None, called=view.called,
        must_play=view.must_play, unclaimed=view.unclaimed, final_from=view.final_from,
        round_winners=view.round_winners, match_winner=view.match_winner,
        dealer=view.dealer, round_number=view.round)
    return st


def _check_table(table: Table, rules: object, players: int) -> None:
    if table.rules != rules or table.players != players:
        raise ValueError("the position's rules or table size differ from the table's")


def stock_order(st: Ints, key: int) -> list[int]:
    """The stock's ids, top first, as the kernel will draw them: a lazy shuffle still
    running (``S_SHUFFLED`` 0) is finished here, position by position, as the kernel
    would finish it."""
    sp, se = int(st[layout.S_SP]), int(st[layout.S_SE])
    deck = [int(c) for c in st[layout.O_DECK: layout.O_DECK + se]]
    if not st[layout.S_SHUFFLED]:
        for p in range(sp, se):
            j = p + rng.bounded(rng.shuffle_number(key, p), se - p)
            deck[p], deck[j] = deck[j], deck[p]
    return deck[sp:]


def to_state(table: Table, st: Ints, ky: npt.NDArray[np.uint64],
             names: Sequence[str]) -> State:
    """The engine's :class:`State` of a kernel state (``names``: one per seat)."""
    players = table.players
    cards = table.cards
    rules = table.rules
    phase_code = int(st[layout.S_PHASE])
    phase, due = _BACK[phase_code]
    seat = int(st[layout.S_TURN])
    dealt = phase_code not in (layout.PH_DEAL, layout.PH_DEALER)
    rounds_won = tuple(int(st[layout.O_WON + s]) for s in range(players))
    boards = []
    for s in range(players):
        size = int(st[layout.O_SIZE + s])
        down = int(st[layout.O_DOWN + s])
        if not dealt:
            boards.append(Board(rules.start_size))
            continue
        row = st[layout.O_BCARD + 10 * s: layout.O_BCARD + 10 * s + size]
        boards.append(Board(size, tuple(cards[c] for c in row),
                            tuple(not (down >> k) & 1 for k in range(size))))
    dl = int(st[layout.S_DL])
    at = layout.discard_at(len(cards))
    discard = tuple(cards[c] for c in st[at: at + dl]) if dealt else ()
    stock = tuple(cards[c] for c in stock_order(st, int(ky[layout.K_SHUFFLE]))) if dealt else ()
    unclaimed_mask = int(st[layout.S_UNCLAIMED])
    unclaimed = tuple(sorted((s for s in range(players) if unclaimed_mask >> s & 1),
                             key=lambda s: (s - seat - 1) % players))
    final_from = int(st[layout.S_FINAL_FROM])
    winners_mask = int(st[layout.S_WINNERS])
    winners = [s for s in range(players) if winners_mask >> s & 1]
    first = final_from if final_from >= 0 else (winners[0] if winners else 0)
    winners.sort(key=lambda s: (s - first) % players)
    hand = int(st[layout.S_HAND])
    acting = phase in (Phase.DRAW, Phase.WILD, Phase.SWAP) or due in (
        Due.RESHUFFLE, Due.PENALTY_RESHUFFLE)
    dealer = int(st[layout.S_DEALER])
    winner = int(st[layout.S_MATCH_WINNER])
    names = tuple(names)
    return State(
        rules=rules, names=names, phase=phase, due=due, round=int(st[layout.S_ROUND]),
        dealer=None if dealer < 0 else dealer, turn=seat if acting else None,
        in_hand=cards[hand] if phase in (Phase.WILD, Phase.SWAP) else None,
        stock=stock, discard=discard, boards=tuple(boards), rounds_won=rounds_won,
        called=bool(st[layout.S_CALLED]), must_play=bool(st[layout.S_MUST_PLAY]),
        unclaimed=unclaimed, final_from=None if final_from < 0 else final_from,
        round_winners=tuple(winners), match_winner=None if winner < 0 else winner,
        seats=public_seats(names, rounds_won, tuple(boards)),
        stock_public=bool(st[layout.S_STOCK_PUBLIC]),
    )
