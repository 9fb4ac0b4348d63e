"""Rated players' habits by rating band, from the server's own database: what a player's
habits are compared with on their page (docs/players.md, "Habits").

The reviewed **rated** games of accounts (``player_games`` with ``judged`` counts and
``rating_before``), each account's newest :data:`~trashcards.web.coaching.HABIT_GAMES`
only (so that no prolific player stands for a band), those whose rating then was no
longer provisional, grouped by family and rating band
(:func:`trashcards.players.habits.by_band`). The grouping is read again at most every
``peer_refresh`` seconds. A player is compared with the band of their rating in the
family they played most rated games in, leaving their own games out; a band with fewer
than ``peer_min_players`` other players or ``peer_min_games`` games is not shown (only
that it has too few): aggregates of a handful of players would show one person's
habits.

Beside the band, the player is compared with the level whose Elo is nearest their
rating: its bot's habits measured offline (:mod:`trashcards.players.levelhabits`), so
that a server with no band to show still compares with something measured.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from typing import Any

from ..players.habits import BandGame, Habit, PeerBand, band_of, by_band, peer_band
from ..players.levelhabits import level_habits, nearest_level, versus_level
from ..players.ratings import FAMILIES, PROVISIONAL_RD
from .coaching import HABIT_GAMES
from .playerdb import Sql
from .rater import rating_of
from .sessions import PlayerSettings

__all__ = ["Peers"]

Bands = dict[tuple[str, int], list[BandGame]]


class Peers:
    """The bands of rated players' habits of one server process (read from the database,
    kept for ``peer_refresh`` seconds)."""

    def __init__(self, sql: Callable[[], Sql], options: PlayerSettings,
                 clock: Callable[[], float]) -> None:
        self._sql = sql
        self.options = options
        self.clock = clock
        self._bands: Bands | None = None
        self._read_at = 0.0
        self._lock = asyncio.Lock()

    async def bands(self) -> Bands:
        """Every band's games (read again when older than ``peer_refresh`` seconds)."""
        async with self._lock:
            now = self.clock()
            if self._bands is None or now - self._read_at >= self.options.peer_refresh:
                self._bands = by_band(await self._games(), self.options.peer_band)
                self._read_at = now
            return self._bands

    async def _games(self) -> list[BandGame]:
        rows = await self._sql().fetch(
            "SELECT account_id, family, rating_before, judged FROM player_games WHERE "
            "account_id IS NOT NULL AND rated = 1 AND rating_before IS NOT NULL AND judged "
            "LIKE '{%%' ORDER BY finished DESC")
        taken: dict[str, int] = {}
        games: list[BandGame] = []
        for account, family, before, judged in rows:
            if taken.get(account, 0) >= HABIT_GAMES:
                continue
            taken[account] = taken.get(account, 0) + 1
            rating = json.loads(before)
            if float(rating["rd"]) > PROVISIONAL_RD:
                continue
            games.append(BandGame(str(account), str(family), float(rating["rating"]),
                                  json.loads(judged)))
        return games

    async def compare(self, account_id: str, ratings: Sequence[Sequence[Any]], now: float,
                      habits: Sequence[Habit]) -> tuple[dict[str, Any] | None,
                                                         dict[str, Any] | None,
                                                         list[dict[str, Any]]]:
        """The band ``account_id`` is compared with and the level nearest its rating
        (both ``None``: no rating yet), and its habits' JSON, each with ``peers`` (the
        band's figures and the verdict, or ``None``) and ``level`` (the level's bot's).
        ``ratings``: the account's rows (family, rating, rd, volatility, games, last)."""
        if not ratings:
            return None, None, [dict(h.to_json(), peers=None, level=None) for h in habits]
        order = {family: i for i, family in enumerate(FAMILIES)}
        row = max(ratings, key=lambda r: (int(r[4]), -order.get(str(r[0]), len(order))))
        family = str(row[0])
        rating = rating_of(row[1:6], now).rating
        band = band_of(rating, self.options.peer_band)
        games = (await self.bands()).get((family, band), [])
        peers: PeerBand = peer_band(games, family, band, self.options.peer_band, account_id,
                                    self.options.peer_min_players,
                                    self.options.peer_min_games)
        level = nearest_level(rating)
        table = level_habits()
        measured = table["levels"][level]
        shown_level = {"name": level, "elo": measured["elo"], "matches": measured["matches"],
                       "rules": table["rules"], "players": table["players"]}
        return peers.to_json(), shown_level, [
            dict(h.to_json(), peers=peers.verdict(h), level=versus_level(h, level))
            for h in habits]
