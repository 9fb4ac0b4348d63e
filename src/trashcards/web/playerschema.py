"""The players' tables (accounts, passkeys, sessions, ratings, the games of players, the
pairing pool), one migration of each backend's numbered schema: SQLite's version 2
(:data:`trashcards.web.store.MIGRATIONS`) and PostgreSQL's version 3
(:data:`trashcards.web.postgres.MIGRATIONS`). One text for both, with the time type
filled in; docs/players.md says what each column holds."""

from __future__ import annotations

from typing import Final

__all__ = ["PLAYER_COLUMNS", "player_tables"]

_TABLES: Final = """
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    created {time} NOT NULL,
    password TEXT,
    hidden INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0,
    locked_until {time},
    profile TEXT
);
CREATE TABLE passkeys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    public_key TEXT NOT NULL,
    sign_count INTEGER NOT NULL,
    created {time} NOT NULL
);
CREATE INDEX passkeys_account ON passkeys(account_id);
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    created {time} NOT NULL,
    expires {time} NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE TABLE challenges (
    id TEXT PRIMARY KEY,
    challenge TEXT NOT NULL,
    purpose TEXT NOT NULL,
    data TEXT,
    expires {time} NOT NULL
);
CREATE TABLE ratings (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    family TEXT NOT NULL,
    rating {time} NOT NULL,
    rd {time} NOT NULL,
    volatility {time} NOT NULL,
    games INTEGER NOT NULL,
    last {time} NOT NULL,
    PRIMARY KEY (account_id, family)
);
CREATE INDEX ratings_board ON ratings(family, rating);
CREATE TABLE player_games (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    account_id TEXT,
    name TEXT NOT NULL,
    family TEXT NOT NULL,
    rated INTEGER NOT NULL,
    created {time} NOT NULL,
    finished {time},
    preset TEXT,
    players INTEGER,
    seats TEXT,
    place INTEGER,
    won INTEGER,
    rating_before TEXT,
    rating_after TEXT,
    judged TEXT,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX player_games_account ON player_games(account_id, finished);
CREATE INDEX player_games_pending ON player_games(finished, created);
CREATE TABLE pairing (
    id TEXT PRIMARY KEY,
    account_id TEXT,
    name TEXT NOT NULL,
    family TEXT NOT NULL,
    preset TEXT NOT NULL,
    players INTEGER NOT NULL,
    rating {time} NOT NULL,
    bot_after {time} NOT NULL,
    created {time} NOT NULL,
    seen {time} NOT NULL,
    status TEXT NOT NULL,
    seated {time},
    table_id TEXT,
    seat INTEGER,
    token TEXT
);
CREATE INDEX pairing_waiting ON pairing(status, preset, players)
"""

#: The columns of each of these tables (the SQLite start check's known columns).
PLAYER_COLUMNS: Final = {
    "accounts": {"id", "name", "name_key", "created", "password", "hidden", "failures",
                 "locked_until", "profile"},
    "passkeys": {"id", "account_id", "public_key", "sign_count", "created"},
    "sessions": {"token_hash", "account_id", "created", "expires"},
    "challenges": {"id", "challenge", "purpose", "data", "expires"},
    "ratings": {"account_id", "family", "rating", "rd", "volatility", "games", "last"},
    "player_games": {"table_id", "seat", "account_id", "name", "family", "rated", "created",
                     "finished", "preset", "players", "seats", "place", "won",
                     "rating_before", "rating_after", "judged"},
    "pairing": {"id", "account_id", "name", "family", "preset", "players", "rating",
                "bot_after", "created", "seen", "status", "seated", "table_id", "seat",
                "token"},
}


def player_tables(postgres: bool) -> list[str]:
    """The statements that make the players' tables, one by one (SQLite's
    ``executescript`` would commit the migration's transaction half-way)."""
    text = _TABLES.format(time="DOUBLE PRECISION" if postgres else "REAL")
    return [statement.strip() for statement in text.split(";") if statement.strip()]
