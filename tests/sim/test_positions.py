"""The kernel from any position plays exactly the reference game (issue 12, item 2).

Positions are taken out of real games: kernel matches of every preset and variant (the
configurations of test_differential.py), 2–4 players, replayed by the engine and stopped
at many points — every phase, mid-round and mid-match, after reshuffles, while a claim
waits or a last-chance lap runs. From each:

* kernel rollouts (:mod:`trashcards.sim.rollouts`) and reference-engine rollouts
  (:mod:`trashcards.sim.positions`: the engine's bots fed
  :class:`~trashcards.sim.rng.KernelRandom`, chance drawn by the same Fisher–Yates)
  give identical outcomes — round winners, match winner, rounds — and end in the very
  same state, to the end of the round and to the end of the match;
* the kernel's deal sampler gives exactly the deals of its Python reference, and a deal
  never changes anything public;
* the kernel's batch evaluation equals the reference evaluation, action by action and
  sample by sample.
"""

from __future__ import annotations

import zlib
from collections import Counter
from itertools import chain
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from test_differential import CONFIGS, FEW_WILDS, bots_for, tables

from trashcards.rules import Rules
from trashcards.sim import fast, positions, rollouts
from trashcards.sim.arrays import load_state, to_state
from trashcards.sim.tables import Table
from trashcards.state import Due, Phase, State, new_match
from trashcards.views import view

#: Matches per configuration and table size, and positions per match: the first of each
#: kind not seen yet in it, and some more (26 × 3 × 2 × about 16: 2,500 positions).
MATCHES = 2
PER_MATCH = 16
#: Kinds every run of the fixed tables must have compared.
KINDS = {"draw", "wild", "swap", "reshuffle due", "deck due", "dealer due", "round over",
         "match over", "claim pending", "final lap", "stock public", "mid-match",
         "must play", "called"}
#: Kinds too rare for those runs, sought on a table prone to them.
RARE = {"penalty reshuffle due", "void round"}


def kinds(state: State) -> set[str]:
    """What kind of position ``state`` is."""
    out = {state.phase.value.replace("_", " ")}
    if state.phase is Phase.CHANCE:
        out = {{Due.DEALER: "dealer due", Due.DECK: "deck due", Due.RESHUFFLE: "reshuffle due",
                Due.PENALTY_RESHUFFLE: "penalty reshuffle due"}[state.due]}  # type: ignore[index]
    if state.unclaimed:
        out.add("claim pending")
    if state.final_from is not None:
        out.add("final lap")
    if state.stock_public:
        out.add("stock public")
    if sum(state.rounds_won) and state.phase is not Phase.MATCH_OVER:
        out.add("mid-match")
    if state.must_play:
        out.add("must play")
    if state.called:
        out.add("called")
    if state.phase is Phase.ROUND_OVER and not state.round_winners:
        out.add("void round")
    return out


def game_positions(rules: Rules, bots: list[str], seed: int, index: int) -> list[State]:
    """Positions out of kernel match ``index``, replayed by the engine."""
    record = fast.match_record(rules, bots, seed, index)
    states = [new_match(rules, record.players)] + [s for s, _ in record.steps()]
    chosen: list[int] = []
    seen: set[str] = set()
    for i, state in enumerate(states):
        new = kinds(state) - seen
        if new:
            chosen.append(i)
            seen |= new
    stride = max(1, len(states) // max(1, PER_MATCH - len(chosen)))
    chosen += range(stride // 2, len(states), stride)
    return [states[i] for i in sorted(set(chosen))]


def check_position(state: State, bots: list[str], seed: int, match_too: bool) -> None:
    """Kernel and reference agree from ``state``: rollouts, deals, evaluation."""
    table = Table.of(state.rules, state.players)
    st, ky = load_state(table, state)
    assert to_state(table, st, ky, state.names) == state
    for horizon in ("round", "match") if match_too else ("round",):
        batch = rollouts.rollouts(state, bots, 2, seed, horizon)  # type: ignore[arg-type]
        for k in range(2):
            mine = rollouts.rollout(state, bots, seed, k, horizon)  # type: ignore[arg-type]
            ref = positions.rollout(state, bots, seed, k, horizon)  # type: ignore[arg-type]
            assert mine[:3] == ref[:3], (horizon, k)
            assert mine.end == ref.end, (horizon, k)
            assert (batch.winners[k], batch.match_winner[k], batch.rounds[k]) == ref[:3]
    if state.phase is Phase.CHANCE and state.due in (Due.RESHUFFLE, Due.PENALTY_RESHUFFLE):
        return  # a view then does not show whose turn it is
    seat = state.to_act if state.to_act is not None else 0
    v = view(state, seat)
    deals = rollouts.sample_deals(v, 2, seed)
    assert deals == [positions.determinize(v, seed, k) for k in range(2)]
    for deal in deals:
        assert view(deal, seat) == v  # a deal changes nothing public
    if v.to_act is None:
        return
    got = rollouts.evaluate(v, bots, 2, seed)
    ref = positions.evaluate(v, v.legal, bots, 2, seed)
    assert got.actions == v.legal
    for a in range(len(v.legal)):
        assert [tuple(o[:3]) for o in ref[a]] == list(zip(
            got.winners[a].tolist(), got.match_winner[a].tolist(), got.rounds[a].tolist(),
            strict=True)), v.legal[a]


@pytest.mark.slow
@pytest.mark.parametrize("players", [2, 3, 4])
def test_kernel_rollouts_from_game_positions_equal_the_engines(players: int) -> None:
    seen: Counter[str] = Counter()
    for number, (name, fields) in enumerate(CONFIGS):
        rules = Rules.from_dict(fields)
        seed = zlib.crc32(f"{name}/{players}/positions".encode())
        bots = bots_for(players, number)
        for index in range(MATCHES):
            for i, state in enumerate(game_positions(rules, bots, seed, index)):
                seen.update(kinds(state))
                check_position(state, bots, seed + i, match_too=i % 5 == 0)
    assert not KINDS - set(seen), KINDS - set(seen)


@pytest.mark.slow
def test_rare_positions_penalty_reshuffle_and_void_round() -> None:
    """The call-trash penalty card due from an empty stock, and a stuck round ended with
    no winner (with the position just before each): four boards on one pack with no
    wilds, call-trash and last chance make them common enough."""
    rules = Rules.from_dict(FEW_WILDS["no-wilds-one-pack+call+last"])
    bots = ["random", "kid", "random", "kid"]
    seen: Counter[str] = Counter()
    for index in range(40):
        record = fast.match_record(rules, bots, 2, index)
        states = [s for s, _ in record.steps()]
        for i, state in enumerate(states[1:], start=1):
            rare = kinds(state) & RARE
            if rare and not rare <= set(seen):
                seen.update(rare)
                check_position(states[i - 1], bots, index, match_too=False)
                check_position(state, bots, index, match_too=True)
        if set(seen) >= RARE:
            break
    assert set(seen) >= RARE, seen


@pytest.mark.slow
@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), seed=st.integers(-(2**70), 2**70), index=st.integers(0, 2**40),
       pick=st.integers(0, 10**6))
def test_any_table_any_position(table: tuple[Rules, list[str]], seed: int, index: int,
                                pick: int) -> None:
    rules, bots = table
    found = game_positions(rules, bots, seed, index)
    check_position(found[pick % len(found)], bots, seed, match_too=pick % 3 == 0)


@pytest.mark.numba_compile
def test_rollouts_are_seeded_and_continue_a_run() -> None:
    rules = Rules.preset_named("standard")
    bots = ["random", "kid"]
    state = game_positions(rules, bots, 5, 0)[3]
    whole = rollouts.rollouts(state, bots, 40, 9, "match")
    parts = [rollouts.rollouts(state, bots, n, 9, "match", first) for first, n in
             ((0, 15), (15, 25))]
    for field in ("winners", "match_winner", "rounds"):
        joined: Any = list(chain.from_iterable(getattr(p, field).tolist() for p in parts))
        assert getattr(whole, field).tolist() == joined
    other = rollouts.rollouts(state, bots, 40, 10, "match")
    assert other.match_winner.tolist() != whole.match_winner.tolist()
    assert set(whole.match_winner.tolist()) <= {0, 1}
    assert (whole.rounds >= 1).all()
