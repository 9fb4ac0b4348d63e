"""Pictures of a match for the terminal, made with rich from a :class:`~trashcards.views.View`.

Pure functions: a view in, a rich renderable out, nothing printed. The table itself, its
boards and cards (:func:`table_view`, :func:`board_text`, :func:`card_text`) are
:mod:`trashcards.pictures`, shared with the environments' text rendering; this module adds
the terminal game's menus, help, scores and big boards. The line mode prints these; the
full-screen game (:mod:`.app`) draws its own boards from the same pieces.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..actions import Action, Verb
from ..ai.hints import Hint, HintLine
from ..ai.levels import LEVELS
from ..cards import Card
from ..pictures import (
    BACK,
    BOARD_ROW,
    JOKER,
    WILD_MARK,
    board_text,
    card_text,
    table_header,
    table_view,
)
from ..rules import Rules
from ..views import View
from .keys import KEY_HELP, action_key
from .narrate import card_label

__all__ = [
    "BACK",
    "JOKER",
    "WILD_MARK",
    "action_entries",
    "board_picture",
    "board_text",
    "card_text",
    "chances_text",
    "help_panel",
    "hint_text",
    "menu_text",
    "round_over",
    "scoreboard",
    "standings_table",
    "table_header",
    "table_view",
]

def _action_label(action: Action, view: View) -> str:
    hand = card_label(view.in_hand) if view.in_hand else ""
    top = card_label(view.top_discard) if view.top_discard else ""
    verb = action.verb
    if verb is Verb.STOCK:
        return "draw from the stock"
    if verb is Verb.DISCARD:
        return f"take {top} from the discard pile"
    if verb is Verb.SWAP and view.in_hand is not None and view.to_act is not None:
        slot = view.rules.roles()[view.in_hand]
        held = view.players[view.to_act].slots[slot - 1]
        wild_card = card_label(held) if held is not None else "wild"
        return f"swap: {hand} takes slot {slot}, the wild {wild_card} comes back to hand"
    if verb is Verb.TRASH:
        return f"trash {hand}: discard it, end the turn"
    return 'call "Trash!"'


def action_entries(view: View) -> list[tuple[str, str]]:
    """The legal actions of the seat to act as (keys, what they do): one entry per
    action, the face-down slots of a wild as one (``1 2 4``); quit and help are not
    included."""
    entries: list[tuple[str, str]] = []
    wilds = [a for a in view.legal if a.verb is Verb.WILD]
    for action in view.legal:
        if action.verb is Verb.WILD:
            if action == wilds[0]:
                keys = " ".join(action_key(a) for a in wilds)
                hand = card_label(view.in_hand) if view.in_hand else "the wild"
                note = " (0 = slot 10)" if any(a.slot == 10 for a in wilds) else ""
                entries.append((keys, f"put {hand} on that face-down slot{note}"))
            continue
        entries.append((action_key(action), _action_label(action, view)))
    return entries


def menu_text(view: View) -> Text:
    """The legal actions of the seat to act, each with its key, then hint, chances, quit
    and help."""
    lines = [Text.assemble((f"[{keys}]", "bold"), f" {label}")
             for keys, label in action_entries(view)]
    lines.append(Text.assemble(("[h]", "bold"), " hint  ", ("[o]", "bold"), " chances  ",
                               ("[q]", "bold"), " quit (saves)  ", ("[?]", "bold"), " help"))
    return Text("\n").join(lines)


def _percent(value: float) -> str:
    return f"{value * 100:.1f} %"


def _half_width(low: float | None, high: float | None) -> str:
    if low is None or high is None:
        return ""
    return f" ±{(high - low) * 50:.1f}"


def hint_text(result: Hint, view: View) -> Text:
    """A hint for people: the best move (or the moves equally good, the standard play
    first; "exact" where the solver found it), then every legal move, best first, with
    its key, its chance of winning the match (± the 95 % half-width) and the round, its
    difference to the best, and its reason; last, what the chances assume. ``view`` is
    the view the hint is for."""
    best = result.best
    tied = result.tied
    if result.always_call:
        head = "Always call first: "
    elif len(tied) > 1:
        head = "Equally good: " if not result.exact else "Equally good (exact): "
    else:
        head = "Best (exact): " if result.exact else "Best: "
    # the head and why, first: a short panel (80×24) shows them without scrolling
    text = Text.assemble((head, "bold"))
    shown = tied if len(tied) > 1 else (best,)
    if len(shown) > 1 and all(line.action.verb is Verb.WILD for line in shown):
        # equally good slots for the wild: their keys, then the move once
        text.append(" = ".join(f"[{action_key(line.action)}]" for line in shown),
                    style="bold green")
        slots = [str(line.action.slot) for line in shown]
        label = _hint_label(shown[0].action, view).rsplit(" slot ", 1)[0]
        text.append(f" {label} slot {', '.join(slots[:-1])} or {slots[-1]}",
                    style="bold green")
    else:
        for index, line in enumerate(shown):
            if index:
                text.append(" = ", style="bold")
            text.append(f"[{action_key(line.action)}] ", style="bold green")
            text.append(_hint_label(line.action, view), style="bold green")
    text.append(f"\n{best.reason}", style="green")
    for line in result.lines:
        # The tie group shows the best's chance (equal within the noise); a worse move its
        # chance and its paired difference to the best, without an interval of its own
        # that would overlap the best's.
        match, round_ = line.value.match_win, line.value.round_win
        good = line.equal_to_best
        spread = _half_width(match.low, match.high) if good or result.exact else ""
        text.append("\n")
        text.append(f"[{action_key(line.action)}] ", style="bold green" if good else "bold")
        text.append(f"{_percent(match.value)}{spread} match",
                    style="bold" if line is best else "")
        text.append(f" · {_percent(round_.value)} round")
        if line is not best:
            text.append(f" · {_versus(line, result.exact)}")
            text.append(f"\n    {line.reason}", style="green" if good else "dim")
    evaluation = result.comparison
    level = next((level.name for level in LEVELS if level.bot == evaluation.policy), None)
    player = f"the {level} bot" if level else evaluation.policy
    if result.exact:
        text.append("\nExact: the solver's optimal play of the round.", style="dim italic")
    else:
        text.append(f"\nChances if everyone then plays like {player}; up to "
                    f"{evaluation.samples} sampled deals, {evaluation.engine} engine.",
                    style="dim italic")
    return text


def _versus(line: HintLine, exact: bool) -> str:
    """How a move compares with the best, in match-win points."""
    diff = line.vs_best
    if exact:
        return "as good as the best" if line.equal_to_best else \
            f"{diff.mean * 100:+.1f} pp vs best"
    span = f"{diff.low * 100:+.1f} to {diff.high * 100:+.1f} pp vs best"
    return f"as good as the best ({span})" if line.equal_to_best else span


def _hint_label(action: Action, view: View) -> str:
    if action.verb is Verb.WILD:
        hand = card_label(view.in_hand) if view.in_hand else "the wild"
        return f"put {hand} on slot {action.slot}"
    return _action_label(action, view)


def chances_text(chances: Sequence[float] | None, names: Sequence[str],
                 you: int | None = None) -> Text:
    """``Win chances: You 53 % · bot:greedy 47 %``: each player's chance of winning the
    match (``working them out…`` before the first answer)."""
    text = Text("Win chances: ", style="bold")
    if chances is None:
        text.append("working them out…", style="dim")
        return text
    for seat, (name, chance) in enumerate(zip(names, chances, strict=True)):
        if seat:
            text.append(" · ")
        text.append("You" if seat == you else name)
        text.append(f" {chance * 100:.0f} %", style="bold")
    return text


def help_panel() -> Table:
    """The keys and what they do."""
    table = Table(title="Keys", show_header=False, box=None, padding=(0, 2))
    for key, meaning in KEY_HELP:
        table.add_row(Text(key, style="bold"), meaning)
    return table


def scoreboard(view: View) -> Table:
    """Between rounds: each player's rounds won and the size of their next board."""
    table = Table(title=f"After round {view.round}", title_justify="left")
    # names whole (never "bot:expe…"), short number columns: it fits the log's half of 80
    table.add_column("player", no_wrap=True,
                     min_width=max(len(player.name) for player in view.players))
    table.add_column("won", justify="right", no_wrap=True)
    table.add_column("next board", justify="right")
    for seat, player in enumerate(view.players):
        won = Text(str(player.rounds_won))
        if seat in view.round_winners:
            won.append(" +1", style="bold green")
        table.add_row(player.name, won,
                      str(view.rules.start_size - player.rounds_won))
    table.caption = f"first to {view.rules.target_rounds} rounds wins the match"
    return table


def standings_table(view: View) -> Table:
    """At the end: place, player, rounds won, face-down cards left (RULES.md §7)."""
    places = view.standings or tuple(1 for _ in view.players)
    table = Table(title="Final standings", title_justify="left")
    table.add_column("place", justify="right")
    table.add_column("player")
    table.add_column("rounds won", justify="right")
    table.add_column("face down left", justify="right")
    for seat in sorted(range(len(view.players)), key=lambda s: (places[s], s)):
        player = view.players[seat]
        table.add_row(str(places[seat]), player.name, str(player.rounds_won),
                      str(player.face_down))
    return table



def round_over(view: View) -> RenderableType:
    """At the end of a round: each winner's completed board, then the scoreboard."""
    parts: list[RenderableType] = []
    for seat in view.round_winners:
        player = view.players[seat]
        whose = "Your" if seat == view.seat else f"{player.name}'s"
        parts.append(Text(f"{whose} completed board:", style="bold green"))
        parts.append(board_text(player, view.rules))
        parts.append(Text(""))
    if not view.round_winners:
        parts.append(Text(f"Round {view.round} is void: nobody won it.", style="bold"))
    parts.append(scoreboard(view))
    return Group(*parts)


# -- the full-screen game's pictures ------------------------------------------------------

#: Columns a board picture needs inside its frame, compact and big.
COMPACT_WIDTH: Final = 35
BIG_WIDTH: Final = 30
#: Lines a big board picture needs inside its frame (a board of 6 to 10 slots).
BIG_HEIGHT: Final = 8


def board_picture(slots: Sequence[Card | None], rules: Rules, *, big: bool,
                  cursor: int | None = None, touched: int | None = None) -> Text:
    """A board for the full screen: compact (one line per row of five, ``10 ░░░``) or
    big (each card drawn as a small box under its slot number). ``cursor``: the slot
    the arrow keys point at; ``touched``: the slot the latest step of a chain changed.
    A compact slot is 7 columns wide, a big one 6 columns and 4 lines."""
    lines: list[Text] = []
    for start in range(0, len(slots), BOARD_ROW):
        row = list(enumerate(slots[start:start + BOARD_ROW], start=start + 1))
        if big:
            lines.extend(_big_row(row, rules, cursor, touched))
        else:
            lines.append(_compact_row(row, rules, cursor, touched))
    return Text("\n").join(lines)


def _mark(slot: int, cursor: int | None, touched: int | None) -> str:
    if slot == cursor:
        return "reverse bold green"
    if slot == touched:
        return "bold yellow"
    return ""


def _face(card: Card | None, rules: Rules, width: int = 3) -> Text:
    face = card_text(card, rules, on_board=True)
    face.pad_left(max(0, width - face.cell_len))
    return face


def _compact_row(row: list[tuple[int, Card | None]], rules: Rules, cursor: int | None,
                 touched: int | None) -> Text:
    line = Text()
    for slot, card in row:
        cell = Text.assemble((f"{slot:>2} ", "dim"), _face(card, rules))
        mark = _mark(slot, cursor, touched)
        if mark:
            cell.stylize(mark, 3)
        line.append_text(cell)
        line.append(" ")
    line.rstrip()
    return line


def _big_row(row: list[tuple[int, Card | None]], rules: Rules, cursor: int | None,
             touched: int | None) -> list[Text]:
    parts = [Text(), Text(), Text(), Text()]  # numbers, box tops, faces, box bottoms
    for slot, card in row:
        frame = _mark(slot, cursor, touched) or "dim"
        number_style = "bold green" if slot == cursor else "dim"
        parts[0].append(f"{slot:^5}", style=number_style)
        parts[1].append("┌───┐", style=frame)
        parts[2].append("│", style=frame)
        parts[2].append_text(_face(card, rules))
        parts[2].append("│", style=frame)
        parts[3].append("└───┘", style=frame)
        for part in parts:
            part.append(" ")
    for part in parts:
        part.rstrip()
    return parts
