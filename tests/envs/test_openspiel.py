"""The OpenSpiel game ``python_trash``: OpenSpiel's random simulation test, search with
MCTSBot and expectiminimax, chance outcomes that follow the public information only,
records, parameters and observations."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import mcts
from open_spiel.python.algorithms.minimax import expectiminimax

import trashcards.envs.openspiel  # registers python_trash
from trashcards import DISCARD, STOCK, Reshuffle, Rules, apply, new_match, sample_chance, view
from trashcards.envs import public as pub
from trashcards.envs.actions import action_index
from trashcards.envs.observation import OBSERVATION_SIZE, observation
from trashcards.envs.openspiel import GAME_NAME, TrashState, rules_from_params
from trashcards.envs.public import public_array
from trashcards.state import Phase

NAME = trashcards.envs.openspiel.GAME_NAME


def load(**params) -> pyspiel.Game:
    return pyspiel.load_game(NAME, params)


def random_game(game: pyspiel.Game, seed: int, stop=None) -> TrashState:
    """Play chance by its probabilities and players uniformly, to the end or until
    ``stop(state)`` holds."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and not (stop and stop(state)):
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


# -- OpenSpiel's own test -----------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("params", [
    {"players": 2, "preset": "kids"},
    {"players": 3, "preset": "call-trash", "start_size": 4, "rounds_to_win": 2,
     "jokers_per_deck": 2},
    {"players": 4, "preset": "first-to-9", "decks": 1, "last_chance": True},
], ids=["kids-2", "call-trash-jokers-3", "last-chance-one-pack-4"])
def test_random_sim_test_40_games_with_serialization(params):
    pyspiel.random_sim_test(load(**params), num_sims=40, serialize=True, verbose=False)


@pytest.mark.parametrize("params", [
    {"players": 2},
    {"players": 3, "preset": "all-faces-wild", "start_size": 3},
    {"players": 4, "preset": "kings-wild", "start_size": 4, "rounds_to_win": 2},
    {"players": 2, "preset": "classic"},
], ids=["standard-2", "all-faces-wild-3", "kings-wild-4", "classic-2"])
def test_random_sim_test_a_few_games_of_more_presets(params):
    pyspiel.random_sim_test(load(**params), num_sims=3, serialize=True, verbose=False)


def test_the_game_type_is_perfect_information_with_explicit_chance():
    game_type = load().get_type()
    assert game_type.short_name == GAME_NAME
    assert game_type.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    game = load(players=3)
    assert game.num_distinct_actions() == 15
    assert game.observation_tensor_shape() == [OBSERVATION_SIZE]


# -- search ---------------------------------------------------------------------------------

def winning_discard(seed: int) -> TrashState:
    """A one-round kids position where taking the top discard fills the last slot."""
    game = load(preset="kids", rounds_to_win=1)

    def ready(state) -> bool:
        if state.is_chance_node() or action_index(DISCARD) not in state.legal_actions():
            return False
        engine = state.engine_state()
        me = engine.boards[engine.to_act]
        return me.face_down == 1 and engine.discard[-1].rank == me.up.index(False) + 1

    for attempt in range(seed, seed + 500):
        state = random_game(game, attempt, stop=ready)
        if not state.is_terminal():
            return state
    raise AssertionError("no such position in 500 games")


def test_expectiminimax_finds_the_winning_discard():
    state = winning_discard(1)
    me = state.current_player()
    value, action = expectiminimax(state, 2, lambda s: 0.0, me)  # 2: the move, then its value
    assert action == action_index(DISCARD)
    assert value == pytest.approx(1.0)


def test_mcts_finds_the_winning_discard():
    state = winning_discard(2)
    rs = np.random.RandomState(0)
    bot = mcts.MCTSBot(state.get_game(), uct_c=2, max_simulations=200,
                       evaluator=mcts.RandomRolloutEvaluator(1, rs), random_state=rs,
                       solve=True)
    assert bot.step(state) == action_index(DISCARD)


def test_mcts_plays_a_kids_game_to_the_end():
    game = load(preset="kids")
    rs = np.random.RandomState(1)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=8,
                       evaluator=mcts.RandomRolloutEvaluator(1, rs), random_state=rs)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rs.choice(outcomes, p=weights)))
        elif state.current_player() == 0:
            action = bot.step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
            decisions += 1
        else:
            state.apply_action(int(rs.choice(state.legal_actions())))
    assert decisions > 10
    assert sorted(state.returns()) == [-1.0, 1.0]
    assert state.record().replay().phase is Phase.MATCH_OVER


# -- chance follows the public information ---------------------------------------------------

def pool_counts(state: TrashState) -> list[int]:
    """What the public information says the card being revealed may be: every unseen
    card; after a reshuffle, the known stock (a stock draw) or the other unseen cards;
    less the cards this move revealed already."""
    position = state.position
    a = public_array(view(position.engine, 0))
    unseen = a[pub.UNSEEN_COUNTS:pub.UNSEEN_COUNTS + 12]
    known = a[pub.STOCK_KNOWN_COUNTS:pub.STOCK_KNOWN_COUNTS + 12]
    reshuffling = isinstance(position.pending, Reshuffle)
    if reshuffling:  # the stock is the discard pile less its top card, known
        known = Counter(pub.class_roles(position.rules.wild_ranks)[c]
                        for c in position.pending.cards)
        known = [known[c] for c in range(12)]
        unseen = [u + k for u, k in zip(unseen, known, strict=True)]
    separate = bool(a[pub.STOCK_KNOWN]) or reshuffling
    if separate:
        counts = list(known) if position.target[0] == "s" else [
            u - k for u, k in zip(unseen, known, strict=True)]
    else:
        counts = list(unseen)
    for place in position.fixed:  # revealed earlier in this move, from the same pool
        if not separate or place[0] == position.target[0]:
            counts[position.classes[position._card(place)]] -= 1
    return counts


@pytest.mark.parametrize("params", [
    {"players": 2, "preset": "kids"},
    {"players": 4, "preset": "first-to-9", "decks": 1, "call_trash": True},
    {"players": 3, "preset": "jokers", "start_size": 4},
], ids=["kids", "one-pack-4-call-trash", "jokers-3"])
def test_chance_outcomes_are_the_public_shares_of_the_unseen_cards(params):
    game = load(**params)
    checked = Counter()
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = dict(state.chance_outcomes())
                assert sum(outcomes.values()) == pytest.approx(1.0)
                if state.position.target is not None:
                    counts = pool_counts(state)
                    total = sum(counts)
                    assert outcomes == pytest.approx(
                        {c: n / total for c, n in enumerate(counts) if n})
                    stock_known = state.position.engine.stock_public \
                        or isinstance(state.position.pending, Reshuffle)
                    checked["known" if stock_known else "unknown", state.position.target[0]] += 1
                state.apply_action(rng.choices(list(outcomes), list(outcomes.values()))[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
    assert checked["unknown", "s"]
    assert checked["unknown", "b"]
    if params.get("decks") == 1:
        assert checked["known", "s"]
        assert checked["known", "b"]


def test_the_first_turn_turns_up_as_many_cards_as_with_a_shuffled_deck():
    """The lazily revealed deck and a real shuffle give the same distribution of the
    number of cards the first turn places (chi-square, two samples of 3,000)."""
    rules = Rules.preset_named("kids")
    game = load(preset="kids")
    engine, spiel = Counter(), Counter()
    rng = random.Random(5)
    for _ in range(3000):
        state = new_match(rules, ["a", "b"])
        while state.to_act is None:
            state, _ = apply(state, sample_chance(state, rng))
        seat = state.to_act
        after, _events = apply(state, STOCK)
        engine[5 - after.boards[seat].face_down] += 1
        position = game.new_initial_state()
        position.apply_action(rng.randrange(2))  # the dealer
        seat = position.current_player()
        position.apply_action(action_index(STOCK))
        while position.is_chance_node():
            outcomes, weights = zip(*position.chance_outcomes(), strict=True)
            position.apply_action(rng.choices(outcomes, weights)[0])
        spiel[5 - position.engine_state().boards[seat].face_down] += 1
    bins = sorted(set(engine) | set(spiel))
    chi2 = sum((engine[b] - spiel[b]) ** 2 / (engine[b] + spiel[b]) for b in bins)
    assert len(bins) >= 4
    assert chi2 < {4: 16.27, 5: 18.47, 6: 20.52}[len(bins)]  # p = 0.001, bins - 1 df


# -- records, parameters, observations --------------------------------------------------------

@pytest.mark.parametrize("params", [
    {"players": 2, "preset": "kids"},
    {"players": 4, "preset": "first-to-9", "decks": 1},
    {"players": 3, "preset": "call-trash", "last_chance": True, "start_size": 4},
], ids=["kids", "one-pack-4", "call-trash-last-chance-3"])
def test_the_record_replays_to_the_same_state(params):
    game = load(**params)
    for seed in range(4):
        state = random_game(game, seed)
        record = state.record()
        assert record.replay() == state.engine_state()
        assert record.replay().phase is Phase.MATCH_OVER
        winner = record.replay().match_winner
        assert state.returns()[winner] == 1.0
    assert params.get("decks") != 1 or any(
        str(m).startswith("reshuffle") for m in record.moves)


def test_the_move_cap_ends_the_game_with_no_winner():
    game = load(preset="standard", max_moves=40)
    assert game.max_game_length() == 40
    state = random_game(game, 3)
    assert state.returns() == [0.0, 0.0]
    assert sum(1 for e in state.record().moves if e.seat is not None) == 40


def test_parameters_are_the_rules_fields():
    assert rules_from_params({"preset": "kids"}) == Rules.preset_named("kids")
    assert rules_from_params({"preset": "standard", "wild_ranks": "JK", "jokers_per_deck": 2,
                              "decks": 3, "start_size": 6, "rounds_to_win": 2,
                              "call_trash": True, "last_chance": True}) == Rules(
        wild_ranks=("J", "K"), jokers_per_deck=2, decks=3, start_size=6, rounds_to_win=2,
        call_trash=True, last_chance=True)
    assert rules_from_params({"wild_ranks": "none"}).wild_ranks == ()
    assert rules_from_params({"preset": "call-trash"}).call_trash
    assert load(players=3, preset="jokers").rules == Rules.preset_named("jokers")
    with pytest.raises(ValueError, match="start_size"):
        rules_from_params({"start_size": 11})
    with pytest.raises(ValueError, match="players"):
        load(players=5)


def test_observations_are_the_shared_encoding_of_each_seat_s_view():
    state = random_game(load(players=3, preset="kids"), 4,
                        stop=lambda s: len(s.history()) > 60 and not s.is_chance_node())
    for seat in range(3):
        seen = view(state.engine_state(), seat)
        assert np.array_equal(np.array(state.observation_tensor(seat), dtype=np.float32),
                              observation(seen))
        assert f'"seat":{seat}' in state.observation_string(seat)
    assert state.information_state_string(0) == state.history_str()
    assert "Round" in state.render(0)
    assert state.action_to_string(state.current_player(), action_index(STOCK)) == "stock"


def test_chance_outcomes_are_named_by_class():
    state = load(preset="kids").new_initial_state()
    assert state.is_chance_node()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "dealer 1"
    state.apply_action(0)
    state.apply_action(action_index(STOCK))
    names = {state.action_to_string(pyspiel.PlayerId.CHANCE, c) for c, _ in
             state.chance_outcomes()}
    assert names == {f"reveal {n}" for n in pub.CLASS_NAMES}
    assert "resolving stock" in str(state)


def test_the_information_state_tensor_is_declared_absent_and_is_absent():
    game = load(players=3)
    assert not game.get_type().provides_information_state_tensor
    assert game.get_type().provides_observation_tensor
    state = random_game(game, 2, stop=lambda s: len(s.history()) > 20)
    assert list(state.information_state_tensor(0)) == []
    assert len(state.observation_tensor(0)) == OBSERVATION_SIZE


def test_at_a_chance_node_in_a_chain_the_tensor_shows_the_position_before_the_move():
    game = load(preset="kids")
    state = game.new_initial_state()
    state.apply_action(0)
    before = [np.array(state.observation_tensor(s), dtype=np.float32) for s in range(2)]
    state.apply_action(action_index(STOCK))
    assert state.is_chance_node()
    for seat in range(2):
        now = np.array(state.observation_tensor(seat), dtype=np.float32)
        assert np.array_equal(now, before[seat])
        assert np.array_equal(now, observation(view(state.engine_state(), seat)))
    assert "resolving stock" in state.observation_string(0)


def test_evaluate_bots_plays_the_built_in_bots_as_pyspiel_bots():
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

    from trashcards.envs.openspiel import TrashBot, make_bots

    game = load(preset="kids")
    bots = make_bots(["greedy", "random"], seed=1)
    assert all(isinstance(bot, pyspiel.Bot) for bot in bots)
    totals = np.zeros(2)
    for k in range(30):
        returns = evaluate_bots(game.new_initial_state(), make_bots(["greedy", "random"], k),
                                np.random.RandomState(k))
        assert sorted(returns) == [-1.0, 1.0]
        totals += returns
    assert totals[0] > 10  # greedy beats random on kids boards most of the time
    # a search bot of OpenSpiel's against a built-in one, through the same loop
    searcher = mcts.MCTSBot(game, 2.0, 4, mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                            random_state=np.random.RandomState(0))
    state = random_game(game, 5, stop=lambda s: s.move_number() > 6 and not s.is_chance_node())
    returns = evaluate_bots(state, [searcher, TrashBot(1, "greedy")], np.random.RandomState(0))
    assert sorted(returns) == [-1.0, 1.0]
    with pytest.raises(ValueError, match="not to act"):
        TrashBot(1, "greedy").step(random_game(game, 1, stop=lambda s: s.current_player() == 0))
