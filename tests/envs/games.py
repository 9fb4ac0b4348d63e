"""Positions for the environment tests: random legal play, and hidden cards permuted."""

from __future__ import annotations

import random

from trashcards import Rules, State, apply, legal_actions, new_match, sample_chance
from trashcards.state import Board, Phase

PRESETS = ["standard", "classic", "kings-wild", "all-faces-wild", "jokers", "call-trash",
           "kids", "first-to-5", "last-chance"]


def random_states(rules: Rules, players: int, seed: int, limit: int = 300) -> list[State]:
    """Every state of a match of uniformly random legal moves (at most ``limit`` moves)."""
    rng = random.Random(seed)
    state = new_match(rules, [f"p{seat}" for seat in range(players)])
    states = [state]
    for _ in range(limit):
        if state.phase is Phase.MATCH_OVER:
            break
        legal = legal_actions(state)
        state, _events = apply(state, rng.choice(legal) if legal else sample_chance(state, rng))
        states.append(state)
    return states


def permute_hidden(state: State, rng: random.Random) -> State:
    """The same state with its hidden cards dealt to other hidden places: face-down slots
    and the stock together, or each on its own once a reshuffle made the stock public.
    Nobody can tell the two apart (RULES.md §8)."""
    places = [(seat, k) for seat, board in enumerate(state.boards)
              for k, up in enumerate(board.up) if not up]
    boards = [list(board.cards) for board in state.boards]
    stock = list(state.stock)
    down = [boards[seat][k] for seat, k in places]
    if state.stock_public:
        rng.shuffle(down)
        rng.shuffle(stock)
    else:
        pool = down + stock
        rng.shuffle(pool)
        down, stock = pool[:len(down)], pool[len(down):]
    for (seat, k), card in zip(places, down, strict=True):
        boards[seat][k] = card
    return state._replace(
        stock=tuple(stock),
        boards=tuple(Board(board.size, tuple(cards), board.up)
                     for board, cards in zip(state.boards, boards, strict=True)))
