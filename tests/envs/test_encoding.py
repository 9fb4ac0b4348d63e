"""The public int encoding and the observation: their layout, their ranges, and that they
are a function of the view alone (nothing hidden can reach them)."""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from trashcards import CALL, STOCK, Reshuffle, Rules, apply, parse_cards, view, wild
from trashcards.envs import public as pub
from trashcards.envs.actions import ACTIONS, action_mask, legal_indices
from trashcards.envs.observation import (
    FEATURES,
    OBSERVATION_SIZE,
    feature_slice,
    observation,
    observation_batch,
)
from trashcards.envs.public import class_roles, class_totals, public_array

from .games import PRESETS, permute_hidden, random_states
from support import position, start

DOCS = Path(__file__).parents[2] / "docs" / "envs.md"
KIDS = Rules.preset_named("kids")


def kids_position():
    """Kids, 2 players, seat 0 to act: the stock's A♠ fills slot 1 and turns up J♠ (wild);
    ``wild 3`` puts it on slot 3 and turns up Q♠ (trash), which ends the turn."""
    state = start(["Js 3s Qs 4s 9s", "Qd Qh Qc Kd Kh"], stock="As", rules=KIDS)
    state, _ = apply(state, STOCK)
    return state


# -- the public int encoding ----------------------------------------------------------------

def test_the_layout_has_the_indices_of_the_issue():
    scalars = (pub.PLAYERS, pub.PHASE, pub.TO_ACT, pub.IN_HAND, pub.TOP_DISCARD,
               pub.STOCK_COUNT, pub.STOCK_KNOWN, pub.CALLED, pub.MUST_PLAY, pub.UNCLAIMED,
               pub.FINAL_FROM, pub.ROUND_WINNERS, pub.MATCH_WINNER, pub.DEALER, pub.ROUND)
    assert scalars == tuple(range(15))
    assert (pub.ROUNDS_WON, pub.BOARD_SIZE, pub.SLOTS, pub.DISCARD_COUNTS, pub.UNSEEN_COUNTS,
            pub.STOCK_KNOWN_COUNTS, pub.VIEWER, pub.LENGTH) == (15, 19, 23, 63, 75, 87, 99, 100)


def test_cards_are_encoded_by_class():
    classes = class_roles(("J",))
    assert [classes[c] for c in parse_cards("As 9h Td Jc Qs Kd X1")] == [0, 8, 9, 10, 11, 11, 10]
    assert class_roles(("J", "Q", "K"))[parse_cards("Kd")[0]] == pub.WILD_CLASS
    assert class_totals(Rules(), 2) == (4,) * 10 + (4, 8)
    assert class_totals(Rules.preset_named("jokers"), 4) == (8,) * 10 + (12, 16)


def test_a_wild_in_hand_after_a_chain():
    state = kids_position()
    a = public_array(view(state, 1))
    assert a[pub.PHASE] == 1
    assert a[pub.TO_ACT] == 0
    assert a[pub.IN_HAND] == pub.WILD_CLASS
    assert a[pub.SLOTS:pub.SLOTS + 10] == [2, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    assert a[pub.UNSEEN_COUNTS] == 3
    assert a[pub.UNSEEN_COUNTS + pub.WILD_CLASS] == 3
    assert a[pub.VIEWER] == 1
    assert a[pub.DEALER] == 1
    assert a[pub.ROUND] == 1


def test_the_turn_after_a_wild_and_a_trash_card():
    state, _ = apply(kids_position(), wild(3))  # J♠ on slot 3, Q♠ turned up: trash
    a = public_array(view(state, 1))
    assert a[pub.PLAYERS] == 2
    assert a[pub.PHASE] == 0
    assert a[pub.TO_ACT] == 1
    assert a[pub.IN_HAND] == pub.NONE
    assert a[pub.TOP_DISCARD] == pub.TRASH_CLASS
    assert a[pub.STOCK_COUNT] == 52 - 10 - 1
    assert a[pub.STOCK_KNOWN] == 0
    assert a[pub.SLOTS:pub.SLOTS + 10] == [pub.SLOT_NATURAL, pub.SLOT_DOWN, pub.SLOT_WILD, 1, 1,
                                       pub.SLOT_ABSENT, 0, 0, 0, 0]
    assert a[pub.SLOTS + 10:pub.SLOTS + 20] == [1] * 5 + [0] * 5
    assert a[pub.SLOTS + 20:pub.SLOTS + 40] == [0] * 20  # no seats 2 and 3
    assert a[pub.BOARD_SIZE:pub.BOARD_SIZE + 4] == [5, 5, 0, 0]
    assert a[pub.DISCARD_COUNTS:pub.DISCARD_COUNTS + 12] == [0] * 11 + [1]
    assert a[pub.UNSEEN_COUNTS:pub.UNSEEN_COUNTS + 12] == [3] + [4] * 9 + [3, 7]
    assert a[pub.STOCK_KNOWN_COUNTS:pub.STOCK_KNOWN_COUNTS + 12] == [0] * 12
    assert a[pub.MATCH_WINNER] == pub.NONE
    assert a[pub.FINAL_FROM] == pub.NONE
    assert public_array(view(state, 0))[:pub.VIEWER] == a[:pub.VIEWER]  # only the viewer differs


def test_the_stock_is_counted_by_class_once_a_reshuffle_made_it_public():
    state = position(["(2s) (3s)", "(4d) (5d)"], stock="", discard="Kh Ac Kc 9d", rules=KIDS)
    state, _ = apply(state, STOCK)  # stock empty: a reshuffle is due
    state, _ = apply(state, Reshuffle(parse_cards("Kh Ac Kc")))  # K♥ drawn: trash
    a = public_array(view(state, 1))
    assert a[pub.STOCK_KNOWN] == 1
    assert a[pub.STOCK_COUNT] == 2
    assert a[pub.STOCK_KNOWN_COUNTS:pub.STOCK_KNOWN_COUNTS + 12] == [1] + [0] * 10 + [1]


def test_call_trash_and_last_chance_state_are_encoded():
    rules = Rules.preset_named("call-trash").with_fields({"start_size": 2, "last_chance": True})
    state = start(["2s Kd", "3d 4d", "5h 6h"], stock="As 7c", rules=rules)
    called, _ = apply(state, CALL)
    assert public_array(view(called, 1))[pub.CALLED] == 1
    claimed, _ = apply(called, STOCK)  # A♠, 2♠, K♦: complete, and called
    a = public_array(view(claimed, 1))
    assert a[pub.FINAL_FROM] == 0
    assert a[pub.ROUND_WINNERS] == 0b001
    assert a[pub.UNCLAIMED] == 0
    assert a[pub.ROUNDS_WON] == 1
    assert a[pub.TO_ACT] == 1
    assert a[pub.CALLED] == 0
    forgot, _ = apply(state, STOCK)  # the same without calling: the penalty card 7♣
    a = public_array(view(forgot, 2))
    assert a[pub.UNCLAIMED] == 0b001
    assert a[pub.ROUND_WINNERS] == 0
    assert a[pub.FINAL_FROM] == pub.NONE
    assert a[pub.TOP_DISCARD] == 6
    assert a[pub.ROUNDS_WON] == 0


def test_a_spectator_has_no_encoding():
    with pytest.raises(ValueError, match="spectator"):
        public_array(view(kids_position(), None))


# -- the observation --------------------------------------------------------------------

def test_the_blocks_tile_the_observation():
    assert FEATURES[0].start == 0
    for before, after in itertools.pairwise(FEATURES):
        assert after.start == before.start + before.size
    assert FEATURES[-1].start + FEATURES[-1].size == OBSERVATION_SIZE
    assert len({f.name for f in FEATURES}) == len(FEATURES)


def test_each_seat_sees_its_own_board_first():
    state, _ = apply(kids_position(), wild(3))
    slots = feature_slice("slots")
    mine = observation(view(state, 0))[slots].reshape(4, 10, 3)
    theirs = observation(view(state, 1))[slots].reshape(4, 10, 3)
    flags = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]  # face down, natural, wild
    seat0 = [flags[1], flags[0], flags[2], flags[0], flags[0]] + [[0, 0, 0]] * 5
    assert mine[0].tolist() == seat0
    assert theirs[1].tolist() == seat0
    assert mine[1].tolist() == theirs[0].tolist() == [flags[0]] * 5 + [[0, 0, 0]] * 5
    assert not theirs[2:].any()
    assert observation(view(state, 1))[feature_slice("to_act")].tolist() == [1, 0, 0, 0]
    assert observation(view(state, 0))[feature_slice("to_act")].tolist() == [0, 1, 0, 0]
    assert observation(view(state, 0))[feature_slice("dealer")].tolist() == [0, 1, 0, 0]


def test_counts_are_scaled_by_the_match_s_cards_of_the_class():
    state, _ = apply(kids_position(), wild(3))
    obs = observation(view(state, 1))
    assert obs[feature_slice("discard_counts")][pub.TRASH_CLASS] == pytest.approx(1 / 8)
    assert obs[feature_slice("unseen_counts")][0] == pytest.approx(3 / 4)
    assert obs[feature_slice("stock_count")][0] == pytest.approx(41 / 52)
    assert obs[feature_slice("top_discard")].tolist() == [0] * 11 + [1]
    assert obs[feature_slice("players")].tolist() == [1, 0, 0]
    assert obs[feature_slice("start_size")][0] == pytest.approx(0.5)


def test_the_batch_is_the_rows():
    rng = random.Random(5)
    rules = Rules.preset_named("last-chance")
    states = random_states(rules, 4, seed=5, limit=200)[::7]
    views = [view(s, rng.randrange(4)) for s in states]
    batch = observation_batch(np.array([public_array(v) for v in views]), rules)
    assert batch.dtype == np.float32
    assert batch.shape == (len(views), OBSERVATION_SIZE)
    for row, v in zip(batch, views, strict=True):
        assert np.array_equal(row, observation(v))


def test_a_batch_must_be_n_by_100():
    with pytest.raises(ValueError, match=r"\(N, 100\)"):
        observation_batch(np.zeros((3, 99), dtype=np.int32), Rules())


rules_strategy = st.builds(
    lambda preset, call, last: Rules.preset_named(preset).with_fields(
        {"call_trash": call or Rules.preset_named(preset).call_trash,
         "last_chance": last or Rules.preset_named(preset).last_chance}),
    st.sampled_from(PRESETS), st.booleans(), st.booleans())
game = given(rules=rules_strategy, players=st.integers(2, 4), seed=st.integers(0, 2**32))


@settings(max_examples=30, deadline=None)
@game
def test_every_feature_stays_in_0_1_and_the_counts_add_up(rules, players, seed):
    for state in random_states(rules, players, seed):
        for seat in range(players):
            seen = view(state, seat)
            a = public_array(seen)
            obs = observation(seen)
            assert obs.dtype == np.float32
            assert obs.shape == (OBSERVATION_SIZE,)
            assert obs.min() >= 0
            assert obs.max() <= 1
            unseen = a[pub.UNSEEN_COUNTS:pub.UNSEEN_COUNTS + 12]
            assert min(unseen) >= 0
            if state.boards[0].cards:  # dealt: unseen = the stock and the face-down cards
                hidden = len(state.stock) + sum(b.face_down for b in state.boards)
                assert sum(unseen) == hidden
            assert sum(a[pub.DISCARD_COUNTS:pub.DISCARD_COUNTS + 12]) == len(state.discard)
            if seen.stock_known is not None:
                assert sum(a[pub.STOCK_KNOWN_COUNTS:pub.STOCK_KNOWN_COUNTS + 12]) \
                    == len(state.stock)
            mask = action_mask(seen)
            assert mask.sum() == (len(seen.legal) if state.to_act == seat else 0)


@settings(max_examples=30, deadline=None)
@game
def test_the_action_list_is_the_engine_s_order(rules, players, seed):
    for state in random_states(rules, players, seed, limit=150):
        legal = view(state, state.to_act).legal if state.to_act is not None else ()
        if legal:
            indices = legal_indices(view(state, state.to_act))
            assert indices == sorted(indices)
            assert [ACTIONS[i] for i in indices] == list(legal)


# -- nothing hidden gets in ---------------------------------------------------------------

@settings(max_examples=40, deadline=None)
@game
@pytest.mark.slow
def test_states_differing_only_in_hidden_cards_give_identical_observations(
        rules, players, seed):
    rng = random.Random(seed)
    changed = 0
    for state in random_states(rules, players, seed):
        other = permute_hidden(state, rng)
        changed += other != state
        for seat in range(players):
            mine, theirs = view(state, seat), view(other, seat)
            assert public_array(theirs) == public_array(mine)
            assert np.array_equal(observation(theirs), observation(mine))
            assert np.array_equal(action_mask(theirs), action_mask(mine))
    assert changed > 0


def test_the_permutation_check_catches_a_leak():
    """An encoding that peeked at the stock's top card would fail the test above."""
    rules = Rules.preset_named("kids")
    rng = random.Random(3)
    classes = class_roles(rules.wild_ranks)

    def leaky(state, seat):
        return [*public_array(view(state, seat)), classes[state.stock[0]]]

    states = [s for s in random_states(rules, 2, seed=3) if s.stock]
    assert any(leaky(s, 0) != leaky(permute_hidden(s, rng), 0) for s in states)


# -- the documentation ----------------------------------------------------------------------

def test_docs_list_every_feature_with_its_index_range():
    text = DOCS.read_text(encoding="utf-8")
    for feature in FEATURES:
        last = feature.start + feature.size - 1
        span = str(feature.start) if feature.size == 1 else f"{feature.start}–{last}"
        assert re.search(rf"\|\s*`{feature.name}`\s*\|\s*{span}\s*\|", text), feature.name
    assert f"{OBSERVATION_SIZE} floats" in text


def test_docs_list_every_index_of_the_public_encoding():
    text = DOCS.read_text(encoding="utf-8")
    for name in ("PLAYERS", "PHASE", "TO_ACT", "IN_HAND", "TOP_DISCARD", "STOCK_COUNT",
                 "STOCK_KNOWN", "CALLED", "MUST_PLAY", "UNCLAIMED", "FINAL_FROM",
                 "ROUND_WINNERS", "MATCH_WINNER", "DEALER", "ROUND", "ROUNDS_WON",
                 "BOARD_SIZE", "SLOTS", "DISCARD_COUNTS", "UNSEEN_COUNTS",
                 "STOCK_KNOWN_COUNTS", "VIEWER"):
        assert re.search(rf"\|\s*{getattr(pub, name)}[–\d ]*\|\s*`{name}`", text), name


def test_every_class_has_a_name():
    assert len(pub.CLASS_NAMES) == pub.CLASSES
    assert Counter(pub.CLASS_NAMES)["wild"] == 1
