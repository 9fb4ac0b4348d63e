"""The ``trashcards`` command line. Each command lives in its own module of this package
and is imported only when it runs, so ``trashcards --help`` stays fast and a command's
dependencies (rich, the web server, numba) load only for that command."""

from __future__ import annotations

import importlib
from typing import Any

import click

__all__ = ["main"]

#: command name -> (module, attribute, one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "play": ("trashcards.cli.play", "play", "Play Trash in the terminal against bots or hot-seat."),
    "serve": ("trashcards.cli.serve", "serve", "Serve the browser game (online tables, bots)."),
    "export": ("trashcards.cli.export", "export", "Save the game records of a server's "
                                                  "database as files."),
    "import": ("trashcards.cli.restore", "import_records", "Put exported game records back "
                                                           "into a server's database."),
    "replay": ("trashcards.cli.replay", "replay", "Replay a game record and show the position."),
    "hint": ("trashcards.cli.hint", "hint_command", "The best move after a record, with "
                                                    "every move's win chances."),
    "review": ("trashcards.cli.review", "review_command", "Review every decision of a record: "
                                                 "mistakes, accuracy, luck."),
    "simulate": ("trashcards.cli.simulate", "simulate", "Play many bot matches; print stats."),
    "analyze": ("trashcards.cli.analyze", "analyze", "Run a strategy-lab experiment; "
                                                      "write a report."),
    "arena": ("trashcards.cli.arena", "arena", "Rate an agent against the levels: Elo and "
                                               "win rates."),
    "bots": ("trashcards.cli.info", "bots", "List the bots."),
    "presets": ("trashcards.cli.info", "presets", "List the presets and variants."),
}


class LazyGroup(click.Group):
    """A group whose commands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(entry[0])
        command: click.Command = getattr(module, entry[1])
        return command

    def format_commands(self, ctx: click.Context, formatter: Any) -> None:
        rows = [(name, help_text) for name, (_m, _a, help_text) in COMMANDS.items()]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="trashcards")
def main() -> None:
    """Trash (also called Garbage or Ten): play it, replay records, simulate bots."""
