"""``trashcards profile``: show, export or import the local profile of ``trashcards
play`` (the file the browser's "Export" writes imports here too)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..players.profile import Profile, ProfileError, load, save
from .profiles import default_profile_path, describe
from .records import fail

__all__ = ["profile_command"]


@click.command("profile")
@click.option("--profile", "path", type=click.Path(dir_okay=False, path_type=Path),
              help="The profile file (default: profile.json in your data folder).")
@click.option("--export", "export_to", type=click.Path(dir_okay=False, path_type=Path),
              help="Write the profile to this file (for another device or the browser).")
@click.option("--import", "import_from", type=click.Path(dir_okay=False, exists=True,
                                                          path_type=Path),
              help="Add the matches of a profile file (exported here or from the browser) "
                   "that this profile does not have.")
@click.option("--name", help="Change the profile's name.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary and ratings as JSON.")
def profile_command(path: Path | None, export_to: Path | None, import_from: Path | None,
                    name: str | None, as_json: bool) -> None:
    """Show your profile: matches, results by level, preset and number of players,
    streaks, and your rating per family of rules (with its 95 % interval; a "?" marks a
    provisional rating). Matches of `trashcards play` are recorded in it."""
    path = path or default_profile_path()
    try:
        profile = load(path)
        changed = False
        if import_from is not None:
            other = Profile.loads(import_from.read_bytes())
            added = profile.merge(other)
            changed = True
            click.echo(f"imported {added} match(es) from {import_from}")
        if name is not None:
            from ..names import check_name

            profile.name = check_name(name)
            changed = True
        if changed:
            save(profile, path)
        if export_to is not None:
            save(profile, export_to)
            click.echo(f"wrote {export_to}")
    except (ProfileError, ValueError) as exc:
        fail(str(exc))
    except OSError as exc:
        fail(f"cannot read {import_from}: {exc.strerror}")
    if as_json:
        ratings = {family: {"rating": r.rating, "rd": r.rd, "volatility": r.volatility}
                   for family, r in profile.ratings().items()}
        click.echo(json.dumps({"name": profile.name, **profile.summary(), "ratings": ratings}))
    else:
        for line in describe(profile):
            click.echo(line)
