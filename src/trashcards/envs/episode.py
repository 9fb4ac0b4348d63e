"""One match as an episode: seeded chance, rewards, the move cap and the record.

The PettingZoo and Gymnasium environments both play through an :class:`Episode`. It
runs a :class:`~trashcards.session.Match` (chance from ``sample_chance`` with a seeded
``random.Random``; every move kept for the ``trash/1`` record) and gives out only views:
the state stays inside.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any, Final, Literal

from ..actions import Action, ChanceMove, Move
from ..chance import sample_chance
from ..engine import chance_due
from ..record import Record
from ..rules import Rules
from ..session import Match
from ..state import Phase, State
from ..views import View
from .actions import ACTIONS

__all__ = ["DEFAULT_MAX_MOVES", "REWARDS", "Episode", "RewardKind", "check_options",
           "make_rules", "split_reward"]

RewardKind = Literal["match", "round"]
REWARDS: Final = ("match", "round")
#: Player actions after which an episode is truncated. Random play needs about 300 for a
#: 2-player standard match and 1,100 for 4 players with call-trash.
DEFAULT_MAX_MOVES: Final = 10_000
_ENDED: Final = (Phase.ROUND_OVER, Phase.MATCH_OVER)


def make_rules(preset: str = "standard",
               rules: Rules | Mapping[str, Any] | None = None) -> Rules:
    """The rules of an environment: ``rules`` when it is a :class:`Rules`, else the
    ``preset`` with the fields of ``rules`` (a mapping) changed."""
    if isinstance(rules, Rules):
        return rules
    base = Rules.preset_named(preset)
    return base if rules is None else base.with_fields(rules)


def check_options(reward: str, max_moves: int) -> None:
    """Refuse an unknown reward kind or a move cap below 1."""
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {', '.join(REWARDS)}, got {reward!r}")
    if max_moves < 1:
        raise ValueError(f"max_moves must be at least 1, got {max_moves}")


def split_reward(winners: tuple[int, ...], players: int) -> list[float]:
    """+1 split over ``winners``, -1 split over the other seats (all 0 if nobody or
    everybody won)."""
    if not winners or len(winners) == players:
        return [0.0] * players
    win, lose = 1.0 / len(winners), -1.0 / (players - len(winners))
    return [win if seat in winners else lose for seat in range(players)]


class Episode:
    """A match from its first move, advanced by actions given as indices of
    :data:`~trashcards.envs.actions.ACTIONS`.

    ``reward="match"``: +1 to the match winner, -1 split over the others, at the end;
    ``reward="round"``: the same for each round as it ends (winners share +1; a void
    round gives 0). After ``max_moves`` player actions the episode is truncated.

    Chance moves come from ``sample_chance`` with ``random.Random(seed)``, or from
    ``chance`` when given: the chance player, called with the state whose chance move is
    due (the vector environment's matches use the kernel's,
    :class:`trashcards.sim.positions.KernelChance`).
    """

    def __init__(self, rules: Rules, names: tuple[str, ...], seed: int,
                 reward: RewardKind = "match", max_moves: int = DEFAULT_MAX_MOVES,
                 chance: Callable[[State], ChanceMove] | None = None) -> None:
        check_options(reward, max_moves)
        rules.check_players(len(names))
        self.players = len(names)
        self.seed = seed
        self.reward_kind = reward
        self.max_moves = max_moves
        self.moves = 0
        self._match = Match(rules, names, random.Random(seed))
        self._chance = chance or self._sample_chance
        self._pending = [0.0] * self.players
        self._advance()

    # -- what may be known -------------------------------------------------------------

    def view(self, seat: int | None) -> View:
        return self._match.view(seat)

    @property
    def to_act(self) -> int | None:
        """The seat whose decision is due (``None`` once the match is over)."""
        return self._match.state.to_act

    @property
    def terminated(self) -> bool:
        return self._match.over

    @property
    def truncated(self) -> bool:
        return not self._match.over and self.moves >= self.max_moves

    @property
    def done(self) -> bool:
        return self.terminated or self.truncated

    def record(self) -> Record:
        """The match so far as a ``trash/1`` record (chance moves included)."""
        return self._match.record

    def take_rewards(self) -> list[float]:
        """Each seat's reward since the last call."""
        rewards, self._pending = self._pending, [0.0] * self.players
        return rewards

    # -- moves -------------------------------------------------------------------------

    def act(self, index: int) -> None:
        """The seat to act plays action ``index`` (raises
        :class:`~trashcards.errors.IllegalActionError`, nothing changed, if illegal),
        then chance moves are played until a decision is due."""
        if self.done:
            raise ValueError("the episode is over: reset it")
        self.play(ACTIONS[index])

    def play(self, action: Action) -> None:
        """Like :meth:`act`, with the action itself."""
        seat = self.to_act
        self._move(action, seat)
        self.moves += 1
        self._advance()

    def _move(self, move: Move, seat: int | None = None) -> None:
        before = self._match.state.phase
        self._match.play(move, seat)
        after = self._match.view(None)
        if after.phase in _ENDED and before not in _ENDED:
            if self.reward_kind == "round":
                self._add(split_reward(after.round_winners, self.players))
            if after.match_winner is not None and self.reward_kind == "match":
                self._add(split_reward((after.match_winner,), self.players))

    def _add(self, rewards: list[float]) -> None:
        self._pending = [a + b for a, b in zip(self._pending, rewards, strict=True)]

    def _sample_chance(self, state: State) -> ChanceMove:
        """The default chance player (a method, not a closure, so episodes pickle)."""
        return sample_chance(state, self._match.rng)

    def _advance(self) -> None:
        state = self._match.state
        while chance_due(state) is not None:
            self._move(self._chance(state))
            state = self._match.state
