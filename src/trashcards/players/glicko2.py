"""Glicko-2, the published algorithm (Mark E. Glickman, "Example of the Glicko-2
system", Boston University, 2022), step by step, on the Glicko scale (1500, 350).

Why not a library: the one Glicko-2 package on PyPI with users, ``glicko2`` 2.1.0,
computes step 5's function ``f(x)`` with the rating ``μ²`` where the paper has the
deviation ``φ²``, so its volatility is wrong for every player whose rating is not 1500;
the others are unreleased alphas or abandoned. The paper's worked example is the unit
test (tests/players/test_glicko2.py), and the browser's copy of this module
(static/js/glicko2.js) is checked against this one.

A *rating period* here is one match (as on Lichess): :func:`update` takes every result
of the period at once (a table of several players gives several, see
:mod:`trashcards.players.ratings`), and :func:`idle` widens a deviation for the periods a
player did not play.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

__all__ = ["SCALE", "TAU", "Rating", "idle", "update"]

#: Glicko-2's conversion factor between the Glicko scale and its own (400 / ln 10).
SCALE: Final = 173.7178
#: The system constant τ: how much the volatility may change (the paper: 0.3 to 1.2).
TAU: Final = 0.5
#: The convergence tolerance of step 5.
EPSILON: Final = 0.000001


@dataclass(frozen=True, slots=True)
class Rating:
    """A rating on the Glicko scale: ``rating`` (1500 for a newcomer), its deviation
    ``rd`` (350 for a newcomer) and ``volatility`` σ (0.06 for a newcomer)."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """The rating ± ``z`` deviations (95 % by default)."""
        return self.rating - z * self.rd, self.rating + z * self.rd


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, g_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-g_j * (mu - mu_j)))


def update(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = TAU
           ) -> Rating:
    """``player`` after one rating period with ``results``: (the opponent's rating at
    the start of the period, the score: 1 a win, 0.5 a draw, 0 a loss). No results:
    only the deviation grows (step 6)."""
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.volatility
    if not results:
        return Rating(player.rating, math.sqrt(phi * phi + sigma * sigma) * SCALE, sigma)
    # Steps 3 and 4: the estimated variance v and the improvement Δ.
    info = 0.0
    gain = 0.0
    for opponent, score in results:
        g_j = _g(opponent.rd / SCALE)
        e_j = _expected(mu, (opponent.rating - 1500.0) / SCALE, g_j)
        info += g_j * g_j * e_j * (1.0 - e_j)
        gain += g_j * (score - e_j)
    v = 1.0 / info
    delta = v * gain
    # Step 5: the new volatility (the Illinois algorithm).
    sigma = _volatility(phi, sigma, v, delta, tau)
    # Steps 6 and 7: the new deviation and rating.
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu = mu + phi * phi * gain
    return Rating(1500.0 + SCALE * mu, SCALE * phi, sigma)


def _volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex)
                / (2.0 * (phi * phi + v + ex) ** 2)) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def idle(player: Rating, periods: float, ceiling: float = 350.0) -> Rating:
    """``player`` after ``periods`` rating periods without a game: the deviation grows as
    in step 6, ``sqrt(φ² + periods σ²)``, never past ``ceiling``."""
    if periods <= 0:
        return player
    phi = player.rd / SCALE
    rd = math.sqrt(phi * phi + periods * player.volatility ** 2) * SCALE
    return Rating(player.rating, min(rd, ceiling), player.volatility)
