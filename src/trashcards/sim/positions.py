"""Positions in plain Python: the kernel's deal sampler, rollouts and evaluation, on the
rules engine and the reference bots, drawing exactly the kernel's numbers.

These are the references the kernel is tested against (``tests/sim``), and what a caller
without numba can use at a smaller budget: fed the same seed, they give the very
results of :mod:`trashcards.sim.rollouts`, only slower.

Streams (:mod:`trashcards.sim.rng`): sample or rollout ``k`` of a run with ``seed`` uses
the streams of match ``k``: chance stream shuffles 0 and 1 for the deal
(:func:`determinize`), 2, 3, … for the rollout's reshuffles and decks; each seat's bot
stream (:class:`~trashcards.sim.rng.KernelRandom`) from its start.

Imports neither numba nor numpy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from ..actions import Action, ChanceMove, Dealer, Deck, Reshuffle
from ..bots import make_bot
from ..deals import deal_state, hidden_slots, split_unseen
from ..engine import apply, chance_due
from ..state import Due, Phase, State
from ..views import View, view
from . import rng

__all__ = ["ROLLOUT_SHUFFLES", "Horizon", "KernelChance", "Outcome", "determinize", "evaluate",
           "rollout"]

Horizon = Literal["round", "match"]
#: The first shuffle of the chance stream a rollout uses (0 and 1 deal the sample).
ROLLOUT_SHUFFLES = 2


class Outcome(NamedTuple):
    """What a rollout ended with: ``winners`` of the position's round as a bit mask (0: a
    void round), the match winner (-1 if the rollout stopped at the round's end), the
    rounds that ended during the rollout, and the state it stopped in."""

    winners: int
    match_winner: int
    rounds: int
    end: State


def determinize(v: View, seed: int, sample: int) -> State:
    """Sample ``sample`` of the run with ``seed``: a full state consistent with ``v``, as
    the kernel deals it (:func:`trashcards.sim.kernel.rollouts.determinize`).

    The unseen cards that may lie face down (:func:`trashcards.deals.split_unseen`, in
    canonical order) are shuffled by Fisher–Yates with shuffle 0 of the sample's chance
    stream and fill the face-down slots in (seat, slot) order; the rest is the stock, top
    first. When the stock is public (``v.stock_known``), its cards, sorted, are shuffled
    with shuffle 1 instead and become the stock. Before the first deal nothing is hidden.
    """
    if not any(player.slots for player in v.players):
        return deal_state(v, (), ())
    chance = rng.stream_key(rng.match_key(seed, sample), 0)
    down, stock = split_unseen(v)
    pool = rng.fisher_yates(down, rng.shuffle_key(chance, 0))
    if v.stock_known is not None:
        return deal_state(v, pool, rng.fisher_yates(stock, rng.shuffle_key(chance, 1)))
    places = len(hidden_slots(v))
    return deal_state(v, pool[:places], pool[places:])


class KernelChance:
    """The chance moves of match ``index`` of the run with ``seed``, as the kernel draws
    them: called with a state whose chance move is due, it returns that move, drawn with
    the next shuffle of the match's chance stream (from shuffle ``first``: 0 for a match
    from its start, the dealer's cut, then every deck and reshuffle in order)."""

    def __init__(self, seed: int, index: int, first: int = 0) -> None:
        self._chance = rng.stream_key(rng.match_key(seed, index), 0)
        self._t = first

    def __call__(self, state: State) -> ChanceMove:
        move = _chance(state, self._chance, self._t)
        self._t += 1
        return move


def _chance(state: State, chance: int, t: int) -> ChanceMove:
    """The chance move due, as the kernel draws it with shuffle ``t``."""
    key = rng.shuffle_key(chance, t)
    due = chance_due(state)
    if due is Due.DEALER:
        return Dealer(rng.bounded(rng.shuffle_number(key, 0), state.players))
    if due is Due.DECK:
        return Deck(tuple(rng.fisher_yates(state.rules.match_cards(state.players), key)))
    return Reshuffle(tuple(rng.fisher_yates(state.discard[:-1], key)))


def rollout(state: State, bots: Sequence[str], seed: int, index: int,
            horizon: Horizon = "round", first: Action | None = None) -> Outcome:
    """Rollout ``index`` of the run with ``seed`` from the full ``state``: ``first`` (a
    legal action of the seat to act) if given, then every seat played by its reference
    bot fed the kernel's numbers, to the end of the round or of the match."""
    chance = KernelChance(seed, index, ROLLOUT_SHUFFLES)
    deciders = [make_bot(name, rng.KernelRandom(seed, index, seat))
                for seat, name in enumerate(bots)]
    first_round = state.round
    ended = _ended(state)
    winners: int | None = None if not ended else _mask(state.round_winners)
    if first is not None:
        state, _ = apply(state, first, state.to_act)
    while state.phase is not Phase.MATCH_OVER:
        if state.phase is Phase.ROUND_OVER:
            if winners is None:
                winners = _mask(state.round_winners)
            if horizon == "round":
                break
        seat = state.to_act
        if seat is None:
            state, _ = apply(state, chance(state))
        else:
            state, _ = apply(state, deciders[seat].choose(view(state, seat)), seat)
    if winners is None:
        winners = _mask(state.round_winners)
    rounds = state.round - first_round + _ended(state) - ended
    winner = -1 if state.match_winner is None else state.match_winner
    return Outcome(winners, winner, rounds, state)


def _ended(state: State) -> int:
    return int(state.phase in (Phase.ROUND_OVER, Phase.MATCH_OVER))


def _mask(seats: Sequence[int]) -> int:
    return sum(1 << seat for seat in set(seats))


def evaluate(v: View, actions: Sequence[Action], bots: Sequence[str], samples: int,
             seed: int, horizon: Horizon = "round",
             first: int = 0) -> list[list[Outcome]]:
    """``[action][sample]`` outcomes of each candidate action of the seat to act, on
    samples ``first`` … of ``v`` (:func:`determinize`), each action on the same deal
    with the same streams (common random numbers), as
    :func:`trashcards.sim.rollouts.evaluate` does in the kernel."""
    deals = [determinize(v, seed, first + k) for k in range(samples)]
    return [[rollout(deal, bots, seed, first + k, horizon, action)
             for k, deal in enumerate(deals)] for action in actions]
