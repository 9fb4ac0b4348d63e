"""``trashcards bots`` and ``trashcards presets``: what there is to choose from."""

from __future__ import annotations

import click

from .. import ai  # noqa: F401  (importing it registers the expert bot)
from ..bots import BOTS
from ..rules import PRESETS, Rules

__all__ = ["bots", "presets"]


@click.command()
def bots() -> None:
    """List the bots and how they play."""
    for name, (_factory, description) in BOTS.items():
        click.echo(f"{name:10} {description}")


@click.command()
def presets() -> None:
    """List the presets and variants with the rules they set."""
    for name in PRESETS:
        example = "first-to-5" if name == "first-to-N" else name
        click.echo(f"{name:15} {Rules.preset_named(example).describe()}")
