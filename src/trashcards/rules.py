"""The `Rules` value, its presets and variants (RULES.md §9 and §11).

Every rule is a field of one frozen :class:`Rules`; presets are named field values in a
registry (exact names only: an unknown name is refused, never guessed), and variants
combine by setting fields. Nothing outside this
module asks which preset is in force.
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final

from .cards import MAX_JOKER, Card, joker, standard_pack
from .digits import small_number
from .errors import RulesError, brief

__all__ = [
    "FACE_RANKS",
    "FIRST_TO",
    "FLAGS",
    "MAX_BOARD",
    "MAX_DECKS",
    "MAX_JOKERS_PER_DECK",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PRESETS",
    "TRASH",
    "WILD",
    "Rules",
    "card_roles",
    "preset_names",
]

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 4
FACE_RANKS: Final = ("J", "Q", "K")
#: Role of a wild card in :func:`card_roles` (pip cards map to their rank 1…10).
WILD: Final = 0
#: Role of a trash card in :func:`card_roles`.
TRASH: Final = -1

#: The most packs shuffled together, and the most Jokers each may add.
MAX_DECKS: Final = 8
MAX_JOKERS_PER_DECK: Final = MAX_JOKER // MAX_DECKS  # 4
#: The largest board (slots A … 10); ``start_size`` is 1 to this.
MAX_BOARD: Final = 10
#: The house rules that are on or off, each with its words in :meth:`Rules.describe`.
#: A new flag is a field of :class:`Rules` and a line here (docs/architecture.md, "A new
#: rule").
FLAGS: Final[dict[str, str]] = {"call_trash": 'call "Trash!"', "last_chance": "last chance"}
_FACE_NUMBER: Final = {"J": 11, "Q": 12, "K": 13}


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule of a match (RULES.md §11). Build with :meth:`preset` or :meth:`from_dict`.

    ``decks=None`` means the default for the table (1 pack for 2 players, 2 for 3–4);
    ``rounds_to_win=None`` means "follows ``start_size``".
    """

    preset: str = "standard"
    decks: int | None = None
    jokers_per_deck: int = 0
    wild_ranks: tuple[str, ...] = ("J",)
    start_size: int = 10
    rounds_to_win: int | None = None
    call_trash: bool = False
    last_chance: bool = False

    def __post_init__(self) -> None:
        _validate(self)

    # -- construction -------------------------------------------------------------------

    @classmethod
    def preset_named(cls, name: str) -> Rules:
        """The rules of a preset or variant by its name (``kings-wild``, ``first-to-5``…;
        any case); an unknown name raises :class:`RulesError` with the list."""
        canonical = _canonical_preset(name)
        return cls(preset=canonical, **_preset_fields(canonical))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rules from a record's ``rules`` object: a preset plus the fields that differ."""
        if not isinstance(data, Mapping):
            raise RulesError("rules", "must be an object of Rules fields")
        preset = data.get("preset", "standard")
        if not isinstance(preset, str):
            raise RulesError("preset", f"must be one of {', '.join(preset_names())}")
        base = cls.preset_named(preset)
        overrides = {key: value for key, value in data.items() if key != "preset"}
        return base.with_fields(overrides)

    def with_fields(self, overrides: Mapping[str, Any]) -> Rules:
        """A copy with fields changed; values are checked like a record's."""
        known = {f.name for f in dataclasses.fields(self)} - {"preset"}
        changes: dict[str, Any] = {}
        for key, value in overrides.items():
            if key not in known:
                shown = key if isinstance(key, str) and key.isprintable() and len(key) <= 40 \
                    else brief(key)
                raise RulesError(shown, f"unknown field; the fields are {', '.join(sorted(known))}")
            changes[key] = _coerce(key, value)
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """The record form: ``preset`` plus every field that differs from that preset."""
        base = Rules.preset_named(self.preset)
        out: dict[str, Any] = {"preset": self.preset}
        for f in dataclasses.fields(self):
            if f.name == "preset":
                continue
            value = getattr(self, f.name)
            if value != getattr(base, f.name):
                out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    def describe(self) -> str:
        """One line for people, e.g. ``standard: J wild, boards of 10, first to 10 rounds``.

        A preset changed by other fields says so and names them (``kids (changed:
        start_size): J wild, boards of 10, …``): it is no longer the plain preset. A field
        set to what the preset already means (``rounds_to_win`` equal to the board size
        where the preset plays to the board size) is no change."""
        wild = "/".join(self.wild_ranks) or "no face card"
        parts = [f"{wild} wild", f"boards of {self.start_size}",
                 f"first to {self.target_rounds} round{'s' if self.target_rounds > 1 else ''}"]
        if self.jokers_per_deck:
            parts.append(f"{self.jokers_per_deck} Jokers per pack")
        if self.decks is not None:
            parts.append(f"{self.decks} pack{'s' if self.decks > 1 else ''}")
        parts += [words for flag, words in FLAGS.items() if getattr(self, flag)]
        base = Rules.preset_named(self.preset)
        # rounds_to_win = start_size is what the preset's "none" means: not a change
        changed = [name for name in self.to_dict() if name != "preset" and not (
            name == "rounds_to_win" and base.rounds_to_win is None
            and self.rounds_to_win == self.start_size)]
        label = f"{self.preset} (changed: {', '.join(changed)})" if changed else self.preset
        return f"{label}: " + ", ".join(parts)

    # -- derived values -----------------------------------------------------------------

    @property
    def target_rounds(self) -> int:
        """Rounds a player must win to take the match."""
        return self.start_size if self.rounds_to_win is None else self.rounds_to_win

    def deck_count(self, players: int) -> int:
        """Packs shuffled together for a table of ``players``."""
        if self.decks is not None:
            return self.decks
        return 1 if players <= 2 else 2

    def check_players(self, players: int) -> None:
        """Refuse a table these rules cannot deal (RULES.md §2 and §4)."""
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            more = " (5 or more people: split into two tables)" if players > MAX_PLAYERS else ""
            raise RulesError("players", f"must be {MIN_PLAYERS} to {MAX_PLAYERS}, "
                                        f"got {players}{more}")
        cards = self.deck_count(players) * (52 + self.jokers_per_deck)
        needed = players * self.start_size + 2
        if cards < needed:
            raise RulesError("decks", f"{cards} cards cannot deal {players} boards of "
                                      f"{self.start_size} and leave 2 for the stock; "
                                      f"use more decks")

    def match_cards(self, players: int) -> tuple[Card, ...]:
        """Every card of the match in canonical order: packs, then Jokers X1…Xk."""
        decks = self.deck_count(players)
        jokers = tuple(joker(n) for n in range(1, decks * self.jokers_per_deck + 1))
        return standard_pack() * decks + jokers

    def roles(self) -> dict[Card, int]:
        """Each card's role: its slot 1…10, :data:`WILD` or :data:`TRASH`."""
        return card_roles(self.wild_ranks)


@lru_cache(maxsize=16)
def card_roles(wild_ranks: tuple[str, ...]) -> dict[Card, int]:
    """Role of every card (RULES.md §1) under the given wild face ranks; Jokers are wild."""
    wild = {_FACE_NUMBER[r] for r in wild_ranks}
    roles: dict[Card, int] = {}
    for card in standard_pack():
        if card.rank <= 10:
            roles[card] = card.rank
        else:
            roles[card] = WILD if card.rank in wild else TRASH
    for number in range(1, MAX_JOKER + 1):
        roles[joker(number)] = WILD
    return roles


# -- presets ----------------------------------------------------------------------------

_PRESETS: Final[dict[str, dict[str, Any]]] = {
    "standard": {},
    "classic": {"wild_ranks": ("K",), "rounds_to_win": 1},
    "kings-wild": {"wild_ranks": ("K",)},
    "all-faces-wild": {"wild_ranks": ("J", "Q", "K")},
    "jokers": {"jokers_per_deck": 2},
    "call-trash": {"call_trash": True},
    "kids": {"start_size": 5},
    "last-chance": {"last_chance": True},
}
PRESETS: Final = (*_PRESETS, "first-to-N")

_FIRST_TO: Final = re.compile(r"first-to-([0-9]+)")
#: ``first-to-N``: N from 1 to 9, the board a player must get down to (rounds_to_win is
#: MAX_BOARD − N).
FIRST_TO: Final = range(1, MAX_BOARD)


def preset_names() -> tuple[str, ...]:
    """The canonical preset names; ``first-to-N`` stands for ``first-to-1`` … ``first-to-9``."""
    return PRESETS


def _canonical_preset(name: str) -> str:
    key = name.strip().lower()
    if key in _PRESETS:
        return key
    match = _FIRST_TO.fullmatch(key)
    rounds = small_number(match.group(1), FIRST_TO.start, FIRST_TO.stop - 1) if match else None
    if rounds is not None:
        return f"first-to-{rounds}"
    if key.startswith("first-to-"):
        raise RulesError("preset", f"{brief(name)}: write first-to-N with N a number of "
                                   "slots from 1 to 9, e.g. first-to-5 (the first player "
                                   "down to a board of 5 slots wins)")
    close = difflib.get_close_matches(key, _PRESETS, n=1, cutoff=0.6)
    guess = f" (did you mean {close[0]}?)" if close else ""
    raise RulesError("preset", f"unknown preset {brief(name)}{guess}; the presets are "
                               f"{', '.join(PRESETS)} (first-to-N: write e.g. first-to-5)")


def _preset_fields(canonical: str) -> dict[str, Any]:
    match = _FIRST_TO.fullmatch(canonical)
    if match:
        return {"rounds_to_win": MAX_BOARD - int(match.group(1))}
    return dict(_PRESETS[canonical])


# -- validation -------------------------------------------------------------------------

def _coerce(key: str, value: Any) -> Any:
    """Check one field's type and turn JSON values (lists) into the field's type."""
    if key in FLAGS:
        if not isinstance(value, bool):
            raise RulesError(key, f"must be true or false, got {brief(value)}")
        return value
    if key == "wild_ranks":
        if not isinstance(value, list | tuple) or not all(isinstance(v, str) for v in value):
            raise RulesError(key, "must be a list of distinct ranks from J, Q, K; "
                                 f"got {brief(value)}")
        return tuple(v.upper() for v in value)
    if key in ("decks", "rounds_to_win") and value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise RulesError(key, f"must be a whole number, got {brief(value)}")
    return value


def _validate(rules: Rules) -> None:
    if not isinstance(rules.preset, str):
        raise RulesError("preset", "must be a preset name")
    if rules.decks is not None and not (
            isinstance(rules.decks, int) and 1 <= rules.decks <= MAX_DECKS):
        raise RulesError("decks", f"must be 1 to {MAX_DECKS}, got {brief(rules.decks)}")
    if not (isinstance(rules.jokers_per_deck, int)
            and 0 <= rules.jokers_per_deck <= MAX_JOKERS_PER_DECK):
        raise RulesError("jokers_per_deck", f"must be 0 to {MAX_JOKERS_PER_DECK}, "
                                            f"got {brief(rules.jokers_per_deck)}")
    if (not isinstance(rules.wild_ranks, tuple)
            or any(r not in FACE_RANKS for r in rules.wild_ranks)
            or len(set(rules.wild_ranks)) != len(rules.wild_ranks)):
        raise RulesError("wild_ranks",
                         "must be distinct ranks from J, Q, K; "
                         f"got {brief(rules.wild_ranks)}")
    if not (isinstance(rules.start_size, int) and 1 <= rules.start_size <= MAX_BOARD):
        raise RulesError("start_size", f"must be 1 to {MAX_BOARD}, got {brief(rules.start_size)}")
    if rules.rounds_to_win is not None and not (
            isinstance(rules.rounds_to_win, int) and rules.rounds_to_win >= 1):
        raise RulesError("rounds_to_win",
                         f"must be at least 1, got {brief(rules.rounds_to_win)}")
    if rules.target_rounds > rules.start_size:
        raise RulesError("rounds_to_win",
                         f"must be 1 to start_size ({rules.start_size}), "
                         f"got {brief(rules.rounds_to_win)}")
    for name in FLAGS:
        if not isinstance(getattr(rules, name), bool):
            raise RulesError(name, "must be true or false")
