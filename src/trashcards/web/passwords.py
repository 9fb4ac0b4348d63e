"""Passwords, the fallback to passkeys: hashed with Argon2id (``argon2-cffi``, its
default parameters: RFC 9106's second recommended option, 64 MiB, 3 passes, 4 lanes),
never stored or logged as typed. Hashing takes tens of milliseconds of one core, so it
runs in a worker thread, never on the event loop."""

from __future__ import annotations

import asyncio
from functools import cache
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError

__all__ = ["MAX_PASSWORD", "MIN_PASSWORD", "check_password", "hash_password", "verify"]

MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 256
_HASHER: Final = PasswordHasher()


@cache
def _dummy() -> str:
    """Verified when a name has no account, so an unknown name takes as long as a wrong
    password (names are public anyway, on the leaderboards). Made at first use, not at
    start (a hash takes a while)."""
    return _HASHER.hash("not a password of anyone")


def check_password(password: object) -> str | None:
    """Why ``password`` cannot be a password, or ``None`` if it can."""
    if not isinstance(password, str):
        return "the password must be text"
    if len(password) < MIN_PASSWORD:
        return f"a password is at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password is at most {MAX_PASSWORD} characters"
    return None


async def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (its salt and parameters inside)."""
    return await asyncio.to_thread(_HASHER.hash, password)


async def verify(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the ``stored`` hash (``None``: no account, or one
    without a password: always false, after the same work)."""
    def check() -> bool:
        try:
            return _HASHER.verify(stored or _dummy(), password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False
    return await asyncio.to_thread(check)
