"""Bot-against-bot matches in bulk, with statistics that stream (constant memory).

Each match ``i`` of a run with seed ``s`` draws its chance and its bots' numbers from
generators derived from ``(s, i)`` alone, so a result never depends on how the matches
are split between processes or machines: :class:`SimStats` of chunks simply add up.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bots import bot_seat_names, make_bot
from .errors import ArgumentError
from .events import Dealt, Drew, Event, RoundWon
from .rules import Rules
from .session import play_match

__all__ = ["SimStats", "match_rngs", "play_chunk", "record_file"]


def match_rngs(seed: int, index: int, players: int) -> tuple[random.Random, list[random.Random]]:
    """The chance generator and one generator per seat's bot for match ``index``."""
    chance = random.Random(f"trashcards:{seed}:{index}:chance")
    bots = [random.Random(f"trashcards:{seed}:{index}:seat{seat}") for seat in range(players)]
    return chance, bots


@dataclass
class SimStats:
    """Totals of many matches; ``+`` merges two runs of the same configuration.

    ``first_player_wins``: matches won by the seat that took the first turn of the match;
    ``round_starter_wins``: rounds won by the seat that took the round's first turn;
    ``turns_hist[t]`` / ``rounds_hist[r]``: rounds lasting t turns / matches lasting r
    rounds. A turn is one draw (``stock`` or ``discard``).
    """

    players: int
    matches: int = 0
    rounds: int = 0
    decided_rounds: int = 0
    turns: int = 0
    wins: list[int] = field(default_factory=list)
    round_wins: list[int] = field(default_factory=list)
    first_player_wins: int = 0
    round_starter_wins: int = 0
    turns_hist: dict[int, int] = field(default_factory=dict)
    rounds_hist: dict[int, int] = field(default_factory=dict)
    elapsed_s: float = 0.0

    def __post_init__(self) -> None:
        if not self.wins:
            self.wins = [0] * self.players
        if not self.round_wins:
            self.round_wins = [0] * self.players

    def __add__(self, other: SimStats) -> SimStats:
        if other.players != self.players:
            raise ArgumentError("cannot add statistics of tables of different sizes")
        return SimStats(
            players=self.players,
            matches=self.matches + other.matches,
            rounds=self.rounds + other.rounds,
            decided_rounds=self.decided_rounds + other.decided_rounds,
            turns=self.turns + other.turns,
            wins=[a + b for a, b in zip(self.wins, other.wins, strict=True)],
            round_wins=[a + b for a, b in zip(self.round_wins, other.round_wins, strict=True)],
            first_player_wins=self.first_player_wins + other.first_player_wins,
            round_starter_wins=self.round_starter_wins + other.round_starter_wins,
            turns_hist=_add_hist(self.turns_hist, other.turns_hist),
            rounds_hist=_add_hist(self.rounds_hist, other.rounds_hist),
            elapsed_s=self.elapsed_s + other.elapsed_s,
        )

    def add_round(self, turns: int, starter: int, winners: Sequence[int]) -> None:
        self.rounds += 1
        self.turns += turns
        self.turns_hist[turns] = self.turns_hist.get(turns, 0) + 1
        if winners:
            self.decided_rounds += 1
            for seat in winners:
                self.round_wins[seat] += 1
            if starter in winners:
                self.round_starter_wins += 1

    def add_match(self, rounds: int, winner: int, first_player: int) -> None:
        self.matches += 1
        self.wins[winner] += 1
        if winner == first_player:
            self.first_player_wins += 1
        self.rounds_hist[rounds] = self.rounds_hist.get(rounds, 0) + 1

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players, "matches": self.matches, "rounds": self.rounds,
            "decided_rounds": self.decided_rounds, "turns": self.turns,
            "wins": list(self.wins), "round_wins": list(self.round_wins),
            "first_player_wins": self.first_player_wins,
            "round_starter_wins": self.round_starter_wins,
            "turns_hist": {str(k): v for k, v in sorted(self.turns_hist.items())},
            "rounds_hist": {str(k): v for k, v in sorted(self.rounds_hist.items())},
            "elapsed_s": round(self.elapsed_s, 3),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SimStats:
        return cls(
            players=data["players"], matches=data["matches"], rounds=data["rounds"],
            decided_rounds=data["decided_rounds"], turns=data["turns"],
            wins=list(data["wins"]), round_wins=list(data["round_wins"]),
            first_player_wins=data["first_player_wins"],
            round_starter_wins=data["round_starter_wins"],
            turns_hist={int(k): v for k, v in data["turns_hist"].items()},
            rounds_hist={int(k): v for k, v in data["rounds_hist"].items()},
            elapsed_s=data.get("elapsed_s", 0.0),
        )


def _add_hist(a: dict[int, int], b: dict[int, int]) -> dict[int, int]:
    out = dict(a)
    for key, value in b.items():
        out[key] = out.get(key, 0) + value
    return out


def record_file(seed: int, index: int) -> str:
    """The file name of the record of match ``index`` of a run with ``seed``."""
    return f"match-{seed}-{index:07d}.trash.json"


def play_chunk(rules: Rules, bots: Sequence[str], seed: int, start: int, count: int,
               records: Path | None = None,
               progress: Callable[[int], None] | None = None) -> SimStats:
    """Play matches ``start`` … ``start + count - 1`` with the reference engine."""
    players = len(bots)
    names = bot_seat_names(bots)
    stats = SimStats(players)
    began = time.perf_counter()
    for index in range(start, start + count):
        chance, bot_rngs = match_rngs(seed, index, players)
        seats = [make_bot(name, rng) for name, rng in zip(bots, bot_rngs, strict=True)]
        tally = _Tally(stats)
        match = play_match(rules, names, seats, chance, observe=tally.observe)
        tally.finish(match.state.match_winner)
        if records is not None:
            match.record.dump(records / record_file(seed, index))
        if progress is not None:
            progress(1)
    stats.elapsed_s = time.perf_counter() - began
    return stats


class _Tally:
    """Counts one match's rounds and turns from its events."""

    def __init__(self, stats: SimStats) -> None:
        self.stats = stats
        self.rounds = 0
        self.turns = 0
        self.starter = -1
        self.first_player = -1
        self.winners: list[int] = []

    def observe(self, events: tuple[Event, ...]) -> None:
        for event in events:
            kind = type(event)
            if kind is Drew:
                self.turns += 1
            elif kind is Dealt:
                if self.rounds:
                    self.stats.add_round(self.turns, self.starter, self.winners)
                self.rounds += 1
                self.turns, self.winners = 0, []
                self.starter = event.first  # type: ignore[union-attr]
                if self.first_player < 0:
                    self.first_player = self.starter
            elif kind is RoundWon:
                self.winners.append(event.seat)  # type: ignore[union-attr]

    def finish(self, winner: int | None) -> None:
        assert winner is not None
        self.stats.add_round(self.turns, self.starter, self.winners)
        self.stats.add_match(self.rounds, winner, self.first_player)
