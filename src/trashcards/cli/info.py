"""``trashcards bots`` and ``trashcards presets``: what there is to choose from."""

from __future__ import annotations

import click

from ..ai.levels import LEVELS
from ..bots import BOTS
from ..rules import PRESETS, Rules
from . import registered  # noqa: F401  (every bot by name)

__all__ = ["bots", "presets"]

#: The bots the fast (numba) kernel has; the others play on the reference engine only.
#: A test checks this against the kernel's own list (trashcards.sim.tables.BOT_CODES).
FAST_BOTS = frozenset({"random", "greedy", "counter", "kid", "sometimes", "stockonly"})


@click.command()
def bots() -> None:
    """List the bots: how each plays, the engines it runs on (`simulate --engine`), and
    the level it plays in the games with its Elo (95 % interval; docs/analysis/skill)."""
    levels = {level.bot: level for level in LEVELS}
    click.echo(f"{'bot':10} {'simulate on':17} {'level':9} {'Elo':11} how it plays")
    for name, (_factory, description) in BOTS.items():
        engines = "fast, reference" if name in FAST_BOTS else "reference only"
        level = levels.get(name)
        elo = (f"{level.elo:.0f} ± {(level.high - level.low) / 2:.0f}"
               if level is not None else "-")
        click.echo(f"{name:10} {engines:17} {level.name if level else '-':9} {elo:11} "
                   f"{description}")
    click.echo("simulate on: the engines of `simulate --engine` (a 'reference only' bot "
               "makes simulate use the reference engine).")
    click.echo("level: what the games offer (`play --level`, the browser's seats); Elo from "
               "`trashcards analyze skill`, two players, standard rules.")


@click.command()
def presets() -> None:
    """List the presets and variants with the rules they set."""
    for name in PRESETS:
        if name == "first-to-N":  # N is a board size: the first down to N slots wins
            click.echo(f"{name:15} the first player down to a board of N slots wins "
                       f"(N = 1…9), e.g. {Rules.preset_named('first-to-3').describe()}")
            continue
        click.echo(f"{name:15} {Rules.preset_named(name).describe()}")
