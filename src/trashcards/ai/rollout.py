"""A position played out by bots, with the reference engine, to the end of the round or
of the match."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, Literal

from ..bots import Bot, make_bot
from ..chance import sample_chance
from ..engine import apply
from ..state import Phase, State
from ..views import view

__all__ = ["HORIZONS", "Horizon", "play_out", "rollout_bots"]

Horizon = Literal["round", "match"]
HORIZONS: Final = ("round", "match")
_END_OF: Final = {"round": frozenset({Phase.ROUND_OVER, Phase.MATCH_OVER}),
                  "match": frozenset({Phase.MATCH_OVER})}


def rollout_bots(policy: str, rngs: Sequence[random.Random]) -> list[Bot]:
    """One ``policy`` bot per seat, each with its own generator."""
    return [make_bot(policy, rng) for rng in rngs]


def play_out(state: State, bots: Sequence[Bot], chance: random.Random,
             horizon: Horizon = "round") -> State:
    """Play ``state`` on (bots decide, chance moves from ``chance``) until the round
    (``horizon="round"``) or the match is over; the final state."""
    end = _END_OF[horizon]
    while state.phase not in end:
        seat = state.to_act
        if seat is None:
            state = apply(state, sample_chance(state, chance))[0]
        else:
            state = apply(state, bots[seat].choose(view(state, seat)))[0]
    return state
