"""Cards and their text notation (RULES.md §1).

A :class:`Card` is an interned value: each distinct card text has exactly one object, so
cards compare by identity and hash fast. Identical cards of several packs are the same
object (the notation does not tell them apart); Jokers are distinct cards ``X1`` … ``Xk``.
"""

from __future__ import annotations

from typing import Final

from .digits import small_number
from .errors import NotationError, brief

__all__ = [
    "MAX_JOKER",
    "RANKS",
    "SUITS",
    "Card",
    "format_cards",
    "joker",
    "parse_card",
    "parse_cards",
    "standard_pack",
]

#: Rank letters in order, A lowest; index + 1 is the rank's number (A=1 … K=13).
RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K")
#: Suit letters in the order packs are listed.
SUITS: Final = ("s", "h", "d", "c")
_SUIT_SYMBOLS: Final = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_SUIT_INPUT: Final = {"s": "s", "h": "h", "d": "d", "c": "c", "♠": "s", "♥": "h", "♦": "d",
                      "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}
#: The highest Joker number: at most 8 packs of at most 4 Jokers (RULES.md §11).
MAX_JOKER: Final = 32
_RANK_INPUT: Final = {r.lower(): r for r in RANKS} | {"10": "T", "1": "A"}


class Card:
    """One card. Use :func:`parse_card` or :func:`joker`; never construct directly.

    ``rank`` is 1 (Ace) … 13 (King), or 0 for a Joker. ``suit`` is one of ``s h d c``, or
    ``""`` for a Joker. ``text`` is the canonical record notation (``Ts``, ``Ah``, ``X1``).
    """

    __slots__ = ("joker_number", "rank", "suit", "text")

    _interned: dict[str, Card] = {}  # noqa: RUF012 - the intern table, shared on purpose

    rank: int
    suit: str
    text: str
    joker_number: int

    def __new__(cls, text: str) -> Card:  # pragma: no cover - guarded by _make
        raise TypeError("use parse_card() or joker() to get a Card")

    @classmethod
    def _make(cls, text: str, rank: int, suit: str, joker_number: int = 0) -> Card:
        card = cls._interned.get(text)
        if card is None:
            card = object.__new__(cls)
            card.text = text
            card.rank = rank
            card.suit = suit
            card.joker_number = joker_number
            cls._interned[text] = card
        return card

    @property
    def is_joker(self) -> bool:
        return self.rank == 0

    def pretty(self) -> str:
        """The card for people: ``10♠``, ``A♥``, ``X1``."""
        if self.is_joker:
            return self.text
        rank = "10" if self.rank == 10 else RANKS[self.rank - 1]
        return rank + _SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"parse_card({self.text!r})"

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (parse_card, (self.text,))

    def __lt__(self, other: Card) -> bool:
        return _sort_key(self) < _sort_key(other)


def _sort_key(card: Card) -> tuple[int, int, int]:
    if card.is_joker:
        return (1, 0, card.joker_number)
    return (0, card.rank, SUITS.index(card.suit))


def joker(number: int) -> Card:
    """Joker ``X<number>`` (numbers start at 1)."""
    if not 1 <= number <= MAX_JOKER:
        raise NotationError(f"Joker numbers are 1 to {MAX_JOKER}, got {brief(number)}")
    return Card._make(f"X{number}", 0, "", number)


for _suit in SUITS:
    for _index, _rank in enumerate(RANKS):
        Card._make(_rank + _suit, _index + 1, _suit)


def parse_card(text: str) -> Card:
    """Parse one card, forgivingly: ``Ts``, ``10s``, ``ts``, ``T♠``, ``10♠``, ``X1``."""
    raw = text.strip()
    card = Card._interned.get(raw)
    if card is not None:
        return card
    if len(raw) >= 2:
        if raw[0] in "xX":
            number = small_number(raw[1:], 1, MAX_JOKER)
            if number is not None:
                return joker(number)
        rank = _RANK_INPUT.get(raw[:-1].lower())
        suit = _SUIT_INPUT.get(raw[-1].lower())
        if rank is not None and suit is not None:
            return Card._interned[rank + suit]
    raise NotationError(f"not a card: {brief(text)} (write e.g. Ts, 10s, Ah, 7♥, X1)")


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse cards separated by white space."""
    return tuple(parse_card(part) for part in text.split())


def format_cards(cards: tuple[Card, ...] | list[Card]) -> str:
    """Cards in canonical notation separated by single spaces."""
    return " ".join(card.text for card in cards)


def standard_pack() -> tuple[Card, ...]:
    """The 52 cards of one pack, suit by suit, Ace to King."""
    return _PACK


_PACK: Final = tuple(Card._interned[rank + suit] for suit in SUITS for rank in RANKS)
