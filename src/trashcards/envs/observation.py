"""The observation every environment gives: float features of the public int encoding.

:func:`observation_batch` turns an ``(N, 100)`` array of public encodings
(:mod:`trashcards.envs.public`) into ``(N, OBSERVATION_SIZE)`` float32 features with numpy
alone, so a vectorized environment computes exactly what the single environments do.
Each row is seen from its viewer's seat (``public[:, VIEWER]``): seats are relative, the
viewer first, then clockwise. Every feature lies in ``[0, 1]``; :data:`FEATURES` names
each block, its index range and meaning (``docs/envs.md`` is this table).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from ..rules import MAX_PLAYERS, MIN_PLAYERS, Rules
from ..views import View
from .public import (
    BOARD_SIZE,
    CALLED,
    CLASSES,
    DEALER,
    DISCARD_COUNTS,
    FINAL_FROM,
    IN_HAND,
    LENGTH,
    MATCH_WINNER,
    MAX_SEATS,
    MUST_PLAY,
    PHASE,
    PHASE_CODES,
    PLAYERS,
    ROUND_WINNERS,
    ROUNDS_WON,
    SLOT_DOWN,
    SLOT_NATURAL,
    SLOT_WILD,
    SLOTS,
    SLOTS_PER_SEAT,
    STOCK_COUNT,
    STOCK_KNOWN,
    STOCK_KNOWN_COUNTS,
    TO_ACT,
    TOP_DISCARD,
    UNCLAIMED,
    UNSEEN_COUNTS,
    VIEWER,
    class_totals,
    public_array,
)

__all__ = ["FEATURES", "OBSERVATION_SIZE", "RECIPE_BIT", "RECIPE_CONSTANT", "RECIPE_EQUAL",
           "RECIPE_SCALE", "Feature", "feature_slice", "observation", "observation_batch",
           "observation_recipe"]


class Feature(NamedTuple):
    """One block of the observation: ``size`` floats from ``start``, each in [0, 1]."""

    name: str
    start: int
    size: int
    meaning: str


_BLOCKS: Final = (
    ("slots", MAX_SEATS * SLOTS_PER_SEAT * 3,
     "for each seat (own first, then clockwise) and each slot 1…10, three flags: face "
     "down, natural face up, wild face up; all 0 for a slot the board does not have "
     "(or not dealt yet) and for an absent seat"),
    ("board_size", MAX_SEATS, "each seat's board size ÷ 10"),
    ("rounds_won", MAX_SEATS, "each seat's rounds won ÷ rounds_to_win"),
    ("seated", MAX_SEATS, "1 for each seat at the table (seats past the players are 0)"),
    ("to_act", MAX_SEATS, "1 for the seat to act (all 0 at chance, between rounds, at the end)"),
    ("dealer", MAX_SEATS, "1 for the dealer (all 0 before the cut)"),
    ("final_from", MAX_SEATS, "last chance: 1 for the seat whose completion started the "
                              "final cycle (all 0 when no cycle runs)"),
    ("match_winner", MAX_SEATS, "1 for the match winner"),
    ("unclaimed", MAX_SEATS,
     "call-trash: 1 for each seat that completed without calling and claims next turn"),
    ("round_winners", MAX_SEATS, "1 for each seat that won the current round so far"),
    ("phase", len(PHASE_CODES), "one-hot: draw, wild, swap, chance, round over, match over"),
    ("in_hand", CLASSES, "one-hot class of the card in hand (pip 1…10, wild, trash); all 0 "
                         "for none"),
    ("top_discard", CLASSES, "one-hot class of the top discard; all 0 for an empty pile"),
    ("discard_counts", CLASSES, "cards of each class in the discard pile ÷ the match's "
                                "cards of that class (0 when it has none)"),
    ("unseen_counts", CLASSES, "cards of each class not face up on a board, not in the "
                               "discard pile and not in hand ÷ the match's cards of that class"),
    ("stock_known_counts", CLASSES, "cards of each class in the stock when it is known ÷ "
                                    "the match's cards of that class; all 0 when unknown"),
    ("stock_count", 1, "cards in the stock ÷ the match's cards"),
    ("stock_known", 1, "1 once a reshuffle made the stock's cards public this round"),
    ("called", 1, "call-trash: 1 if the seat to act called \"Trash!\" this turn"),
    ("must_play", 1, "1 if the card in hand was taken from the discard pile (it must be played)"),
    ("call_trash_rule", 1, "the rules: 1 if call_trash is on"),
    ("last_chance_rule", 1, "the rules: 1 if last_chance is on"),
    ("start_size", 1, "the rules: start_size ÷ 10"),
    ("rounds_to_win", 1, "the rules: rounds to win the match ÷ 10"),
    ("players", MAX_PLAYERS - MIN_PLAYERS + 1, "one-hot number of players: 2, 3, 4"),
)


def _features() -> tuple[Feature, ...]:
    out, start = [], 0
    for name, size, meaning in _BLOCKS:
        out.append(Feature(name, start, size, meaning))
        start += size
    return tuple(out)


#: The blocks of the observation, in order.
FEATURES: Final = _features()
OBSERVATION_SIZE: Final = FEATURES[-1].start + FEATURES[-1].size
_AT: Final = {f.name: slice(f.start, f.start + f.size) for f in FEATURES}


def feature_slice(name: str) -> slice:
    """Where the block ``name`` lies in an observation."""
    return _AT[name]


# How each float is made from one int ``x = public[source]`` of the encoding: it is a
# constant, or ``x == value`` (one-hot flags), or ``x * scale``, or bit ``value`` of ``x``.
# The recipe depends on the rules and, through the relative seats, on the number of
# players and the viewer; it is built once per (players, viewer) and applied to a batch
# with one gather per kind.
class _Recipe(NamedTuple):
    constant: npt.NDArray[np.float32]  # every float's constant (0 where computed)
    equal: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.int32]]
    scale: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]
    bit: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.int32]]


_ARRANGEMENTS: Final = (MAX_PLAYERS + 1) * MAX_SEATS


class _Float(NamedTuple):
    """One float of the recipe (``equals`` and ``bit_of`` are both kept in ``value``)."""

    source: int = 0
    constant: float = 0.0
    scale: float = 0.0
    equals: int | None = None
    bit_of: int | None = None


def _floats(rules: Rules, players: int, viewer: int) -> list[_Float]:
    """The recipe of every float, in the order of :data:`FEATURES`, for one (players,
    viewer)."""
    totals = class_totals(rules, players)
    seats = [(viewer + j) % players if j < players else None for j in range(MAX_SEATS)]
    nothing = _Float()

    def per_seat(make: Callable[[int], _Float]) -> list[_Float]:
        return [nothing if seat is None else make(seat) for seat in seats]

    def per_class(make: Callable[[int], _Float]) -> list[_Float]:
        return [make(cls) for cls in range(CLASSES)]

    def scaled(start: int) -> list[_Float]:
        return per_class(lambda c: _Float(start + c, scale=1 / totals[c] if totals[c] else 0.0))

    blocks = {
        "slots": [nothing if seat is None else
                  _Float(SLOTS + seat * SLOTS_PER_SEAT + k, equals=code)
                  for seat in seats for k in range(SLOTS_PER_SEAT)
                  for code in (SLOT_DOWN, SLOT_NATURAL, SLOT_WILD)],
        "board_size": per_seat(lambda s: _Float(BOARD_SIZE + s, scale=0.1)),
        "rounds_won": per_seat(lambda s: _Float(ROUNDS_WON + s, scale=1 / rules.target_rounds)),
        "seated": per_seat(lambda s: _Float(constant=1.0)),
        "to_act": per_seat(lambda s: _Float(TO_ACT, equals=s)),
        "dealer": per_seat(lambda s: _Float(DEALER, equals=s)),
        "final_from": per_seat(lambda s: _Float(FINAL_FROM, equals=s)),
        "match_winner": per_seat(lambda s: _Float(MATCH_WINNER, equals=s)),
        "unclaimed": per_seat(lambda s: _Float(UNCLAIMED, bit_of=s)),
        "round_winners": per_seat(lambda s: _Float(ROUND_WINNERS, bit_of=s)),
        "phase": [_Float(PHASE, equals=code) for code in range(len(PHASE_CODES))],
        "in_hand": per_class(lambda c: _Float(IN_HAND, equals=c)),
        "top_discard": per_class(lambda c: _Float(TOP_DISCARD, equals=c)),
        "discard_counts": scaled(DISCARD_COUNTS),
        "unseen_counts": scaled(UNSEEN_COUNTS),
        "stock_known_counts": scaled(STOCK_KNOWN_COUNTS),
        "stock_count": [_Float(STOCK_COUNT, scale=1 / sum(totals))],
        "stock_known": [_Float(STOCK_KNOWN, scale=1.0)],
        "called": [_Float(CALLED, scale=1.0)],
        "must_play": [_Float(MUST_PLAY, scale=1.0)],
        "call_trash_rule": [_Float(constant=float(rules.call_trash))],
        "last_chance_rule": [_Float(constant=float(rules.last_chance))],
        "start_size": [_Float(constant=rules.start_size / 10)],
        "rounds_to_win": [_Float(constant=rules.target_rounds / 10)],
        "players": [_Float(constant=float(count == players))
                    for count in range(MIN_PLAYERS, MAX_PLAYERS + 1)],
    }
    out: list[_Float] = []
    for feature in FEATURES:
        block = blocks.pop(feature.name)
        assert len(block) == feature.size, feature.name
        out.extend(block)
    assert not blocks, f"blocks not in FEATURES: {sorted(blocks)}"
    return out


def _make_recipe(floats: list[_Float]) -> _Recipe:
    def kind(pick: Callable[[_Float], bool], value: Callable[[_Float], float | int],
             dtype: type) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], Any]:
        at = [i for i, f in enumerate(floats) if pick(f)]
        return (np.array(at, dtype=np.intp), np.array([floats[i].source for i in at], np.intp),
                np.array([value(floats[i]) for i in at], dtype=dtype))

    return _Recipe(
        np.array([f.constant for f in floats], dtype=np.float32),
        kind(lambda f: f.equals is not None, lambda f: f.equals or 0, np.int32),
        kind(lambda f: f.scale != 0.0, lambda f: f.scale, np.float64),
        kind(lambda f: f.bit_of is not None, lambda f: f.bit_of or 0, np.int32),
    )


@lru_cache(maxsize=64)
def _recipes(rules: Rules) -> dict[int, _Recipe]:
    """The recipe of each (players, viewer), keyed ``players * 4 + viewer``."""
    return {players * MAX_SEATS + viewer: _make_recipe(_floats(rules, players, viewer))
            for players in range(MIN_PLAYERS, MAX_PLAYERS + 1) for viewer in range(players)}


#: The kinds of :func:`observation_recipe` (the kernel's codes,
#: :data:`trashcards.sim.kernel.vector.OBS_CONSTANT` …).
RECIPE_CONSTANT: Final = 0
RECIPE_EQUAL: Final = 1
RECIPE_SCALE: Final = 2
RECIPE_BIT: Final = 3


@lru_cache(maxsize=64)
def observation_recipe(rules: Rules) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64],
                                              npt.NDArray[np.float64]]:
    """How each float is made, as arrays for the compiled kernel
    (:func:`trashcards.sim.kernel.vector.observation_batch`): ``kinds``, ``sources`` and
    ``params``, each (20, OBSERVATION_SIZE), row ``players * 4 + viewer`` (rows of
    impossible pairs are all constant 0). The same recipe as :func:`observation_batch`."""
    rows = _ARRANGEMENTS
    kinds = np.zeros((rows, OBSERVATION_SIZE), dtype=np.int8)
    sources = np.zeros((rows, OBSERVATION_SIZE), dtype=np.int64)
    params = np.zeros((rows, OBSERVATION_SIZE), dtype=np.float64)
    for players in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for viewer in range(players):
            key = players * MAX_SEATS + viewer
            for f, item in enumerate(_floats(rules, players, viewer)):
                sources[key, f] = item.source
                if item.equals is not None:
                    kinds[key, f], params[key, f] = RECIPE_EQUAL, item.equals
                elif item.bit_of is not None:
                    kinds[key, f], params[key, f] = RECIPE_BIT, item.bit_of
                elif item.scale != 0.0:
                    kinds[key, f], params[key, f] = RECIPE_SCALE, item.scale
                else:
                    kinds[key, f], params[key, f] = RECIPE_CONSTANT, item.constant
    for array in (kinds, sources, params):
        array.flags.writeable = False
    return kinds, sources, params


def observation_batch(public: npt.ArrayLike, rules: Rules) -> npt.NDArray[np.float32]:
    """The observations of ``N`` public encodings (an ``(N, 100)`` int array) under
    ``rules``: an ``(N, OBSERVATION_SIZE)`` float32 array, each row from its viewer's seat."""
    pub = np.asarray(public, dtype=np.int32)
    if pub.ndim != 2 or pub.shape[1] != LENGTH:
        raise ValueError(f"expected an (N, {LENGTH}) array of public encodings, "
                         f"got shape {pub.shape}")
    recipes = _recipes(rules)
    keys = pub[:, PLAYERS] * MAX_SEATS + pub[:, VIEWER]
    out = np.empty((pub.shape[0], OBSERVATION_SIZE), dtype=np.float32)
    if pub.shape[0] and (keys == keys[0]).all():  # the usual batch: one seat of one table
        groups: list[tuple[int, Any]] = [(int(keys[0]), slice(None))]
    else:
        groups = [(int(key), keys == key) for key in np.unique(keys)]
    for key, rows in groups:
        recipe = recipes.get(key)
        if recipe is None:
            raise ValueError("every row needs 2 to 4 players and a viewer seated at the table")
        part = pub[rows]
        values = out[rows] if not isinstance(rows, slice) else out
        values[:] = recipe.constant
        at, source, value = recipe.equal
        values[:, at] = part[:, source] == value
        at, source, scale = recipe.scale
        values[:, at] = part[:, source] * scale
        at, source, value = recipe.bit
        values[:, at] = (part[:, source] >> value) & 1
        if not isinstance(rows, slice):
            out[rows] = values
    return out


def observation(view: View) -> npt.NDArray[np.float32]:
    """The observation of one seat's view: ``(OBSERVATION_SIZE,)`` float32."""
    row: npt.NDArray[np.float32] = observation_batch(
        np.array([public_array(view)], dtype=np.int32), view.rules)[0]
    return row
