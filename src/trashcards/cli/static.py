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
def build_static_command(directory: Path, server: str) -> None:
    """Write the whole browser app to DIRECTORY as static files (pages, scripts, styles,
    catalogs, icons, the service worker and the manifest).

    Serve DIRECTORY from any static host, at its root or under any path: every address
    in the pages is relative, so a GitHub Pages project site
    (https://user.github.io/REPO/) works as a custom domain does. The app installs and
    plays "On this device" tables offline with no Python server. Online tables need
    'trashcards serve': the same origin, or --server.
    """
    from ..web.offline import build_static
    from ..web.settings import Settings

    try:
        settings = Settings()
        written = build_static(settings.static_dir, settings.templates_dir, directory, server)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {directory}: {exc}") from None
    click.echo(f"wrote {len(written)} files to {directory}")
