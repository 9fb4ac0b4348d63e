"""Leaderboards and players' pages (docs/players.md): what anyone may see of a player.

Public, by design and by test: a player's name, ratings and **finished** games (with
their tables, for the Review), results and habits. Never an account id, a session, a
passkey, a profile, an address or a game still being played. A leaderboard lists, per
family, the top 100 *active* rated players (a rated game within ``active_days``, the
rating no longer provisional) who did not hide from leaderboards; the signed-in
player sees their own rank.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..players.ratings import FAMILIES, PROVISIONAL_RD, Rating, interval, is_provisional
from .accounts import Accounts
from .coaching import habits_of
from .peers import Peers
from .playerdb import Sql
from .rater import rating_of
from .sessions import PlayerError, PlayerSettings, guarded

__all__ = ["TOP", "Boards"]

#: Players a leaderboard lists.
TOP: Final = 100
#: Finished games a player's page lists.
HISTORY: Final = 100


def rating_json(rating: Rating, games: int) -> dict[str, Any]:
    low, high = interval(rating)
    return {"rating": round(rating.rating, 1), "rd": round(rating.rd, 1),
            "volatility": rating.volatility, "low": low, "high": high,
            "provisional": is_provisional(rating), "games": games}


class Boards:
    """The leaderboards' and players' pages' data."""

    def __init__(self, sql: Callable[[], Sql], accounts: Accounts, options: PlayerSettings,
                 wall_clock: Callable[[], float], clock: Callable[[], float]) -> None:
        self._sql = sql
        self.accounts = accounts
        self.options = options
        self.now = wall_clock
        self.peers = Peers(sql, options, clock)

    def routes(self) -> list[Route]:
        return [Route("/api/leaderboard/{family}", guarded(self.leaderboard)),
                Route("/api/players/{name}", guarded(self.player))]

    async def leaderboard(self, request: Request) -> Response:
        family = request.path_params["family"]
        if family not in FAMILIES:
            raise PlayerError(404, "no_family", f"the families are {', '.join(FAMILIES)}")
        now = self.now()
        since = now - self.options.active_days * 86400
        rows = await self._sql().fetch(
            "SELECT a.name, r.rating, r.rd, r.volatility, r.games, r.last, a.id FROM ratings r "
            "JOIN accounts a ON a.id = r.account_id WHERE r.family = %s AND a.hidden = 0 "
            "AND r.last >= %s ORDER BY r.rating DESC", (family, since))
        board: list[dict[str, Any]] = []
        mine: dict[str, Any] | None = None
        account = await self.accounts.current(request)
        for row in rows:
            rating = rating_of(row[1:6], now)
            if rating.rd > PROVISIONAL_RD:
                continue
            entry = {"rank": len(board) + 1, "name": row[0], **rating_json(rating, row[4])}
            if account is not None and row[6] == account.id:
                mine = entry
            board.append(entry)
        return JSONResponse({"family": family, "players": board[:TOP], "you": mine,
                             "active_days": self.options.active_days,
                             "ranked": len(board)},
                            headers={"Cache-Control": "no-cache"})

    async def player(self, request: Request) -> Response:
        from ..players.naming import name_key

        name = request.path_params["name"]
        sql = self._sql()
        rows = await sql.fetch("SELECT id, name FROM accounts WHERE name_key = %s",
                               (name_key(name[:100]),))
        if not rows:
            raise PlayerError(404, "no_player", "no player has this name")
        account_id, shown = rows[0]
        now = self.now()
        games = []
        for row in await sql.fetch(
                "SELECT table_id, seat, family, rated, finished, preset, players, seats, "
                "place, won, rating_before, rating_after FROM player_games WHERE account_id "
                "= %s AND finished IS NOT NULL ORDER BY finished DESC", (account_id,)):
            games.append({"table_id": row[0], "seat": row[1], "family": row[2],
                          "rated": bool(row[3]), "finished": row[4], "preset": row[5],
                          "players": row[6], "seats": json.loads(row[7] or "[]"),
                          "place": row[8], "won": bool(row[9]),
                          "before": json.loads(row[10]) if row[10] else None,
                          "after": json.loads(row[11]) if row[11] else None})
        # read after the games: a game's rating is written with it, so every rated game
        # read has its rating here (the other order could read a game before its rating)
        rows = await sql.fetch("SELECT family, rating, rd, volatility, games, last FROM "
                               "ratings WHERE account_id = %s", (account_id,))
        ratings = {row[0]: rating_json(rating_of(row[1:6], now), row[4]) for row in rows}
        peers, level, habits = await self.peers.compare(account_id, rows, now,
                                                        await habits_of(sql, account_id))
        return JSONResponse({"name": shown, "ratings": ratings, "games": games[:HISTORY],
                             "summary": summarize(games), "habits": habits,
                             "peers": peers, "level": level},
                            headers={"Cache-Control": "no-cache"})


def summarize(games: list[dict[str, Any]]) -> dict[str, Any]:
    """Results by level (pairwise against each level's bot), by preset and by number of
    players, and the streaks, of finished games (newest first)."""
    from ..ai.levels import LEVELS

    level_of = {f"bot:{level.bot}": level.name for level in LEVELS}
    by_level: dict[str, dict[str, int]] = {}
    by_preset: dict[str, dict[str, int]] = {}
    by_players: dict[str, dict[str, int]] = {}

    def add(table: dict[str, dict[str, int]], key: str, outcome: str) -> None:
        row = table.setdefault(key, {"won": 0, "drawn": 0, "lost": 0})
        row[outcome] += 1

    streak = best = 0
    current_open = True
    for game in games:  # newest first
        add(by_preset, str(game["preset"]), "won" if game["won"] else "lost")
        add(by_players, str(game["players"]), "won" if game["won"] else "lost")
        for name in game["seats"]:
            base = ":".join(str(name).split(":")[:2])
            if base in level_of:
                # against a bot: won if the player won the match (the bot's place is
                # behind a winner's; a non-winner is behind the bot when the bot won)
                add(by_level, level_of[base], "won" if game["won"] else "lost")
        if current_open and game["won"]:
            streak += 1
        else:
            current_open = False
    run = 0
    for game in reversed(games):
        run = run + 1 if game["won"] else 0
        best = max(best, run)
    return {"games": len(games), "won": sum(bool(g["won"]) for g in games),
            "by_level": by_level, "by_preset": by_preset, "by_players": by_players,
            "streak": streak, "best_streak": best}
