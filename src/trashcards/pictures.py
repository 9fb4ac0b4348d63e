"""Pictures of a match made with rich from a :class:`~trashcards.views.View`, shared by the
terminal game (:mod:`trashcards.tui`) and the environments' ``render_mode="ansi"``
(:mod:`trashcards.envs`): the table, its boards and cards, and what is pending in words.

Pure functions: a view in, a rich renderable (or plain text) out, nothing printed. They
see only views, so a face-down card cannot be shown — the view does not hold it. A board
is two rows of five (slots 1–5, then 6–10, RULES.md §3); a face-down card is a back
``░░░``; a wild on the board is marked ``*`` (any face-up card whose role is wild under
the rules); a Joker is 🃏. Imports only the core and rich.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Final

from rich.console import Console, Group, RenderableType
from rich.text import Text

from .cards import Card
from .rules import WILD, Rules
from .views import PlayerView, View

__all__ = ["BACK", "BOARD_ROW", "JOKER", "TEXT_WIDTH", "WILD_MARK", "Persons", "board_text",
           "card_text", "is_wild", "last_chance_left", "plural", "status_lines",
           "table_header", "table_text", "table_view"]

#: How a face-down card looks.
BACK: Final = "░░░"
#: The mark after a wild card on a board.
WILD_MARK: Final = "*"
#: How a Joker looks (in sentences it is "Joker").
JOKER: Final = "🃏"
_CELL: Final = 6
#: Slots per row of a board's picture.
BOARD_ROW: Final = 5
#: Columns of the plain-text picture (:func:`table_text`).
TEXT_WIDTH: Final = 80


def plural(count: int, word: str) -> str:
    """``1 card``, ``2 cards``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def is_wild(card: Card, rules: Rules) -> bool:
    return rules.roles()[card] == WILD


def card_text(card: Card | None, rules: Rules, *, on_board: bool = False) -> Text:
    """One card for people: ``7♥`` (red suits in red), a back for ``None``, 🃏 for a
    Joker; on a board a wild gets the ``*`` mark."""
    if card is None:
        return Text(BACK, style="blue")
    face = JOKER if card.is_joker else card.pretty()
    if on_board and is_wild(card, rules):
        return Text(face + WILD_MARK, style="bold magenta")
    return Text(face, style="red" if card.suit in ("h", "d") else "")


def _cells(items: Sequence[Text]) -> Text:
    line = Text()
    for item in items:
        pad = _CELL - item.cell_len
        line.append(" " * (pad // 2))
        line.append_text(item)
        line.append(" " * (pad - pad // 2))
    line.rstrip()
    return line


def board_text(player: PlayerView, rules: Rules) -> Text:
    """The board as two rows of five: slot numbers above the cards; a smaller board
    shows only its slots; before the first deal it says so."""
    if not player.slots:
        return Text(f"  (board of {player.board_size}, not dealt yet)", style="dim")
    lines: list[Text] = []
    for start in range(0, len(player.slots), BOARD_ROW):
        row = player.slots[start:start + BOARD_ROW]
        lines.append(_cells([Text(str(start + k + 1), style="dim")
                             for k in range(len(row))]))
        lines.append(_cells([card_text(card, rules, on_board=True) for card in row]))
    return Text("\n").join(lines)


def _player_title(view: View, seat: int, note: str = "") -> Text:
    player = view.players[seat]
    title = Text(player.name, style="bold")
    if note:
        title.append(f" ({note})")
    target = view.rules.target_rounds
    title.append(f" — rounds won {player.rounds_won} of {target} · board {player.board_size}"
                 f" · {player.face_down} face down")
    if seat == view.dealer:
        title.append(" · dealer")
    if view.to_act == seat:
        title.append("  ◀ to act", style="bold green")
    if view.seat == seat and player.name.casefold() != "you":  # not "You … (you)"
        title.append("  (you)", style="cyan")
    return title


def table_header(view: View) -> Text:
    """One line: round, dealer, stock count, top discard and pile size, the rules."""
    top = view.top_discard
    discard = (Text("empty") if top is None
               else Text.assemble(card_text(top, view.rules),
                                     f" (pile of {plural(len(view.discard), 'card')})"))
    header = Text.assemble(
        (f"Round {view.round}", "bold"),
        f" · stock {plural(view.stock_count, 'card')} · discard ", discard,
        (f"\n{view.rules.describe()}", "dim"),
    )
    if view.to_act is not None:
        turn = ("Your turn" if view.to_act == view.seat
                else f"{view.players[view.to_act].name} to act")
        header.append(f"\n{turn}", style="bold green")
        if view.in_hand is not None:
            header.append(" — in hand: ")
            header.append_text(card_text(view.in_hand, view.rules))
            if is_wild(view.in_hand, view.rules):
                header.append(" (wild)")
            if view.must_play:
                header.append(" (from the discard pile: it must be played)")
        if view.called:
            header.append(' — called "Trash!"')
    for line in status_lines(view, view.seat):
        header.append(f"\n{line}", style="yellow")
    return header


def table_view(view: View, notes: Sequence[str] = ()) -> RenderableType:
    """The whole table as ``view`` sees it: the header, then every board; ``notes[seat]``
    follows the seat's name (in the terminal game, a bot's level and Elo)."""
    parts: list[RenderableType] = [table_header(view)]
    for seat in range(len(view.players)):
        parts.append(Text(""))
        parts.append(_player_title(view, seat, notes[seat] if seat < len(notes) else ""))
        parts.append(board_text(view.players[seat], view.rules))
    return Group(*parts)


def table_text(view: View, width: int = TEXT_WIDTH) -> str:
    """:func:`table_view` as plain text, ``width`` columns, no colours."""
    buffer = io.StringIO()
    console = Console(file=buffer, width=width, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False)
    console.print(table_view(view))
    return buffer.getvalue()


class Persons:
    """Who is who in a sentence: ``you`` in the second person, the others by name."""

    def __init__(self, names: Sequence[str], you: int | None) -> None:
        self.names = names
        self.you = you

    def subject(self, seat: int) -> str:
        return "You" if seat == self.you else self.names[seat]

    def object(self, seat: int) -> str:
        return "you" if seat == self.you else self.names[seat]

    def possessive(self, seat: int, start: bool = True) -> str:
        if seat == self.you:
            return "Your" if start else "your"
        return f"{self.names[seat]}'s"

    def verb(self, seat: int, third: str, second: str) -> str:
        """``third`` (``wins``) for a name, ``second`` (``win``) for you."""
        return second if seat == self.you else third


def last_chance_left(view: View) -> tuple[int, ...]:
    """The seats still to play their one more turn of a last-chance lap, in turn order
    (``()`` when no lap is on)."""
    if view.final_from is None or view.to_act is None:
        return ()
    players = len(view.players)
    seats: list[int] = []
    seat = view.to_act
    while seat != view.final_from and len(seats) < players:
        seats.append(seat)
        seat = (seat + 1) % players
    return tuple(seats)


def status_lines(view: View, you: int | None = None) -> list[str]:
    """What is pending besides the turn itself: a claim waiting for its turn
    (call-trash, RULES.md §9) and the last-chance lap, in words for people."""
    names = [player.name for player in view.players]
    who = Persons(names, you)
    lines: list[str] = []
    for seat in view.unclaimed:
        board = "your" if seat == you else "the"
        claims = f"{who.object(seat)} {who.verb(seat, 'claims', 'claim')}"
        lines.append(f'{who.subject(seat)} completed {board} board without calling "Trash!": '
                     f"{claims} it at the start of {who.possessive(seat, start=False)} "
                     "next turn")
    if view.final_from is not None:
        left = last_chance_left(view)
        still = ", ".join(who.object(seat) for seat in left) or "nobody"
        lines.append(f"Last chance: {who.object(view.final_from)} completed the board; "
                     f"still to play one more turn: {still}")
    return lines
