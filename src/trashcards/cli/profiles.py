"""The terminal's profile: where it lives and how a finished match goes into it (for
``trashcards play`` and ``trashcards profile``)."""

from __future__ import annotations

import secrets
import time
from collections.abc import Sequence
from pathlib import Path

import platformdirs

from ..names import printable
from ..players.profile import Game, Profile, ProfileError, load, save
from ..players.ratings import shown
from ..state import State

__all__ = ["default_profile_path", "describe", "remember"]


def default_profile_path() -> Path:
    """``<user data dir>/trashcards/profile.json``."""
    return Path(platformdirs.user_data_dir("trashcards", appauthor=False)) / "profile.json"


def remember(path: Path, state: State, names: Sequence[str],
             people: Sequence[bool]) -> list[str]:
    """Record a finished match in the profile at ``path`` when one person played it (a
    hot-seat match is nobody's alone); returns the lines to show: the family's rating
    now, or why the profile could not be written (the match itself is not lost: it was
    played, and saved where --save said)."""
    if state.match_winner is None or sum(people) != 1:
        return []
    me = list(people).index(True)
    game = Game(f"terminal-{secrets.token_hex(6)}", time.time(), "terminal",
                state.rules.to_dict(), tuple(names), me, tuple(state.rounds_won),
                state.match_winner)
    try:
        profile = load(path)
        if profile.name == "You" and names[me] != "You":
            profile.name = names[me]
        profile.add(game)
        save(profile, path)
    except ProfileError as exc:
        return [f"note: the match is not in your profile: {exc}"]
    if not game.rated:
        return [f"Recorded in your profile ({path}); not rated: only matches against the "
                "levels' bots are rated here."]
    rating = profile.ratings()[game.family]
    return [f"Your {game.family} rating: {shown(rating)} — profile {path}"]


def describe(profile: Profile) -> list[str]:
    """The profile for people: name, games, streaks, results, ratings."""
    summary = profile.summary()
    lines = [f"{printable(profile.name)}: {summary['games']} matches, {summary['won']} won; "
             f"winning streak {summary['streak']} (best {summary['best_streak']})"]
    for family, rating in sorted(profile.ratings().items()):
        lines.append(f"  rating, {family}: {shown(rating)}")
    for title, key in (("against level", "by_level"), ("preset", "by_preset"),
                       ("players", "by_players")):
        for name, tally in sorted(summary[key].items()):
            lines.append(f"  {title} {printable(name)}: {tally['won']} won, "
                         f"{tally['drawn']} drawn, {tally['lost']} lost")
    return lines
