"""Events in words: one line per step of a turn, for people (RULES.md §5.2: the automatic
steps are shown too). Every event is public, so every player may read every line.

The person at the keyboard (``you``) is spoken to in the second person ("You drew 7♥",
"— Your turn —", "You win the match!"); everyone else by name. Given the
:class:`~.scene.Scene` before the events, a discard that ends a turn says why ("Q♠:
Queens are trash", "slot 7 already holds 7♦"), and :func:`narrate_steps` gives the scene
after each line, for a screen to animate.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card
from ..discards import DiscardReason, discard_reason
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
from ..pictures import Persons, last_chance_left, plural, status_lines
from ..rules import WILD
from .scene import Scene

__all__ = ["Step", "card_label", "event_line", "last_chance_left", "narrate", "narrate_steps",
           "status_lines"]

_RANK_NAMES = {11: "Jacks", 12: "Queens", 13: "Kings"}


def card_label(card: Card) -> str:
    """A card for people: ``10♠``, ``A♥``; a Joker is ``Joker`` (never its record name)."""
    return "Joker" if card.is_joker else card.pretty()


def _discard_reason(card: Card, seat: int, scene: Scene | None,
                    following: Event | None) -> str:
    """Why a discard happened (the turn ends with it), or ``""`` when unknown."""
    if isinstance(following, Completed):
        return ": the board is complete"
    if scene is None:
        return ""
    why = discard_reason(scene.rules, card, scene.slots[seat])
    match why:
        case DiscardReason(reason="trash"):
            return f": {_RANK_NAMES.get(card.rank, 'those cards')} are trash"
        case DiscardReason(reason="no_slot", slot=slot, size=size):
            return f": a board of {size} has no slot {slot}"
        case DiscardReason(reason="kept_wild", slot=slot, held=held) if held is not None:
            return f", keeping the wild {card_label(held)} on slot {slot}"
        case DiscardReason(reason="taken", slot=slot, held=held) if held is not None:
            return f": slot {slot} already holds {card_label(held)}"
    return ""  # a wild is only ever discarded by choice (trash), said by the verb


def event_line(event: Event, names: Sequence[str], you: int | None = None,
               scene: Scene | None = None, following: Event | None = None) -> str:
    """One event as a sentence, e.g. ``Ana drew 7♥ from the stock``. ``you``: the seat
    spoken to as "you"; ``scene``: the table just before the event (for the reason of a
    discard); ``following``: the next event, if any."""
    who = Persons(names, you)
    match event:
        case DealerChosen(seat=seat, cuts=cuts):
            cut = ", ".join(f"{who.object(s)} {card_label(card)}" for s, card in cuts)
            return (f"Cut for the deal: {cut} — {who.object(seat)} "
                    f"{who.verb(seat, 'deals', 'deal')}" if cut
                    else f"{who.subject(seat)} {who.verb(seat, 'deals', 'deal')} first")
        case Dealt(round=number, dealer=dealer, sizes=sizes, first=first):
            boards = ", ".join(f"{who.object(s)} {size}" for s, size in enumerate(sizes))
            return (f"Round {number}: {who.object(dealer)} {who.verb(dealer, 'deals', 'deal')}"
                    f" (boards: {boards}); {who.object(first)} "
                    f"{who.verb(first, 'plays', 'play')} first")
        case Drew(seat=seat, source=source, card=card):
            where = "the stock" if source == "stock" else "the discard pile"
            return f"{who.subject(seat)} drew {card_label(card)} from {where}"
        case Called(seat=seat):
            return f'{who.subject(seat)} called "Trash!"'
        case Placed(seat=seat, slot=slot, card=card, wild=is_wild):
            what = f"the wild {card_label(card)}" if is_wild else card_label(card)
            return f"{who.subject(seat)} placed {what} on slot {slot}"
        case TurnedUp(seat=seat, slot=slot, card=card):
            return f"{who.subject(seat)} turned up {card_label(card)} from slot {slot}"
        case Swapped(seat=seat, slot=slot, card=card, wild=wild_card):
            return (f"{who.subject(seat)} swapped {card_label(card)} into slot {slot}; "
                    f"the wild {card_label(wild_card)} is back in hand")
        case Discarded(seat=seat, card=card):
            if (scene is not None and scene.rules.roles()[card] == WILD
                    and not isinstance(following, Completed)):
                return f"{who.subject(seat)} trashed the wild {card_label(card)}"
            reason = _discard_reason(card, seat, scene, following)
            return f"{who.subject(seat)} discarded {card_label(card)}{reason}"
        case StockEmpty(seat=seat):
            return f"The stock is empty: {who.object(seat)} must wait for a reshuffle"
        case Reshuffled(size=count):
            return (f"The discard pile but its top card was shuffled: "
                    f"a new stock of {plural(count, 'card')}")
        case Completed(seat=seat, claimed=True):
            return f"{who.possessive(seat)} board is complete!"
        case Completed(seat=seat):
            whose = "your" if seat == you else "the"
            return (f"{who.subject(seat)} completed {whose} board without calling "
                    f'"Trash!": a penalty card, and the claim waits for {whose} next turn')
        case PenaltyDrawn(seat=seat, card=card):
            return (f"{who.subject(seat)} drew the penalty card {card_label(card)} "
                    "and discarded it")
        case Claimed(seat=seat):
            return (f"{who.subject(seat)} {who.verb(seat, 'claims', 'claim')} the "
                    "completed board")
        case RoundWon(seat=seat, round=number, rounds_won=won):
            return (f"{who.subject(seat)} {who.verb(seat, 'wins', 'win')} round {number} "
                    f"({plural(won, 'round')} won)")
        case FinalCycle(seat=seat):
            return f"Last chance: everyone but {who.object(seat)} plays one more turn"
        case RoundVoid(round=number):
            return f"Round {number} is void: the stock cannot be refilled; it is dealt again"
        case MatchWon(seat=seat):
            return f"{who.subject(seat)} {who.verb(seat, 'wins', 'win')} the match!"
        case TurnPassed(seat=seat):
            return f"— {who.possessive(seat)} turn —"
    raise TypeError(f"not an event: {event!r}")  # pragma: no cover - exhaustive above


@dataclass(frozen=True, slots=True)
class Step:
    """One line of narration, the events it tells, and the table after them."""

    line: str
    events: tuple[Event, ...]
    scene: Scene


def narrate_steps(events: Sequence[Event], names: Sequence[str], before: Scene,
                  you: int | None = None) -> list[Step]:
    """The steps of a sequence of events, starting from the table ``before``. A placement
    and the card it turned up share one step: ``Ana placed 7♥ on slot 7, turned up Q♠``."""
    steps: list[Step] = []
    scene = before
    index = 0
    while index < len(events):
        event = events[index]
        following = events[index + 1] if index + 1 < len(events) else None
        if (isinstance(event, Placed) and isinstance(following, TurnedUp)
                and following.seat == event.seat and following.slot == event.slot):
            line = (f"{event_line(event, names, you, scene)}, "
                    f"turned up {card_label(following.card)}")
            scene = scene.after(event).after(following)
            steps.append(Step(line, (event, following), scene))
            index += 2
            continue
        line = event_line(event, names, you, scene, following)
        scene = scene.after(event)
        steps.append(Step(line, (event,), scene))
        index += 1
    return steps


def narrate(events: Sequence[Event], names: Sequence[str], before: Scene | None = None,
            you: int | None = None) -> list[str]:
    """The lines for a sequence of events (see :func:`narrate_steps`); without the scene
    ``before`` a discard does not say why."""
    if before is not None:
        return [step.line for step in narrate_steps(events, names, before, you)]
    lines: list[str] = []
    index = 0
    while index < len(events):
        event = events[index]
        following = events[index + 1] if index + 1 < len(events) else None
        if (isinstance(event, Placed) and isinstance(following, TurnedUp)
                and following.seat == event.seat and following.slot == event.slot):
            lines.append(f"{event_line(event, names, you)}, "
                         f"turned up {card_label(following.card)}")
            index += 2
            continue
        lines.append(event_line(event, names, you, None, following))
        index += 1
    return lines
