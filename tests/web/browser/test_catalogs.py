"""The browser client's message catalogs: five languages, the same keys, the same
placeholders, plural forms where a language needs them, and every key the pages use.

These tests read files only (no browser), so they run everywhere.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

STATIC = Path(__file__).resolve().parents[3] / "src" / "trashcards" / "web" / "static"
LANGUAGES = ("en", "es", "nl", "it", "vi")
#: The plural categories each language's integers use (CLDR); "other" is always there.
PLURAL_FORMS = {"en": {"one", "other"}, "es": {"one", "other"}, "nl": {"one", "other"},
                "it": {"one", "other"}, "vi": {"other"}}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def catalog(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((STATIC / "i18n" / f"{lang}.json").read_text("utf-8"))
    return data


def placeholders(message: str | dict[str, str]) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in PLACEHOLDER.findall(text)}


def used_keys() -> set[str]:
    """Keys named literally in the pages and scripts (t("key"), data-i18n="key")."""
    keys: set[str] = set()
    pages = [p for p in STATIC.rglob("*.html") if p.parent.name != "rules"]
    for path in pages + sorted((STATIC.parent / "templates").glob("*.html")):
        text = path.read_text("utf-8")
        keys |= set(re.findall(r'data-i18n="([\w.\-]+)"', text))
        keys |= set(re.findall(r'set skip_key = "([\w.\-]+)"', text))
        for attr in re.findall(r'data-i18n-attr="([^"]+)"', text):
            keys |= {pair.split(":")[1].strip() for pair in attr.split(";") if ":" in pair}
    for path in (STATIC / "js").glob("*.js"):
        keys |= set(re.findall(r'\bt\("([\w.\-]+)"', path.read_text("utf-8")))
    return keys


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_language_has_every_key_with_the_same_placeholders(lang: str) -> None:
    english, other = catalog("en"), catalog(lang)
    assert sorted(set(english) - set(other)) == [], "missing keys"
    assert sorted(set(other) - set(english)) == [], "keys English does not have"
    for key, message in english.items():
        assert placeholders(other[key]) == placeholders(message), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_messages_have_the_forms_of_their_language(lang: str) -> None:
    english = catalog("en")
    for key, message in catalog(lang).items():
        assert isinstance(message, dict) == isinstance(english[key], dict), key
        if isinstance(message, dict):
            assert set(message) == PLURAL_FORMS[lang], key
            assert "count" in placeholders(message), key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_key_is_written_twice(lang: str) -> None:
    """A second entry would silently win over the first (two merges each added
    ``create.hints``, and only the later text was ever shown)."""
    twice: list[str] = []

    def pairs_of(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [key for key, _ in pairs]
        twice.extend(sorted({key for key in keys if keys.count(key) > 1}))
        return dict(pairs)

    json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"),
               object_pairs_hook=pairs_of)
    assert twice == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_message_is_left_empty(lang: str) -> None:
    for key, message in catalog(lang).items():
        texts = message.values() if isinstance(message, dict) else [message]
        assert all(text.strip() for text in texts), key


def test_every_key_the_pages_use_is_in_the_catalog() -> None:
    assert sorted(used_keys() - set(catalog("en"))) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_rules_page_exists_in_every_language(lang: str) -> None:
    text = (STATIC / "rules" / f"{lang}.html").read_text("utf-8")
    assert text.count("<h2>") >= 8
    assert "<script" not in text
