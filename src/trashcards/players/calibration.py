"""The check that ratings land on the levels' scale: bots of known strength rated as if
they were people, over games played on the fast simulator (the ``sim`` extra).

Three players start as newcomers and play as the beginner, casual and good bots, in
turn; each game is a two-player standard match against a level's bot held fixed at its
Elo or, one time in five, against another of the three (both rated). After enough
games each player's rating should hold its level's Elo within its 95 % interval
(tests/players/test_ratings.py; ``benchmarks/ratings.py`` counts how often, over many
seeds).
"""

from __future__ import annotations

import random

from ..ai.levels import level_named
from ..rules import Rules
from .ratings import NEWCOMER, Rating, Seat, bot_rating, rate_table, standings

__all__ = ["CALIBRATED", "simulate"]

#: The levels rated (the expert is not on the fast simulator).
CALIBRATED = ("beginner", "casual", "good")


def simulate(games: int, seed: int, people_share: float = 0.2) -> dict[str, Rating]:
    """Each player's rating, by level, after ``games`` matches (match ``i`` of the fast
    simulator's run ``seed``); ``people_share`` of them between two of the players."""
    import numba  # the sim extra

    from ..sim.fast import play_chunk

    rules = Rules.preset_named("standard")
    levels = [level_named(name) for name in CALIBRATED]
    rng = random.Random(seed)
    rating = {level.name: NEWCOMER for level in levels}
    threads = numba.get_num_threads()
    numba.set_num_threads(1)  # one match per call: more threads would only cost time
    try:
        for game in range(games):
            me = levels[game % len(levels)]
            other = rng.choice([level for level in levels if level is not me])
            people = [me] + ([other] if rng.random() < people_share else [])
            order = [me, other] if game % 2 == 0 else [other, me]
            stats = play_chunk(rules, [level.bot for level in order], seed, game, 1)
            seats = [Seat(rating[level.name]) if level in people
                     else Seat(bot_rating(level.bot) or NEWCOMER, fixed=True)
                     for level in order]
            after = rate_table(seats, standings([0, 0], stats.wins.index(1)))
            for level, seat, new in zip(order, seats, after, strict=True):
                if not seat.fixed:
                    rating[level.name] = new
    finally:
        numba.set_num_threads(threads)
    return rating
