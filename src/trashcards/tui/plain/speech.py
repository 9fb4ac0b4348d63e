"""What the plain mode says, in the player's language: the events of a move (every step,
or one sentence a turn), a board, the piles, what to do now, the hint and why a move is
refused.

Each function is the terminal's twin of the browser's (``js/events.js``
``describeEvents`` and ``summarizeEvents``, ``js/table/speech.js`` ``boardSpeech`` and
``pilesSpeech``, ``js/prompt.js`` ``turnPrompt``, ``js/hint.js`` ``leadText``), built
from the same catalog keys, so the two say the same sentences (a test runs both over
whole matches in every language). Input is public only: events, a
:class:`~trashcards.tui.scene.Scene` (the public table before them, for why a card was
discarded) and :class:`~trashcards.views.View` values, in which a face-down card is
``None``: nothing here can name one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Final

from ...actions import Action, Verb
from ...ai.hints import Hint
from ...ai.levels import LEVELS
from ...ai.reasons import Reason
from ...cards import Card
from ...discards import discard_reason
from ...events import (
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
from ...state import Phase
from ...views import View
from ..keys import Refusal
from ..scene import Scene
from .catalog import Catalog

__all__ = ["Speaker", "Why", "card_name", "card_short", "display_name", "percent", "slot_keys",
           "slot_label"]

_SUIT_SYMBOL: Final = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
_RANK_LETTER: Final = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K"}


_BOT_NAME: Final = re.compile(r"bot:([a-z]+)(?::(\d+))?")


def display_name(name: str, t: Catalog) -> str:
    """A seat's name for people (``displayName``): a person's as typed, a bot's seat
    (``bot:greedy``, ``bot:greedy:2``) by its level: ``Computer (good)``, ``Computer
    (good) 2``."""
    found = _BOT_NAME.fullmatch(name)
    if found is None:
        return name
    kind = found.group(1)
    level = next((level.name for level in LEVELS if level.bot == kind), kind)
    key = f"level.{level}"
    word = t(key)
    word = kind if word == key else word
    copy = int(found.group(2) or 1)
    return t("bot.display_n", level=word, n=copy) if copy > 1 else t("bot.display", level=word)


def percent(chance: float, final: bool = False) -> int:
    """A chance as a whole percentage, never 0 or 100 while the match is undecided (the
    browser's win bar)."""
    value = int(Decimal(repr(chance * 100)).quantize(Decimal(1), ROUND_HALF_UP))
    return value if final else min(99, max(1, value))


def slot_label(slot: int) -> str:
    """The label people read for a slot: A, 2 … 10."""
    return "A" if slot == 1 else str(slot)


def slot_keys(slots: Sequence[int]) -> str:
    """The keys of some slots, runs of three or more as a range: ``1–9, 0``."""
    parts: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if len(run) >= 3:
            parts.append(f"{run[0]}–{run[-1]}")
        else:
            parts.extend(str(slot) for slot in run)
        run.clear()

    ordered = sorted(set(slots))
    for slot in ordered:
        if slot == 10:
            continue
        if run and slot != run[-1] + 1:
            flush()
        run.append(slot)
    flush()
    if 10 in ordered:
        parts.append("0")
    return ", ".join(part for part in parts if part)


def card_short(card: Card, t: Catalog) -> str:
    """The face people read: ``10♥``, ``A♠``, ``Joker``."""
    if card.is_joker:
        return t("card.joker_short")
    return ("10" if card.rank == 10 else _RANK_LETTER.get(card.rank, str(card.rank))
            ) + _SUIT_SYMBOL[card.suit]


def card_name(card: Card, t: Catalog) -> str:
    """The spoken name: ``10 of hearts``."""
    if card.is_joker:
        return t("card.joker")
    letter = _RANK_LETTER.get(card.rank, str(card.rank))
    return t("card.name", rank=t(f"rank.{letter}"), suit=t(f"suit.{card.suit}"))


@dataclass(frozen=True, slots=True)
class Why:
    """Why a card went to the discard pile (the web's ``why``): ``reason`` is one of
    :data:`trashcards.discards.REASONS`."""

    reason: str
    slot: int | None = None
    held: Card | None = None
    size: int | None = None


def _why(event: Discarded, following: Event | None, scene: Scene) -> Why | None:
    if isinstance(following, Completed):
        return Why("complete")
    found = discard_reason(scene.rules, event.card, scene.slots[event.seat])
    return None if found is None else Why(found.reason, found.slot, found.held, found.size)


#: Events a turn's one sentence tells (the rest are said on their own, in full).
_IN_A_TURN: Final = (Drew, Called, Placed, TurnedUp, Swapped, Discarded, PenaltyDrawn)


class Speaker:
    """Sentences for the table of seats named ``names`` (as in the record), spoken to
    the seat for which ``you`` is true (if any)."""

    def __init__(self, t: Catalog, names: Sequence[str], you: Callable[[int], bool]) -> None:
        self.t = t
        #: Every seat's name for people (:func:`display_name`).
        self.names = tuple(display_name(name, t) for name in names)
        self.you = you

    def short(self, card: Card) -> str:
        return card_short(card, self.t)

    # -- events ---------------------------------------------------------------------------

    def _say(self, key: str, seat: int, **params: object) -> str:
        return self.t(f"{key}_you" if self.you(seat) else key, name=self.names[seat],
                      **params)

    def why_clause(self, card: Card, why: Why | None) -> str:
        """``slot 10 already holds 10♥``, or ``""`` for a discard by choice."""
        if why is None:
            return ""
        if why.reason == "trash":
            letter = _RANK_LETTER.get(card.rank, "")
            return (self.t(f"why.trash_{letter}") if letter in ("J", "Q", "K")
                    else self.t("why.trash"))
        if why.reason == "no_slot":
            return self.t("why.no_slot", size=why.size, slot=why.slot)
        if why.reason == "taken" and why.held is not None:
            return self.t("why.taken", slot=why.slot, held=self.short(why.held))
        if why.reason == "complete":
            return self.t("why.complete")
        return ""

    def event(self, event: Event, why: Why | None = None) -> str:
        """One event as a sentence (``why``: a discard's reason)."""
        t = self.t
        match event:
            case DealerChosen(seat=seat, cuts=cuts):
                said = [t("event.cut_you", card=self.short(card)) if self.you(s)
                        else t("event.cut", name=self.names[s], card=self.short(card))
                        for s, card in cuts]
                if not said:
                    return self._say("event.dealer_first", seat)
                return self._say("event.dealer_chosen", seat, cuts=", ".join(said))
            case Dealt(round=number, dealer=dealer, first=first):
                params = {"round": number, "dealer": self.names[dealer],
                          "first": self.names[first]}
                if self.you(dealer):
                    return t("event.dealt_you_deal", **params)
                if self.you(first):
                    return t("event.dealt_you_first", **params)
                return t("event.dealt", **params)
            case Drew(seat=seat, source=source, card=card):
                key = "event.drew_discard" if source == "discard" else "event.drew_stock"
                return self._say(key, seat, card=self.short(card))
            case Called(seat=seat):
                return self._say("event.called", seat)
            case Placed(seat=seat, slot=slot, card=card, wild=wild):
                return self._say("event.placed_wild" if wild else "event.placed", seat,
                                 card=self.short(card), slot=slot)
            case TurnedUp(seat=seat, slot=slot, card=card):
                return self._say("event.turned_up", seat, card=self.short(card), slot=slot)
            case Swapped(seat=seat, slot=slot, card=card, wild=wild):
                return self._say("event.swapped", seat, card=self.short(card), slot=slot,
                                 wild=self.short(wild))
            case Discarded(seat=seat, card=card):
                if why is not None and why.reason == "wild":
                    return self._say("event.trashed_wild", seat, card=self.short(card))
                if why is not None and why.reason == "kept_wild" and why.held is not None:
                    return self._say("event.trashed_kept", seat, card=self.short(card),
                                     slot=why.slot, held=self.short(why.held))
                clause = self.why_clause(card, why)
                if clause:
                    return self._say("event.discarded_why", seat, card=self.short(card),
                                     why=clause)
                return self._say("event.discarded", seat, card=self.short(card))
            case StockEmpty(seat=seat):
                return self._say("event.stock_empty", seat)
            case Reshuffled(size=size):
                return t("event.reshuffled", count=size)
            case Completed(seat=seat, claimed=claimed):
                return self._say("event.completed" if claimed else "event.completed_uncalled",
                                 seat)
            case PenaltyDrawn(seat=seat, card=card):
                return self._say("event.penalty_drawn", seat, card=self.short(card))
            case Claimed(seat=seat):
                return self._say("event.claimed", seat)
            case RoundWon(seat=seat, round=number, rounds_won=won):
                return self._say("event.round_won", seat, round=number, count=won)
            case FinalCycle(seat=seat):
                return self._say("event.final_cycle", seat)
            case RoundVoid(round=number):
                return t("event.round_void", round=number)
            case MatchWon(seat=seat):
                return self._say("event.match_won", seat)
            case TurnPassed(seat=seat):
                return self._say("event.turn_passed", seat)
        raise TypeError(f"not an event: {event!r}")  # pragma: no cover - exhaustive above

    def _whys(self, events: Sequence[Event], before: Scene) -> list[Why | None]:
        """The reason of every discard among ``events`` (``None`` for the rest)."""
        whys: list[Why | None] = []
        scene = before
        for index, event in enumerate(events):
            following = events[index + 1] if index + 1 < len(events) else None
            whys.append(_why(event, following, scene) if isinstance(event, Discarded)
                        else None)
            scene = scene.after(event)
        return whys

    def every_step(self, events: Sequence[Event], before: Scene) -> list[str]:
        """A sentence per step (``describeEvents``): a placement and the card it turned
        up are one sentence."""
        whys = self._whys(events, before)
        lines: list[str] = []
        index = 0
        while index < len(events):
            event = events[index]
            following = events[index + 1] if index + 1 < len(events) else None
            if (isinstance(event, Placed) and isinstance(following, TurnedUp)
                    and following.seat == event.seat and following.slot == event.slot):
                key = "event.placed_wild_turned" if event.wild else "event.placed_turned"
                lines.append(self._say(key, event.seat, card=self.short(event.card),
                                       slot=event.slot, up=self.short(following.card)))
                index += 2
                continue
            lines.append(self.event(event, whys[index]))
            index += 1
        return lines

    def _clause(self, event: Event, why: Why | None) -> str | None:
        """An event's part of a turn's sentence, or ``None``."""
        you = "_you" if self.you(_seat(event)) else ""
        t = self.t
        match event:
            case Drew(source=source, card=card):
                where = "discard" if source == "discard" else "stock"
                return t(f"brief.drew_{where}{you}", card=self.short(card))
            case Called():
                return t(f"brief.called{you}")
            case Placed(slot=slot, card=card, wild=True):
                return t(f"brief.wild{you}", card=self.short(card), slot=slot)
            case Swapped(slot=slot, card=card, wild=wild):
                return t(f"brief.swapped{you}", card=self.short(card), slot=slot,
                         wild=self.short(wild))
            case Discarded(card=card):
                if why is not None and why.reason in ("wild", "kept_wild"):
                    return t(f"brief.trashed{you}", card=self.short(card))
                reason = self.why_clause(card, why)
                if reason:
                    return t(f"brief.discarded_why{you}", card=self.short(card), why=reason)
                return t(f"brief.discarded{you}", card=self.short(card))
            case PenaltyDrawn(card=card):
                return t(f"brief.penalty{you}", card=self.short(card))
            case Completed(claimed=True):
                return t(f"brief.completed{you}")
        return None

    def one_sentence_a_turn(self, events: Sequence[Event], before: Scene) -> list[str]:
        """Each turn in one sentence, however long its chain (``summarizeEvents``); deals,
        round ends and the rest as :meth:`every_step` says them; a new turn unsaid."""
        whys = self._whys(events, before)
        lines: list[str] = []
        seat: int | None = None
        parts: list[str] = []
        filled: list[int] = []

        def fill() -> None:
            if filled and seat is not None:
                you = "_you" if self.you(seat) else ""
                parts.append(self.t(f"brief.filled{you}",
                                    slots=", ".join(map(str, filled)), count=len(filled)))
                filled.clear()

        def flush() -> None:
            nonlocal seat
            fill()
            if seat is not None and parts:
                actions = self.t.and_list(parts)
                lines.append(self.t("brief.turn_you", actions=actions) if self.you(seat)
                             else self.t("brief.turn", name=self.names[seat],
                                         actions=actions))
            seat = None
            parts.clear()

        for index, event in enumerate(events):
            completes = isinstance(event, Completed) and event.claimed
            if isinstance(event, _IN_A_TURN) or completes:
                if seat != _seat(event):
                    flush()
                    seat = _seat(event)
                if isinstance(event, Placed) and not event.wild:
                    filled.append(event.slot)
                    continue
                text = self._clause(event, whys[index])
                if text:
                    fill()
                    parts.append(text)
                continue
            flush()
            if isinstance(event, TurnPassed):
                continue
            lines.append(self.event(event, whys[index]))
        flush()
        return lines

    # -- the table read aloud ----------------------------------------------------------------

    def board(self, view: View, seat: int) -> str:
        """A board: its face-up cards by slot (a wild said so), then its face-down slots."""
        t = self.t
        player = view.players[seat]
        up: list[str] = []
        down: list[str] = []
        for index, card in enumerate(player.slots):
            slot = index + 1
            if card is None:
                down.append(slot_label(slot))
            else:
                wild = card.is_joker or card.rank != slot
                up.append(t("read.up_wild" if wild else "read.up_card",
                            card=card_name(card, t), slot=slot_label(slot)))
        up_text = t("read.up", cards=", ".join(up)) if up else t("read.no_up")
        down_text = (t("read.down", slots=", ".join(down), count=len(down)) if down
                     else t("read.no_down"))
        if self.you(seat):
            return t("read.board_you", size=player.board_size, up=up_text, down=down_text)
        return t("read.board", name=self.names[seat], count=player.rounds_won,
                 size=player.board_size, up=up_text, down=down_text)

    def piles(self, view: View) -> str:
        """The stock, the discard pile's top and size, and the card in hand."""
        t = self.t
        parts = [f"{t('pile.stock', count=view.stock_count)}."]
        top = view.top_discard
        parts.append(t("read.discard", card=card_name(top, t), count=len(view.discard))
                     if top is not None else t("read.discard_empty"))
        if view.in_hand is not None and view.to_act is not None:
            parts.append(t("read.hand", card=card_name(view.in_hand, t))
                         if self.you(view.to_act)
                         else t("read.hand_of", name=self.names[view.to_act],
                                card=card_name(view.in_hand, t)))
        else:
            parts.append(t("read.no_hand"))
        return " ".join(parts)

    def turn(self, view: View, named: bool) -> str:
        """What the seat to act may do, each choice with its key (``turnPrompt``);
        ``named``: the player is addressed by name (several people at one keyboard)."""
        t = self.t
        seat = view.to_act
        if seat is None:
            return t("read.nothing")
        name = self.names[seat]
        legal = view.legal
        verbs = {action.verb for action in legal}
        hand = view.in_hand
        choices: list[str] = []
        suffix = "_named" if named else ""
        if view.phase is Phase.DRAW:
            lead = t(f"prompt.your_turn{suffix}", name=name)
            if Verb.STOCK in verbs:
                choices.append(t("choice.stock"))
            if Verb.DISCARD in verbs and view.top_discard is not None:
                choices.append(t("choice.discard", card=self.short(view.top_discard)))
        elif view.phase is Phase.WILD and hand is not None:
            lead = t(f"prompt.hold_wild{suffix}", name=name, card=self.short(hand))
            slots = [action.slot for action in legal if action.verb is Verb.WILD]
            if slots:
                choices.append(t("choice.slots", keys=slot_keys(slots)))
            if Verb.TRASH in verbs:
                choices.append(t("choice.trash_wild"))
        elif view.phase is Phase.SWAP and hand is not None:
            lead = t(f"prompt.hold_card{suffix}", name=name, card=self.short(hand))
            if Verb.SWAP in verbs:
                choices.append(t("choice.swap", slot=hand.rank))
            if Verb.TRASH in verbs:
                choices.append(t("choice.trash_card"))
        else:
            return t("prompt.other_turn", name=name)
        if Verb.CALL in verbs:
            choices.append(t("choice.call"))
        return t("prompt.turn", lead=lead, choices=self.t.or_list(choices))

    # -- the coach and refusals ----------------------------------------------------------------

    def action(self, action: Action) -> str:
        """An action in words (``describeAction``): ``take the discard``."""
        return self.t(f"move.{action.verb.value}", slot=action.slot)

    def reason(self, why: Reason) -> str:
        params = dict(why.params)
        count = params.get("count")
        if isinstance(count, int | float) and not isinstance(count, bool):
            params["count"] = self.t.number(count)
        return self.t(f"reason.{why.code}", **params)

    def hint(self, found: Hint) -> str:
        """The hint's conclusion (``leadText``), as the browser says it: ``Hint: Best:
        take the discard. 7♦ fits your face-down slot 7.``"""
        t = self.t
        best = found.best
        if len(found.lines) == 1:
            lead = t("hint.only", action=self.action(best.action))
        elif found.always_call:
            lead = t("hint.always_call", reason=self.reason(best.why))
        elif len(found.tied) > 1:
            exact = t("hint.exact") if found.exact else ""
            lead = t("hint.tied", actions=" = ".join(self.action(line.action)
                                                     for line in found.tied),
                     exact=exact).strip()
        else:
            lead = t("hint.best", action=self.action(best.action),
                     reason=self.reason(best.why))
            if found.exact:
                lead += f" {t('hint.exact')}"
        return f"{t('hint.title')}: {lead}"

    def refused(self, why: Refusal) -> str:
        """Why a move is not allowed now (``refused.<code>``)."""
        params = {name: self.short(value) if isinstance(value, Card) else value
                  for name, value in why.params.items()}
        return self.t(f"refused.{why.code}", **params)


def _seat(event: Event) -> int:
    seat = getattr(event, "seat", None)
    assert isinstance(seat, int), event
    return seat
