"""Invariants over random legal play, for every preset and 2–4 players (hypothesis)."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from trashcards import (
    CALL,
    DISCARD,
    STOCK,
    SWAP,
    TRASH,
    IllegalActionError,
    Rules,
    State,
    apply,
    legal_actions,
    new_match,
    sample_chance,
    view,
    wild,
)
from trashcards.actions import Action, Deck, Reshuffle
from trashcards.cards import Card
from trashcards.record import Entry, Record, loads
from trashcards.state import Phase

PRESETS = ["standard", "classic", "kings-wild", "all-faces-wild", "jokers", "call-trash",
           "kids", "first-to-7", "last-chance"]
EVERY_ACTION = [STOCK, DISCARD, SWAP, TRASH, CALL, *(wild(k) for k in range(1, 11))]

rules_strategy = st.builds(
    lambda preset, call, last, size: Rules.preset_named(preset).with_fields(
        {"call_trash": call or Rules.preset_named(preset).call_trash,
         "last_chance": last or Rules.preset_named(preset).last_chance,
         **({"start_size": size, "rounds_to_win": None} if size else {})}),
    st.sampled_from(PRESETS), st.booleans(), st.booleans(),
    st.sampled_from([None, None, 2, 3]),
)


def random_play(rules: Rules, players: int, seed: int, limit: int = 400
                ) -> tuple[list[State], Record]:
    """A match of uniformly random legal moves; every state on the way and the record."""
    rng = random.Random(seed)
    state = new_match(rules, [f"p{i}" for i in range(players)])
    states = [state]
    entries = []
    for _ in range(limit):
        if state.phase is Phase.MATCH_OVER:
            break
        legal = legal_actions(state)
        move = rng.choice(legal) if legal else sample_chance(state, rng)
        entries.append(Entry(state.to_act if isinstance(move, Action) else None, move))
        state, _events = apply(state, move)
        states.append(state)
    return states, Record(rules, tuple(f"p{i}" for i in range(players)), tuple(entries))


def all_cards(state: State) -> Counter[Card]:
    cards: Counter[Card] = Counter(state.stock)
    cards.update(state.discard)
    for board in state.boards:
        cards.update(board.cards)
    if state.in_hand is not None:
        cards[state.in_hand] += 1
    return cards


game = given(rules=rules_strategy, players=st.integers(2, 4), seed=st.integers(0, 2**32))
fast = settings(max_examples=40, deadline=None)


@fast
@game
def test_every_card_is_in_exactly_one_place_at_every_step(
        rules: Rules, players: int, seed: int) -> None:
    states, _ = random_play(rules, players, seed)
    expected = Counter(rules.match_cards(players))
    for state in states:
        if state.boards[0].cards:  # after the first deal
            assert all_cards(state) == expected


@fast
@game
def test_legal_actions_are_exactly_what_apply_accepts(
        rules: Rules, players: int, seed: int) -> None:
    states, _ = random_play(rules, players, seed, limit=150)
    for state in states:
        legal = set(legal_actions(state))
        for action in EVERY_ACTION:
            try:
                apply(state, action)
            except IllegalActionError:
                assert action not in legal
            else:
                assert action in legal


@fast
@game
def test_dumping_and_replaying_a_record_reproduces_every_state(
        rules: Rules, players: int, seed: int) -> None:
    states, record = random_play(rules, players, seed)
    replayed = [state for state, _events in loads(record.dumps()).steps()]
    assert replayed == states[1:]


def _deal_positions(sizes: list[int], dealer: int) -> dict[tuple[int, int], int]:
    """Deck index of each (seat, slot) in a deal (RULES.md §4.3), for the test alone."""
    players, dealt, seat, where = len(sizes), [0] * len(sizes), dealer, {}
    for index in range(sum(sizes)):
        seat = (seat + 1) % players
        while dealt[seat] == sizes[seat]:
            seat = (seat + 1) % players
        where[(seat, dealt[seat])] = index
        dealt[seat] += 1
    return where


def _with_hidden_permuted(states: list[State], record: Record, rng: random.Random
                          ) -> tuple[Record, int]:
    """The same record with the cards still hidden at its end (face-down slots, the stock)
    dealt out in another order; and the index of the current round's deck move."""
    final = states[-1]
    moves = list(record.moves)
    deck_at = max(i for i, e in enumerate(moves) if isinstance(e.move, Deck))
    shuffles = [i for i, e in enumerate(moves) if isinstance(e.move, Reshuffle) and i > deck_at]
    deck = list(moves[deck_at].move.cards)  # type: ignore[union-attr]
    dealt_state = states[deck_at + 1]
    where = _deal_positions([b.size for b in dealt_state.boards], dealt_state.dealer or 0)
    slots = [where[(seat, k)] for seat, board in enumerate(final.boards)
             for k, up in enumerate(board.up) if not up]
    picked = [deck[i] for i in slots]
    rng.shuffle(picked)
    for i, card in zip(slots, picked, strict=True):
        deck[i] = card
    stock_len = len(final.stock)
    if shuffles:
        at = shuffles[-1]
        cards = list(moves[at].move.cards)  # type: ignore[union-attr]
        tail = cards[len(cards) - stock_len:]
        rng.shuffle(tail)
        moves[at] = Entry(None, Reshuffle(tuple(cards[:len(cards) - stock_len] + tail)))
    elif stock_len:
        tail = deck[len(deck) - stock_len:]
        rng.shuffle(tail)
        deck[len(deck) - stock_len:] = tail
    moves[deck_at] = Entry(None, Deck(tuple(deck)))
    return Record(record.rules, record.players, tuple(moves)), deck_at


@fast
@game
def test_games_differing_only_in_hidden_cards_give_identical_views(
        rules: Rules, players: int, seed: int) -> None:
    states, record = random_play(rules, players, seed, limit=int(seed % 300) + 3)
    if not any(isinstance(e.move, Deck) for e in record.moves):
        return
    other, deck_at = _with_hidden_permuted(states, record, random.Random(seed))
    replayed = [state for state, _events in other.steps()]
    for mine, theirs in zip(states[deck_at + 1:], replayed[deck_at:], strict=True):
        for seat in [*range(players), None]:
            assert view(theirs, seat) == view(mine, seat)
    if states[-1].phase is not Phase.MATCH_OVER:
        assert all_cards(replayed[-1]) == all_cards(states[-1])


@settings(max_examples=15, deadline=None)
@game
def test_same_seed_same_game(rules: Rules, players: int, seed: int) -> None:
    assert random_play(rules, players, seed)[1] == random_play(rules, players, seed)[1]
