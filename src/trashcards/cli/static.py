"""``trashcards build-static``: the browser app as plain files for any static host."""

from __future__ import annotations

from pathlib import Path

import click

__all__ = ["build_static_command"]


@click.command("build-static")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path))
@click.option("--server", default="", metavar="URL",
              help="The 'trashcards serve' that plays online tables, e.g. "
                   "https://trash.example.org (start it with --allow-origin for this "
                   "host). Default: the pages' own origin.")
@click.option("--force", is_flag=True,
              help="Also replace the files of an earlier build that were changed since "
                   "(never a file a build did not write).")
def build_static_command(directory: Path, server: str, force: bool) -> None:
    """Write the whole browser app to DIRECTORY as static files (pages, scripts, styles,
    catalogs, icons, the service worker and the manifest).

    Serve DIRECTORY from any static host, at its root or under any path: every address
    in the pages is relative, so a GitHub Pages project site
    (https://user.github.io/REPO/) works as a custom domain does. The app installs and
    plays "On this device" tables offline with no Python server. Online tables need
    'trashcards serve': the same origin, or --server.

    DIRECTORY must be new (in a folder that exists), empty (hidden entries such as .git
    aside) or an earlier build: a build replaces only what an earlier one wrote
    (listed in DIRECTORY/.trashcards-files.json), never follows a link inside
    DIRECTORY, and refuses anything else before writing a file.
    """
    from ..files import OutputError
    from ..web.offline import build_static
    from ..web.settings import Settings
    from .records import fail

    try:
        settings = Settings()
        written = build_static(settings.static_dir, settings.templates_dir, directory, server,
                               force)
    except OutputError as exc:
        fail(str(exc))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {directory}: {exc}") from None
    click.echo(f"wrote {len(written)} files to {directory}")
