"""A position for people, as ``trashcards replay`` prints it: the table as a spectator
sees it (the terminal game's rendering), and with ``--reveal`` the hidden cards too."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..state import State
from ..tui.render import card_text, standings_table, table_view
from ..views import view

__all__ = ["render_position"]


def render_position(state: State, reveal: bool, title: str, console: Console | None = None) -> None:
    """Print the position; ``reveal`` adds each board's face-down cards and the stock."""
    console = console or Console(highlight=False)
    v = view(state)
    console.print(Text(f"Position {title}", style="bold underline"))
    console.print(table_view(v))
    if v.legal:
        console.print(Text("Legal: " + ", ".join(str(a) for a in v.legal)))
    if reveal:
        console.print(Text("Hidden cards (revealed):", style="bold"))
        for player, board in zip(v.players, state.boards, strict=True):
            line = Text(f"  {player.name}: ")
            for slot, (card, up) in enumerate(zip(board.cards, board.up, strict=True), 1):
                if not up:
                    line.append(f"{slot}=")
                    line.append_text(card_text(card, state.rules))
                    line.append(" ")
            console.print(line)
        stock = Text("  stock, top first: ")
        for card in state.stock:
            stock.append_text(card_text(card, state.rules))
            stock.append(" ")
        console.print(stock)
    if v.standings is not None:
        console.print(standings_table(v))
