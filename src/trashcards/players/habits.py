"""Habits: the coach's judgements (:mod:`trashcards.ai.review`) of one player's
decisions added up over their games (docs/players.md, "Habits").

Each decision the coach judged is a *chance* of the habit its best move names: taking
the discard (when it was best), drawing from the stock, placing a wild, swapping,
calling "Trash!". It is *missed* when the coach confirmed a mistake there (a cost of at
least half a point of match-win chance, on fresh deals) and the move taken was of
another kind. A habit is shown as how often such chances were missed, with the Wilson
95 % interval of that share: "you drew from the stock when the discard was better in
12 % of such chances (3 of 25; 4–30 %)". Only confirmed mistakes count, so noise is not
a habit; a handful of chances gives a wide interval, and the page says so.

**Compared with rated players** (:func:`peer_band`, :func:`compare`): the same counts over
the reviewed rated games of *other* players whose rating at the time lay in the player's
band (the nearest multiple of the band's width: "players at 1700" are 1650–1749). A band
is shown only with enough distinct players (so that no one's habits can be read off it)
and games; a habit's verdict is "more" or "less" only when the two 95 % intervals do
not overlap, else "same": a difference inside the intervals is a tie.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from ..ai.review import Decision

__all__ = ["HABITS", "VERDICTS", "BandGame", "Habit", "PeerBand", "add_up", "band_of",
           "by_band", "compare", "count", "peer_band", "peer_interval", "verb", "wilson"]

#: The habits, by the verb of the best move: what a miss is.
HABITS: Final = ("discard", "stock", "wild", "swap", "call")
#: A habit against rated players': missed more often, less often, or no difference shown.
VERDICTS: Final = ("more", "less", "same")


def verb(action: str) -> str:
    """The kind of a move's text: ``wild 3`` → ``wild``."""
    return action.split(" ")[0]


def count(decisions: Iterable[Decision], seat: int) -> dict[str, list[int]]:
    """Chances and misses of each habit among ``seat``'s judged decisions."""
    out = {habit: [0, 0] for habit in HABITS}
    for decision in decisions:
        if decision.seat != seat:
            continue
        best = verb(str(decision.best))
        habit = "call" if decision.kind == "missed_call" else best
        if habit not in out:
            continue
        out[habit][0] += 1
        if decision.mistake and (decision.kind == "missed_call"
                                 or verb(str(decision.taken)) != best
                                 or habit == "wild"):
            out[habit][1] += 1
    return out


def wilson(misses: int, chances: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of ``misses / chances``."""
    if chances == 0:
        return 0.0, 1.0
    share = misses / chances
    centre = (share + z * z / (2 * chances)) / (1 + z * z / chances)
    half = z * math.sqrt(share * (1 - share) / chances + z * z / (4 * chances * chances)) / (
        1 + z * z / chances)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True, slots=True)
class Habit:
    """One habit over a player's games: chances, misses, the share and its interval."""

    kind: str
    chances: int
    misses: int
    games: int

    @property
    def rate(self) -> float:
        return self.misses / self.chances if self.chances else 0.0

    def to_json(self) -> dict[str, Any]:
        low, high = wilson(self.misses, self.chances)
        return {"kind": self.kind, "chances": self.chances, "misses": self.misses,
                "games": self.games, "rate": round(self.rate, 4), "low": round(low, 4),
                "high": round(high, 4)}


def add_up(games: Iterable[Mapping[str, Any]]) -> list[Habit]:
    """The habits over games' counts (:func:`count`'s form, one mapping per game),
    those with at least one chance, most missed first."""
    chances = dict.fromkeys(HABITS, 0)
    misses = dict.fromkeys(HABITS, 0)
    played = dict.fromkeys(HABITS, 0)
    for game in games:
        for habit in HABITS:
            got = game.get(habit)
            if not isinstance(got, list) or len(got) != 2 or not got[0]:
                continue
            chances[habit] += int(got[0])
            misses[habit] += int(got[1])
            played[habit] += 1
    found = [Habit(h, chances[h], misses[h], played[h]) for h in HABITS if chances[h]]
    return sorted(found, key=lambda h: (-h.rate, -h.chances, h.kind))


def band_of(rating: float, width: float) -> int:
    """The band of a rating: the nearest multiple of ``width`` (at 100: 1650 to 1749.99
    are the band 1700)."""
    return int(math.floor(rating / width + 0.5) * width)


def peer_interval(players: Iterable[tuple[int, int]], z: float = 1.96) -> tuple[float, float]:
    """The 95 % interval of the share of missed chances over several players' (chances,
    misses): the wider of the Wilson interval of the pooled counts and the
    cluster-robust one of the ratio (players as the units: one player's chances are not
    independent of each other, so the pooled Wilson interval alone is too narrow when
    players differ)."""
    rows = [(c, m) for c, m in players if c]
    chances = sum(c for c, _ in rows)
    misses = sum(m for _, m in rows)
    low, high = wilson(misses, chances, z)
    if len(rows) < 2:
        return low, high
    share = misses / chances
    n = len(rows)
    spread = n / (n - 1) * sum((m - share * c) ** 2 for c, m in rows) / chances ** 2
    half = z * math.sqrt(spread)
    return max(0.0, min(low, share - half)), min(1.0, max(high, share + half))


def compare(mine: tuple[float, float], theirs: tuple[float, float]) -> str:
    """A verdict of :data:`VERDICTS` from two 95 % intervals of a share: ``more`` or
    ``less`` only when they do not overlap, else ``same``."""
    if mine[0] > theirs[1]:
        return "more"
    if mine[1] < theirs[0]:
        return "less"
    return "same"


@dataclass(frozen=True, slots=True)
class BandGame:
    """One reviewed rated game of an account: its family, the account's rating before it
    and the habits counted in it (:func:`count`'s form)."""

    account: str
    family: str
    rating: float
    counts: Mapping[str, Any]


def by_band(games: Iterable[BandGame], width: float) -> dict[tuple[str, int], list[BandGame]]:
    """The games grouped by family and rating band."""
    out: dict[tuple[str, int], list[BandGame]] = {}
    for game in games:
        out.setdefault((game.family, band_of(game.rating, width)), []).append(game)
    return out


@dataclass(frozen=True, slots=True)
class PeerBand:
    """Rated players' habits in one band, for comparing one player's with: ``enough``
    False (too few other players or games) means that no figure of the band is shown."""

    family: str
    band: int
    width: float
    min_players: int
    min_games: int
    players: int
    games: int
    #: per habit: (chances, misses, low, high) over the band, when it had such chances
    habits: Mapping[str, tuple[int, int, float, float]]

    @property
    def enough(self) -> bool:
        return self.players >= self.min_players and self.games >= self.min_games

    def verdict(self, habit: Habit) -> dict[str, Any] | None:
        """``habit`` (the player's) against the band: its figures and the verdict, or
        ``None`` when the band is not shown or had no such chance."""
        if not self.enough or habit.kind not in self.habits:
            return None
        chances, misses, low, high = self.habits[habit.kind]
        return {"chances": chances, "misses": misses, "rate": round(misses / chances, 4),
                "low": round(low, 4), "high": round(high, 4),
                "verdict": compare(wilson(habit.misses, habit.chances), (low, high))}

    def to_json(self) -> dict[str, Any]:
        """What a page shows of the band: its place, its minimums, and its size only
        when it is shown."""
        out: dict[str, Any] = {"family": self.family, "band": self.band,
                               "low": round(self.band - self.width / 2),
                               "high": round(self.band + self.width / 2),
                               "min_players": self.min_players, "min_games": self.min_games,
                               "enough": self.enough}
        if self.enough:
            out.update(players=self.players, games=self.games)
        return out


def peer_band(games: Iterable[BandGame], family: str, band: int, width: float, exclude: str,
              min_players: int, min_games: int) -> PeerBand:
    """The habits of the band's games of every account but ``exclude`` (the player
    compared), with each habit's interval over the players (:func:`peer_interval`)."""
    per_player: dict[str, dict[str, list[int]]] = {}
    played = 0
    for game in games:
        if game.account == exclude:
            continue
        played += 1
        mine = per_player.setdefault(game.account, {h: [0, 0] for h in HABITS})
        for habit in HABITS:
            got = game.counts.get(habit)
            if isinstance(got, list) and len(got) == 2 and got[0]:
                mine[habit][0] += int(got[0])
                mine[habit][1] += int(got[1])
    habits: dict[str, tuple[int, int, float, float]] = {}
    for habit in HABITS:
        rows = [(p[habit][0], p[habit][1]) for p in per_player.values() if p[habit][0]]
        if rows:
            low, high = peer_interval(rows)
            habits[habit] = (sum(c for c, _ in rows), sum(m for _, m in rows), low, high)
    return PeerBand(family, band, width, min_players, min_games, len(per_player), played,
                    habits)
