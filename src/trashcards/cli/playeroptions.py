"""``trashcards serve``'s options for the players' settings
(:class:`trashcards.web.sessions.PlayerSettings`: accounts, sign-in limits, passkeys,
ratings, Play now, habits and their comparison, leaderboards; docs/players.md,
"Serving players"). One row per field: its flag, its unit on the command line, the
values it takes and its help; the defaults are the dataclass's, the one place they
live."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

import click

__all__ = ["OPTIONS", "player_options", "player_values"]

F = TypeVar("F", bound=Callable[..., Any])

#: A passkeys' relying party id: a host name (letters, digits, hyphens, dots).
_HOST: Final = re.compile(r"(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)*"
                          r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?", re.IGNORECASE)


def _defaults() -> dict[str, Any]:
    try:
        from ..web.sessions import PlayerSettings
    except ImportError:  # pragma: no cover - the web extra is missing: serve says so
        return {}
    return {f.name: f.default for f in dataclasses.fields(PlayerSettings)}


_DEFAULT: Final = _defaults()


@dataclass(frozen=True)
class Option:
    """One player setting on the command line: ``--flag VALUE`` is the field's value
    times ``scale`` (minutes to seconds: 60)."""

    field: str
    flag: str
    #: a click type (its range is the check), or ``str`` with ``check``
    type: Any
    metavar: str
    help: str
    scale: float = 1.0
    check: Callable[[str], Any] | None = None

    @property
    def param(self) -> str:
        return "players_" + self.field

    def default(self) -> Any:
        value = _DEFAULT.get(self.field)
        if value is None or value == () or self.scale == 1.0:
            return value or None
        return value / self.scale


def _positive() -> click.FloatRange:
    return click.FloatRange(min=0, min_open=True)


def _host(value: str) -> str:
    text = value.strip().lower()
    if not _HOST.fullmatch(text):
        raise click.BadParameter(f"{value!r} is not a host name (example.org)")
    return text


def _text(value: str) -> str:
    text = value.strip()
    if not 1 <= len(text) <= 64 or not text.isprintable():
        raise click.BadParameter("1 to 64 printable characters")
    return text


def _block_list(path: str) -> tuple[str, ...]:
    """The words or phrases of a block-list file: one a line, ``#`` starts a comment."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise click.BadParameter(f"cannot read {path}: {exc}") from None
    words = tuple(dict.fromkeys(
        " ".join(line.split("#", 1)[0].split()) for line in text.splitlines()))
    found = tuple(word for word in words if word)
    too_long = [word for word in found if len(word) > 64]
    if too_long:
        raise click.BadParameter(f"{path}: a blocked word is at most 64 characters "
                                 f"({too_long[0][:20]!r}…)")
    return found


#: The players' settings ``serve`` takes, in the order of its help.
OPTIONS: Final = (
    Option("session_days", "--session-days", _positive(), "DAYS",
           "Days a sign-in lasts on a device."),
    Option("login_rate", "--login-rate", _positive(), "N",
           "Sign-in attempts (password or passkey) per minute per client address; more "
           "are answered 429."),
    Option("signup_rate", "--signup-rate", _positive(), "N",
           "Accounts made per minute per client address; more are answered 429."),
    Option("account_failures", "--account-failures", click.IntRange(1), "N",
           "Wrong passwords in a row (from any address) that lock an account's password."),
    Option("lockout", "--lockout", _positive(), "MINUTES",
           "Minutes a locked password stays locked (a passkey still signs in).", 60.0),
    Option("challenge_ttl", "--passkey-timeout", _positive(), "SECONDS",
           "Seconds a passkey sign-up or sign-in may take."),
    Option("rp_name", "--passkey-name", str, "TEXT",
           "The name of this site that passkeys show.", check=_text),
    Option("rp_id", "--passkey-domain", str, "HOST",
           "The passkeys' relying party, a domain name (example.org) that every page is "
           "served under [default: the host each page was served from].", check=_host),
    Option("rate_interval", "--rate-interval", _positive(), "SECONDS",
           "Seconds between two looks for finished rated games (a new rating's delay)."),
    Option("active_days", "--active-days", _positive(), "DAYS",
           "A player is on the leaderboards while their last rated game is this recent."),
    Option("pair_interval", "--pair-interval", _positive(), "SECONDS",
           "Play now: seconds between two matchings of the waiting requests."),
    Option("pair_window", "--pair-window", click.FloatRange(0), "POINTS",
           "Play now: the rating window a request starts with."),
    Option("pair_widen", "--pair-widen", click.FloatRange(0), "POINTS",
           "Play now: rating points the window widens by per second of waiting."),
    Option("bot_wait", "--bot-wait", click.FloatRange(0, 600), "SECONDS",
           "Play now: the default wait for people before the computer is offered."),
    Option("pair_stale", "--pair-stale", _positive(), "SECONDS",
           "Play now: a request nobody asks about for this long leaves the pool."),
    Option("habit_interval", "--habit-interval", _positive(), "SECONDS",
           "Habits: seconds between two looks for finished games of accounts to review."),
    Option("habit_samples", "--habit-samples", click.IntRange(8, 10_000), "N",
           "Habits: deals sampled per decision when a finished game is reviewed."),
    Option("peer_band", "--peer-band", click.FloatRange(10, 1000), "POINTS",
           "Habits: the width of the rating bands a player is compared with."),
    Option("peer_min_players", "--peer-min-players", click.IntRange(2), "N",
           "Habits: other players a band needs before its figures are shown."),
    Option("peer_min_games", "--peer-min-games", click.IntRange(1), "N",
           "Habits: reviewed rated games a band needs before its figures are shown."),
    Option("peer_refresh", "--peer-refresh", click.FloatRange(0), "SECONDS",
           "Habits: seconds the bands are kept before they are read again."),
    Option("max_profile", "--max-profile", click.IntRange(1024), "BYTES",
           "The largest profile an account keeps."),
    Option("blocked_names", "--block-list", click.Path(exists=True, dir_okay=False), "FILE",
           "More words or phrases no player's name may hold as a word, one a line ('#' "
           "starts a comment), besides the built-in list.", check=_block_list),
)


def _checked(check: Callable[[str], str] | None) -> Any:
    """A click callback that runs ``check`` on a value given."""
    if check is None:
        return None

    def callback(_ctx: click.Context, _param: click.Parameter, value: Any) -> Any:
        return None if value is None else check(str(value))
    return callback


def player_options(function: F) -> F:
    """``function`` (a click command) with every :data:`OPTIONS` option."""
    for option in reversed(OPTIONS):
        default = option.default()
        function = click.option(option.flag, option.param, type=option.type,
                                default=default, show_default=default is not None,
                                metavar=option.metavar, help=option.help,
                                callback=_checked(option.check))(function)
    return function


def player_values(given: dict[str, Any]) -> dict[str, Any]:
    """The :class:`PlayerSettings` fields of the options' values (``players_…``)."""
    values: dict[str, Any] = {}
    for option in OPTIONS:
        value = given[option.param]
        if value is None:  # not given, and no default to show: the dataclass's
            values[option.field] = _DEFAULT[option.field]
            continue
        values[option.field] = value * option.scale if option.scale != 1.0 else value
    return values
