"""Player names: the one check for names people make, and safe printing of names that
come from elsewhere (records written by other programs).

A name made here (the terminal, the server) is trimmed and must be 1 to
:data:`MAX_NAME` characters with no control, line-breaking or bidirectional-override
character, so it can never clear, recolour or reorder a terminal or a page. A record
read from a file may hold any string; :func:`printable` shows such text safely.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from .errors import TrashError

__all__ = ["MAX_NAME", "NameRefusedError", "check_name", "printable"]

#: The longest name, in characters.
MAX_NAME: Final = 24

#: Bidirectional formatting characters: they reorder the text around them.
_BIDI: Final = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                         "\u2066\u2067\u2068\u2069")
#: Unicode categories never allowed in a name: control, surrogate, line and paragraph
#: separators.
_REFUSED_CATEGORIES: Final = frozenset({"Cc", "Cs", "Zl", "Zp"})


class NameRefusedError(TrashError):
    """A name that cannot be used; the message says why."""


def _unsafe(char: str) -> bool:
    return char in _BIDI or unicodedata.category(char) in _REFUSED_CATEGORIES


def check_name(text: str) -> str:
    """The name trimmed of surrounding white space; raises :class:`NameRefusedError` if it
    is empty, longer than :data:`MAX_NAME` characters, or holds a control, line-breaking
    or bidirectional-override character."""
    name = text.strip()
    if not name:
        raise NameRefusedError("a name cannot be empty")
    bad = next((char for char in name if _unsafe(char)), None)
    if bad is not None:
        raise NameRefusedError(f"a name cannot hold the character {_escape(bad)} "
                               "(control, line-break and text-direction characters are "
                               "not allowed)")
    if len(name) > MAX_NAME:
        raise NameRefusedError(f"a name is at most {MAX_NAME} characters, got {len(name)}")
    return name


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: every control, surrogate, line-breaking and
    bidirectional character is written as an escape (``\\x1b``, ``\\u202e``)."""
    if not any(_unsafe(char) for char in text):
        return text
    return "".join(_escape(char) if _unsafe(char) else char for char in text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
