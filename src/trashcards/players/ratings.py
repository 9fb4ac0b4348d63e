"""Ratings of players on the levels' scale: Glicko-2 per family of rules, anchored to the
levels' measured Elo (docs/players.md).

* **Anchored.** A computer seat of a level (beginner ``sometimes``, casual ``kid``, good
  ``greedy``, expert ``expert``) is rated at the level's measured Elo
  (:mod:`trashcards.ai.levels`, ``trashcards analyze skill``) with the deviation of its
  95 % interval, and *held fixed*: games against it move the person's rating only. Elo
  and Glicko share the logistic scale (400 points = 10 to 1), so "1600" means "about
  casual" and "1670" "about good". Other bots (``random``, ``counter`` …) are no level:
  a game with one is not rated.
* **Per family.** The levels were measured at two players on standard rules; a family
  groups the rules whose play is alike, by the fields that change it
  (:func:`family_of`): ``standard`` (also Kings or all faces wild, Jokers, last chance),
  ``call-trash``, ``kids`` (boards of 5 or fewer) and ``short`` (fewer than 5 rounds to
  win: classic, first-to-6 and up). A player has one rating per family. The bots keep
  their standard ratings in every family (they were not measured elsewhere).
* **Several players: pairwise.** A table of three or four is rated as every pair of its
  players meeting once, in one rating period: the one who finished ahead (the match's
  winner first, then by rounds won) scores 1, the other 0, equal standings ½ each. So a
  four-player match counts as three results for each player. It is the usual reduction
  of a free-for-all to two-player results (Elo-MMR and Board Game Arena do the same);
  it treats the pairs as independent, which they are not quite.
* **Provisional** while the deviation is over :data:`PROVISIONAL_RD` (110, as
  Lichess), shown with a "?"; the interval shown is the rating ± 2 deviations (95 %).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from ..ai.levels import LEVELS
from ..bots import BOT_PREFIX, bot_kind
from ..rules import Rules
from .glicko2 import Rating, idle, update

__all__ = ["FAMILIES", "NEWCOMER", "PROVISIONAL_RD", "Rating", "Seat", "bot_rating",
           "family_of", "interval", "is_provisional", "rate_table", "shown", "standings",
           "with_idle_days"]

#: The families of rules, each with its own rating.
FAMILIES: Final = ("standard", "call-trash", "kids", "short")
#: A player's rating before the first game of a family.
NEWCOMER: Final = Rating(1500.0, 350.0, 0.06)
#: Above this deviation a rating is provisional.
PROVISIONAL_RD: Final = 110.0
#: Days without a game that count as one rating period (the deviation grows).
IDLE_PERIOD_DAYS: Final = 7.0
#: Boards of at most this many slots are the ``kids`` family.
KIDS_BOARD: Final = 5
#: Fewer rounds to win than this: the ``short`` family.
SHORT_ROUNDS: Final = 5

#: The levels' bots, rated at the levels' Elo with the deviation of their interval.
_LEVEL_RATINGS: Final[Mapping[str, Rating]] = {
    level.bot: Rating(level.elo, (level.high - level.low) / (2 * 1.96), 0.0)
    for level in LEVELS}


def family_of(rules: Rules) -> str:
    """The family of ``rules`` (one of :data:`FAMILIES`), by the fields that change the
    play: calling "Trash!", short boards, few rounds to win; anything else standard."""
    if rules.call_trash:
        return "call-trash"
    if rules.start_size <= KIDS_BOARD:
        return "kids"
    if rules.target_rounds < SHORT_ROUNDS:
        return "short"
    return "standard"


def bot_rating(name: str) -> Rating | None:
    """The fixed rating of a computer seat named ``name`` (``bot:greedy``, ``greedy``),
    or ``None`` when it is no level's bot (its games are not rated)."""
    try:
        kind = bot_kind(name) if name.startswith(BOT_PREFIX) else name
    except ValueError:
        return None
    return _LEVEL_RATINGS.get(kind) if kind is not None else None


def is_provisional(rating: Rating) -> bool:
    return rating.rd > PROVISIONAL_RD


def interval(rating: Rating) -> tuple[int, int]:
    """The 95 % interval shown: the rating ± 2 deviations, rounded."""
    return round(rating.rating - 2 * rating.rd), round(rating.rating + 2 * rating.rd)


def shown(rating: Rating) -> str:
    """``"1612 (1490–1734)"``, with ``?`` after a provisional rating."""
    low, high = interval(rating)
    mark = "?" if is_provisional(rating) else ""
    return f"{rating.rating:.0f}{mark} ({low}–{high})"


def with_idle_days(rating: Rating, days: float) -> Rating:
    """The rating after ``days`` without a game: one rating period per
    :data:`IDLE_PERIOD_DAYS`, the deviation growing (at most to a newcomer's)."""
    return idle(rating, days / IDLE_PERIOD_DAYS, NEWCOMER.rd)


def standings(rounds_won: Sequence[int], winner: int | None) -> list[int]:
    """Each seat's place (0 the best): the match's winner first, then by rounds won;
    equal seats share a place."""
    keys = [(seat == winner, won) for seat, won in enumerate(rounds_won)]
    return [sum(other > mine for other in keys) for mine in keys]


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat of a finished match for rating: its rating before the match and whether it
    is held fixed (a level's bot)."""

    rating: Rating
    fixed: bool = False


def rate_table(seats: Sequence[Seat], places: Sequence[int]) -> list[Rating]:
    """Every seat's rating after the match, with ``places`` from :func:`standings`: a
    fixed seat keeps its rating, any other is updated with one result against each
    other seat (pairwise, in one rating period)."""
    if len(seats) != len(places):
        raise ValueError(f"{len(seats)} seats but {len(places)} places")
    out = []
    for me, seat in enumerate(seats):
        if seat.fixed:
            out.append(seat.rating)
            continue
        results = [(other.rating, _score(places[me], places[them]))
                   for them, other in enumerate(seats) if them != me]
        out.append(update(seat.rating, results))
    return out


def _score(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else 0.0 if mine > theirs else 0.5
