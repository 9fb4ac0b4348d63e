"""Player names: what people may type, and how foreign names are printed."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from trashcards.names import MAX_NAME, NameRefusedError, check_name, printable


def test_a_name_is_trimmed() -> None:
    assert check_name("  Ana \t") == "Ana"


@pytest.mark.parametrize("name", ["", "   ", "\t\n"])
def test_an_empty_name_is_refused(name: str) -> None:
    with pytest.raises(NameRefusedError, match="empty"):
        check_name(name)


def test_a_name_over_24_characters_is_refused() -> None:
    assert check_name("x" * MAX_NAME) == "x" * MAX_NAME
    with pytest.raises(NameRefusedError, match="at most 24"):
        check_name("x" * (MAX_NAME + 1))


@pytest.mark.parametrize("name", ["A\x1b[2J", "A\x00", "A\x7f", "A\x9b", "A\ud800",
                                  "A\u202eB", "A\u2066B", "A\u200fB", "A\u2028B"])
def test_control_bidi_and_surrogate_characters_are_refused(name: str) -> None:
    with pytest.raises(NameRefusedError, match="cannot hold"):
        check_name(name)


@pytest.mark.parametrize("name", ["Ana", "Bố", "Zoë", "李", "👩\u200d💻 dev", "O'Neil-Smith"])
def test_ordinary_names_of_every_script_are_kept(name: str) -> None:
    assert check_name(name) == name


def test_printable_escapes_what_could_drive_a_terminal() -> None:
    assert printable("Ana") == "Ana"
    assert printable("\x1b[2JBo\ud800\u202e") == "\\x1b[2JBo\\ud800\\u202e"


@given(st.text())
def test_printable_text_never_holds_an_unsafe_character_and_always_encodes(text: str) -> None:
    shown = printable(text)
    shown.encode("utf-8")  # no lone surrogate is left
    assert not any(ord(c) < 0x20 or 0x7f <= ord(c) < 0xa0 for c in shown)
