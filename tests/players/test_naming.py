"""Players' names: the built-in block list, and a server's own words
(``serve --block-list``) refused as whole words, through case, accents and spacing."""

from __future__ import annotations

import pytest

from trashcards.names import NameRefusedError
from trashcards.players.naming import check_player_name


def test_a_servers_own_blocked_words_are_refused_as_whole_words() -> None:
    blocked = ("grumpy", "bad apple")
    for name in ("Grumpy", "the GRÜMPY one", "a Bad  Apple", "bad apple 2"):
        with pytest.raises(NameRefusedError, match="not allowed"):
            check_player_name(name, blocked)
    for name in ("Grumpycat", "Bad", "Apple pie"):  # a part of a word, or one word alone
        assert check_player_name(name, blocked) == name
    assert check_player_name("Grumpy") == "Grumpy"  # without the list: a fine name
