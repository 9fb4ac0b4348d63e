"""The coach over a player's games: each finished game of an account is reviewed once
(:func:`trashcards.ai.review.review`, in the AI workers' review lane, after the people's
own reviews in their turn) and the account's decisions are counted into habits
(:func:`trashcards.players.habits.count`), kept with the game (``player_games.judged``).
A player's page adds up the last :data:`HABIT_GAMES` judged games
(:func:`trashcards.players.habits.add_up`).

One game at a time per process, newest first, every ``interval`` seconds; a game is
claimed before its review (``judged = 'working:TIME'``), so two processes never review
the same one, and a claim older than :data:`STALE` (its process died) is taken again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable
from typing import Final

from ..errors import TrashError
from ..players.habits import Habit, add_up, count
from ..record import Record
from ..rules import Rules
from .advice import BusyError, Work
from .hub import Hub
from .moves import entry, with_cuts
from .playerdb import Sql
from .store import StoreError

__all__ = ["HABIT_GAMES", "Coaching", "habits_of"]

log = logging.getLogger(__name__)

#: The judged games a player's habits add up (the newest).
HABIT_GAMES: Final = 50
#: Seconds after which a claimed review whose process died is taken again.
STALE: Final = 600.0


def _judge(record: Record, seat: int, samples: int) -> dict[str, list[int]]:
    """In a worker: the review of ``record`` counted into ``seat``'s habits."""
    from ..ai.review import review

    return count(review(record, samples).decisions, seat)


async def habits_of(sql: Sql, account_id: str) -> list[Habit]:
    """An account's habits over its last judged games."""
    rows = await sql.fetch("SELECT judged FROM player_games WHERE account_id = %s AND judged "
                           "LIKE '{%%' ORDER BY finished DESC LIMIT %s",
                           (account_id, HABIT_GAMES))
    return add_up(json.loads(row[0]) for row in rows)


class Coaching:
    """The loop that reviews finished games of accounts for their habits."""

    def __init__(self, sql: Callable[[], Sql], hub: Callable[[], Hub],
                 wall_clock: Callable[[], float], interval: float, samples: int) -> None:
        self._sql = sql
        self._hub = hub
        self.now = wall_clock
        self.interval = interval
        self.samples = samples

    async def run(self) -> None:
        while True:
            try:
                while await self.judge_one():
                    pass
            except StoreError as exc:
                log.warning("reviewing games for habits failed: %s", exc)
            except Exception:
                log.exception("reviewing games for habits failed")
            await asyncio.sleep(self.interval)

    async def judge_one(self) -> bool:
        """Review the newest finished game not judged yet; whether there was one."""
        sql = self._sql()
        now = self.now()
        rows = await sql.fetch(
            "SELECT table_id, seat, judged FROM player_games WHERE account_id IS NOT NULL "
            "AND finished IS NOT NULL AND (judged IS NULL OR (judged LIKE 'working:%%' AND "
            "judged < %s)) ORDER BY finished DESC LIMIT 1", (f"working:{now - STALE:017.3f}",))
        if not rows:
            return False
        table_id, seat, was = rows[0]
        claim = f"working:{now:017.3f}"
        taken = await sql.run("UPDATE player_games SET judged = %s WHERE table_id = %s AND "
                              "seat = %s AND judged IS NOT DISTINCT FROM %s"
                              if sql.postgres else
                              "UPDATE player_games SET judged = %s WHERE table_id = %s AND "
                              "seat = %s AND judged IS %s", (claim, table_id, seat, was))
        if not taken:
            return True  # another process took it: look again
        counted: dict[str, list[int]] = {}
        row = await self._hub().store.load(table_id)
        if row is not None and row.moves:
            try:
                entries = [entry(i, text) for i, text in enumerate(row.moves)]
                entries[0] = with_cuts(entries[0], row.cuts)
                record = Record(Rules.from_dict(row.rules),
                                tuple(s.name or "" for s in row.seats), tuple(entries))
                counted = await self._hub().advisor.run(
                    _judge, record, int(seat), self.samples, kind=Work.REVIEW, key="habits",
                    required=False)
            except BusyError:  # the AI workers are full: this game waits for a later turn
                await sql.run("UPDATE player_games SET judged = NULL WHERE table_id = %s AND "
                              "seat = %s", (table_id, seat))
                return False
            except TrashError as exc:
                log.error("table %s cannot be reviewed for habits: %s", table_id, exc)
        await sql.run("UPDATE player_games SET judged = %s WHERE table_id = %s AND seat = %s",
                      (json.dumps(counted), table_id, seat))
        return True
