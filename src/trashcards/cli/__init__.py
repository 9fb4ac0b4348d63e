"""The ``trashcards`` command line. Each command lives in its own module of this package
and is imported only when it runs, so ``trashcards --help`` stays fast and a command's
dependencies (rich, the web server, numba) load only for that command.

Every command ends the same way on Ctrl-C (one line, exit status 130, the shell's
convention) and on a missing optional dependency (one line naming it and the extra that
installs it, exit status 1): never with a traceback."""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click

__all__ = ["main"]

#: command name -> (module, attribute, one-line help)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "play": ("trashcards.cli.play", "play", "Play Trash in the terminal against bots or hot-seat."),
    "serve": ("trashcards.cli.serve", "serve", "Serve the browser game (online tables, bots)."),
    "build-static": ("trashcards.cli.static", "build_static_command", "Write the browser "
                     "app as static files (installable, plays offline)."),
    "export": ("trashcards.cli.export", "export", "Save the game records of a server's "
                                                  "database as files."),
    "import": ("trashcards.cli.restore", "import_records", "Put exported game records back "
                                                           "into a server's database."),
    "replay": ("trashcards.cli.replay", "replay", "Replay a game record and show the position."),
    "hint": ("trashcards.cli.hint", "hint_command", "The best move after a record, with "
                                                    "every move's win chances."),
    "review": ("trashcards.cli.review", "review_command", "Review every decision of a record: "
                                                 "mistakes, small losses, luck."),
    "simulate": ("trashcards.cli.simulate", "simulate", "Play many bot matches; print stats."),
    "analyze": ("trashcards.cli.analyze", "analyze", "Run a strategy-lab experiment; "
                                                      "write a report."),
    "arena": ("trashcards.cli.arena", "arena", "Rate an agent against the levels: Elo and "
                                               "win rates."),
    "profile": ("trashcards.cli.profile", "profile_command", "Your profile: matches, "
                "results, streaks, rating; export or import it."),
    "bots": ("trashcards.cli.info", "bots", "List the bots."),
    "presets": ("trashcards.cli.info", "presets", "List the presets and variants."),
}


#: The extra of pyproject.toml that installs each optional top-level module.
EXTRAS: dict[str, str] = {
    **dict.fromkeys(("numba", "numpy", "matplotlib", "ray", "llvmlite"), "sim"),
    **dict.fromkeys(("starlette", "uvicorn", "websockets", "pydantic", "platformdirs",
                     "httpx", "psycopg", "psycopg_pool", "webauthn", "argon2"), "web"),
    **dict.fromkeys(("gymnasium", "pettingzoo", "pyspiel", "open_spiel"), "envs"),
    **dict.fromkeys(("torch", "sb3_contrib", "stable_baselines3"), "train"),
}
#: Exit status after Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


def missing_dependency(exc: ImportError) -> str:
    """One line for an optional dependency that is not installed, in the one form every
    command uses: ``MODULE is not installed: pip install 'trashcards[EXTRA]'`` (the
    module is the error's own, or the one it was raised from)."""
    for error in (exc, exc.__cause__, exc.__context__):
        if isinstance(error, ImportError):
            top = (error.name or "").split(".")[0]
            if top in EXTRAS:
                return f"{top} is not installed: pip install 'trashcards[{EXTRAS[top]}]'"
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return f"{text} (a broken installation? pip install --force-reinstall trashcards)"


def _stop(ctx: click.Context, line: str, status: int) -> NoReturn:
    command = ctx.meta.get("trashcards.command")
    click.echo(f"trashcards {command}: {line}" if command else f"trashcards: {line}", err=True)
    sys.exit(status)


class LazyGroup(click.Group):
    """A group whose commands are imported on first use; Ctrl-C and a missing optional
    dependency end any command with one line (see the module)."""

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        name, command, rest = super().resolve_command(ctx, args)
        ctx.meta["trashcards.command"] = name
        return name, command, rest

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            _stop(ctx, "interrupted", INTERRUPTED)
        except click.exceptions.Abort as exc:  # click's prompts turn Ctrl-C into Abort
            if isinstance(exc.__context__, KeyboardInterrupt | EOFError):
                _stop(ctx, "interrupted", INTERRUPTED)
            raise
        except ImportError as exc:
            _stop(ctx, missing_dependency(exc), 1)

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
