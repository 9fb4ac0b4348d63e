"""Accounts: a player claims their profile on a server, signs in with a passkey (or a
password, the fallback), changes their name, downloads all their data, deletes it all
(docs/players.md, "Accounts"). Anonymous play never needs one.

An account holds a name (the name rules and the block list of
:mod:`trashcards.players.naming`), its passkeys (``webauthn``) and perhaps a password's
Argon2id hash, its sessions, its ratings and its games, and the profile its browsers
sync (``trashcards-profile/1``). Nothing personal: no e-mail, no birth date, no address
is ever asked for, so an account is as fit for a child as for anyone. The addresses of
requests are used for rate limits in memory only, never stored.

The HTTP routes are ``/api/account/…`` (:meth:`Accounts.routes`); every state-changing
one checks the CSRF token (:func:`trashcards.web.sessions.check_csrf`).
"""

from __future__ import annotations

import base64
import json
import logging
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import TrashError
from ..names import NameRefusedError
from ..players.naming import check_player_name, name_key
from ..players.profile import Profile, ProfileError
from .limits import AddressLimiter, Network
from .passwords import check_password, hash_password, verify
from .playerdb import Sql, is_unique_violation
from .sessions import (
    CSRF_COOKIE,
    SESSION_COOKIE,
    PlayerError,
    PlayerSettings,
    address,
    body,
    check_csrf,
    guarded,
    hash_secret,
    limit,
    new_secret,
    set_cookie,
)

__all__ = ["DELETED_NAME", "Account", "Accounts"]

log = logging.getLogger(__name__)

#: The name a deleted account's seats take in the games it played.
DELETED_NAME: Final = "Deleted player"


@dataclass(frozen=True)
class Account:
    """A signed-in account, as its session finds it."""

    id: str
    name: str
    hidden: bool
    session: str  # the hash of the session's token


class Accounts:
    """The accounts of one server: their rows in the players' tables, and their HTTP
    routes."""

    def __init__(self, sql: Callable[[], Sql], options: PlayerSettings,
                 wall_clock: Callable[[], float], clock: Callable[[], float],
                 proxies: tuple[Network, ...]) -> None:
        self._sql = sql
        self.options = options
        self.now = wall_clock
        self.proxies = proxies
        self.logins = AddressLimiter(options.login_rate / 60.0, math.ceil(options.login_rate),
                                     clock)
        self.signups = AddressLimiter(options.signup_rate / 60.0,
                                      math.ceil(options.signup_rate), clock)

    @property
    def sql(self) -> Sql:
        return self._sql()

    # -- sessions ------------------------------------------------------------------------

    async def current(self, request: Request) -> Account | None:
        """The account whose live session the request's cookie holds, or ``None``."""
        token = request.cookies.get(SESSION_COOKIE)
        if not token or len(token) > 128:
            return None
        rows = await self.sql.fetch(
            "SELECT a.id, a.name, a.hidden, s.token_hash FROM sessions s JOIN accounts a "
            "ON a.id = s.account_id WHERE s.token_hash = %s AND s.expires > %s",
            (hash_secret(token), self.now()))
        if not rows:
            return None
        row = rows[0]
        return Account(row[0], row[1], bool(row[2]), row[3])

    async def signed_in(self, request: Request) -> Account:
        account = await self.current(request)
        if account is None:
            raise PlayerError(401, "signed_out", "sign in first")
        return account

    async def _start_session(self, request: Request, response: Response,
                             account_id: str) -> None:
        """A new session for ``account_id`` in ``response``'s cookies (the request's old
        session, if any, ends: a session is never carried over a sign-in), and a new
        CSRF token."""
        old = request.cookies.get(SESSION_COOKIE)
        token = new_secret()
        now = self.now()
        async with self.sql.transaction() as sql:
            if old:
                await sql.run("DELETE FROM sessions WHERE token_hash = %s", (hash_secret(old),))
            await sql.run("DELETE FROM sessions WHERE account_id = %s AND expires <= %s",
                          (account_id, now))
            await sql.run("INSERT INTO sessions (token_hash, account_id, created, expires) "
                          "VALUES (%s, %s, %s, %s)", (hash_secret(token), account_id, now,
                                                      now + self.options.session_days * 86400))
        days = self.options.session_days * 86400
        set_cookie(response, request, SESSION_COOKIE, token, days)
        csrf = new_secret()
        set_cookie(response, request, CSRF_COOKIE, csrf, None, "strict")
        response.headers["X-Trash-CSRF"] = csrf

    # -- names ---------------------------------------------------------------------------

    def _name(self, text: object) -> str:
        if not isinstance(text, str):
            raise PlayerError(400, "bad_name", "the name must be text")
        try:
            return check_player_name(text, self.options.blocked_names)
        except NameRefusedError as exc:
            raise PlayerError(400, "bad_name", str(exc)) from None

    async def _create(self, name: str, password_hash: str | None,
                      passkey: tuple[str, str, int] | None = None) -> str:
        account_id = secrets.token_urlsafe(16)
        now = self.now()
        try:
            async with self.sql.transaction() as sql:
                await sql.run("INSERT INTO accounts (id, name, name_key, created, password) "
                              "VALUES (%s, %s, %s, %s, %s)",
                              (account_id, name, name_key(name), now, password_hash))
                if passkey is not None:
                    await sql.run("INSERT INTO passkeys (id, account_id, public_key, "
                                  "sign_count, created) VALUES (%s, %s, %s, %s, %s)",
                                  (passkey[0], account_id, passkey[1], passkey[2], now))
        except Exception as exc:
            if is_unique_violation(exc):
                raise PlayerError(409, "name_taken", f"the name {name!r} is taken: choose "
                                                     "another") from None
            raise
        return account_id

    async def _name_free(self, name: str) -> None:
        rows = await self.sql.fetch("SELECT 1 FROM accounts WHERE name_key = %s",
                                    (name_key(name),))
        if rows:
            raise PlayerError(409, "name_taken", f"the name {name!r} is taken: choose another")

    # -- passkey ceremonies ----------------------------------------------------------------

    def _relying_party(self, request: Request) -> tuple[str, str]:
        """The passkeys' relying party id and the origin expected of the browser."""
        host = request.headers.get("host", "")
        origin = f"{request.url.scheme}://{host}"
        rp_id = self.options.rp_id or (urlsplit(origin).hostname or "")
        return rp_id, origin

    async def _challenge(self, challenge: bytes, purpose: str, data: dict[str, Any]) -> str:
        ceremony = secrets.token_urlsafe(16)
        now = self.now()
        async with self.sql.transaction() as sql:
            await sql.run("DELETE FROM challenges WHERE expires <= %s", (now,))
            await sql.run("INSERT INTO challenges (id, challenge, purpose, data, expires) "
                          "VALUES (%s, %s, %s, %s, %s)",
                          (ceremony, _b64(challenge), purpose, json.dumps(data),
                           now + self.options.challenge_ttl))
        return ceremony

    async def _take_challenge(self, ceremony: object, purpose: str
                              ) -> tuple[bytes, dict[str, Any]]:
        """The challenge of a ceremony, used once (taken out whatever comes of it)."""
        if not isinstance(ceremony, str) or len(ceremony) > 64:
            raise PlayerError(400, "bad_request", "ceremony: the id the options gave")
        async with self.sql.transaction() as sql:
            rows = await sql.fetch("SELECT challenge, data FROM challenges WHERE id = %s AND "
                                   "purpose = %s AND expires > %s",
                                   (ceremony, purpose, self.now()))
            await sql.run("DELETE FROM challenges WHERE id = %s", (ceremony,))
        if not rows:
            raise PlayerError(400, "expired", "this passkey request expired: try again")
        return _unb64(rows[0][0]), json.loads(rows[0][1] or "{}")

    def _register_options(self, request: Request, user_id: str, name: str,
                          exclude: list[str]) -> tuple[bytes, dict[str, Any]]:
        from .passkeys import registration_options

        rp_id, _origin = self._relying_party(request)
        return registration_options(rp_id, self.options.rp_name, user_id, name, exclude)

    def _verify_registration(self, request: Request, credential: object,
                             challenge: bytes) -> tuple[str, str, int]:
        from .passkeys import PasskeyError, verify_registration

        rp_id, origin = self._relying_party(request)
        if not isinstance(credential, dict):
            raise PlayerError(400, "bad_request", "credential: the passkey's answer")
        try:
            return verify_registration(credential, challenge, rp_id, origin)
        except PasskeyError as exc:
            raise PlayerError(400, "passkey_refused", f"the passkey was not accepted: "
                                                      f"{exc}") from None

    # -- the routes --------------------------------------------------------------------

    def routes(self) -> list[Route]:
        post = ["POST"]
        return [
            Route("/api/account", guarded(self.show), methods=["GET"]),
            Route("/api/account/signup", guarded(self.signup_password), methods=post),
            Route("/api/account/login", guarded(self.login_password), methods=post),
            Route("/api/account/passkey/signup/options", guarded(self.signup_options),
                  methods=post),
            Route("/api/account/passkey/signup", guarded(self.signup_passkey), methods=post),
            Route("/api/account/passkey/login/options", guarded(self.login_options),
                  methods=post),
            Route("/api/account/passkey/login", guarded(self.login_passkey), methods=post),
            Route("/api/account/passkey/add/options", guarded(self.add_options), methods=post),
            Route("/api/account/passkey/add", guarded(self.add_passkey), methods=post),
            Route("/api/account/password", guarded(self.set_password), methods=post),
            Route("/api/account/logout", guarded(self.logout), methods=post),
            Route("/api/account/name", guarded(self.rename), methods=post),
            Route("/api/account/hidden", guarded(self.hide), methods=post),
            Route("/api/account/profile", guarded(self.sync_profile), methods=post),
            Route("/api/account/data", guarded(self.download), methods=["GET"]),
            Route("/api/account/delete", guarded(self.delete), methods=post),
        ]

    async def show(self, request: Request) -> Response:
        """The signed-in account (or none) and the page's CSRF token (a new one if the
        browser has none)."""
        account = await self.current(request)
        csrf = request.cookies.get(CSRF_COOKIE) or new_secret()
        out: dict[str, Any] = {"signed_in": account is not None, "csrf": csrf}
        if account is not None:
            rows = await self.sql.fetch(
                "SELECT password IS NOT NULL, (SELECT count(*) FROM passkeys p WHERE "
                "p.account_id = a.id), profile FROM accounts a WHERE a.id = %s",
                (account.id,))
            has_password, passkeys, profile = rows[0]
            out["account"] = {"id": account.id, "name": account.name,
                              "hidden": account.hidden, "password": bool(has_password),
                              "passkeys": int(passkeys),
                              "profile": json.loads(profile) if profile else None}
        response = JSONResponse(out, headers={"Cache-Control": "no-store"})
        if request.cookies.get(CSRF_COOKIE) != csrf:
            set_cookie(response, request, CSRF_COOKIE, csrf, None, "strict")
        return response

    async def signup_password(self, request: Request) -> Response:
        check_csrf(request)
        limit(self.signups, address(request, self.proxies), "sign-ups")
        data = await body(request)
        name = self._name(data.get("name"))
        password = data.get("password")
        problem = check_password(password)
        if problem is not None:
            raise PlayerError(400, "bad_password", problem)
        assert isinstance(password, str)
        await self._name_free(name)
        account_id = await self._create(name, await hash_password(password))
        response = JSONResponse({"signed_in": True, "name": name}, status_code=201)
        await self._start_session(request, response, account_id)
        log.info("an account was made (password)")
        return response

    async def login_password(self, request: Request) -> Response:
        check_csrf(request)
        limit(self.logins, address(request, self.proxies), "sign-in attempts")
        data = await body(request)
        name, password = data.get("name"), data.get("password")
        if not isinstance(name, str) or not isinstance(password, str) or len(name) > 100:
            raise PlayerError(400, "bad_request", "name and password: text")
        rows = await self.sql.fetch("SELECT id, password, failures, locked_until FROM "
                                    "accounts WHERE name_key = %s", (name_key(name.strip()),))
        now = self.now()
        if rows and rows[0][3] is not None and rows[0][3] > now:
            wait = rows[0][3] - now
            raise PlayerError(429, "locked", "too many wrong passwords for this account: its "
                                             "password is locked for "
                                             f"{math.ceil(wait / 60)} more minute(s); a "
                                             "passkey still signs in", wait)
        ok = await verify(rows[0][1] if rows else None, password[:1024])
        if not ok:
            if rows:
                await self.sql.run(
                    "UPDATE accounts SET failures = failures + 1, locked_until = CASE WHEN "
                    "failures + 1 >= %s THEN %s ELSE locked_until END WHERE id = %s",
                    (self.options.account_failures, now + self.options.lockout, rows[0][0]))
            raise PlayerError(401, "wrong_password", "no account has this name and password")
        await self.sql.run("UPDATE accounts SET failures = 0, locked_until = NULL WHERE id = %s",
                           (rows[0][0],))
        response = JSONResponse({"signed_in": True})
        await self._start_session(request, response, rows[0][0])
        return response

    async def signup_options(self, request: Request) -> Response:
        check_csrf(request)
        limit(self.signups, address(request, self.proxies), "sign-ups")
        data = await body(request)
        name = self._name(data.get("name"))
        await self._name_free(name)
        user_id = secrets.token_urlsafe(16)
        challenge, options = self._register_options(request, user_id, name, [])
        ceremony = await self._challenge(challenge, "signup", {"name": name})
        return JSONResponse({"ceremony": ceremony, "options": options})

    async def signup_passkey(self, request: Request) -> Response:
        check_csrf(request)
        data = await body(request)
        challenge, saved = await self._take_challenge(data.get("ceremony"), "signup")
        passkey = self._verify_registration(request, data.get("credential"), challenge)
        account_id = await self._create(str(saved["name"]), None, passkey)
        response = JSONResponse({"signed_in": True, "name": saved["name"]}, status_code=201)
        await self._start_session(request, response, account_id)
        log.info("an account was made (passkey)")
        return response

    async def login_options(self, request: Request) -> Response:
        check_csrf(request)
        limit(self.logins, address(request, self.proxies), "sign-in attempts")
        from .passkeys import authentication_options

        rp_id, _origin = self._relying_party(request)
        challenge, options = authentication_options(rp_id)
        ceremony = await self._challenge(challenge, "login", {})
        return JSONResponse({"ceremony": ceremony, "options": options})

    async def login_passkey(self, request: Request) -> Response:
        check_csrf(request)
        data = await body(request)
        challenge, _saved = await self._take_challenge(data.get("ceremony"), "login")
        credential = data.get("credential")
        if not isinstance(credential, dict) or not isinstance(credential.get("id"), str):
            raise PlayerError(400, "bad_request", "credential: the passkey's answer")
        rows = await self.sql.fetch("SELECT account_id, public_key, sign_count FROM passkeys "
                                    "WHERE id = %s", (credential["id"][:1024],))
        if not rows:
            raise PlayerError(401, "unknown_passkey", "this passkey belongs to no account "
                                                      "here (was the account deleted?)")
        from .passkeys import PasskeyError, verify_authentication

        rp_id, origin = self._relying_party(request)
        try:
            count = verify_authentication(credential, challenge, rp_id, origin, rows[0][1],
                                          int(rows[0][2]))
        except PasskeyError as exc:
            raise PlayerError(401, "passkey_refused", f"the passkey was not accepted: "
                                                      f"{exc}") from None
        await self.sql.run("UPDATE passkeys SET sign_count = %s WHERE id = %s",
                           (count, credential["id"]))
        response = JSONResponse({"signed_in": True})
        await self._start_session(request, response, rows[0][0])
        return response

    async def add_options(self, request: Request) -> Response:
        check_csrf(request)
        account = await self.signed_in(request)
        known = [r[0] for r in await self.sql.fetch(
            "SELECT id FROM passkeys WHERE account_id = %s", (account.id,))]
        challenge, options = self._register_options(request, account.id, account.name, known)
        ceremony = await self._challenge(challenge, "add", {"account": account.id})
        return JSONResponse({"ceremony": ceremony, "options": options})

    async def add_passkey(self, request: Request) -> Response:
        check_csrf(request)
        account = await self.signed_in(request)
        data = await body(request)
        challenge, saved = await self._take_challenge(data.get("ceremony"), "add")
        if saved.get("account") != account.id:
            raise PlayerError(400, "expired", "this passkey request was for another account")
        passkey = self._verify_registration(request, data.get("credential"), challenge)
        try:
            await self.sql.run("INSERT INTO passkeys (id, account_id, public_key, sign_count, "
                               "created) VALUES (%s, %s, %s, %s, %s)",
                               (passkey[0], account.id, passkey[1], passkey[2], self.now()))
        except Exception as exc:
            if is_unique_violation(exc):
                raise PlayerError(409, "passkey_known", "this passkey is added already") \
                    from None
            raise
        return JSONResponse({"passkeys": "added"})

    async def set_password(self, request: Request) -> Response:
        check_csrf(request)
        account = await self.signed_in(request)
        data = await body(request)
        password = data.get("password")
        problem = check_password(password)
        if problem is not None:
            raise PlayerError(400, "bad_password", problem)
        assert isinstance(password, str)
        hashed = await hash_password(password)
        async with self.sql.transaction() as sql:
            await sql.run("UPDATE accounts SET password = %s, failures = 0, locked_until = "
                          "NULL WHERE id = %s", (hashed, account.id))
            # every other session ends: a new password shuts out whoever knew the old one
            await sql.run("DELETE FROM sessions WHERE account_id = %s AND token_hash <> %s",
                          (account.id, account.session))
        return JSONResponse({"password": "set"})

    async def logout(self, request: Request) -> Response:
        check_csrf(request)
        token = request.cookies.get(SESSION_COOKIE)
        if token:
            await self.sql.run("DELETE FROM sessions WHERE token_hash = %s",
                               (hash_secret(token),))
        response = JSONResponse({"signed_in": False})
        response.delete_cookie(SESSION_COOKIE, path="/")
        csrf = new_secret()
        set_cookie(response, request, CSRF_COOKIE, csrf, None, "strict")
        response.headers["X-Trash-CSRF"] = csrf
        return response

    async def rename(self, request: Request) -> Response:
        check_csrf(request)
        account = await self.signed_in(request)
        name = self._name((await body(request)).get("name"))
        try:
            async with self.sql.transaction() as sql:
                await sql.run("UPDATE accounts SET name = %s, name_key = %s WHERE id = %s",
                              (name, name_key(name), account.id))
                await sql.run("UPDATE player_games SET name = %s WHERE account_id = %s",
                              (name, account.id))
        except Exception as exc:
            if is_unique_violation(exc):
                raise PlayerError(409, "name_taken", f"the name {name!r} is taken: choose "
                                                     "another") from None
            raise
        return JSONResponse({"name": name})

    async def hide(self, request: Request) -> Response:
        check_csrf(request)
        account = await self.signed_in(request)
        hidden = (await body(request)).get("hidden")
        if not isinstance(hidden, bool):
            raise PlayerError(400, "bad_request", "hidden: true or false")
        await self.sql.run("UPDATE accounts SET hidden = %s WHERE id = %s",
                           (int(hidden), account.id))
        return JSONResponse({"hidden": hidden})

    async def sync_profile(self, request: Request) -> Response:
        """Merge a browser's profile into the account's (the matches either has), and
        answer the merged one: each device then holds every device's matches."""
        check_csrf(request)
        account = await self.signed_in(request)
        data = await body_of_size(request, self.options.max_profile)
        try:
            theirs = Profile.from_json(data.get("profile"))
        except (ProfileError, TrashError) as exc:
            raise PlayerError(400, "bad_profile", str(exc)) from None
        async with self.sql.transaction() as sql:
            rows = await sql.fetch("SELECT profile FROM accounts WHERE id = %s", (account.id,))
            mine = Profile.loads(rows[0][0]) if rows and rows[0][0] else \
                Profile(account.name, theirs.created)
            mine.merge(theirs)
            mine.name = account.name
            text = mine.dumps()
            if len(text.encode()) > self.options.max_profile:
                raise PlayerError(413, "too_large", "the profile is too large to keep")
            await sql.run("UPDATE accounts SET profile = %s WHERE id = %s", (text, account.id))
        return JSONResponse({"profile": mine.to_json()})

    async def download(self, request: Request) -> Response:
        """All the account's data, as a file: what it is, its passkeys, sessions,
        ratings, games and profile (no secret: no hash, no token)."""
        account = await self.signed_in(request)
        sql = self.sql

        async def rows(query: str, columns: list[str]) -> list[dict[str, Any]]:
            return [dict(zip(columns, row, strict=True))
                    for row in await sql.fetch(query, (account.id,))]

        [info] = await rows("SELECT id, name, created, hidden, password IS NOT NULL, profile "
                            "FROM accounts WHERE id = %s",
                            ["id", "name", "created", "hidden", "password", "profile"])
        info["hidden"], info["password"] = bool(info["hidden"]), bool(info["password"])
        info["profile"] = json.loads(info["profile"]) if info["profile"] else None
        data = {
            "format": "trashcards-account/1", "account": info,
            "passkeys": await rows("SELECT id, created, sign_count FROM passkeys WHERE "
                                   "account_id = %s", ["id", "created", "sign_count"]),
            "sessions": await rows("SELECT created, expires FROM sessions WHERE "
                                   "account_id = %s", ["created", "expires"]),
            "ratings": await rows("SELECT family, rating, rd, volatility, games, last FROM "
                                  "ratings WHERE account_id = %s",
                                  ["family", "rating", "rd", "volatility", "games", "last"]),
            "games": await rows("SELECT table_id, seat, family, rated, created, finished, "
                                "preset, players, seats, place, won, rating_before, "
                                "rating_after FROM player_games WHERE account_id = %s ORDER "
                                "BY created", ["table_id", "seat", "family", "rated",
                                               "created", "finished", "preset", "players",
                                               "seats", "place", "won", "rating_before",
                                               "rating_after"]),
        }
        return Response(json.dumps(data, ensure_ascii=False, indent=1),
                        media_type="application/json", headers={
                            "Content-Disposition": 'attachment; filename="trash-account.json"',
                            "Cache-Control": "no-store"})

    async def delete(self, request: Request) -> Response:
        """Delete the account and everything of it; its games stay, its seats renamed
        ``Deleted player N`` (N the seat's number) in them."""
        check_csrf(request)
        account = await self.signed_in(request)
        if (await body(request)).get("confirm") != account.name:
            raise PlayerError(400, "confirm", "confirm with the account's name")
        async with self.sql.transaction() as sql:
            seats = await sql.fetch("SELECT table_id, seat FROM player_games WHERE "
                                    "account_id = %s", (account.id,))
            for table_id, seat in seats:
                await sql.run("UPDATE seats SET name = %s WHERE table_id = %s AND seat = %s",
                              (f"{DELETED_NAME} {seat + 1}", table_id, seat))
                await sql.run("UPDATE player_games SET account_id = NULL, name = %s WHERE "
                              "table_id = %s AND seat = %s",
                              (f"{DELETED_NAME} {seat + 1}", table_id, seat))
            await sql.run("DELETE FROM pairing WHERE account_id = %s", (account.id,))
            for table in ("ratings", "passkeys", "sessions"):
                await sql.run(f"DELETE FROM {table} WHERE account_id = %s", (account.id,))
            await sql.run("DELETE FROM accounts WHERE id = %s", (account.id,))
        response = JSONResponse({"deleted": True})
        response.delete_cookie(SESSION_COOKIE, path="/")
        log.info("an account was deleted")
        return response


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


async def body_of_size(request: Request, limit_bytes: int) -> dict[str, Any]:
    """A JSON object body of up to ``limit_bytes`` (a profile is larger than a form)."""
    from .protocol import parse_json

    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit_bytes:
            raise PlayerError(413, "too_large", f"the body is over {limit_bytes} bytes")
    data = parse_json(raw or b"{}", limit_bytes, 16)
    if not isinstance(data, dict):
        raise PlayerError(400, "bad_request", "the body must be a JSON object")
    return data
