"""Elo ratings from head-to-head results: a Bradley–Terry fit with delta-method intervals.

Bradley–Terry says player ``i`` beats ``j`` with probability ``s_i / (s_i + s_j)``; on the
Elo scale ``r_i = 400 log10 s_i``, so a gap of 400 points means 10 : 1 odds. The fit is
Hunter's minorise–maximise iteration. Every pair that met gets half a win each way (a
weak prior), so a bot that never won still gets a finite rating. Ratings are centred on
1500 (the mean rating of the field). Intervals are ± 1.96 standard errors by the delta
method: the inverse of the fit's information matrix (a pseudo-inverse, matching the
centring), which is accurate when every pair played many matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..estimates import Z95

__all__ = ["PRIOR_WINS", "EloFit", "elo_win_probability", "fit_bradley_terry", "fit_elo"]

#: Wins added to each side of every pair that played (keeps ratings finite).
PRIOR_WINS = 0.5
CENTRE = 1500.0
_SCALE = 400.0 / np.log(10.0)


@dataclass(frozen=True, slots=True)
class EloFit:
    """Ratings of ``names`` with 95 % intervals."""

    names: tuple[str, ...]
    ratings: tuple[float, ...]
    lows: tuple[float, ...]
    highs: tuple[float, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "method": f"Bradley–Terry (MM), prior {PRIOR_WINS} win each way per pair, "
                      "95 % intervals by the delta method (± 1.96 s.e.), "
                      f"centred on {CENTRE:g}",
            "ratings": {name: {"elo": r, "low": lo, "high": hi} for name, r, lo, hi
                        in zip(self.names, self.ratings, self.lows, self.highs, strict=True)},
        }


def elo_win_probability(gap: float) -> float:
    """The chance that a player rated ``gap`` points above the other wins."""
    return float(1.0 / (1.0 + 10.0 ** (-gap / 400.0)))


def fit_bradley_terry(wins: NDArray[np.float64], iterations: int = 2000,
                      tolerance: float = 1e-10) -> NDArray[np.float64]:
    """Log-strengths (mean 0) from ``wins[i, j]`` = wins of ``i`` over ``j``."""
    games = wins + wins.T
    played = games > 0
    w = wins + PRIOR_WINS * played
    n = w + w.T
    total_wins = w.sum(axis=1)
    strength = np.ones(len(w))
    for _ in range(iterations):
        denom = (n / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.where(denom > 0, denom, 1.0), strength)
        new /= np.exp(np.mean(np.log(new)))
        if np.max(np.abs(new - strength)) < tolerance:
            strength = new
            break
        strength = new
    logs: NDArray[np.float64] = np.log(strength)
    centred: NDArray[np.float64] = logs - logs.mean()
    return centred


def fit_elo(names: Sequence[str], wins: Sequence[Sequence[int]]) -> EloFit:
    """Elo ratings with 95 % intervals from a square table of head-to-head wins."""
    table = np.asarray(wins, dtype=np.float64)
    if table.shape != (len(names), len(names)):
        raise ValueError("wins must be a square table, one row and column per player")
    logs = fit_bradley_terry(table)
    games = table + table.T
    games = games + 2 * PRIOR_WINS * (games > 0)
    p = 1.0 / (1.0 + np.exp(logs[None, :] - logs[:, None]))
    info = -games * p * (1.0 - p)
    np.fill_diagonal(info, 0.0)
    np.fill_diagonal(info, -info.sum(axis=1))
    # The pseudo-inverse is the covariance of the log-strengths under their sum-zero
    # constraint, which is how the ratings are centred.
    se = _SCALE * np.sqrt(np.clip(np.diag(np.linalg.pinv(info)), 0.0, None))
    ratings = CENTRE + _SCALE * logs
    half = Z95 * se
    return EloFit(tuple(names), tuple(float(r) for r in ratings),
                  tuple(float(r - h) for r, h in zip(ratings, half, strict=True)),
                  tuple(float(r + h) for r, h in zip(ratings, half, strict=True)))
