"""The browser's message catalogs, read by the terminal: one source of words in five
languages.

The catalogs are data files of the package (``web/static/i18n/<lang>.json``): keys with
``{placeholders}``, and plural messages (``{"one": …, "other": …}``) whose form the
``count`` parameter picks. The browser reads them with ``js/i18n.js``; :class:`Catalog`
does the same here, with the same fallback (a key missing in a language comes from
English; a key missing everywhere is said as itself), the same plural choice (CLDR: in
English, Spanish, Dutch and Italian an integer 1 is "one", everything else "other";
Vietnamese has no plural), and the same lists and numbers as the browser's
``Intl.ListFormat`` and ``Intl.NumberFormat`` give for these five languages
(tests/tui/test_plain_speech.py compares them under Node). Only the data is shared: no
module of the web server is imported.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from functools import cache
from importlib.resources import files
from typing import Final

__all__ = ["LANGUAGES", "Catalog", "language_from_environment"]

#: The catalogs' languages, English first (the fallback).
LANGUAGES: Final = ("en", "es", "nl", "it", "vi")
#: Languages whose integers have a "one" form (CLDR); the rest say "other" always.
_ONE_IS_ONE: Final = frozenset({"en", "es", "nl", "it"})
#: "and" and "or" before the last item of a list (Intl.ListFormat, long style).
_AND: Final = {"en": "and", "es": "y", "nl": "en", "it": "e", "vi": "và"}
_OR: Final = {"en": "or", "es": "o", "nl": "of", "it": "o", "vi": "hoặc"}
#: Spanish says "e" for "y" before an /i/ sound, "u" for "o" before an /o/ (CLDR).
_ES_E: Final = re.compile(r"(?i)^(i|hi(?![aeiou]))")
_ES_U: Final = re.compile(r"(?i)^(o|ho|8|11(?!\d))")
#: Where the catalogs live in the package.
_FOLDER: Final = ("web", "static", "i18n")
_PLACEHOLDER: Final = re.compile(r"\{(\w+)\}")

Message = str | dict[str, str]


def language_from_environment(environ: Mapping[str, str]) -> str:
    """The language of the user's locale, as gettext finds it: ``LANGUAGE`` (a list, the
    first language the catalogs have), else the first of ``LC_ALL``, ``LC_MESSAGES`` and
    ``LANG`` that is set; English when none is one of :data:`LANGUAGES`."""
    for part in environ.get("LANGUAGE", "").split(":"):
        code = _code(part)
        if code in LANGUAGES:
            return code
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            code = _code(value)
            return code if code in LANGUAGES else "en"
    return "en"


def _code(locale_name: str) -> str:
    """``nl_BE.UTF-8@euro`` → ``nl``."""
    return re.split(r"[_.@-]", locale_name.strip(), maxsplit=1)[0].lower()


@cache
def _load(lang: str) -> dict[str, Message]:
    path = files("trashcards").joinpath(*_FOLDER, f"{lang}.json")
    data: dict[str, Message] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _js_string(value: object) -> str:
    """A parameter as JavaScript's ``String()`` writes it (``4.0`` is ``"4"``)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _js_number(value: object) -> float:
    """A ``count`` as JavaScript's ``Number()`` reads it (``"1,5"`` is not a number)."""
    if isinstance(value, int | float):
        return float(value)
    try:
        return float(str(value)) if str(value).strip() else 0.0
    except ValueError:
        return math.nan


class Catalog:
    """The messages of one language (see the module)."""

    def __init__(self, lang: str = "en") -> None:
        if lang not in LANGUAGES:
            raise ValueError(f"no catalog for {lang!r}; the languages are "
                             f"{', '.join(LANGUAGES)}")
        self.lang = lang
        self._main = _load(lang)
        self._fallback = _load("en")

    def __call__(self, key: str, /, **params: object) -> str:
        """The message ``key`` with its placeholders filled (``t()`` of js/i18n.js)."""
        message = self._main.get(key, self._fallback.get(key))
        if message is None:
            return key
        if isinstance(message, dict):
            form = self.plural(params.get("count", 0))
            message = message.get(form, message["other"])
        return _PLACEHOLDER.sub(
            lambda found: (found.group(0) if found.group(1) not in params
                           else _js_string(params[found.group(1)])), message)

    def plural(self, count: object) -> str:
        """The plural form of ``count``: ``"one"`` or ``"other"``."""
        return "one" if self.lang in _ONE_IS_ONE and _js_number(count) == 1 else "other"

    def and_list(self, items: Sequence[str]) -> str:
        """``A, B and C`` in this language."""
        return self._list(items, _AND[self.lang], _ES_E, "e")

    def or_list(self, items: Sequence[str]) -> str:
        """``A, B or C`` in this language."""
        return self._list(items, _OR[self.lang], _ES_U, "u")

    def _list(self, items: Sequence[str], word: str, before: re.Pattern[str],
              spanish: str) -> str:
        if len(items) <= 1:
            return "".join(items)
        last = items[-1]
        if self.lang == "es" and before.match(last):
            word = spanish
        comma = "," if self.lang == "en" and len(items) > 2 else ""
        return f"{', '.join(items[:-1])}{comma} {word} {last}"

    def number(self, value: float) -> str:
        """A number to one decimal at most, in this language's writing (``1.5``,
        ``1,5``), as ``Intl.NumberFormat`` writes it."""
        rounded = Decimal(repr(float(value))).quantize(Decimal("0.1"), ROUND_HALF_UP)
        if rounded == rounded.to_integral():
            rounded = rounded.to_integral()
        text = f"{rounded:f}"
        return text if self.lang == "en" else text.replace(".", ",")
