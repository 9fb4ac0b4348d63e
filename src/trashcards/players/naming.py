"""Names of players with accounts: the name rules every name follows
(:func:`trashcards.names.check_name`), plus a block list of slurs and insults in the
five languages of the game, names that pass for the game or its staff, and names a
computer seat has (``bot:…``). The check sees through case, accents, spacing,
punctuation and the common digit-for-letter swaps (``Sh1t``, ``s.h.i.t``).

The list is short on purpose: it catches the obvious, and a person reviewing names
catches the rest (docs/players.md). A name is compared for uniqueness by
:func:`name_key` (case and accents ignored), so ``Ana`` and ``ANA`` and ``Àna`` are one.
"""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Collection
from typing import Final

from ..bots import BOT_PREFIX
from ..names import NameRefusedError, check_name

__all__ = ["check_player_name", "name_key"]

#: Words no name may contain anywhere (matched after :func:`_skeleton`: ``Sh1tface``).
BLOCKED_ANYWHERE: Final = frozenset({
    "fuck", "shit", "cunt", "bitch", "whore", "nigger", "nigga", "faggot", "asshole",
    "dickhead", "wanker", "hitler", "rapist",  # English
    "mierda", "gilipollas", "maricon", "pendejo", "cabron",  # Spanish
    "kanker", "klootzak", "tering",  # Dutch
    "cazzo", "stronzo", "puttana", "vaffanculo", "minchia", "frocio",  # Italian
})
#: Words no name may hold as a word of its own (inside other words they are innocent:
#: "reputation", "Kutcher", "Lona").
BLOCKED_WORDS: Final = frozenset({
    "slut", "nazi", "retard", "bastard", "pussy",  # English
    "puta", "puto", "coño",  # Spanish
    "kut", "hoer", "mongool",  # Dutch
    "troia",  # Italian
    "dit me", "du ma", "dcm", "lon", "cac",  # Vietnamese, without tones
})
#: Names that pass for the game, its staff or nobody.
RESERVED: Final = frozenset({"admin", "administrator", "moderator", "mod", "staff",
                             "trashcards", "system", "root", "deleted player", "anonymous"})
_SWAPS: Final = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t",
                               "@": "a", "$": "s", "!": "i", "|": "i", "+": "t"})


def name_key(name: str) -> str:
    """The form two names are compared in: case folded, accents dropped, white space
    collapsed."""
    text = unicodedata.normalize("NFKD", name.casefold())
    text = "".join(char for char in text if not unicodedata.combining(char))
    return " ".join(text.split())


def _skeleton(name: str) -> str:
    """Letters only, digits read as the letters they stand for."""
    return "".join(char for char in name_key(name).translate(_SWAPS) if char.isalpha())


def check_player_name(text: str, blocked: Collection[str] = ()) -> str:
    """``text`` as a player's name, trimmed; raises
    :class:`~trashcards.names.NameRefusedError` saying why it cannot be one.
    ``blocked``: more words or phrases a server refuses (``serve --block-list``), matched
    as whole words like :data:`BLOCKED_WORDS`."""
    name = check_name(text)
    if name.lower().startswith(BOT_PREFIX):
        raise NameRefusedError(f"names starting with {BOT_PREFIX!r} are the computer's")
    key = name_key(name)
    if key in RESERVED or _skeleton(name) in {_skeleton(r) for r in RESERVED}:
        raise NameRefusedError("this name is kept for the game itself: choose another")
    skeleton = _skeleton(name)
    words = ["".join(c for c in w if c.isalpha()) for w in key.translate(_SWAPS).split()]
    pairs = {f"{a} {b}" for a, b in itertools.pairwise(words)}
    if any(_skeleton(word) in skeleton for word in BLOCKED_ANYWHERE) or any(
            name_key(word) in words or name_key(word) in pairs
            for word in itertools.chain(BLOCKED_WORDS, blocked)):
        raise NameRefusedError("this name is not allowed here: choose another")
    return name
