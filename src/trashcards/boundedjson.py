"""JSON from elsewhere, read within bounds: records, HTTP bodies and websocket frames.

:func:`parse` checks the size and the nesting depth of the text *before* parsing it, and
refuses integers with more digits than any field can use, ``NaN`` and ``Infinity``, so no
input can make the parser recurse deeply, spend quadratic time turning digits into a
number, or raise anything but a :class:`~trashcards.errors.JSONTextError`. It also refuses
lone surrogates (``"\\ud800"`` escaped, or in a ``str`` given to it): no text of a value
it returns fails to encode as UTF-8, so no printer, page or database chokes on it later.
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
#: What may make a lone surrogate: a surrogate escape, or a surrogate in the text itself.
_MAY_HOLD_SURROGATE: Final = re.compile(r"\\u[dD][89a-fA-F]|[\ud800-\udfff]")
_SURROGATE: Final = re.compile("[\ud800-\udfff]")


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


def _lone_surrogate(value: Any) -> bool:
    """Whether a string anywhere in ``value`` (keys included) holds a lone surrogate;
    iterative, so any nesting is safe."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def parse(text: str | bytes, *, max_size: int, max_depth: int) -> Any:
    """The value of the JSON ``text`` (bytes are read as UTF-8).

    Raises :class:`~trashcards.errors.JSONTextError`: ``size`` when ``text`` is longer
    than ``max_size`` (characters for ``str``, bytes for ``bytes``), ``depth`` when it
    nests deeper than ``max_depth``, ``number`` for an integer over :data:`MAX_DIGITS`
    digits, ``NaN`` or ``Infinity``, ``syntax`` when it is not JSON at all, ``surrogate``
    when a string holds a lone surrogate (half of a UTF-16 pair, not a character).
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
        value = json.loads(text, parse_int=_integer, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise JSONTextError("syntax", f"not JSON: {exc}") from None
    if _MAY_HOLD_SURROGATE.search(text) and _lone_surrogate(value):
        raise JSONTextError("surrogate", "a string holds a lone surrogate (\\ud800 to "
                                         "\\udfff without its pair), which is not text")
    return value
