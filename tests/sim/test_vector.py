"""The stepping API of a vectorized environment (trashcards.sim.vector): N tables, the
agent's legal-action mask and the public encoding computed by the kernel."""

from __future__ import annotations

import zlib

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("numba")

from test_differential import CONFIGS, bots_for  # noqa: E402

from trashcards.bots import make_bot  # noqa: E402
from trashcards.public import ACTIONS, SIZE, action_index, encode, legal_mask  # noqa: E402
from trashcards.rules import Rules  # noqa: E402
from trashcards.sim import fast  # noqa: E402
from trashcards.sim.arrays import load_state  # noqa: E402
from trashcards.sim.kernel import vector as kvector  # noqa: E402
from trashcards.sim.rng import KernelRandom  # noqa: E402
from trashcards.sim.tables import Table  # noqa: E402
from trashcards.sim.vector import VectorTables  # noqa: E402
from trashcards.state import new_match  # noqa: E402
from trashcards.views import view  # noqa: E402

STANDARD = Rules.preset_named("standard")


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_encoding_and_mask_equal_those_of_the_view(players: int) -> None:
    """Every state of a kernel match of every configuration, for every seat and a
    spectator: the kernel's encoding of its state equals public.encode of the view, and
    its mask equals public.legal_mask."""
    obs = np.zeros(SIZE, dtype=np.int32)
    mask = np.zeros(len(ACTIONS), dtype=np.uint8)
    compared = 0
    for number, (name, fields) in enumerate(CONFIGS):
        rules = Rules.from_dict(fields)
        record = fast.match_record(rules, bots_for(players, number),
                                   zlib.crc32(name.encode()), players)
        table = Table.of(rules, players)
        states = [new_match(rules, record.players)] + [s for s, _ in record.steps()]
        for state in states[::3]:
            st, _ = load_state(table, state)
            for seat in [*range(players), None]:
                kvector.encode(table.tab, st, -1 if seat is None else seat, obs)
                assert obs.tolist() == encode(view(state, seat)), (name, state.phase, seat)
            kvector.legal_mask(table.tab, st, mask)
            assert mask.tolist() == legal_mask(view(state)), (name, state.phase)
            compared += 1
    assert compared > 1000


def _agent_plays(rules: Rules, bots: list[str], agent: int, seeds: list[int],
                 index: int = 0) -> VectorTables:
    """Tables whose agent is the reference bot ``bots[agent]`` fed the kernel's numbers,
    playing match ``index`` of each seed; checks the encoding, the mask and the rewards
    at every step."""
    n = len(seeds)
    tables = VectorTables(rules, bots, n, agent_seats=agent)
    tables.reset(range(n), seeds, indices=[index] * n)
    deciders = [make_bot(bots[agent], KernelRandom(seed, index, agent)) for seed in seeds]
    won = np.zeros((n, 2), dtype=np.int64)
    while not tables.done.all():
        actions = np.zeros(n, dtype=np.int64)
        for i in range(n):
            v = tables.view(i)
            assert tables.obs[i].tolist() == encode(v)
            assert tables.mask[i].tolist() == legal_mask(v)
            if not tables.done[i]:
                assert v.to_act == agent
                actions[i] = action_index(deciders[i].choose(v))
        tables.step(actions)
        won[:, 0] += tables.agent_rounds
        won[:, 1] += tables.other_rounds
    for i in range(n):
        end = tables.state(i)
        assert won[i, 0] == end.rounds_won[agent]
        assert won[i, 1] == sum(end.rounds_won) - end.rounds_won[agent]
        assert tables.winner[i] == end.match_winner
        assert tables.mask[i].tolist() == [0] * len(ACTIONS)
    return tables


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "bots", "agent"), [
    ("standard", ["greedy", "random"], 0),
    ("call-trash", ["kid", "counter", "random"], 1),
    ("kings-wild", ["random", "sometimes", "greedy", "kid"], 3),
    ("last-chance", ["counter", "kid", "stockonly"], 2),
])
def test_an_agent_playing_a_bot_replays_the_kernels_match(preset: str, bots: list[str],
                                                          agent: int) -> None:
    """The same seeds and the same choices give the same matches: with the agent seat
    played by the reference bot fed that seat's stream, each table ends in exactly the
    state of the kernel's own match 0 of its seed."""
    rules = Rules.preset_named(preset)
    seeds = [11, 12, 13]
    tables = _agent_plays(rules, bots, agent, seeds)
    for i, seed in enumerate(seeds):
        match = fast.play_traced(rules, bots, seed, 0)
        assert tables.state(i) == match.end


@pytest.mark.numba_compile
def test_a_table_may_play_any_match_of_its_run() -> None:
    """``indices``: match k of the run with each seed, the very match play_traced plays."""
    bots = ["greedy", "counter"]
    tables = _agent_plays(STANDARD, bots, 1, [3, 4], index=5)
    for i, seed in enumerate([3, 4]):
        assert tables.state(i) == fast.play_traced(STANDARD, bots, seed, 5).end
    with pytest.raises(ValueError, match="one match index"):
        tables.reset([0], [1], indices=[-1])


@pytest.mark.numba_compile
def test_skip_illegal_plays_the_legal_tables_only() -> None:
    tables = VectorTables(STANDARD, ["greedy", "greedy"], 3)
    tables.reset(range(3), [1, 2, 3])
    before = tables.st.copy()
    actions = tables.mask.argmax(axis=1)
    actions[1] = 14  # call: not in these rules
    tables.step(actions, skip_illegal=True)
    assert tables.illegal.tolist() == [0, 1, 0]
    assert (tables.st[1] == before[1]).all()
    assert not (tables.st[0] == before[0]).all()
    assert not (tables.st[2] == before[2]).all()


@pytest.mark.numba_compile
def test_the_move_cap_stops_every_table_and_truncates() -> None:
    tables = VectorTables(Rules.preset_named("kids"), ["random", "random"], 4, max_moves=25)
    tables.reset(range(4), [1, 2, 3, 4])
    while not (tables.done | tables.truncated).all():
        tables.step(np.where(tables.done | tables.truncated, -1, tables.mask.argmax(axis=1)))
    assert tables.truncated.any()
    for i in range(4):
        if tables.truncated[i]:
            assert not tables.done[i]
            assert tables.moves[i] >= 25
        else:
            assert tables.done[i]


@pytest.mark.numba_compile
def test_illegal_actions_are_refused_and_nothing_is_played() -> None:
    tables = VectorTables(STANDARD, ["greedy", "greedy"], 3)
    tables.reset(range(3), [1, 2, 3])
    before = tables.st.copy()
    actions = tables.mask.argmax(axis=1)
    actions[1] = action_index(ACTIONS[-1])  # call: not in these rules
    with pytest.raises(ValueError, match="table 1: 14"):
        tables.step(actions)
    assert (tables.st == before).all()
    with pytest.raises(ValueError, match="one action per table"):
        tables.step([0, 0])
    tables.step(tables.mask.argmax(axis=1))
    assert not (tables.st == before).all()


@pytest.mark.numba_compile
def test_finished_tables_stay_finished_until_reset() -> None:
    tables = VectorTables(Rules.preset_named("classic"), ["greedy", "greedy"], 2)
    assert tables.done.all()  # nothing dealt yet
    tables.reset([0, 1], [5, 6])
    while not tables.done.all():
        tables.step(np.where(tables.done, -1, tables.mask.argmax(axis=1)))
    finished = tables.st.copy()
    tables.step([3, -7])  # ignored: both matches are over
    assert (tables.st == finished).all()
    assert tables.agent_rounds.tolist() == [0, 0]
    tables.reset([1], [7], agent_seats=[1])
    assert tables.done.tolist() == [1, 0]
    assert tables.obs[1][99] == 1  # the viewer is the new agent seat
    assert tables.view(1).to_act == 1


def test_bad_resets_are_refused() -> None:
    tables = VectorTables(STANDARD, ["greedy", "greedy"], 2)
    with pytest.raises(ValueError, match="as many seeds"):
        tables.reset([0, 1], [1])
    with pytest.raises(ValueError, match="tables are 0 to 1"):
        tables.reset([2], [1])
    with pytest.raises(ValueError, match="agent seat"):
        tables.reset([0], [1], agent_seats=[2])
    with pytest.raises(ValueError, match="agent seats"):
        VectorTables(STANDARD, ["greedy", "greedy"], 2, agent_seats=[0, 5])


@pytest.mark.numba_compile
def test_the_module_example_runs() -> None:
    import doctest

    from trashcards.sim import vector

    result = doctest.testmod(vector)
    assert result.attempted >= 4
    assert result.failed == 0


@pytest.mark.numba_compile
def test_seats_played_outside_get_their_views_packed_in_table_order() -> None:
    """Each round trip, the outside seats' callback gets the waiting tables in order, the
    seat to act at each, that seat's public encoding and legal actions as the rules
    engine's view gives them, and the float observation the numpy recipe makes of that
    encoding; fresh arrays each time (changing the encodings and observations changes
    nothing)."""
    from trashcards.envs.observation import observation_batch, observation_recipe

    rules = Rules.preset_named("call-trash")
    trips = []

    def outside(which, seats, public, masks, floats):
        assert (which == np.sort(which)).all()
        assert len(set(which.tolist())) == len(which)
        for j, i in enumerate(which.tolist()):
            seen = tables.view(i, int(seats[j]))
            assert seen.to_act == seats[j]
            assert (public[j] == encode(seen)).all()
            assert (masks[j] == legal_mask(seen)).all()
        assert floats.dtype == np.float32
        assert (floats == observation_batch(public, rules)).all()
        acts = np.array([np.flatnonzero(m)[0] for m in masks], dtype=np.int64)
        trips.append(len(which))
        public[:] = -1  # the tables never read these again
        floats[:] = 7.0
        return acts

    tables = VectorTables(rules, [None, "greedy", None], 12, agent_seats=1,
                          outside=outside, recipe=observation_recipe(rules))
    tables.reset(range(12), range(12))
    for _ in range(40):
        tables.step(tables.mask.argmax(axis=1), skip_illegal=True)
    assert sum(trips) > 40
    assert max(trips) > 1
