"""Small whole numbers written in the record notation: ASCII digits only.

``str.isdigit`` also accepts ``²`` and ``①`` (which ``int`` refuses) and ``int`` reads
Arabic-Indic digits; the notation has neither, and no number in it needs more than a
few digits.
"""

from __future__ import annotations

from typing import Final

__all__ = ["MAX_DIGITS", "small_number"]

#: Digits a small number may have, leading zeros included.
MAX_DIGITS: Final = 6


def small_number(text: str, low: int, high: int) -> int | None:
    """The number ``text`` (ASCII digits only) if it is from ``low`` to ``high``; else
    ``None``, for the caller to say what was expected."""
    if not (0 < len(text) <= MAX_DIGITS and text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if low <= value <= high else None
