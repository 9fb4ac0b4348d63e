"""N tables stepped at once, for a vectorized environment: one agent seat per table, the
other seats played by the kernel's bots, the agent's legal-action mask and the public
encoding (:mod:`trashcards.public`) written after every step.

Table ``i`` holds its state in row ``i`` of ``st``/``ky``. :func:`reset` starts a new match
(match ``k`` of the table's seed key); :func:`step` checks each table's action (an index
in the fixed action list) and lists the tables to play; then :func:`advance` plays them
on, to the agent's next decision (the first one, after a reset), the match's end, or the
table's move cap (``tab[T_MOVE_CAP]`` player actions of every seat; 0: none), and
reports, per table, the rounds won by the agent and by the others during the call, a
reward made of given values of each round's and the match's outcome, whether the match
is over or at its cap, and its winner. Only :func:`advance` plays the game, so the game
is compiled into one entry point of the vector tables, not three.
:func:`observation_batch` turns public encodings into the float observation of the
environments (its recipe, a table of how each float is made, comes from
:mod:`trashcards.envs.observation`).
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import numpy.typing as npt

from ...public import (
    BOARD_SIZE,
    CALLED,
    CLASSES,
    DEALER,
    DISCARD_COUNTS,
    FINAL_FROM,
    IN_HAND,
    MATCH_WINNER,
    MUST_PLAY,
    PHASE,
    PLAYERS,
    ROUND,
    ROUND_WINNERS,
    ROUNDS_WON,
    SLOT_DOWN,
    SLOT_NATURAL,
    SLOT_WILD,
    SLOTS,
    STOCK_COUNT,
    STOCK_KNOWN,
    STOCK_KNOWN_COUNTS,
    TO_ACT,
    TOP_DISCARD,
    UNCLAIMED,
    UNSEEN_COUNTS,
    VIEWER,
)
from .game import new_match, run
from .jit import kjit
from .jit import unowned as _unowned
from .layout import (
    ACC_SIZE,
    ACTION_CODES,
    ACTION_COUNT,
    B_TAKES_FORCED,
    H_ROUNDS,
    O_BCARD,
    O_DECK,
    O_DOWN,
    O_SIZE,
    O_WILD,
    O_WON,
    OVERFLOW_SIZE,
    PH_DEAL,
    PH_DEALER,
    PH_DRAW,
    PH_MATCH_OVER,
    PH_ROUND_OVER,
    PH_SWAP,
    PH_WILD,
    R_DECIDE,
    R_MATCH_OVER,
    R_ROUND_OVER,
    ROUNDS_HIST,
    S_CALLED,
    S_DEALER,
    S_DL,
    S_FINAL_FROM,
    S_HAND,
    S_MATCH_WINNER,
    S_MOVES,
    S_MUST_PLAY,
    S_PHASE,
    S_ROUND,
    S_SE,
    S_SP,
    S_STOCK_PUBLIC,
    S_TURN,
    S_UNCLAIMED,
    S_WINNERS,
    T_CALL_TRASH,
    T_CARDS,
    T_CLASS,
    T_CLASS_TOTAL,
    T_MOVE_CAP,
    T_PLAYERS,
    T_ROLES,
    TURNS_HIST,
)

__all__ = ["DISABLED", "NEXT_STEP", "OBS_BIT", "OBS_CONSTANT", "OBS_EQUAL", "OBS_SCALE",
           "SAME_STEP", "Features", "Scratch", "advance", "encode", "features",
           "first_illegal", "gather", "legal_mask", "observation_batch", "reset", "scratch",
           "settle", "split_recipe", "step"]

Array = npt.NDArray[Any]
#: The observation step inside the kernel: the recipe as :func:`split_recipe` packs it
#: (operations, parameters, counts), the float32 array the floats go to ((N, F); 0 rows:
#: not written).
Features = tuple[Array, Array, Array, Array]
#: The game's statistics and scratch arrays (:func:`scratch`): ``acc``, ``thist``,
#: ``rhist``, ``ovf``, ``tmp``, ``log``, ``lp`` of :func:`~.game.run`.
Scratch = tuple[Array, Array, Array, Array, Array, Array, Array]

_CODES = np.array(ACTION_CODES, dtype=np.int64)
#: The public phase code of each kernel phase (PH_DRAW, PH_RESHUFFLE, PH_WILD, PH_SWAP,
#: PH_PENALTY, PH_DEAL, PH_DEALER, PH_ROUND_OVER, PH_MATCH_OVER).
_PUBLIC_PHASE = np.array([0, 3, 1, 2, 3, 3, 3, 4, 5], dtype=np.int64)
assert (PH_DRAW, PH_WILD, PH_SWAP, PH_ROUND_OVER, PH_MATCH_OVER) == (0, 2, 3, 7, 8)
_WILD_ROLE = 0
_U = np.uint64


@kjit(inline=True)
def legal_mask(tab: Array, st: Array, out: Array) -> None:
    """``out[a]`` = 1 for each action of the fixed list the seat to act may take (all 0
    when no one is to act)."""
    for a in range(ACTION_COUNT):
        out[a] = 0
    phase = st[S_PHASE]
    if phase != PH_DRAW and not PH_WILD <= phase <= PH_SWAP:
        return
    seat = st[S_TURN]
    d = st[O_DOWN + seat]
    if phase == PH_DRAW:
        out[0] = 1
        dl = st[S_DL]
        if dl > 0:
            r = tab[T_ROLES + st[O_DECK + tab[T_CARDS] + dl - 1]]
            if r > 0:
                w = st[O_WILD + seat]
                out[1] = r <= st[O_SIZE + seat] and ((d | w) >> (r - 1)) & 1 != 0
            else:
                out[1] = r == _WILD_ROLE and d != 0
    elif phase == PH_WILD:
        for k in range(10):
            out[2 + k] = (d >> k) & 1
        out[13] = st[S_MUST_PLAY] == 0
    else:
        out[12] = 1
        out[13] = st[S_MUST_PLAY] == 0
    out[14] = tab[T_CALL_TRASH] != 0 and st[S_CALLED] == 0


@kjit(inline=True)
def encode(tab: Array, st: Array, viewer: int, out: Array) -> None:
    """The public encoding of ``st`` for ``viewer`` (:func:`trashcards.public.encode`)."""
    players = tab[T_PLAYERS]
    ncards = tab[T_CARDS]
    dsc = O_DECK + ncards
    phase = st[S_PHASE]
    decision = phase == PH_DRAW or PH_WILD <= phase <= PH_SWAP
    dealt = phase != PH_DEAL and phase != PH_DEALER
    out[PLAYERS] = players
    out[PHASE] = _PUBLIC_PHASE[phase]
    out[TO_ACT] = st[S_TURN] if decision else -1
    hand = st[S_HAND]
    out[IN_HAND] = tab[T_CLASS + hand] if PH_WILD <= phase <= PH_SWAP else -1
    dl = st[S_DL] if dealt else 0
    out[TOP_DISCARD] = tab[T_CLASS + st[dsc + dl - 1]] if dl > 0 else -1
    sp = st[S_SP]
    se = st[S_SE]
    out[STOCK_COUNT] = se - sp if dealt else 0
    public = st[S_STOCK_PUBLIC] != 0
    out[STOCK_KNOWN] = public
    out[CALLED] = st[S_CALLED]
    out[MUST_PLAY] = st[S_MUST_PLAY]
    out[UNCLAIMED] = st[S_UNCLAIMED]
    out[FINAL_FROM] = st[S_FINAL_FROM]
    out[ROUND_WINNERS] = st[S_WINNERS]
    out[MATCH_WINNER] = st[S_MATCH_WINNER]
    out[DEALER] = st[S_DEALER]
    out[ROUND] = st[S_ROUND]
    for c in range(CLASSES):
        out[DISCARD_COUNTS + c] = 0
        out[UNSEEN_COUNTS + c] = tab[T_CLASS_TOTAL + c]
        out[STOCK_KNOWN_COUNTS + c] = 0
    for s in range(4):
        if s >= players:
            out[ROUNDS_WON + s] = 0
            out[BOARD_SIZE + s] = 0
            for k in range(10):
                out[SLOTS + 10 * s + k] = 0
            continue
        size = st[O_SIZE + s]
        out[ROUNDS_WON + s] = st[O_WON + s]
        out[BOARD_SIZE + s] = size
        d = st[O_DOWN + s]
        w = st[O_WILD + s]
        for k in range(10):
            code = 0
            if dealt and k < size:
                if (d >> k) & 1:
                    code = SLOT_DOWN
                else:
                    code = SLOT_WILD if (w >> k) & 1 else SLOT_NATURAL
                    out[_U(UNSEEN_COUNTS) + _U(tab[_U(T_CLASS + st[O_BCARD + 10 * s + k])])] -= 1
            out[SLOTS + 10 * s + k] = code
    # the card counts index unsigned: numba checks a signed index for a negative value
    for i in range(_U(dsc), _U(dsc + dl)):
        cls = _U(tab[_U(T_CLASS + st[i])])
        out[_U(DISCARD_COUNTS) + cls] += 1
        out[_U(UNSEEN_COUNTS) + cls] -= 1
    if out[IN_HAND] >= 0:
        out[UNSEEN_COUNTS + out[IN_HAND]] -= 1
    if public:
        for i in range(_U(O_DECK + sp), _U(O_DECK + se)):
            out[_U(STOCK_KNOWN_COUNTS) + _U(tab[_U(T_CLASS + st[i])])] += 1
    out[VIEWER] = viewer


@kjit(inline=True)
def _report(tab: Array, st: Array, agent: int, before: Array, i: int, value: float,
            mask: Array, obs: Array, agent_rounds: Array, other_rounds: Array, reward: Array,
            done: Array, truncated: Array, winner: Array, feat: Features) -> None:
    mine = 0
    others = 0
    for s in range(tab[T_PLAYERS]):
        gained = st[O_WON + s] - before[i, s]
        if s == agent:
            mine += gained
        else:
            others += gained
    agent_rounds[i] = mine
    other_rounds[i] = others
    reward[i] = value
    over = st[S_PHASE] == PH_MATCH_OVER
    done[i] = over
    truncated[i] = _capped(tab, st)
    winner[i] = st[S_MATCH_WINNER]
    legal_mask(tab, st, mask[i])
    if st[S_TURN] != agent:  # a stop at the move cap on another seat's decision
        for a in range(ACTION_COUNT):
            mask[i, a] = 0
    encode(tab, st, agent, obs[i])
    _write_features(obs, i, feat)


@kjit(inline=True)
def _write_features(obs: Array, i: int, feat: Features) -> None:
    """The float observation of encoding ``obs[i]`` into ``feat[3][i]``, when that array
    has rows (the observation step inside the kernel): the recipe of
    :func:`observation_batch` as :func:`split_recipe` packs it — zeros, then the nonzero
    constants, each one-hot group in one test, the scaled numbers and the bits.

    Every index is unsigned (numba checks a signed index for a negative value, which
    made this step half again as long), and a one-hot group's test is one unsigned
    comparison: ``x - p0`` wraps around past its length when ``x < p0``."""
    out = feat[3]
    if out.shape[0] == 0:
        return
    row = obs[i]
    o = out[i]
    key = np.uint64(row[PLAYERS] * 4 + row[VIEWER])
    for f in range(o.shape[0]):
        o[f] = 0.0
    ops = feat[0][key]
    params = feat[1][key]
    counts = feat[2][key]
    constants = counts[0]
    groups = constants + counts[1]
    scaled = groups + counts[2]
    bits = scaled + counts[3]
    one = np.uint64(1)
    j = np.uint64(0)
    while j < constants:
        o[ops[j, 0]] = params[j]
        j += one
    while j < groups:  # x == p0 + v for v < length: float t0 + v is 1
        v = np.uint64(row[ops[j, 1]]) - ops[j, 2]
        if v < ops[j, 3]:
            o[ops[j, 0] + v] = 1.0
        j += one
    while j < scaled:
        o[ops[j, 0]] = row[ops[j, 1]] * params[j]
        j += one
    while j < bits:
        o[ops[j, 0]] = (row[ops[j, 1]] >> ops[j, 2]) & 1
        j += one


def split_recipe(kinds: Array, sources: Array, params: Array) -> tuple[Array, Array, Array]:
    """The recipe of :func:`observation_batch` packed for the kernel's observation step:
    per key, operations ``(target, source, int parameter, length)`` with a float
    parameter each, in four runs whose lengths are ``counts[key]``: the nonzero constants,
    the one-hot groups (consecutive floats ``x == p0``, ``x == p0 + 1`` … of one source
    ``x``, made by one test), ``x · p`` and bit ``p`` of ``x``. It makes the same floats.
    The operations and counts are unsigned (uint64; a negative ``p0`` wraps around)."""
    rows, width = kinds.shape
    packed: list[list[list[tuple[tuple[int, int, int, int], float]]]] = []
    for r in range(rows):
        runs: list[list[tuple[tuple[int, int, int, int], float]]] = [[], [], [], []]
        for f in range(width):
            kind, src, p = int(kinds[r, f]), int(sources[r, f]), float(params[r, f])
            if kind == OBS_CONSTANT:
                if p != 0.0:
                    runs[0].append(((f, 0, 0, 0), p))
            elif kind == OBS_EQUAL:
                if p != round(p):
                    raise ValueError("x == p needs a whole p")
                last = runs[1][-1][0] if runs[1] else None
                if (last is not None and last[1] == src and last[0] + last[3] == f
                        and last[2] + last[3] == int(p)):
                    runs[1][-1] = ((last[0], src, last[2], last[3] + 1), 0.0)
                else:
                    runs[1].append(((f, src, int(p), 1), 0.0))
            elif kind == OBS_SCALE:
                runs[2].append(((f, src, 0, 0), p))
            else:
                runs[3].append(((f, src, int(p), 0), 0.0))
        packed.append(runs)
    most = max(1, max(sum(len(run) for run in runs) for runs in packed))
    ops = np.zeros((rows, most, 4), dtype=np.uint64)
    values = np.zeros((rows, most), dtype=np.float64)
    counts = np.zeros((rows, 4), dtype=np.uint64)
    for r, runs in enumerate(packed):
        at = 0
        for k, part in enumerate(runs):
            counts[r, k] = len(part)
            for op, value in part:
                ops[r, at] = [x % 2**64 for x in op]  # p0 < 0 wraps: x - p0 too
                values[r, at] = value
                at += 1
    return ops, values, counts


@kjit(inline=True)
def _capped(tab: Array, st: Array) -> bool:
    """The match is not over and has had its move cap of player actions."""
    cap = tab[T_MOVE_CAP]
    return bool(st[S_PHASE] != PH_MATCH_OVER and cap > 0 and st[S_MOVES] >= cap)


def scratch() -> Scratch:
    """The game's statistics and scratch arrays for :func:`advance` (the vector tables
    keep one set: nothing is allocated per step)."""
    return (np.zeros(ACC_SIZE, dtype=np.int64), np.zeros(TURNS_HIST, dtype=np.int64),
            np.zeros(ROUNDS_HIST, dtype=np.int64), np.zeros((OVERFLOW_SIZE, 2), dtype=np.int64),
            np.zeros(16, dtype=np.int64), np.zeros(1, dtype=np.int32),
            np.zeros(1, dtype=np.int64))


@kjit(inline=True)
def _unowned_features(feat: Features) -> Features:
    return _unowned(feat[0]), _unowned(feat[1]), _unowned(feat[2]), _unowned(feat[3])


@kjit(inline=True)
def _unowned_scratch(work: Scratch) -> Scratch:
    return (_unowned(work[0]), _unowned(work[1]), _unowned(work[2]), _unowned(work[3]),
            _unowned(work[4]), _unowned(work[5]), _unowned(work[6]))


@kjit()
def advance(tab: Array, st: Array, ky: Array, bots: Array, agent: Array, tables: Array,
            pending: Array, round_values: Array, match_values: Array, before: Array,
            mask: Array, obs: Array, agent_rounds: Array, other_rounds: Array,
            reward: Array, done: Array, truncated: Array, winner: Array, waiting: Array,
            other_obs: Array, other_mask: Array, feat: Features, work: Scratch) -> int:
    """Tables ``tables[j]`` play on from where they stand, the first decision taken by
    action ``pending[j]`` (an index in the fixed action list; -1: none; the caller has
    checked it is legal), to the agent's next
    decision, the match's end, the move cap, or a decision of a seat decided outside
    (bot code < 0; at code ``B_TAKES_FORCED`` one with a choice: a decision with one
    legal action is taken here). ``reward[i]`` gains the values of what ends on the way (see
    :func:`step`). A table stopped at an outside seat's decision gets ``waiting[i]`` = 1,
    that seat's legal actions in ``other_mask[i]`` and its public encoding in
    ``other_obs[i]``; every other table reports as :func:`step` says (rounds counted
    from ``before[i]``). Returns how many tables wait. ``work``: :func:`scratch`.

    The one kernel function that plays the game for the vector tables (:func:`reset`
    and :func:`step` only prepare the tables for it): LLVM inlines the game into it
    once, and it is compiled once."""
    tab, st, ky, bots, agent = (_unowned(tab), _unowned(st), _unowned(ky), _unowned(bots),
                                _unowned(agent))
    tables, pending, before = _unowned(tables), _unowned(pending), _unowned(before)
    round_values, match_values = _unowned(round_values), _unowned(match_values)
    mask, obs, reward = _unowned(mask), _unowned(obs), _unowned(reward)
    agent_rounds, other_rounds = _unowned(agent_rounds), _unowned(other_rounds)
    done, truncated, winner = _unowned(done), _unowned(truncated), _unowned(winner)
    waiting, other_obs, other_mask = _unowned(waiting), _unowned(other_obs), _unowned(other_mask)
    feat = _unowned_features(feat)
    acc, thist, rhist, ovf, tmp, log, lp = _unowned_scratch(work)
    count = 0
    for j in range(tables.shape[0]):
        i = tables[j]
        row = st[i]
        seat = agent[i]
        value = 0.0
        act = _CODES[pending[j]] if pending[j] >= 0 else -1
        waits = False  # at a decision of a seat played outside, with a choice
        while True:
            status = run(tab, row, ky[i], bots, seat, act, H_ROUNDS, acc, thist, rhist, ovf,
                         tmp, False, log, lp)
            act = -1
            if status in (R_ROUND_OVER, R_MATCH_OVER):
                value += round_values[seat, row[S_WINNERS]]
            if status == R_ROUND_OVER:
                continue
            if status != R_DECIDE or row[S_TURN] == seat or _capped(tab, row):
                break
            legal_mask(tab, row, other_mask[i])
            if bots[row[S_TURN]] == B_TAKES_FORCED:
                act = _only_action(other_mask[i])
            if act < 0:
                waits = True
                break
        if status == R_MATCH_OVER:
            value += match_values[seat, row[S_MATCH_WINNER]]
        if waits:
            waiting[i] = 1
            reward[i] += value
            encode(tab, row, row[S_TURN], other_obs[i])
            count += 1
        else:
            waiting[i] = 0
            _report(tab, row, seat, before, i, reward[i] + value, mask, obs, agent_rounds,
                    other_rounds, reward, done, truncated, winner, feat)
    return count


@kjit(inline=True)
def _only_action(mask: Array) -> int:
    """The kernel action of the one legal action of ``mask``, or -1 when there are
    more."""
    only = -1
    for a in range(ACTION_COUNT):
        if mask[a]:
            if only >= 0:
                return -1
            only = a
    return _CODES[only] if only >= 0 else -1


@kjit()
def gather(waiting: Array, st: Array, other_obs: Array, other_mask: Array, tables: Array,
           seats: Array, public: Array, masks: Array, feat: Features) -> None:
    """The decisions :func:`advance` stopped at, packed for the seats played outside, in
    table order: for the ``m``-th waiting table ``tables[m]``, the seat to act
    ``seats[m]``, its public encoding ``public[m]``, its legal actions ``masks[m]`` and,
    when ``feat[3]`` has rows, its float observation ``feat[3][m]`` (the recipe of
    :func:`_write_features`: what :func:`observation_batch` makes of ``public[m]``).
    The arrays have one row per waiting table. One pass instead of numpy's selections
    and a second pass of the generic recipe: about a quarter of a step's time with a
    numpy MLP opponent (docs/envs.md)."""
    m = 0
    for i in range(waiting.shape[0]):
        if waiting[i] == 0:
            continue
        tables[m] = i
        seats[m] = st[i, S_TURN]
        for k in range(public.shape[1]):
            public[m, k] = other_obs[i, k]
        for a in range(ACTION_COUNT):
            masks[m, a] = other_mask[i, a]
        _write_features(public, m, feat)
        m += 1


@kjit()
def first_illegal(actions: Array, masks: Array) -> int:
    """The first row whose action is not one of its legal actions (``masks`` (M, 15)),
    or -1 when every one is legal."""
    for j in range(actions.shape[0]):
        a = actions[j]
        if a < 0 or a >= ACTION_COUNT or masks[j, a] == 0:
            return j
    return -1


@kjit()
def reset(tab: Array, st: Array, ky: Array, tables: Array, skeys: Array, indices: Array,
          before: Array, reward: Array) -> None:
    """Tables ``tables[j]`` start match ``indices[j]`` of seed key ``skeys[j]``: dealt
    nothing yet, no rounds counted, no reward. :func:`advance` with no values and no
    pending actions then plays them to the agent's first decision (or, rarely, the
    match's end or the move cap), or to a decision of a seat decided outside: a reset
    scores nothing."""
    st, ky, tables, before, reward = (_unowned(st), _unowned(ky), _unowned(tables),
                                      _unowned(before), _unowned(reward))
    for j in range(tables.shape[0]):
        i = tables[j]
        new_match(tab, st[i], ky[i], skeys[j], indices[j])
        for s in range(4):
            before[i, s] = 0
        reward[i] = 0.0


@kjit()
def step(tab: Array, st: Array, actions: Array, before: Array, agent_rounds: Array,
         other_rounds: Array, reward: Array, illegal: Array, refuse: bool, waiting: Array,
         obs: Array, feat: Features, tables: Array, pending: Array) -> int:
    """Prepare a step: each table whose match goes on (not over, not at its move cap)
    is to take its agent's action ``actions[i]`` (an index in the fixed action list);
    :func:`advance` then plays the tables listed in ``tables[:n]`` with the actions
    ``pending[:n]`` to the agent's next decision, the match's end or the move cap (or,
    with seats decided outside, to one of their decisions), where ``n`` is the number
    returned.

    ``reward[i]`` is then the sum, in order, of ``round_values[agent, w]`` for every
    round that ended during the call (``w``: the bit mask of its winners, 0 for a void
    round), plus ``match_values[agent, winner]`` if the match ended.

    Every action is checked first; ``illegal[i]`` marks the tables at fault and their
    number is returned as a negative number. With ``refuse``, one illegal action means
    nothing is to be played; without, only the tables at fault are left as they are
    (reporting no rounds and no reward). Tables whose match is over or at its cap are
    left as they are and report no rounds and no reward."""
    st, actions, before = _unowned(st), _unowned(actions), _unowned(before)
    agent_rounds, other_rounds = _unowned(agent_rounds), _unowned(other_rounds)
    reward, illegal, waiting = _unowned(reward), _unowned(illegal), _unowned(waiting)
    obs, tables, pending = _unowned(obs), _unowned(tables), _unowned(pending)
    feat = _unowned_features(feat)
    legal = np.zeros(ACTION_COUNT, dtype=np.uint8)
    bad = 0
    for i in range(st.shape[0]):
        illegal[i] = 0
        waiting[i] = 0
        if st[i, S_PHASE] == PH_MATCH_OVER or _capped(tab, st[i]):
            continue
        a = actions[i]
        legal_mask(tab, st[i], legal)
        if a < 0 or a >= ACTION_COUNT or legal[a] == 0:
            illegal[i] = 1
            bad += 1
    if bad and refuse:
        return -bad
    live = 0
    for i in range(st.shape[0]):
        row = st[i]
        if row[S_PHASE] == PH_MATCH_OVER or _capped(tab, row) or illegal[i]:
            agent_rounds[i] = 0
            other_rounds[i] = 0
            reward[i] = 0.0
            _write_features(obs, i, feat)  # unchanged, into a fresh array maybe
            continue
        tables[live] = i
        pending[live] = actions[i]
        live += 1
        for s in range(tab[T_PLAYERS]):
            before[i, s] = row[O_WON + s]
        reward[i] = 0.0
    return live


#: The autoreset modes of :func:`settle` (Gymnasium's ``AutoresetMode``).
NEXT_STEP: Final = 0
SAME_STEP: Final = 1
DISABLED: Final = 2


@kjit()
def settle(illegal: Array, reward: Array, done: Array, truncated: Array, ended: Array,
           last_terminated: Array, mode: int, illegal_reward: float, rewards: Array,
           terminated: Array, truncations: Array, faults: Array) -> tuple[int, int]:
    """What the vector environment's step reports, after :func:`step` with illegal
    actions skipped, in one pass over the tables: ``ended[i]``, the table ended at an
    earlier step (its action was ignored); ``last_terminated``, the terminations reported
    then. Writes ``faults`` (an illegal action of a table not ended), ``rewards`` (the
    step's, ``illegal_reward`` for a fault), ``terminated`` (over, or a fault) and
    ``truncations`` (at the cap and not terminated); an ended table reports, by ``mode``:
    NEXT_STEP, nothing (it is dealt anew: reward 0, neither flag); DISABLED, its end
    again with reward 0; SAME_STEP never has one. Returns the number of faults and of
    tables that terminated or were truncated."""
    faulty = 0
    over = 0
    for i in range(done.shape[0]):
        waiting = ended[i]
        bad = illegal[i] != 0 and not waiting
        value = illegal_reward if bad else reward[i]
        term = done[i] != 0 or bad
        trunc = truncated[i] != 0 and not term
        if waiting:
            if mode == NEXT_STEP:
                value, term, trunc = 0.0, False, False
            elif mode == DISABLED:
                value, term, trunc = 0.0, last_terminated[i], not last_terminated[i]
        faults[i] = bad
        rewards[i] = value
        terminated[i] = term
        truncations[i] = trunc
        faulty += bad
        over += term or trunc
    return faulty, over


#: How :func:`observation_batch` makes a float from one number ``x`` of the encoding and
#: the recipe's parameter ``p``: ``p`` itself, ``x == p``, ``x * p``, bit ``p`` of ``x``.
OBS_CONSTANT: Final = 0
OBS_EQUAL: Final = 1
OBS_SCALE: Final = 2
OBS_BIT: Final = 3


@kjit(inline=True)
def features(row: Array, kinds: Array, sources: Array, params: Array, out: Array) -> None:
    """The float observation of one public encoding ``row`` into ``out`` (see
    :func:`observation_batch`)."""
    key = row[PLAYERS] * 4 + row[VIEWER]
    for f in range(out.shape[0]):
        kind = kinds[key, f]
        p = params[key, f]
        if kind == OBS_CONSTANT:
            out[f] = p
        else:
            x = row[sources[key, f]]
            if kind == OBS_EQUAL:
                out[f] = 1.0 if x == p else 0.0
            elif kind == OBS_SCALE:
                out[f] = x * p
            else:
                out[f] = (x >> np.int64(p)) & 1


@kjit()
def observation_batch(public: Array, kinds: Array, sources: Array, params: Array,
                      out: Array) -> None:
    """The float observations of the public encodings ``public`` (N, 100) into ``out``
    (N, F): float ``f`` of row ``i`` is made, by ``kinds[key, f]``, from
    ``public[i, sources[key, f]]`` and ``params[key, f]``, where ``key`` is the row's
    players × 4 + viewer. The recipe arrays are (20, F)."""
    for i in range(public.shape[0]):
        features(public[i], kinds, sources, params, out[i])
