"""The state as JSON (RECORDS.md): one shape for a view, a spectator and a revealed state."""

from __future__ import annotations

from typing import Any

from .state import State
from .views import View, view

__all__ = ["revealed_json", "view_json"]


def view_json(v: View) -> dict[str, Any]:
    """A view in the JSON shape of RECORDS.md: hidden cards are ``null``, no ``stock``.

    Extra fields beyond RECORDS.md: ``seat`` (the viewer), ``called``, ``unclaimed``,
    ``final_from``, ``stock_known`` (the stock's cards, sorted, once a reshuffle made
    them public, else null) and, once the match is over, ``standings``.
    """
    out: dict[str, Any] = {
        "phase": v.phase.value,
        "round": v.round,
        "dealer": v.dealer,
        "to_act": v.to_act,
        "in_hand": v.in_hand.text if v.in_hand else None,
        "stock_count": v.stock_count,
        "discard": [card.text for card in v.discard],
        "players": [
            {"name": p.name, "rounds_won": p.rounds_won, "board_size": p.board_size,
             "slots": [{"card": card.text, "up": True} if card else {"card": None, "up": False}
                       for card in p.slots]}
            for p in v.players
        ],
        "round_winners": list(v.round_winners),
        "match_winner": v.match_winner,
        "legal": [str(action) for action in v.legal],
        "seat": v.seat,
        "called": v.called,
        "unclaimed": list(v.unclaimed),
        "final_from": v.final_from,
        "stock_known": None if v.stock_known is None else [c.text for c in v.stock_known],
    }
    if v.standings is not None:
        out["standings"] = list(v.standings)
    return out


def revealed_json(state: State) -> dict[str, Any]:
    """The whole state as JSON, hidden cards and the stock (top first) included."""
    out = view_json(view(state))
    out["stock"] = [card.text for card in state.stock]
    for player, board in zip(out["players"], state.boards, strict=True):
        player["slots"] = [{"card": card.text, "up": up}
                           for card, up in zip(board.cards, board.up, strict=True)]
    return out
