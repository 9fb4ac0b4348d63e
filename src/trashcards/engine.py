"""The rules engine: what may be done, and what doing it does (RULES.md §4–§7, §10).

Three functions make the whole interface:

* :func:`legal_actions` — the decisions open to the player to act, in a fixed order
  (``stock``, ``discard``, ``wild 1`` … ``wild 10``, ``swap``, ``trash``, ``call``);
* :func:`verify` — raise :class:`~trashcards.errors.IllegalActionError` with the reason a
  move is refused (:func:`is_legal` is its yes/no form);
* :func:`apply` — the new state and the events, in order, for one move: an action or a
  chance move (:class:`~trashcards.actions.Dealer`, ``Deck``, ``Reshuffle``).

Every automatic step (the chain, the round's end, claims, the final cycle) happens inside
:func:`apply`; the engine never draws a random number — chance moves come from
:mod:`trashcards.chance` or from a record.
"""

from __future__ import annotations

from collections import Counter

from .actions import (
    CALL,
    DISCARD,
    STOCK,
    SWAP,
    TRASH,
    Action,
    Dealer,
    Deck,
    Move,
    Reshuffle,
    Verb,
    wild,
)
from .cards import Card
from .errors import IllegalActionError
from .events import (
    Called,
    Claimed,
    Completed,
    DealerChosen,
    Dealt,
    Discarded,
    Drew,
    Event,
    FinalCycle,
    MatchWon,
    PenaltyDrawn,
    Placed,
    Reshuffled,
    RoundVoid,
    RoundWon,
    StockEmpty,
    Swapped,
    TurnedUp,
    TurnPassed,
)
from .rules import WILD as WILD_ROLE
from .state import Board, Due, Phase, PlayerView, State, seat_view, standings

__all__ = ["apply", "chance_due", "is_legal", "legal_actions", "playable", "verify"]


# -- what may be done ---------------------------------------------------------------------

def playable(card: Card, board: Board, roles: dict[Card, int]) -> bool:
    """Whether ``card`` can be placed on ``board`` now (RULES.md §5.1): a pip card whose
    slot is face down or holds a wild, or a wild while any slot is face down."""
    role = roles[card]
    if role > 0:
        if role > board.size:
            return False
        k = role - 1
        return not board.up[k] or roles[board.cards[k]] == WILD_ROLE
    return role == WILD_ROLE and False in board.up


def legal_actions(state: State) -> tuple[Action, ...]:
    """The actions the player to act may take, in the fixed order; ``()`` if none is due."""
    phase = state.phase
    if phase is Phase.DRAW:
        board = state.boards[state.turn]  # type: ignore[index]
        top = state.discard[-1] if state.discard else None
        if top is not None and playable(top, board, state.rules.roles()):
            acts: tuple[Action, ...] = (STOCK, DISCARD)
        else:
            acts = (STOCK,)
    elif phase is Phase.WILD:
        board = state.boards[state.turn]  # type: ignore[index]
        acts = tuple(wild(k + 1) for k, up in enumerate(board.up) if not up)
        if not state.must_play:
            acts += (TRASH,)
    elif phase is Phase.SWAP:
        acts = (SWAP,) if state.must_play else (SWAP, TRASH)
    else:
        return ()
    if state.rules.call_trash and not state.called:
        acts += (CALL,)
    return acts


def chance_due(state: State) -> Due | None:
    """The chance move the match waits for, or ``None`` when a player must act or the
    match is over."""
    if state.phase is Phase.CHANCE:
        return state.due
    if state.phase is Phase.ROUND_OVER:
        return Due.DECK
    return None


def verify(state: State, move: Move, seat: int | None = None) -> None:
    """Raise :class:`IllegalActionError` with the reason if ``move`` is not legal now.

    ``seat``, when given, must be the seat to act (for actions; chance moves have none).
    """
    if isinstance(move, Action):
        _verify_action(state, move, seat)
    else:
        _verify_chance(state, move)


def is_legal(state: State, move: Move, seat: int | None = None) -> bool:
    """Whether :func:`verify` would accept ``move``."""
    try:
        verify(state, move, seat)
    except IllegalActionError:
        return False
    return True


def apply(state: State, move: Move, seat: int | None = None) -> tuple[State, tuple[Event, ...]]:
    """Play one move: the new state and what happened, in order. ``state`` is unchanged.

    Raises :class:`IllegalActionError` (nothing applied) when the move is not legal.
    """
    verify(state, move, seat)
    work = _Work(state)
    if isinstance(move, Action):
        work.act(move)
    elif isinstance(move, Dealer):
        work.choose_dealer(move)
    elif isinstance(move, Deck):
        work.deal(move.cards)
    else:
        work.reshuffle(move.cards)
    return work.freeze(), tuple(work.events)


# -- why not ------------------------------------------------------------------------------

def _not_now(state: State) -> str:
    if state.phase is Phase.MATCH_OVER:
        return "the match is over"
    if state.phase is Phase.ROUND_OVER:
        return "the round is over: the next move is the next round's deck"
    return f"a {_due_word(state.due)} move is due, not a player's action"


def _due_word(due: Due | None) -> str:
    """The record word of the chance move that is due."""
    if due in (Due.RESHUFFLE, Due.PENALTY_RESHUFFLE):
        return "reshuffle"
    return due.value if due else "chance"


def _verify_action(state: State, action: Action, seat: int | None) -> None:
    to_act = state.to_act
    if to_act is not None and (seat is None or seat == to_act) \
            and action in legal_actions(state):
        return
    text = str(action)
    if to_act is None:
        raise IllegalActionError(text, _not_now(state))
    if seat is not None and seat != to_act:
        raise IllegalActionError(text, f"it is seat {to_act}'s turn, not seat {seat}'s")
    raise IllegalActionError(text, _why_illegal(state, action))


def _why_illegal(state: State, action: Action) -> str:
    verb, phase = action.verb, state.phase
    board = state.boards[state.turn]  # type: ignore[index]
    in_hand = state.in_hand.text if state.in_hand else ""
    if verb is Verb.CALL:
        if not state.rules.call_trash:
            return "calling \"Trash!\" is not in these rules (call_trash is off)"
        return "you already called \"Trash!\" this turn"
    if phase is Phase.DRAW:
        if verb is Verb.DISCARD:
            if not state.discard:
                return "the discard pile is empty"
            top = state.discard[-1]
            return (f"the top discard {top.text} cannot be played on this board: "
                    "the discard pile may be taken only for a card you can play")
        return "draw first: stock, or discard when its top card can be played"
    if verb in (Verb.STOCK, Verb.DISCARD):
        return f"you already hold {in_hand}: finish resolving it first"
    if verb is Verb.TRASH:
        return f"{in_hand} was taken from the discard pile, so it must be played"
    if phase is Phase.WILD:
        if verb is Verb.SWAP:
            return f"{in_hand} is a wild: put it on a face-down slot (wild K) or trash it"
        if action.slot > board.size:
            return f"slot {action.slot} is not on this board (board size {board.size})"
        return f"slot {action.slot} is face up"
    return f"{in_hand} is not a wild: swap it for the wild on its slot, or trash it"


def _verify_chance(state: State, move: Dealer | Deck | Reshuffle) -> None:
    text = str(move)
    due = chance_due(state)
    wanted = {Due.DEALER: Dealer, Due.DECK: Deck, Due.RESHUFFLE: Reshuffle,
              Due.PENALTY_RESHUFFLE: Reshuffle}.get(due) if due else None
    if wanted is None or not isinstance(move, wanted):
        if state.to_act is not None:
            reason = f"seat {state.to_act} must act; no chance move is due"
        elif due is None:
            reason = "the match is over"
        else:
            reason = f"a {_due_word(due)} move is due"
        raise IllegalActionError(text, reason)
    if isinstance(move, Dealer):
        if not 0 <= move.seat < state.players:
            raise IllegalActionError(text, f"no seat {move.seat} at a table of {state.players}")
    elif isinstance(move, Deck):
        expected = _match_counter(state)
        _same_cards(text, Counter(move.cards), expected, "the match's cards")
    else:
        _same_cards(text, Counter(move.cards), Counter(state.discard[:-1]),
                    "the discard pile less its top card")


_MATCH_COUNTERS: dict[tuple[object, int], Counter[Card]] = {}


def _match_counter(state: State) -> Counter[Card]:
    key = (state.rules, state.players)
    counter = _MATCH_COUNTERS.get(key)
    if counter is None:
        counter = _MATCH_COUNTERS[key] = Counter(state.rules.match_cards(state.players))
    return counter


def _same_cards(text: str, got: Counter[Card], want: Counter[Card], what: str) -> None:
    if dict.__eq__(got, want):  # plain dict equality: no zero counts on either side
        return
    missing = sorted((want - got).elements())
    extra = sorted((got - want).elements())
    parts = []
    if missing:
        parts.append("missing " + " ".join(c.text for c in missing[:8])
                     + (" …" if len(missing) > 8 else ""))
    if extra:
        parts.append("not expected " + " ".join(c.text for c in extra[:8])
                     + (" …" if len(extra) > 8 else ""))
    raise IllegalActionError(text, f"must be exactly {what} ({'; '.join(parts)})")


# -- what doing it does -------------------------------------------------------------------

class _Work:
    """A state being changed by one move: mutable copies of what the move may touch."""

    __slots__ = (
        "board_cards", "board_public", "board_up", "boards", "called", "dealer", "discard",
        "due", "events", "face_down", "final_from", "in_hand", "match_winner", "must_play",
        "phase", "roles", "round", "round_winners", "rounds_won", "rules", "seat_loaded",
        "seats", "state", "stock", "stock_public", "turn", "unclaimed",
    )

    def __init__(self, state: State) -> None:
        self.state = state
        # One unpacking, in field order: this runs once per move.
        (self.rules, _names, self.phase, self.due, self.round, self.dealer, self.turn,
         self.in_hand, self.stock, self.discard, boards, self.rounds_won, self.called,
         self.must_play, self.unclaimed, self.final_from, self.round_winners,
         self.match_winner, seats, self.stock_public) = state
        self.boards = list(boards)
        self.seats = list(seats)
        self.roles = self.rules.roles()
        self.events: list[Event] = []
        self.seat_loaded: int | None = None
        self.board_cards: list[Card] = []
        self.board_up: list[bool] = []
        self.board_public: list[Card | None] = []
        self.face_down = 0

    def freeze(self) -> State:
        self._store_board()
        # All fields in order: this runs once per move.
        return State._make((
            self.rules, self.state.names, self.phase, self.due, self.round, self.dealer,
            self.turn, self.in_hand, self.stock, self.discard, tuple(self.boards),
            self.rounds_won, self.called, self.must_play, self.unclaimed,
            self.final_from, self.round_winners, self.match_winner, tuple(self.seats),
            self.stock_public,
        ))

    def _refresh_seat(self, seat: int) -> None:
        """Bring the public part of ``seat`` in step with its board and rounds won."""
        self.seats[seat] = seat_view(self.state.names[seat], self.rounds_won[seat],
                                     self.boards[seat])

    # The board of the seat whose turn it is, as lists while the turn changes it.
    def _load_board(self) -> None:
        seat = self.turn
        if self.seat_loaded != seat:
            self._store_board()
            board = self.boards[seat]  # type: ignore[index]
            self.board_cards = list(board.cards)
            self.board_up = list(board.up)
            self.board_public = list(self.seats[seat].slots)  # type: ignore[index]
            self.face_down = self.board_up.count(False)
            self.seat_loaded = seat

    def _store_board(self) -> None:
        seat = self.seat_loaded
        if seat is not None:
            size = self.boards[seat].size
            self.boards[seat] = Board(size, tuple(self.board_cards), tuple(self.board_up))
            self.seats[seat] = PlayerView(self.state.names[seat], self.rounds_won[seat], size,
                                          tuple(self.board_public))
            self.seat_loaded = None

    # -- chance moves --

    def choose_dealer(self, move: Dealer) -> None:
        self.dealer = move.seat
        self.due = Due.DECK
        self.events.append(DealerChosen(move.seat, move.cuts))

    def deal(self, cards: tuple[Card, ...]) -> None:
        players = len(self.boards)
        if self.phase is Phase.ROUND_OVER:
            self.round += 1
            self.dealer = (self.dealer + 1) % players  # type: ignore[operator]
        dealer = self.dealer
        assert dealer is not None
        sizes = tuple(self.rules.start_size - won for won in self.rounds_won)
        hands: list[list[Card]] = [[] for _ in range(players)]
        seat, pos = dealer, 0
        for _ in range(sum(sizes)):
            seat = (seat + 1) % players
            while len(hands[seat]) == sizes[seat]:
                seat = (seat + 1) % players
            hands[seat].append(cards[pos])
            pos += 1
        self.boards = [Board(size, tuple(hand), (False,) * size)
                       for size, hand in zip(sizes, hands, strict=True)]
        self.seat_loaded = None
        for seat in range(players):
            self._refresh_seat(seat)
        self.stock = cards[pos:]
        self.stock_public = False
        self.discard = ()
        self.in_hand = None
        self.round_winners = ()
        self.unclaimed = ()
        self.final_from = None
        self.called = self.must_play = False
        self.turn = (dealer + 1) % players
        self.phase, self.due = Phase.DRAW, None
        self.events.append(Dealt(self.round, dealer, sizes, self.turn))

    def reshuffle(self, cards: tuple[Card, ...]) -> None:
        self.discard = self.discard[-1:]
        self.stock = cards
        self.stock_public = True
        self.events.append(Reshuffled(len(cards)))
        due, self.due = self.due, None
        seat = self.turn
        assert seat is not None
        card, self.stock = self.stock[0], self.stock[1:]
        if due is Due.PENALTY_RESHUFFLE:
            self._penalty_card(seat, card)
        else:
            self.events.append(Drew(seat, "stock", card))
            self._load_board()
            self._resolve(card)

    # -- actions --

    def act(self, action: Action) -> None:
        verb = action.verb
        seat = self.turn
        assert seat is not None
        if verb is Verb.CALL:
            self.called = True
            self.events.append(Called(seat))
            return
        self._load_board()
        if verb is Verb.STOCK:
            if not self.stock:
                self._stock_empty(Due.RESHUFFLE)
                return
            card, self.stock = self.stock[0], self.stock[1:]
            self.events.append(Drew(seat, "stock", card))
            self._resolve(card)
            return
        if verb is Verb.DISCARD:
            card, self.discard = self.discard[-1], self.discard[:-1]
            self.events.append(Drew(seat, "discard", card))
            self.must_play = True
            self._resolve(card)
            return
        held = self.in_hand
        assert held is not None
        if verb is Verb.WILD:
            self._place(action.slot - 1, held, wild_card=True)
        elif verb is Verb.SWAP:
            k = self.roles[held] - 1
            wild_card = self.board_cards[k]
            self.board_cards[k] = held
            self.board_public[k] = held
            self.events.append(Swapped(seat, k + 1, held, wild_card))
            self.must_play = False
            self._resolve(wild_card)
        else:  # TRASH
            self._discard(held)
            self._end_turn()

    def _stock_empty(self, due: Due) -> None:
        """The stock is empty when a card must be drawn (RULES.md §5.4). The round ends
        with no winner when nothing is left to reshuffle, or when it is stuck."""
        seat = self.turn
        assert seat is not None
        self.in_hand = None
        if len(self.discard) <= 1 or (due is Due.RESHUFFLE and self._stuck()):
            self.events.append(RoundVoid(self.round))
            self.phase, self.due, self.turn = Phase.ROUND_OVER, None, None
            return
        self.events.append(StockEmpty(seat))
        self.phase, self.due = Phase.CHANCE, due

    def _stuck(self) -> bool:
        """Whether no card can ever be placed again this round.

        With the stock empty, every card off the boards is in the (public) discard pile;
        if none of them is playable on any board, no board can change any more and the
        stock would be reshuffled for ever. This happens only with few or no wilds (e.g.
        four players on one pack with no wild rank). Not while a claim or a last-chance
        lap is pending: those end the round anyway.
        """
        if self.unclaimed or self.final_from is not None:
            return False
        self._store_board()
        roles = self.roles
        return not any(playable(card, board, roles)
                       for card in set(self.discard) for board in self.boards)

    def _discard(self, card: Card) -> None:
        self.discard += (card,)
        self.in_hand = None
        self.events.append(Discarded(self.turn, card))  # type: ignore[arg-type]

    def _place(self, k: int, card: Card, wild_card: bool) -> None:
        """Put ``card`` face up on face-down slot k; the card there comes into hand."""
        seat = self.turn
        assert seat is not None
        turned = self.board_cards[k]
        self.board_cards[k] = card
        self.board_public[k] = card
        self.board_up[k] = True
        self.face_down -= 1
        self.must_play = False
        self.events.append(Placed(seat, k + 1, card, wild_card))
        self.events.append(TurnedUp(seat, k + 1, turned))
        if self.face_down == 0:
            self.in_hand = turned
            self._complete()
        else:
            self._resolve(turned)

    def _resolve(self, card: Card) -> None:
        """The chain (RULES.md §5.2): place automatically until a decision or the end."""
        roles = self.roles
        cards, up = self.board_cards, self.board_up
        size = len(cards)
        role = roles[card]
        if role > 0 and role <= size:
            k = role - 1
            if not up[k]:
                self._place(k, card, wild_card=False)
                return
            if roles[cards[k]] == WILD_ROLE:
                self.in_hand = card
                self.phase = Phase.SWAP
                return
        elif role == WILD_ROLE:
            self.in_hand = card
            self.phase = Phase.WILD
            return
        self._discard(card)
        self._end_turn()

    # -- winning --

    def _complete(self) -> None:
        """The board of the player to act has just become complete (RULES.md §6, §9)."""
        seat = self.turn
        assert seat is not None
        assert self.in_hand is not None
        self._discard(self.in_hand)
        claimed = not self.rules.call_trash or self.called
        self.events.append(Completed(seat, claimed))
        if claimed:
            if self._win(seat):
                self._end_turn()
            return
        self.unclaimed += (seat,)
        if not self.stock:
            self._stock_empty(Due.PENALTY_RESHUFFLE)
            return
        card, self.stock = self.stock[0], self.stock[1:]
        self._penalty_card(seat, card)

    def _penalty_card(self, seat: int, card: Card) -> None:
        self.discard += (card,)
        self.events.append(PenaltyDrawn(seat, card))
        self._end_turn()

    def _win(self, seat: int) -> bool:
        """``seat`` wins the round; True if play goes on (a last-chance cycle)."""
        self.rounds_won = tuple(won + (s == seat) for s, won in enumerate(self.rounds_won))
        if self.seat_loaded != seat:
            self._refresh_seat(seat)  # a loaded board refreshes when it is stored
        self.round_winners += (seat,)
        self.events.append(RoundWon(seat, self.round, self.rounds_won[seat]))
        self.in_hand = None
        if self.rounds_won[seat] >= self.rules.target_rounds:
            self.match_winner = seat
            self.phase, self.due, self.turn = Phase.MATCH_OVER, None, None
            self.called = self.must_play = False
            self.events.append(MatchWon(seat, standings(self.freeze())))
            return False
        if self.rules.last_chance:
            if self.final_from is None:
                self.final_from = seat
                self.events.append(FinalCycle(seat))
            return True
        self.phase, self.due, self.turn = Phase.ROUND_OVER, None, None
        self.called = self.must_play = False
        return False

    def _end_turn(self) -> None:
        """Pass the turn to the left; a waiting claim or the end of a final cycle may
        take that turn (RULES.md §9)."""
        players = len(self.boards)
        seat = self.turn
        assert seat is not None
        self.in_hand = None
        self.called = self.must_play = False
        while True:
            seat = (seat + 1) % players
            if seat == self.final_from:
                self.phase, self.due, self.turn = Phase.ROUND_OVER, None, None
                return
            self.turn = seat
            if seat in self.unclaimed:
                self.unclaimed = tuple(s for s in self.unclaimed if s != seat)
                self.events.append(Claimed(seat))
                if not self._win(seat):
                    return
                continue
            self.phase, self.due = Phase.DRAW, None
            self.events.append(TurnPassed(seat))
            return
