"""The client side of the view JSON: a :class:`~trashcards.views.View` back from the
``state`` of a ``state``/``events`` message, so Python clients (tests, the benchmark)
can let the ordinary bots play over the websocket, through the same path as people."""

from __future__ import annotations

from typing import Any

from ..actions import parse_action
from ..cards import parse_card
from ..rules import Rules
from ..state import Phase
from ..views import PlayerView, View

__all__ = ["view_from_json"]


def view_from_json(data: dict[str, Any], rules: Rules) -> View:
    """The view a ``state`` object describes (``rules`` come from the table info).

    ``must_play`` is not sent; it is ``True`` exactly when a card in hand may not be
    trashed, which the legal actions show.
    """
    legal = tuple(parse_action(text) for text in data["legal"])
    in_hand = parse_card(data["in_hand"]) if data["in_hand"] else None
    must_play = in_hand is not None and bool(legal) and all(str(a) != "trash" for a in legal)
    standings = data.get("standings")
    known = data.get("stock_known")
    return View(
        seat=data["seat"],
        rules=rules,
        phase=Phase(data["phase"]),
        round=data["round"],
        dealer=data["dealer"],
        to_act=data["to_act"],
        in_hand=in_hand,
        stock_count=data["stock_count"],
        discard=tuple(parse_card(c) for c in data["discard"]),
        players=tuple(
            PlayerView(p["name"], p["rounds_won"], p["board_size"],
                       tuple(parse_card(s["card"]) if s["up"] else None for s in p["slots"]))
            for p in data["players"]),
        round_winners=tuple(data["round_winners"]),
        match_winner=data["match_winner"],
        legal=legal,
        called=data["called"],
        must_play=must_play,
        unclaimed=tuple(data["unclaimed"]),
        final_from=data["final_from"],
        standings=tuple(standings) if standings is not None else None,
        stock_known=None if known is None else tuple(parse_card(c) for c in known),
    )
