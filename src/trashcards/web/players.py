"""Players on a server: accounts (:mod:`.accounts`), ratings of finished games
(:mod:`.rater`), quick pairing (:mod:`.pairing`), leaderboards and players' pages
(:mod:`.boards`), habits (:mod:`.coaching`), and their pages.
:func:`trashcards.web.app.create_app` builds one :class:`Players`, mounts
:meth:`Players.routes` and starts and stops it with the hub (docs/players.md)."""

from __future__ import annotations

import asyncio
import logging

from starlette.routing import BaseRoute

from .accounts import Accounts
from .boards import Boards
from .coaching import Coaching
from .hub import Hub
from .limits import proxy_networks
from .pairing import Pairing
from .playerdb import Sql, open_sql
from .rater import Rater
from .sessions import PlayerSettings
from .settings import Settings

__all__ = ["PAGES", "PlayerSettings", "Players"]

log = logging.getLogger(__name__)

#: Seconds the server's shutdown waits for the rater, pairing and habits loops to stop.
CLOSE_WAIT = 5.0

#: The players' pages: address -> template.
PAGES = {"/play": "play.html", "/leaderboard": "leaderboard.html",
         "/player/{name}": "player.html"}


class Players:
    """Accounts, ratings, pairing and leaderboards of one server process."""

    def __init__(self, settings: Settings, options: PlayerSettings | None = None) -> None:
        self.settings = settings
        self.options = options or PlayerSettings()
        self._sql_value: Sql | None = None
        self._hub: Hub | None = None
        proxies = proxy_networks(settings.trusted_proxies)
        self.accounts = Accounts(self._sql, self.options, settings.wall_clock, settings.clock,
                                 proxies)
        self.rater = Rater(self._sql, lambda: self.hub.store, settings.wall_clock,
                           self.options.rate_interval)
        self.pairing = Pairing(self._sql, lambda: self.hub, self.accounts, self.options,
                               settings.wall_clock, settings.clock, proxies)
        self.boards = Boards(self._sql, self.accounts, self.options, settings.wall_clock,
                             settings.clock)
        self.coaching = Coaching(self._sql, lambda: self.hub, settings.wall_clock,
                                 self.options.habit_interval, self.options.habit_samples)
        self._tasks: list[asyncio.Task[None]] = []

    def _sql(self) -> Sql:
        if self._sql_value is None:
            raise RuntimeError("the players' tables are not open yet")
        return self._sql_value

    @property
    def hub(self) -> Hub:
        assert self._hub is not None
        return self._hub

    def routes(self) -> list[BaseRoute]:
        return [*self.accounts.routes(), *self.pairing.routes(), *self.boards.routes()]

    async def start(self, hub: Hub) -> None:
        """Open the players' tables of the hub's database; start rating and pairing."""
        self._hub = hub
        self._sql_value = await open_sql(hub.store)
        self._tasks = [asyncio.create_task(self.rater.run(), name="trashcards-rater"),
                       asyncio.create_task(self.pairing.run(), name="trashcards-pairing"),
                       asyncio.create_task(self.coaching.run(), name="trashcards-coaching")]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # a loop that swallowed its cancel must not hold the shutdown
            _done, stuck = await asyncio.wait(self._tasks, timeout=CLOSE_WAIT)
            for task in stuck:
                log.error("players: %s did not stop within %.0f s", task.get_name(),
                          CLOSE_WAIT)
        if self._sql_value is not None:
            await self._sql_value.close()

