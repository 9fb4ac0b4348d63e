"""JSON from elsewhere, read within bounds: records, HTTP bodies and websocket frames.

:func:`parse` checks the size and the nesting depth of the text *before* parsing it, and
refuses integers with more digits than any field can use, ``NaN`` and ``Infinity``, so no
input can make the parser recurse deeply, spend quadratic time turning digits into a
number, or raise anything but a :class:`~trashcards.errors.JSONTextError`.
"""

from __future__ import annotations

import json
import re
from typing import Any, Final, NoReturn

from .errors import JSONTextError

__all__ = ["MAX_DIGITS", "nesting_depth", "parse"]

#: The most digits an integer may have (versions and counts fit in far fewer).
MAX_DIGITS: Final = 20

#: A JSON string, or an unterminated one running to the end of the text. The possessive
#: ``*+`` never backtracks, so scanning any text is linear.
_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_BRACKET: Final = re.compile(r"[\[\]{}]")


def nesting_depth(text: str | bytes) -> int:
    """How deeply the arrays and objects of ``text`` nest (0 for a bare value), counting
    brackets outside strings; for text that is not JSON, an upper bound of what a parser
    would reach before it fails."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    opened = text.count("[") + text.count("{")
    if opened <= 1:
        return opened
    depth = deepest = 0
    for bracket in _BRACKET.findall(_STRING.sub("", text)):
        if bracket in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth = max(depth - 1, 0)
    return deepest


def _integer(text: str) -> int:
    if len(text) - text.startswith("-") > MAX_DIGITS:
        raise JSONTextError("number", f"a number of {len(text)} digits (at most {MAX_DIGITS})")
    return int(text)


def _constant(name: str) -> NoReturn:
    raise JSONTextError("number", f"{name} is not a JSON number")


def parse(text: str | bytes, *, max_size: int, max_depth: int) -> Any:
    """The value of the JSON ``text`` (bytes are read as UTF-8).

    Raises :class:`~trashcards.errors.JSONTextError`: ``size`` when ``text`` is longer
    than ``max_size`` (characters for ``str``, bytes for ``bytes``), ``depth`` when it
    nests deeper than ``max_depth``, ``number`` for an integer over :data:`MAX_DIGITS`
    digits, ``NaN`` or ``Infinity``, ``syntax`` when it is not JSON at all.
    """
    if len(text) > max_size:
        unit = "bytes" if isinstance(text, bytes) else "characters"
        raise JSONTextError("size", f"{len(text)} {unit} (at most {max_size})")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JSONTextError("syntax", f"not UTF-8 text: {exc.reason} at byte "
                                          f"{exc.start}") from None
    depth = nesting_depth(text)
    if depth > max_depth:
        raise JSONTextError("depth", f"nested {depth} deep (at most {max_depth})")
    try:
        return json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JSONTextError("syntax", f"not JSON: {exc}") from None
