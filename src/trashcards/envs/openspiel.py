"""Trash as an OpenSpiel game: ``python_trash``, registered when this module is imported.

Trash has no private information (nobody knows a face-down card or the stock order, not
even the board's owner; every discard is public), so it is modelled as a game of PERFECT
information with EXPLICIT STOCHASTIC chance, and ``MCTSBot`` or ``expectiminimax`` search
it unmodified (``docs/envs.md`` gives the argument). A chance node is:

* the first dealer (outcome: the seat; each seat is equally likely);
* every card that comes face up from hiding — drawn from the stock, turned up from a
  face-down slot, or the call-trash penalty card. The outcome is the card's CLASS (0…9:
  pip rank 1…10, 10: wild, 11: trash; cards of one class play alike), with probability
  its share of the unseen cards that could be there: before a reshuffle every unseen card
  (face-down slots and stock alike), after one the stock's known cards for a stock draw
  and the rest for a face-down slot.

The deal and the reshuffle need no chance node: what they decide is revealed card by card.
Underneath, the engine plays a concrete deck; the hidden cards in it are placeholders, and
when one is revealed the card of the chosen class is swapped into its place from another
hidden place of the same pool (they are exchangeable). :meth:`TrashState.record` is the
game so far as a ``trash/1`` record, the decks rewritten to what was revealed.

Parameters: ``players`` (2), ``preset`` ("standard"), the other ``Rules`` fields
(``decks`` 0, ``jokers_per_deck`` -1, ``start_size`` 0 and ``rounds_to_win`` 0 mean the
preset's value; ``wild_ranks`` "preset", or letters such as "JK", or "none";
``call_trash`` and ``last_chance`` true turn the house rule on), and ``max_moves`` (player
actions after which the game ends as a draw).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterable
from typing import Any, Final

import numpy as np
import pyspiel

from ..actions import Action, Dealer, Deck, Move, Reshuffle
from ..bots import make_bot
from ..cards import Card
from ..engine import apply, chance_due
from ..events import Drew, Event, PenaltyDrawn, TurnedUp
from ..pictures import table_text
from ..record import Entry, Record
from ..rules import FLAGS, Rules
from ..session import Chooser
from ..state import Board, Due, Phase, State, new_match
from ..statejson import view_json
from ..views import view
from .actions import ACTIONS, NUM_ACTIONS, action_index, legal_indices
from .episode import DEFAULT_MAX_MOVES, split_reward
from .observation import FEATURES, OBSERVATION_SIZE, observation
from .public import CLASS_NAMES, CLASSES, class_roles

__all__ = ["GAME_NAME", "Position", "TrashBot", "TrashGame", "TrashState", "make_bots",
           "rules_from_params"]

GAME_NAME: Final = "python_trash"
_DEFAULTS: Final[dict[str, Any]] = {
    "players": 2, "preset": "standard", "decks": 0, "jokers_per_deck": -1,
    "wild_ranks": "preset", "start_size": 0, "rounds_to_win": 0,
    **dict.fromkeys(FLAGS, False), "max_moves": DEFAULT_MAX_MOVES,
}

_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Trash (Garbage, Ten)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)

# A hidden place: ("s", i) the i-th card of the stock (top first) or of the reshuffle
# being applied; ("b", seat, k) slot k+1 of that seat's board.
Place = tuple[Any, ...]


def rules_from_params(params: dict[str, Any]) -> Rules:
    """The :class:`Rules` of the game parameters (see the module docstring)."""
    rules = Rules.preset_named(str(params.get("preset", "standard")))
    fields: dict[str, Any] = {}
    for name in ("decks", "start_size", "rounds_to_win"):
        if int(params.get(name, 0)) > 0:
            fields[name] = int(params[name])
    if int(params.get("jokers_per_deck", -1)) >= 0:
        fields["jokers_per_deck"] = int(params["jokers_per_deck"])
    wild = str(params.get("wild_ranks", "preset")).strip()
    if wild.lower() != "preset":
        fields["wild_ranks"] = [] if wild.lower() in ("", "none") else list(wild.upper())
    for name in FLAGS:
        if params.get(name):
            fields[name] = True
    return rules.with_fields(fields)


class TrashGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_trash``: one match; +1 to its winner, -1 split over the others."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.rules = rules_from_params(params)
        self.players = int(params["players"])
        self.rules.check_players(self.players)
        self.max_moves = int(params["max_moves"])
        if self.max_moves < 1:
            raise ValueError(f"max_moves must be at least 1, got {self.max_moves}")
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=max(CLASSES, self.players),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.max_moves,
        )
        super().__init__(_GAME_TYPE, info, params)

    def new_initial_state(self) -> TrashState:
        return TrashState(self)

    def make_py_observer(self, iig_obs_type: Any = None,
                         params: dict[str, Any] | None = None) -> TrashObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return TrashObserver(perfect_recall, params)


class TrashState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_trash`` (all of it in a :class:`Position`, which OpenSpiel's
    clone copies cheaply)."""

    def __init__(self, game: TrashGame) -> None:
        super().__init__(game)
        self.position = Position(game.rules, game.players, game.max_moves)

    def current_player(self) -> int:
        position = self.position
        if position.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        if position.chance:
            return int(pyspiel.PlayerId.CHANCE)
        seat = position.engine.to_act
        assert seat is not None
        return seat

    def is_terminal(self) -> bool:
        return self.position.terminal

    def returns(self) -> list[float]:
        return self.position.returns()

    def _legal_actions(self, player: int) -> list[int]:
        return self.position.legal(player)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.position.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.position.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return self.position.chance_text(action)
        return str(ACTIONS[action])

    def __str__(self) -> str:
        return self.position.text()

    def record(self) -> Record:
        """The game so far as a ``trash/1`` record (a move still being resolved is left
        out); replaying it gives the same public position."""
        return self.position.record()

    def render(self, seat: int | None = None) -> str:
        """The position as a picture for people (the terminal game's, as plain text)."""
        position = self.position
        text = table_text(view(position.engine, seat))
        return text + (position.resolving() + "\n" if position.pending is not None else "")

    def engine_state(self) -> State:
        """The engine's state at the last settled move. Its hidden cards are placeholders
        that decide nothing: a hidden card's class is chosen by chance when it is revealed,
        from the public shares, whatever card the placeholder was."""
        return self.position.engine


class Position:
    """The engine's state, and the move being resolved while its revealed cards are
    chance nodes. Only the record and the list of revealed places change in place; a
    copy shares everything else."""

    def __init__(self, rules: Rules, players: int, max_moves: int) -> None:
        self.rules = rules
        self.players = players
        self.max_moves = max_moves
        self.names = tuple(f"player_{seat}" for seat in range(players))
        self.engine = new_match(rules, self.names)
        self.classes = class_roles(rules.wild_ranks)
        self.entries: list[Entry] = []
        self.deck_at = -1  # entry index of this round's deck
        self.reshuffle_at = -1  # entry index of this round's last reshuffle, or -1
        self.deal_index: dict[tuple[int, int], int] = {}
        self.pending: Move | None = None  # the move whose revealed cards are chance
        self.pending_seat: int | None = None
        self.fixed: list[Place] = []  # places already revealed by the pending move
        self.target: Place | None = None  # the place whose card chance decides now
        self.outcomes: tuple[tuple[int, float], ...] | None = None  # its chances, once asked
        self.decisions = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Position:
        clone = copy.copy(self)
        clone.entries = list(self.entries)
        clone.fixed = list(self.fixed)
        return clone

    # -- what OpenSpiel asks ------------------------------------------------------------

    @property
    def terminal(self) -> bool:
        if self.pending is not None:
            return False
        return self.engine.phase is Phase.MATCH_OVER or self.decisions >= self.max_moves

    @property
    def chance(self) -> bool:
        return self.target is not None or chance_due(self.engine) is Due.DEALER

    def returns(self) -> list[float]:
        winner = self.engine.match_winner
        if winner is None:
            return [0.0] * self.players
        return split_reward((winner,), self.players)

    def legal(self, player: int) -> list[int]:
        if self.terminal or self.target is not None or player != self.engine.to_act:
            return []
        return legal_indices(view(self.engine, player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.target is None:
            return [(seat, 1.0 / self.players) for seat in range(self.players)]
        if self.outcomes is None:
            counts = [0] * CLASSES
            for place in self._pool(self.target):
                counts[self.classes[self._card(place)]] += 1
            total = sum(counts)
            self.outcomes = tuple((cls, n / total) for cls, n in enumerate(counts) if n)
        return list(self.outcomes)

    def chance_text(self, outcome: int) -> str:
        return f"dealer {outcome}" if self.target is None else f"reveal {CLASS_NAMES[outcome]}"

    def text(self, seat: int | None = None) -> str:
        """The position as ``seat`` (or a spectator) sees it: the view as compact JSON
        (the state shape of RECORDS.md), then the move being resolved, if any."""
        out = json.dumps(view_json(view(self.engine, seat)), separators=(",", ":"))
        if self.pending is not None:
            out += "\n" + self.resolving()
        return out

    def resolving(self) -> str:
        """The move being resolved and the classes revealed so far ("" if none)."""
        if self.pending is None:
            return ""
        revealed = " ".join(CLASS_NAMES[self.classes[self._card(p)]] for p in self.fixed)
        return f"resolving {self.pending} (revealed: {revealed or 'nothing yet'})"

    def record(self) -> Record:
        return Record(self.rules, self.names, tuple(self.entries))

    # -- the moves ------------------------------------------------------------------------

    def apply(self, action: int) -> None:
        if self.target is not None:
            self._reveal(action)
        elif chance_due(self.engine) is Due.DEALER:
            self._settle(Dealer(action))
        else:
            self.pending, self.pending_seat = ACTIONS[action], self.engine.to_act
            self.decisions += 1
        self._run()

    def _run(self) -> None:
        """Resolve the pending move up to its next unrevealed card, then play the chance
        moves that need no decision (the deal; a reshuffle becomes the pending move)."""
        while True:
            if self.pending is not None:
                post, events = apply(self.engine, self.pending)
                reveals = _reveals(events)
                if len(reveals) > len(self.fixed):
                    self.target = reveals[len(self.fixed)]
                    return
                self._commit(post)
                continue
            if self.terminal:
                return
            due = chance_due(self.engine)
            if due is None or due is Due.DEALER:
                return
            if due is Due.DECK:
                self._deal()
            else:
                self.pending = Reshuffle(self.engine.discard[:-1])
                self.pending_seat = None

    def _settle(self, move: Move) -> None:
        self.engine, _events = apply(self.engine, move)
        self.entries.append(Entry(None, move))

    def _commit(self, post: State) -> None:
        move, seat = self.pending, self.pending_seat
        assert move is not None
        self.entries.append(Entry(seat if isinstance(move, Action) else None, move))
        if isinstance(move, Reshuffle):
            self.reshuffle_at = len(self.entries) - 1
        self.engine = post
        self.pending, self.pending_seat, self.fixed = None, None, []

    def _deal(self) -> None:
        """Deal the match's cards in canonical order: every dealt card comes from the
        first pack, whose cards are all different, so each slot's deck index is found."""
        deck = self.rules.match_cards(self.players)
        self._settle(Deck(deck))
        self.deck_at, self.reshuffle_at = len(self.entries) - 1, -1
        first = {card: i for i, card in enumerate(deck[:52])}
        self.deal_index = {(seat, k): first[card]
                            for seat, board in enumerate(self.engine.boards)
                            for k, card in enumerate(board.cards)}

    def _reveal(self, cls: int) -> None:
        target = self.target
        assert target is not None
        if self.classes[self._card(target)] != cls:
            source = next(p for p in self._pool(target)
                          if p != target and self.classes[self._card(p)] == cls)
            self._swap(target, source)
        self.fixed.append(target)
        self.target = self.outcomes = None

    # -- hidden places --------------------------------------------------------------------

    def _stock(self) -> tuple[Card, ...]:
        if isinstance(self.pending, Reshuffle):
            return self.pending.cards
        return self.engine.stock

    def _card(self, place: Place) -> Card:
        if place[0] == "s":
            return self._stock()[place[1]]
        return self.engine.boards[place[1]].cards[place[2]]

    def _pool(self, target: Place) -> Iterable[Place]:
        """The hidden places whose cards the card at ``target`` is exchangeable with."""
        known = isinstance(self.pending, Reshuffle) or self.engine.stock_public
        places: list[Place] = []
        if not known or target[0] == "s":
            places.extend(("s", i) for i in range(len(self._stock())))
        if not known or target[0] == "b":
            places.extend(("b", seat, k) for seat, board in enumerate(self.engine.boards)
                          for k, up in enumerate(board.up) if not up)
        fixed = set(self.fixed)
        return [p for p in places if p not in fixed]

    def _swap(self, a: Place, b: Place) -> None:
        """Exchange the cards of two hidden places, in the engine's state and the record."""
        card_a, card_b = self._card(a), self._card(b)
        where_a, where_b = self._record_place(a), self._record_place(b)
        self._put(a, card_b)
        self._put(b, card_a)
        for (entry, index), card in ((where_a, card_b), (where_b, card_a)):
            if entry < 0:
                continue  # the pending reshuffle: changed with the stock above
            move = self.entries[entry].move
            assert isinstance(move, Deck | Reshuffle)
            cards = list(move.cards)
            cards[index] = card
            self.entries[entry] = Entry(None, type(move)(tuple(cards)))

    def _put(self, place: Place, card: Card) -> None:
        if place[0] == "s":
            stock = list(self._stock())
            stock[place[1]] = card
            if isinstance(self.pending, Reshuffle):
                self.pending = Reshuffle(tuple(stock))
            else:
                self.engine = self.engine._replace(stock=tuple(stock))
            return
        seat, k = place[1], place[2]
        boards = list(self.engine.boards)
        board = boards[seat]
        cards = list(board.cards)
        cards[k] = card
        boards[seat] = Board(board.size, tuple(cards), board.up)
        self.engine = self.engine._replace(boards=tuple(boards))

    def _record_place(self, place: Place) -> tuple[int, int]:
        """Where the card of a hidden place is written in the record: (entry, index);
        entry -1 for the reshuffle being applied."""
        if place[0] == "b":
            return self.deck_at, self.deal_index[(place[1], place[2])]
        if isinstance(self.pending, Reshuffle):
            return -1, place[1]
        entry = self.reshuffle_at if self.reshuffle_at >= 0 else self.deck_at
        move = self.entries[entry].move
        assert isinstance(move, Deck | Reshuffle)
        return entry, len(move.cards) - len(self.engine.stock) + place[1]


def _reveals(events: Iterable[Event]) -> list[Place]:
    """The hidden places a move turned face up, in order."""
    out: list[Place] = []
    draws = 0
    for event in events:
        if (isinstance(event, Drew) and event.source == "stock") \
                or isinstance(event, PenaltyDrawn):
            out.append(("s", draws))
            draws += 1
        elif isinstance(event, TurnedUp):
            out.append(("b", event.seat, event.slot - 1))
    return out


class TrashObserver:
    """OpenSpiel's observer: the shared observation (``docs/envs.md``) of a seat's view
    as the tensor; as the string, the seat's view as JSON or (``perfect_recall``) the
    history. (The JSON is cheap: OpenSpiel's tests ask for every seat's string at every
    step. :meth:`TrashState.render` draws the picture.)

    At a chance node inside a move's chain, both show the position before that move (the
    engine applies it once chance has decided every card it turns up); the string adds
    the move being resolved. The game provides no information-state tensor (its type says
    so): the perfect-recall observer's tensor is empty, as the history is only a string.
    """

    def __init__(self, perfect_recall: bool, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"the observer takes no parameters, got {params}")
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(0 if perfect_recall else OBSERVATION_SIZE, np.float32)
        self.dict = {} if perfect_recall else {
            f.name: self.tensor[f.start:f.start + f.size] for f in FEATURES}

    def set_from(self, state: TrashState, player: int) -> None:
        if not self.perfect_recall:
            self.tensor[:] = observation(view(state.position.engine, player))

    def string_from(self, state: TrashState, player: int) -> str:
        if self.perfect_recall:
            return str(state.history_str())
        return state.position.text(player)


class TrashBot(pyspiel.Bot):  # type: ignore[misc]
    """A bot of :mod:`trashcards.bots` (by name, or any object with ``choose(view)``) as
    a ``pyspiel.Bot`` for seat ``player``, so OpenSpiel's ``evaluate_bots`` and its
    search bots can play against it. It decides from the seat's view only, as
    everywhere; a named bot gets ``random.Random(f"{seed}/{player}")``."""

    def __init__(self, player: int, bot: str | Chooser = "greedy", seed: int = 0) -> None:
        pyspiel.Bot.__init__(self)
        self.player = player
        self.name = bot if isinstance(bot, str) else type(bot).__name__
        self.bot = (make_bot(bot, random.Random(f"{seed}/{player}")) if isinstance(bot, str)
                    else bot)

    def step(self, state: TrashState) -> int:
        seen = view(state.position.engine, self.player)
        if seen.to_act != self.player or state.is_chance_node():
            raise ValueError(f"seat {self.player} is not to act")
        return action_index(self.bot.choose(seen))

    def restart_at(self, state: TrashState) -> None:
        """Nothing to do: the bot decides from the view of the state it is given."""

    def inform_action(self, state: TrashState, player_id: int, action: int) -> None:
        """Nothing to do: the bot keeps no memory of its own."""

    def provides_policy(self) -> bool:
        return False


def make_bots(names: Iterable[str | Chooser], seed: int = 0) -> list[TrashBot]:
    """One :class:`TrashBot` per seat, seat 0 first (``["greedy", "random"]``)."""
    return [TrashBot(player, name, seed) for player, name in enumerate(names)]


pyspiel.register_game(_GAME_TYPE, TrashGame)
