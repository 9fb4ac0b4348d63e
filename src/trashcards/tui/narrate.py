"""Events in words: one line per step of a turn, for people (RULES.md §5.2: the automatic
steps are shown too). Every event is public, so every player may read every line."""

from __future__ import annotations

from collections.abc import Sequence

from ..events import (
    Called,
    Claimed,
    Completed,
    DealerChosen,
    Dealt,
    Discarded,
    Drew,
    Event,
    FinalCycle,
    MatchWon,
    PenaltyDrawn,
    Placed,
    Reshuffled,
    RoundVoid,
    RoundWon,
    StockEmpty,
    Swapped,
    TurnedUp,
    TurnPassed,
)

__all__ = ["event_line", "narrate"]


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def event_line(event: Event, names: Sequence[str]) -> str:
    """One event as a sentence, e.g. ``Ana drew 7♥ from the stock``."""
    match event:
        case DealerChosen(seat=seat, cuts=cuts):
            cut = ", ".join(f"{names[s]} {card.pretty()}" for s, card in cuts)
            return (f"Cut for the deal: {cut} — {names[seat]} deals" if cut
                    else f"{names[seat]} deals first")
        case Dealt(round=number, dealer=dealer, sizes=sizes, first=first):
            boards = ", ".join(f"{name} {size}" for name, size in zip(names, sizes, strict=True))
            return (f"Round {number}: {names[dealer]} deals (boards: {boards}); "
                    f"{names[first]} plays first")
        case Drew(seat=seat, source=source, card=card):
            where = "the stock" if source == "stock" else "the discard pile"
            return f"{names[seat]} drew {card.pretty()} from {where}"
        case Called(seat=seat):
            return f'{names[seat]} called "Trash!"'
        case Placed(seat=seat, slot=slot, card=card, wild=is_wild):
            what = f"the wild {card.pretty()}" if is_wild else card.pretty()
            return f"{names[seat]} placed {what} on slot {slot}"
        case TurnedUp(seat=seat, slot=slot, card=card):
            return f"{names[seat]} turned up {card.pretty()} from slot {slot}"
        case Swapped(seat=seat, slot=slot, card=card, wild=wild_card):
            return (f"{names[seat]} swapped {card.pretty()} into slot {slot}; "
                    f"the wild {wild_card.pretty()} is back in hand")
        case Discarded(seat=seat, card=card):
            return f"{names[seat]} discarded {card.pretty()}"
        case StockEmpty(seat=seat):
            return f"The stock is empty: {names[seat]} must wait for a reshuffle"
        case Reshuffled(size=count):
            return (f"The discard pile but its top card was shuffled: "
                    f"a new stock of {_plural(count, 'card')}")
        case Completed(seat=seat, claimed=True):
            return f"{names[seat]}'s board is complete!"
        case Completed(seat=seat):
            return (f'{names[seat]} completed the board without calling "Trash!": '
                    "a penalty card, and the claim waits for the next turn")
        case PenaltyDrawn(seat=seat, card=card):
            return f"{names[seat]} drew the penalty card {card.pretty()} and discarded it"
        case Claimed(seat=seat):
            return f"{names[seat]} claims the completed board"
        case RoundWon(seat=seat, round=number, rounds_won=won):
            return f"{names[seat]} wins round {number} ({_plural(won, 'round')} won)"
        case FinalCycle(seat=seat):
            return f"Last chance: everyone but {names[seat]} plays one more turn"
        case RoundVoid(round=number):
            return f"Round {number} is void: the stock cannot be refilled; it is dealt again"
        case MatchWon(seat=seat):
            return f"{names[seat]} wins the match!"
        case TurnPassed(seat=seat):
            return f"— {names[seat]}'s turn —"
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover - exhaustive above


def narrate(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """The lines for a sequence of events. A placement and the card it turned up share
    one line: ``Ana placed 7♥ on slot 7, turned up Q♠``."""
    lines: list[str] = []
    index = 0
    while index < len(events):
        event = events[index]
        following = events[index + 1] if index + 1 < len(events) else None
        if (isinstance(event, Placed) and isinstance(following, TurnedUp)
                and following.seat == event.seat and following.slot == event.slot):
            lines.append(f"{event_line(event, names)}, turned up {following.card.pretty()}")
            index += 2
            continue
        lines.append(event_line(event, names))
        index += 1
    return lines
