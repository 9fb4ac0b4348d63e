"""The local profile: a player's finished matches, kept on their own machine, and what
follows from them: results by level, preset and number of players, streaks, and a
rating per family of rules.

One format for every door, ``trashcards-profile/1`` (docs/players.md): ``trashcards
play`` keeps it in a file (:func:`load`, :func:`save`), the browser in its storage
(static/js/profile.js, the same format, so an export from one imports into the other).
The file holds the games only; the summary and the ratings are worked out from them
(:meth:`Profile.ratings` replays the rated games in order), so two copies merged by
:meth:`Profile.merge` agree, whatever the order they were played in.

A game is rated here when its player sat alone among levels' bots (held fixed at their
Elo, :mod:`trashcards.players.ratings`); a game with other people is counted but not
rated (their ratings are not known here: an account's rated games are the server's).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ..ai.levels import LEVELS
from ..bots import BOT_PREFIX
from ..boundedjson import parse
from ..errors import TrashError
from ..names import check_name
from ..rules import Rules
from .glicko2 import Rating
from .ratings import (
    NEWCOMER,
    Seat,
    bot_rating,
    family_of,
    rate_table,
    standings,
    with_idle_days,
)

__all__ = ["FORMAT", "MAX_GAMES", "Game", "Profile", "ProfileError", "RatingPoint", "load",
           "save"]

FORMAT: Final = "trashcards-profile/1"
#: The most games a profile keeps (the oldest go first): about 300 kB of JSON.
MAX_GAMES: Final = 2000
#: Largest profile file read, in bytes.
MAX_FILE: Final = 2_000_000
#: Where a game was played.
PLACES: Final = ("terminal", "device", "online")
_DAY: Final = 86400.0


class ProfileError(TrashError):
    """A profile that cannot be read; the message says what is wrong."""


@dataclass(frozen=True, slots=True)
class Game:
    """One finished match as the profile keeps it: its id (the table's, or one made
    for a terminal game), when it ended (seconds since the epoch), where it was played,
    its rules (the record form), every seat's name (a bot's is ``bot:KIND``), the
    player's seat, each seat's rounds won and the match's winner."""

    id: str
    at: float
    where: str
    rules: Mapping[str, Any]
    seats: tuple[str, ...]
    me: int
    rounds_won: tuple[int, ...]
    winner: int | None

    @property
    def rules_value(self) -> Rules:
        return Rules.from_dict(self.rules)

    @property
    def family(self) -> str:
        return family_of(self.rules_value)

    @property
    def preset(self) -> str:
        return str(self.rules.get("preset", "standard"))

    @property
    def places(self) -> list[int]:
        return standings(self.rounds_won, self.winner)

    @property
    def won(self) -> bool:
        return self.winner == self.me

    @property
    def rated(self) -> bool:
        """Whether the profile rates it: the player alone among levels' bots."""
        return all(bot_rating(name) is not None
                   for seat, name in enumerate(self.seats) if seat != self.me)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "at": self.at, "where": self.where, "rules": dict(self.rules),
                "seats": list(self.seats), "me": self.me, "rounds_won": list(self.rounds_won),
                "winner": self.winner}

    @classmethod
    def from_json(cls, data: Any) -> Game:
        """A game from its JSON form; raises :class:`ProfileError` naming what is wrong."""
        if not isinstance(data, dict):
            raise ProfileError("a game must be an object")
        try:
            game = cls(_text(data, "id", 64), _number(data, "at"), _text(data, "where", 16),
                       _object(data, "rules"), tuple(_texts(data, "seats")),
                       _int(data, "me"), tuple(_ints(data, "rounds_won")),
                       None if data.get("winner") is None else _int(data, "winner"))
            rules = game.rules_value
            rules.check_players(len(game.seats))
        except TrashError as exc:
            raise ProfileError(f"game {str(data.get('id'))[:64]!r}: {exc}") from None
        if game.where not in PLACES:
            raise ProfileError(f"game {game.id!r}: where must be one of {', '.join(PLACES)}")
        if len(game.rounds_won) != len(game.seats) or not 0 <= game.me < len(game.seats):
            raise ProfileError(f"game {game.id!r}: seats, me and rounds_won do not agree")
        if game.winner is not None and not 0 <= game.winner < len(game.seats):
            raise ProfileError(f"game {game.id!r}: no seat {game.winner} to win")
        if game.seats[game.me].startswith(BOT_PREFIX):
            raise ProfileError(f"game {game.id!r}: the player's seat is a bot's")
        return game


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A rating after one rated game (for the chart)."""

    game: str
    at: float
    rating: Rating


@dataclass
class Tally:
    """Wins, draws and losses."""

    won: int = 0
    drawn: int = 0
    lost: int = 0

    def add(self, score: float) -> None:
        if score > 0.5:
            self.won += 1
        elif score < 0.5:
            self.lost += 1
        else:
            self.drawn += 1

    def to_json(self) -> dict[str, int]:
        return {"won": self.won, "drawn": self.drawn, "lost": self.lost}


@dataclass
class Profile:
    """A player's name and finished games (oldest first)."""

    name: str = "You"
    created: float = field(default_factory=time.time)
    games: list[Game] = field(default_factory=list)

    def add(self, game: Game) -> bool:
        """Keep ``game`` (the oldest go past :data:`MAX_GAMES`); ``False`` if a game
        with its id is kept already (a page shown twice records once)."""
        if any(g.id == game.id for g in self.games):
            return False
        self.games.append(game)
        self.games.sort(key=lambda g: (g.at, g.id))
        del self.games[:-MAX_GAMES]
        return True

    def merge(self, other: Profile) -> int:
        """Add ``other``'s games not kept here; returns how many."""
        return sum(self.add(game) for game in other.games)

    # -- what follows from the games -----------------------------------------------------

    def history(self) -> dict[str, list[RatingPoint]]:
        """Each family's rating after each of its rated games, in order: the rated
        games replayed from a newcomer's rating, a week without a game widening the
        deviation (:func:`~trashcards.players.ratings.with_idle_days`)."""
        out: dict[str, list[RatingPoint]] = {}
        for game in self.games:
            if not game.rated:
                continue
            points = out.setdefault(game.family, [])
            before = NEWCOMER
            if points:
                before = with_idle_days(points[-1].rating, (game.at - points[-1].at) / _DAY)
            seats = [Seat(before) if seat == game.me
                     else Seat(bot_rating(name) or NEWCOMER, fixed=True)
                     for seat, name in enumerate(game.seats)]
            after = rate_table(seats, game.places)[game.me]
            points.append(RatingPoint(game.id, game.at, after))
        return out

    def ratings(self, now: float | None = None) -> dict[str, Rating]:
        """Each family's rating now (the last one, widened for the days since)."""
        now = time.time() if now is None else now
        return {family: with_idle_days(points[-1].rating, max(0.0, now - points[-1].at) / _DAY)
                for family, points in self.history().items()}

    def summary(self) -> dict[str, Any]:
        """Results by opponent level (pairwise), by preset and by number of players
        (matches won or not), and the streaks of matches won."""
        level_of = {level.bot: level.name for level in LEVELS}
        by_level: dict[str, Tally] = {}
        by_preset: dict[str, Tally] = {}
        by_players: dict[str, Tally] = {}
        streak = best = 0
        for game in self.games:
            places = game.places
            for seat, name in enumerate(game.seats):
                kind = name[len(BOT_PREFIX):].split(":")[0] if name.startswith(BOT_PREFIX) \
                    else None
                if seat != game.me and kind in level_of:
                    mine, theirs = places[game.me], places[seat]
                    by_level.setdefault(level_of[kind], Tally()).add(
                        1.0 if mine < theirs else 0.0 if mine > theirs else 0.5)
            score = 1.0 if game.won else 0.0
            by_preset.setdefault(game.preset, Tally()).add(score)
            by_players.setdefault(str(len(game.seats)), Tally()).add(score)
            streak = streak + 1 if game.won else 0
            best = max(best, streak)
        return {"games": len(self.games), "won": sum(g.won for g in self.games),
                "by_level": {k: v.to_json() for k, v in by_level.items()},
                "by_preset": {k: v.to_json() for k, v in by_preset.items()},
                "by_players": {k: v.to_json() for k, v in by_players.items()},
                "streak": streak, "best_streak": best}

    # -- the file ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "name": self.name, "created": self.created,
                "games": [game.to_json() for game in self.games]}

    def dumps(self) -> str:
        return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, data: Any) -> Profile:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ProfileError(f"not a profile: its format must be {FORMAT!r}")
        try:
            name = check_name(_text(data, "name", 64))
        except TrashError as exc:
            raise ProfileError(f"name: {exc}") from None
        games = data.get("games")
        if not isinstance(games, list):
            raise ProfileError("games must be a list")
        profile = cls(name, _number(data, "created"))
        for game in games[-MAX_GAMES:]:
            profile.add(Game.from_json(game))
        return profile

    @classmethod
    def loads(cls, text: str | bytes) -> Profile:
        try:
            data = parse(text, max_size=MAX_FILE, max_depth=8)
        except TrashError as exc:
            raise ProfileError(f"not a profile: {exc}") from None
        return cls.from_json(data)


def load(path: Path) -> Profile:
    """The profile in ``path`` (a new one if there is no file); raises
    :class:`ProfileError` for a file that is not a profile."""
    try:
        text = path.read_bytes()
    except FileNotFoundError:
        return Profile()
    except OSError as exc:
        raise ProfileError(f"cannot read the profile {path}: {exc.strerror}") from None
    try:
        return Profile.loads(text)
    except ProfileError as exc:
        raise ProfileError(f"{path}: {exc}") from None


def save(profile: Profile, path: Path) -> None:
    """Write ``profile`` to ``path`` at once (a new file renamed over the old one, so a
    crash leaves the old or the new, never half of one)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".profile-", dir=path.parent)
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(profile.dumps())
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(tmp)
        raise ProfileError(f"cannot write the profile {path}: {exc.strerror}") from None


# -- reading fields ----------------------------------------------------------------------

def _text(data: Mapping[str, Any], key: str, limit: int) -> str:
    value = data.get(key)
    if not isinstance(value, str) or len(value) > limit:
        raise ProfileError(f"{key} must be text of at most {limit} characters")
    return value


def _number(data: Mapping[str, Any], key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < 1e11:
        raise ProfileError(f"{key} must be a time in seconds")
    return float(value)


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100:
        raise ProfileError(f"{key} must be a small whole number")
    return value


def _object(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = data.get(key)
    if not isinstance(value, dict):
        raise ProfileError(f"{key} must be an object")
    return value


def _texts(data: Mapping[str, Any], key: str) -> Iterable[str]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, str) and len(v) <= 64
                                              for v in value):
        raise ProfileError(f"{key} must be a list of names")
    return value


def _ints(data: Mapping[str, Any], key: str) -> Iterable[int]:
    value = data.get(key)
    if not isinstance(value, list) or not all(
            isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 100 for v in value):
        raise ProfileError(f"{key} must be a list of small whole numbers")
    return value
