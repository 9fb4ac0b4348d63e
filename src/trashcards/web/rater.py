"""Rating the games of players with accounts once they end (docs/players.md).

A table made for accounts (quick pairing, or a rated game against a level) has a row in
``player_games`` for each account's seat, ``finished`` empty until the match ends. Every
``rate_interval`` seconds each server process looks for such rows whose table is over,
replays the table's record for the final standings and, in one transaction, writes every
account's new rating (Glicko-2, :mod:`trashcards.players.ratings`) and the game's result.
The rows are taken ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, so in a cluster each game is
rated once, by whichever process gets there first; no table or hub is touched, so the
rater needs no hook in the game itself. A leaderboard shows a rating within
``rate_interval`` seconds (plus the work) of the match's end.

A game is rated when every seat is an account or a level's bot (held fixed); one with
a person without an account, or a bot off the ladder, is recorded unrated.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict
from typing import Any

from ..errors import TrashError
from ..players.ratings import (
    NEWCOMER,
    Rating,
    Seat,
    bot_rating,
    rate_table,
    standings,
    with_idle_days,
)
from ..rules import Rules
from .moves import replay
from .playerdb import Sql
from .storage import Storage
from .store import StoreError

__all__ = ["Rater", "rating_of"]

log = logging.getLogger(__name__)
_DAY = 86400.0


def rating_of(row: Sequence[Any] | None, now: float) -> Rating:
    """A stored rating (rating, rd, volatility, games, last) as of ``now`` (its deviation
    widened for the days since its last game), or a newcomer's."""
    if row is None:
        return NEWCOMER
    return with_idle_days(Rating(float(row[0]), float(row[1]), float(row[2])),
                          max(0.0, now - float(row[4])) / _DAY)


class Rater:
    """The loop that rates finished games (one per server process)."""

    def __init__(self, sql: Callable[[], Sql], storage: Callable[[], Storage],
                 wall_clock: Callable[[], float], interval: float) -> None:
        self._sql = sql
        self._storage = storage
        self.now = wall_clock
        self.interval = interval
        #: seconds from a match's end to its rating, for each game rated (a benchmark
        #: reads them)
        self.delays: list[float] = []

    async def run(self) -> None:
        while True:
            try:
                await self.rate_pending()
            except StoreError as exc:
                log.warning("rating finished games failed: %s", exc)
            except Exception:  # a bug: say so, keep rating the others next time
                log.exception("rating finished games failed")
            await asyncio.sleep(self.interval)

    async def rate_pending(self) -> int:
        """Rate every pending game whose table is over; how many were rated."""
        sql = self._sql()
        # games whose table expired before it ended never will: forget them
        await sql.run("DELETE FROM player_games WHERE finished IS NULL AND NOT EXISTS "
                      "(SELECT 1 FROM tables t WHERE t.id = player_games.table_id)")
        pending = [r[0] for r in await sql.fetch(
            "SELECT DISTINCT p.table_id FROM player_games p JOIN tables t ON t.id = "
            "p.table_id WHERE p.finished IS NULL AND t.status = 'over' LIMIT 200")]
        done = 0
        for table_id in pending:
            row = await self._storage().load(table_id)
            if row is None:
                continue
            if row.status != "over":
                continue
            try:
                state, _events = replay(Rules.from_dict(row.rules),
                                        tuple(s.name or "" for s in row.seats), row.moves,
                                        row.cuts)
            except (TrashError, ValueError) as exc:
                log.error("table %s cannot be rated: %s", table_id, exc)
                continue
            assert state is not None  # a finished table has moves
            names = [s.name or "" for s in row.seats]
            bots = [s.bot if s.kind == "bot" else None for s in row.seats]
            ended = row.finished if row.finished is not None else self.now()
            if await self._rate(sql, table_id, names, bots, list(state.rounds_won),
                                state.match_winner, row.rules, ended):
                done += 1
        return done

    async def _rate(self, sql: Sql, table_id: str, names: list[str], bots: list[str | None],
                    rounds_won: list[int], winner: int | None, rules: dict[str, Any],
                    ended: float) -> bool:
        lock = " FOR UPDATE SKIP LOCKED" if sql.postgres else ""
        now = self.now()
        places = standings(rounds_won, winner)
        async with sql.transaction() as tx:
            rows = await tx.fetch("SELECT seat, account_id, family FROM player_games WHERE "
                                  f"table_id = %s AND finished IS NULL{lock}", (table_id,))
            if not rows:
                return False  # another process rated it
            accounts = {int(seat): account for seat, account, _f in rows}
            family = str(rows[0][2])
            seats: list[Seat] = []
            rated = True
            for seat, bot in enumerate(bots):
                account = accounts.get(seat)
                if account is not None:
                    stored = await tx.fetch(
                        f"SELECT rating, rd, volatility, games, last FROM ratings WHERE "
                        f"account_id = %s AND family = %s{lock}", (account, family))
                    seats.append(Seat(rating_of(stored[0] if stored else None, now)))
                    continue
                fixed = bot_rating(bot) if bot is not None else None
                if fixed is None:
                    rated = False  # a person without an account, or no level's bot
                seats.append(Seat(fixed or NEWCOMER, fixed=True))
            after = rate_table(seats, places) if rated else [s.rating for s in seats]
            for seat, account in accounts.items():
                if rated and account is not None:
                    await tx.run(
                        "INSERT INTO ratings (account_id, family, rating, rd, volatility, "
                        "games, last) VALUES (%s, %s, %s, %s, %s, 1, %s) ON CONFLICT "
                        "(account_id, family) DO UPDATE SET rating = excluded.rating, rd = "
                        "excluded.rd, volatility = excluded.volatility, games = "
                        "ratings.games + 1, last = excluded.last",
                        (account, family, after[seat].rating, after[seat].rd,
                         after[seat].volatility, ended))
                await tx.run(
                    "UPDATE player_games SET finished = %s, rated = %s, preset = %s, "
                    "players = %s, seats = %s, place = %s, won = %s, rating_before = %s, "
                    "rating_after = %s WHERE table_id = %s AND seat = %s",
                    (ended, int(rated), str(rules.get("preset", "standard")), len(names),
                     json.dumps(names), places[seat], int(winner == seat),
                     json.dumps(asdict(seats[seat].rating)) if rated else None,
                     json.dumps(asdict(after[seat])) if rated else None, table_id, seat))
        self.delays.append(max(0.0, now - ended))
        return True
