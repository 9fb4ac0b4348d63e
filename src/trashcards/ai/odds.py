"""Each seat's chance of winning the match from a standing between two rounds.

Between rounds nothing of the past matters but the standing: every round is dealt from a
fresh shuffle of all the cards, so the rest of a match depends only on the rounds each
seat has won (which fix the board sizes) and on who deals next. A :class:`MatchOdds`
table holds, for every standing a match can reach, each seat's chance of winning the
match when every seat plays the rollout ``policy``. It is computed once per rules by
simulation and dynamic programming (docs/ai.md, "The match-odds table"):

1. for every pair of board sizes (the first player's, the other's), play ``rounds``
   single rounds with the reference engine, each from a fresh deal, and count their
   outcomes (who won the round, in the order they completed; no one, for a void round);
2. the chance of winning the match from a standing is then the outcome-weighted chance
   from the standings the round leads to, from the last rounds backwards; a void round
   keeps the standing and passes the deal, a small cycle that is solved exactly.

Tables exist for two players (a hundred pairs of sizes with the standard rules); with
three or four players the sizes make thousands of configurations, which the reference
engine cannot simulate in reasonable time, so :func:`match_odds` refuses them and
:mod:`.evaluate` plays those positions out to the end of the match instead.

Computed tables are kept in memory, and on disk in the user's cache directory
(``$XDG_CACHE_HOME/trashcards``, or ``~/.cache/trashcards``; ``TRASHCARDS_CACHE`` to
choose), keyed by the rules, the policy and the number of rounds; tables for the
presets ship with the package (``odds_data/``), made by ``python -m trashcards.ai.odds``.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from pathlib import Path
from typing import Any, Final

from ..actions import Dealer
from ..chance import sample_chance
from ..engine import apply
from ..rules import FLAGS, Rules
from ..state import Phase, State, new_match, public_seats
from .rollout import play_out, rollout_bots

__all__ = [
    "DEFAULT_ROUNDS",
    "MatchOdds",
    "OddsUnavailableError",
    "cache_dir",
    "compute_odds",
    "match_odds",
    "odds_key",
    "round_start",
]

#: Rounds simulated per pair of board sizes (each round-win chance ± about 2 pp).
DEFAULT_ROUNDS: Final = 2000
SHIPPED_DIR: Final = Path(__file__).with_name("odds_data")
FORMAT: Final = "trash-odds/1"

Outcome = tuple[int, ...]  # the round's winners, in order, relative to the first player


class OddsUnavailableError(ValueError):
    """No match-odds table can be made for this table (three or four players)."""


def odds_key(rules: Rules, players: int, policy: str, rounds: int) -> str:
    """A short stable key of what a table depends on."""
    data = {"fields": _fields(rules), "players": players, "policy": policy,
            "rounds": rounds}
    text = json.dumps(data, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _fields(rules: Rules) -> dict[str, Any]:
    return {"decks": rules.decks, "jokers_per_deck": rules.jokers_per_deck,
            "wild_ranks": list(rules.wild_ranks), "start_size": rules.start_size,
            "target": rules.target_rounds,
            **{flag: getattr(rules, flag) for flag in FLAGS}}


@dataclass(frozen=True)
class MatchOdds:
    """Match-win chances by standing, for one set of rules, two players and a policy.

    ``outcomes[(first_size, second_size)]`` counts the simulated rounds by their winners
    (relative to the first player: ``(0,)`` the first player won, ``(1,)`` the other,
    ``()`` void, ``(0, 1)`` both under last chance). ``values`` maps ``(rounds won per
    seat, next dealer)`` to each seat's chance of winning the match.
    """

    rules: Rules
    players: int
    policy: str
    rounds: int
    outcomes: dict[tuple[int, ...], Counter[Outcome]]
    values: dict[tuple[tuple[int, ...], int], tuple[float, ...]]

    def win_chances(self, rounds_won: Sequence[int], next_dealer: int) -> tuple[float, ...]:
        """Each seat's chance of winning the match from a standing (before the deal)."""
        return self.values[(tuple(rounds_won), next_dealer)]

    def after(self, state: State) -> tuple[float, ...]:
        """Each seat's chance of winning the match at the end of a round (or match)."""
        if state.phase is Phase.MATCH_OVER:
            return tuple(float(seat == state.match_winner) for seat in range(state.players))
        if state.phase is not Phase.ROUND_OVER:
            raise ValueError("match odds are read between rounds (the round is not over)")
        assert state.dealer is not None
        return self.win_chances(state.rounds_won, (state.dealer + 1) % state.players)

    def after_deal_of(self, state: State) -> tuple[float, ...]:
        """Each seat's chance when the next deal is due (the first dealer chosen, or a
        round over)."""
        if state.phase is Phase.ROUND_OVER:
            return self.after(state)
        assert state.dealer is not None
        return self.win_chances(state.rounds_won, state.dealer)

    def round_win_chance(self, first_size: int, second_size: int) -> float:
        """The chance that the first player of a round wins it, by the simulation."""
        counts = self.outcomes[(first_size, second_size)]
        return sum(n for o, n in counts.items() if o[:1] == (0,)) / sum(counts.values())

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "rules": self.rules.to_dict(), "players": self.players,
                "policy": self.policy, "rounds": self.rounds,
                "outcomes": [{"sizes": list(sizes),
                              "counts": [[list(o), n] for o, n in sorted(c.items())]}
                             for sizes, c in sorted(self.outcomes.items())]}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatchOdds:
        if data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} table")
        rules = Rules.from_dict(data["rules"])
        outcomes = {tuple(entry["sizes"]): Counter({tuple(o): n for o, n in entry["counts"]})
                    for entry in data["outcomes"]}
        return _table(rules, data["players"], data["policy"], data["rounds"], outcomes)


def _standings(rules: Rules, players: int) -> Iterator[tuple[int, ...]]:
    return product(range(rules.target_rounds), repeat=players)


def _round_configs(rules: Rules, players: int) -> list[tuple[int, ...]]:
    """Every tuple of board sizes a round can be dealt with, the first player's first."""
    sizes = range(rules.start_size - rules.target_rounds + 1, rules.start_size + 1)
    return sorted(product(sizes, repeat=players), reverse=True)


def round_start(rules: Rules, sizes: Sequence[int]) -> State:
    """A match waiting for the deal of a round with these board sizes, seat 0 first."""
    players = len(sizes)
    names = tuple(f"P{seat}" for seat in range(players))
    state, _ = apply(new_match(rules, names), Dealer(players - 1))
    won = tuple(rules.start_size - size for size in sizes)
    return state._replace(rounds_won=won, seats=public_seats(names, won, state.boards))


def simulate_round_outcomes(rules: Rules, sizes: Sequence[int], rounds: int, policy: str,
                            seed: int) -> Counter[Outcome]:
    """Outcomes of ``rounds`` rounds dealt with ``sizes`` (seat 0 plays first)."""
    start = round_start(rules, sizes)
    counts: Counter[Outcome] = Counter()
    for index in range(rounds):
        chance = random.Random(f"trashcards-odds:{seed}:{sizes}:{index}")
        bots = rollout_bots(policy, [random.Random(f"{seed}:{index}:{s}")
                                     for s in range(len(sizes))])
        state = apply(start, sample_chance(start, chance))[0]
        end = play_out(state, bots, chance, "round")
        counts[end.round_winners] += 1
    return counts


def compute_odds(rules: Rules, players: int = 2, policy: str = "greedy",
                 rounds: int = DEFAULT_ROUNDS, seed: int = 0,
                 progress: Callable[[int, int], None] | None = None) -> MatchOdds:
    """Simulate every configuration's rounds and build the table (slow: about a minute
    for the standard rules)."""
    if players != 2:
        raise OddsUnavailableError(
            f"match-odds tables are made for two players; {players} players would need "
            f"{rules.target_rounds ** players:,} configurations of board sizes")
    rules.check_players(players)
    configs = _round_configs(rules, players)
    outcomes = {}
    for done, sizes in enumerate(configs, start=1):
        outcomes[sizes] = simulate_round_outcomes(rules, sizes, rounds, policy, seed)
        if progress is not None:
            progress(done, len(configs))
    return _table(rules, players, policy, rounds, outcomes)


def _table(rules: Rules, players: int, policy: str, rounds: int,
           outcomes: dict[tuple[int, ...], Counter[Outcome]]) -> MatchOdds:
    """The dynamic programme over standings, most rounds won first."""
    target, start = rules.target_rounds, rules.start_size
    values: dict[tuple[tuple[int, ...], int], tuple[float, ...]] = {}
    order = sorted(_standings(rules, players), key=lambda w: -sum(w))
    for won in order:
        known: list[list[float]] = []  # per next dealer: the chances from decided rounds
        void: list[float] = []
        for dealer in range(players):
            first = (dealer + 1) % players
            seats = [(first + i) % players for i in range(players)]
            counts = outcomes[tuple(start - won[s] for s in seats)]
            total = sum(counts.values())
            chances = [0.0] * players
            void_share = 0.0
            for winners, n in counts.items():
                share = n / total
                if not winners:
                    void_share += share
                    continue
                after = list(won)
                champion = None
                for rel in winners:
                    after[seats[rel]] += 1
                    if after[seats[rel]] >= target:
                        champion = seats[rel]
                        break
                if champion is not None:
                    chances[champion] += share
                    continue
                nxt = values[(tuple(after), (dealer + 1) % players)]
                for seat in range(players):
                    chances[seat] += share * nxt[seat]
            known.append(chances)
            void.append(void_share)
        # V_d = known_d + void_d · V_{d+1}: a cycle over the dealers, solved in closed form
        # (V_d = Σ_j (Π_{i<j} void_{d+i}) known_{d+j} / (1 − Π void)).
        loop = 1.0
        for share in void:
            loop *= share
        for dealer in range(players):
            total_chances = [0.0] * players
            weight = 1.0
            for j in range(players):
                d = (dealer + j) % players
                for seat in range(players):
                    total_chances[seat] += weight * known[d][seat]
                weight *= void[d]
            values[(won, dealer)] = tuple(c / (1.0 - loop) for c in total_chances)
    return MatchOdds(rules, players, policy, rounds, outcomes, values)


def cache_dir() -> Path:
    """Where computed tables are kept."""
    chosen = os.environ.get("TRASHCARDS_CACHE")
    if chosen:
        return Path(chosen)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "trashcards"


def _read(path: Path) -> MatchOdds | None:
    try:
        return MatchOdds.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError):
        return None


@lru_cache(maxsize=32)
def match_odds(rules: Rules, players: int = 2, policy: str = "greedy",
               rounds: int = DEFAULT_ROUNDS) -> MatchOdds:
    """The table for these rules: shipped, cached on disk, or computed now (and cached;
    a note on standard error says so, since it takes a while)."""
    if players != 2:
        raise OddsUnavailableError(f"no match-odds table for {players} players (two only)")
    name = f"{odds_key(rules, players, policy, rounds)}.json"
    for path in (SHIPPED_DIR / name, cache_dir() / name):
        table = _read(path)
        if table is not None:
            return table
    print(f"trashcards: computing the match-odds table for {rules.describe()} "
          f"({rounds} rounds per pair of board sizes; once, then cached)", file=sys.stderr)
    table = compute_odds(rules, players, policy, rounds)
    target = cache_dir() / name
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".tmp")
        tmp.write_text(json.dumps(table.to_json()), encoding="utf-8")
        tmp.replace(target)
    except OSError:
        pass
    return table


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m trashcards.ai.odds PRESET …``: write the shipped tables."""
    names = list(argv if argv is not None else sys.argv[1:])
    SHIPPED_DIR.mkdir(exist_ok=True)
    for name in names:
        rules = Rules.preset_named(name)
        def report(done: int, total: int, name: str = name) -> None:
            print(f"\r{name} {done}/{total}", end="", file=sys.stderr)

        table = compute_odds(rules, progress=report)
        path = SHIPPED_DIR / f"{odds_key(rules, 2, 'greedy', DEFAULT_ROUNDS)}.json"
        path.write_text(json.dumps(table.to_json()) + "\n", encoding="utf-8")
        print(f"\n{name}: {path.name}", file=sys.stderr)


if __name__ == "__main__":
    main()
