"""A position for people, as ``trashcards replay`` prints it (rich text)."""

from __future__ import annotations

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from ..cards import Card
from ..rules import WILD
from ..state import State
from ..views import view

__all__ = ["render_position"]


def _card_text(card: Card | None, up: bool, wild: bool) -> Text:
    if card is None:
        return Text("[##]", style="blue")
    label = card.pretty()
    style = "red" if card.suit in ("h", "d") else "bold"
    if not up:
        return Text(f"({label})", style="dim")
    if wild:
        return Text(f"{label}*", style=f"{style} reverse")
    return Text(label, style=style)


def render_position(state: State, reveal: bool, title: str, console: Console | None = None) -> None:
    """Print every board (two rows of five), the discard pile, the stock and the turn.

    With ``reveal``, face-down cards are shown in parentheses and the stock is listed.
    """
    console = console or Console()
    v = view(state)
    roles = state.rules.roles()
    panels = []
    for seat, player in enumerate(v.players):
        board = state.boards[seat]
        grid = Table.grid(padding=(0, 1))
        for _ in range(5):
            grid.add_column(justify="center", min_width=5)
        cells = []
        for k in range(player.board_size):
            card: Card | None = player.slots[k] if k < len(player.slots) else None
            up = card is not None
            if reveal and k < len(board.cards):
                card, up = board.cards[k], board.up[k]
            cells.append(_card_text(card, up, card is not None and up and roles[card] == WILD))
        for row in range(0, len(cells), 5):
            grid.add_row(*cells[row:row + 5])
        marks = []
        if seat == v.dealer:
            marks.append("dealer")
        if seat == v.to_act:
            marks.append("to act")
        if seat in v.round_winners:
            marks.append("won the round")
        if seat == v.match_winner:
            marks.append("WON THE MATCH")
        heading = (f"{seat}: {player.name} — rounds won {player.rounds_won}, "
                   f"board {player.board_size}" + (f" ({', '.join(marks)})" if marks else ""))
        panels.append(Panel(grid, title=heading, title_align="left"))
    top = v.top_discard.pretty() if v.top_discard else "—"
    lines = [
        f"Round {v.round} · phase {v.phase.value} · {state.rules.describe()}",
        f"Discard: {top} (pile of {len(v.discard)}) · stock: {v.stock_count} cards",
    ]
    if v.in_hand is not None:
        lines.append(f"In hand: {v.in_hand.pretty()}")
    if v.legal:
        lines.append("Legal: " + ", ".join(str(a) for a in v.legal))
    if reveal:
        lines.append("Stock (top first): " + " ".join(c.pretty() for c in state.stock))
    if v.standings is not None:
        lines.append("Standings: " + ", ".join(
            f"{place}. {v.players[seat].name}" for seat, place in
            sorted(enumerate(v.standings), key=lambda item: item[1])))
    console.print(Panel(Group(*panels, Text("\n".join(lines))), title=title))
