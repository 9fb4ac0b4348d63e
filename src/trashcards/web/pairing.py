"""Quick pairing, "Play now" (docs/players.md): a player asks for a preset and a number
of players and is seated with people who asked for the same, within a rating window
that widens while they wait; after the wait they chose (20 s by default) they are
offered a computer level near their rating.

**The pool lives in the database** (the ``pairing`` table), so any server process takes
a request and answers its polls, and a process that dies loses no one's place: the
requests are rows, and the next process to match finds them. Every ``pair_interval``
each process tries to match; on PostgreSQL a transaction-scoped advisory lock lets one
process match at a time (the others skip that turn), the rows are locked while a table
is made, and the table is made by the process that matched it (its owner). A request
whose page stopped asking (``pair_stale`` seconds) leaves the pool.

**Matching**: requests of one preset and size, oldest first; each has a window of
``pair_window`` rating points plus ``pair_widen`` per second it has waited; a group is
seated when every two of its members are within both their windows. A person without
an account asks with their device's rating (it only places them; their games are not
rated).

Tables made here (and a rated game against a level, ``POST /api/rated``) write a
``player_games`` row for each account's seat: :mod:`trashcards.web.rater` rates them
when they end.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..ai.levels import LEVELS
from ..errors import TrashError
from ..names import MAX_NAME, NameRefusedError
from ..players.naming import check_player_name
from ..players.ratings import NEWCOMER, family_of
from ..rules import Rules
from .accounts import Account, Accounts
from .hub import Hub
from .limits import AddressLimiter, Network
from .playerdb import Sql
from .protocol import CreateTable, ProtocolError, SeatSpec
from .rater import rating_of
from .seats import unique_name
from .sessions import PlayerError, PlayerSettings, address, body, check_csrf, guarded, limit
from .store import StoreError

__all__ = ["Pairing", "Seeker", "group"]

log = logging.getLogger(__name__)

#: The presets Play now offers (each a family's main one, and the popular variants).
PRESETS: Final = ("standard", "kings-wild", "jokers", "call-trash", "kids", "classic",
                  "last-chance")
#: The advisory lock of the matcher (other keys: processes, migrations).
_MATCH_LOCK: Final = 0x54525348_50414952
#: The most seconds one may choose to wait for people before a bot is offered.
MAX_WAIT: Final = 600.0


@dataclass(frozen=True)
class Seeker:
    """A request in the pool."""

    id: str
    account: str | None
    name: str
    rating: float
    created: float

    def window(self, now: float, base: float, widen: float) -> float:
        return base + widen * max(0.0, now - self.created)


def group(requests: Sequence[Seeker], size: int, now: float, base: float,
          widen: float) -> list[list[Seeker]]:
    """The groups of ``size`` that can be seated now, oldest requests first: each group
    the oldest waiting request with the nearest ones whose windows (and its own) cover
    every pair of them. One account is never seated twice at a table."""
    waiting = sorted(requests, key=lambda r: (r.created, r.id))
    groups: list[list[Seeker]] = []
    used: set[str] = set()
    for first in waiting:
        if first.id in used:
            continue
        chosen = [first]
        for other in sorted(waiting, key=lambda r: (abs(r.rating - first.rating), r.created)):
            if len(chosen) == size:
                break
            if other.id in used or other in chosen or (
                    other.account is not None
                    and any(c.account == other.account for c in chosen)):
                continue
            if all(abs(other.rating - c.rating) <= min(other.window(now, base, widen),
                                                        c.window(now, base, widen))
                   for c in chosen):
                chosen.append(other)
        if len(chosen) == size:
            groups.append(chosen)
            used.update(r.id for r in chosen)
    return groups


class Pairing:
    """The pool, its matcher and its routes (``/api/pair``, ``/api/rated``)."""

    def __init__(self, sql: Callable[[], Sql], hub: Callable[[], Hub], accounts: Accounts,
                 options: PlayerSettings, wall_clock: Callable[[], float],
                 clock: Callable[[], float], proxies: tuple[Network, ...]) -> None:
        self._sql = sql
        self._hub = hub
        self.accounts = accounts
        self.options = options
        self.now = wall_clock
        self.proxies = proxies
        self.asks = AddressLimiter(1.0, 20, clock)
        self._next_sweep = 0.0
        #: seconds from asking to being seated, for each person seated by this process
        #: (a benchmark reads them)
        self.waits: list[float] = []

    @property
    def sql(self) -> Sql:
        return self._sql()

    def routes(self) -> list[Route]:
        return [
            Route("/api/pair", guarded(self.ask), methods=["POST"]),
            Route("/api/pair/{ticket}", guarded(self.poll), methods=["POST"]),
            Route("/api/pair/{ticket}/bot", guarded(self.take_bot), methods=["POST"]),
            Route("/api/pair/{ticket}/cancel", guarded(self.cancel), methods=["POST"]),
            Route("/api/rated", guarded(self.rated_game), methods=["POST"]),
        ]

    # -- requests ---------------------------------------------------------------------

    async def _who(self, request: Request, data: dict[str, Any], family: str
                   ) -> tuple[Account | None, str, float]:
        """The asker: their account (if signed in), name and rating (an account's own;
        else the device's, as it says)."""
        account = await self.accounts.current(request)
        if account is not None:
            rows = await self.sql.fetch("SELECT rating, rd, volatility, games, last FROM "
                                        "ratings WHERE account_id = %s AND family = %s",
                                        (account.id, family))
            return account, account.name, rating_of(rows[0] if rows else None,
                                                    self.now()).rating
        try:
            name = check_player_name(str(data.get("name") or "Player"),
                                     self.options.blocked_names)
        except NameRefusedError as exc:
            raise PlayerError(400, "bad_name", str(exc)) from None
        rating = data.get("rating", NEWCOMER.rating)
        if isinstance(rating, bool) or not isinstance(rating, int | float) or not (
                0 < rating < 4000):
            rating = NEWCOMER.rating
        return None, name, float(rating)

    @staticmethod
    def _rules(data: dict[str, Any], players: object) -> tuple[Rules, int]:
        preset = data.get("preset", "standard")
        if preset not in PRESETS:
            raise PlayerError(400, "bad_rules", f"preset: one of {', '.join(PRESETS)}")
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise PlayerError(400, "bad_request", "players: 2, 3 or 4")
        rules = Rules.preset_named(str(preset))
        try:
            rules.check_players(players)
        except TrashError as exc:
            raise PlayerError(400, "bad_rules", str(exc)) from None
        return rules, players

    async def ask(self, request: Request) -> Response:
        """Join the pool: ``{preset, players, wait, name?, rating?}``; answers the
        ticket to poll with (a secret: whoever holds it holds the place)."""
        check_csrf(request)
        limit(self.asks, address(request, self.proxies), "requests to play")
        data = await body(request)
        rules, players = self._rules(data, data.get("players", 2))
        wait = data.get("wait", self.options.bot_wait)
        if isinstance(wait, bool) or not isinstance(wait, int | float) or not (
                0 <= wait <= MAX_WAIT):
            raise PlayerError(400, "bad_request", f"wait: seconds, 0 to {MAX_WAIT:.0f}")
        family = family_of(rules)
        account, name, rating = await self._who(request, data, family)
        ticket = secrets.token_urlsafe(24)
        now = self.now()
        async with self.sql.transaction() as sql:
            if account is not None:  # one request per account: a new one replaces it
                await sql.run("DELETE FROM pairing WHERE account_id = %s AND status = "
                              "'waiting'", (account.id,))
            await sql.run(
                "INSERT INTO pairing (id, account_id, name, family, preset, players, rating, "
                "bot_after, created, seen, status) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, "
                "%s, %s, 'waiting')",
                (ticket, account.id if account else None, name, family, rules.preset,
                 players, rating, now + float(wait), now, now))
        return JSONResponse({"ticket": ticket, "rating": round(rating)}, status_code=201)

    async def _row(self, ticket: str) -> tuple[Any, ...]:
        if len(ticket) > 64:
            raise PlayerError(404, "no_request", "no such request to play")
        rows = await self.sql.fetch(
            "SELECT status, table_id, seat, token, created, bot_after, rating, preset, "
            "players, account_id, name, seated FROM pairing WHERE id = %s", (ticket,))
        if not rows:
            raise PlayerError(404, "no_request", "no such request to play (it was answered "
                                                 "or it expired): ask again")
        return tuple(rows[0])

    async def poll(self, request: Request) -> Response:
        """Where a request stands: waiting (how long, the window, whether a bot is
        offered) or seated (the table, the seat and its token)."""
        check_csrf(request)
        ticket = request.path_params["ticket"]
        now = self.now()
        await self.sql.run("UPDATE pairing SET seen = %s WHERE id = %s", (now, ticket[:64]))
        row = await self._row(ticket)
        status, table_id, seat, token, created, bot_after = row[:6]
        if status == "seated":  # waited: from asking to being seated, by the server's clock
            return JSONResponse({"status": "seated", "table_id": table_id, "seat": seat,
                                 "token": token, "waited": round(row[11] - created, 3)})
        waited = max(0.0, now - created)
        return JSONResponse({"status": "waiting", "waited": round(waited, 2),
                             "window": round(self.options.pair_window
                                             + self.options.pair_widen * waited),
                             "bot": now >= bot_after})

    async def cancel(self, request: Request) -> Response:
        check_csrf(request)
        ticket = request.path_params["ticket"][:64]
        await self.sql.run("DELETE FROM pairing WHERE id = %s AND status = 'waiting'",
                           (ticket,))
        return JSONResponse({"status": "cancelled"})

    async def take_bot(self, request: Request) -> Response:
        """Leave the pool for a table against the level nearest the asker's rating."""
        check_csrf(request)
        ticket = request.path_params["ticket"]
        row = await self._row(ticket)
        status, _t, _s, _k, created, bot_after, rating, preset, players, account_id, name, _ = row
        if status != "waiting":
            raise PlayerError(409, "seated", "this request was seated already")
        if self.now() < bot_after:
            raise PlayerError(409, "too_early", "the computer is offered once the wait you "
                                                "chose is over")
        taken = await self.sql.run("DELETE FROM pairing WHERE id = %s AND status = 'waiting'",
                                   (ticket,))
        if not taken:
            raise PlayerError(409, "seated", "this request was seated already")
        level = min((lv for lv in LEVELS if lv.name != "expert"),
                    key=lambda lv: abs(lv.elo - float(rating)))
        seats = [(account_id, name)] + [None] * (int(players) - 1)
        table_id, mine = await self._open(Rules.preset_named(preset), seats, level.bot)
        self.waits.append(self.now() - created)
        return JSONResponse({"status": "seated", "table_id": table_id, "seat": 0,
                             "token": mine[0]["token"], "level": level.name})

    async def rated_game(self, request: Request) -> Response:
        """A rated game against a computer level: ``{preset, players, level}``, for a
        signed-in player."""
        check_csrf(request)
        limit(self.asks, address(request, self.proxies), "requests to play")
        account = await self.accounts.signed_in(request)
        data = await body(request)
        rules, players = self._rules(data, data.get("players", 2))
        level = next((lv for lv in LEVELS if lv.name == data.get("level")), None)
        if level is None:
            raise PlayerError(400, "bad_request", "level: " + ", ".join(lv.name
                                                                       for lv in LEVELS))
        table_id, mine = await self._open(rules, [(account.id, account.name)]
                                          + [None] * (players - 1), level.bot)
        return JSONResponse({"table_id": table_id, "seat": 0, "token": mine[0]["token"]},
                            status_code=201)

    # -- tables ------------------------------------------------------------------------

    async def _open(self, rules: Rules, seats: Sequence[tuple[str | None, str] | None],
                    bot: str | None = None) -> tuple[str, list[dict[str, Any]]]:
        """A table with these people (account id or none, name) and, for ``None``, the
        bot ``bot``; a ``player_games`` row for each account's seat. Returns the table id
        and the people's seats with their tokens, in order."""
        # people may share a name (two "Player"s, say): the later ones get "Ana 2" …
        named: list[str] = []
        for seat in seats:
            if seat is not None:
                given = seat[1]
                named.append(given if given.casefold() not in {n.casefold() for n in named}
                             else unique_name(given[:MAX_NAME - 3],
                                              [*named, given[:MAX_NAME - 3]]))
        names = iter(named)
        seats = [None if seat is None else (seat[0], next(names)) for seat in seats]
        specs = [SeatSpec(kind="me", name=seat[1]) if seat is not None
                 else SeatSpec(kind="bot", bot=bot) for seat in seats]
        try:
            table, mine = await self._hub().create(CreateTable(rules={**rules.to_dict()},
                                                               seats=specs, hints=False))
        except ProtocolError as exc:
            raise PlayerError(409 if exc.code == "name_taken" else 503, exc.code,
                              exc.message, exc.retry_after) from None
        family = family_of(rules)
        now = self.now()
        people = [(index, seat) for index, seat in enumerate(seats) if seat is not None]
        async with self.sql.transaction() as sql:
            for index, (account, name) in people:
                if account is not None:
                    await sql.run("INSERT INTO player_games (table_id, seat, account_id, "
                                  "name, family, rated, created) VALUES (%s, %s, %s, %s, %s, "
                                  "0, %s)", (table.id, index, account, name, family, now))
        return table.id, mine

    # -- the matcher -------------------------------------------------------------------

    async def run(self) -> None:
        """Match the pool every ``pair_interval`` seconds, for ever."""
        while True:
            try:
                await self.match()
            except StoreError as exc:
                log.warning("pairing failed: %s", exc)
            except Exception:
                log.exception("pairing failed")
            await asyncio.sleep(self.options.pair_interval)

    async def match(self) -> int:
        """Seat every group that can be seated now; returns how many people were. An
        empty pool costs one read (no write, no lock)."""
        now = self.now()
        sql = self.sql
        if now >= self._next_sweep:  # requests nobody asks about any more leave
            self._next_sweep = now + self.options.pair_stale / 4
            await sql.run("DELETE FROM pairing WHERE (status = 'waiting' AND seen < %s) OR "
                          "(status = 'seated' AND seen < %s)",
                          (now - self.options.pair_stale, now - 10 * self.options.pair_stale))
        waiting = await sql.fetch(_WAITING)
        if len(waiting) < 2:
            return 0
        if not sql.postgres:  # one process: no one else matches
            return await self._seat(sql, waiting, now)
        async with sql.transaction() as tx:
            got = await tx.fetch("SELECT pg_try_advisory_xact_lock(%s)", (_MATCH_LOCK,))
            if not got[0][0]:
                return 0  # another process is matching
            return await self._seat(tx, await tx.fetch(_WAITING + " FOR UPDATE"), now)

    async def _seat(self, sql: Sql, rows: list[tuple[Any, ...]], now: float) -> int:
        """Seat the groups among the waiting ``rows``; how many people were seated."""
        pools: dict[tuple[str, int], list[Seeker]] = {}
        for row in rows:
            pools.setdefault((row[5], int(row[6])), []).append(
                Seeker(row[0], row[1], row[2], float(row[3]), float(row[4])))
        seated = 0
        for (preset, size), requests in pools.items():
            for members in group(requests, size, now, self.options.pair_window,
                                 self.options.pair_widen):
                table_id, mine = await self._open(
                    Rules.preset_named(preset),
                    [(member.account, member.name) for member in members])
                for index, (member, seat) in enumerate(zip(members, mine, strict=True)):
                    await sql.run("UPDATE pairing SET status = 'seated', table_id = %s, "
                                  "seat = %s, token = %s, seen = %s, seated = %s WHERE id = %s",
                                  (table_id, index, seat["token"], now, now, member.id))
                    self.waits.append(now - member.created)
                seated += len(members)
        return seated


_WAITING: Final = ("SELECT id, account_id, name, rating, created, preset, players FROM pairing "
                   "WHERE status = 'waiting' ORDER BY created")
