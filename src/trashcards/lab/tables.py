"""The tables the experiments sweep over: presets, variant combinations, player counts,
and the figures every experiment reads off one table's totals."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

from ..estimates import Estimate, mean_of_hist, proportion, ratio_over_batches
from ..rules import Rules
from ..simulation import SimStats
from .experiment import Job

__all__ = [
    "PLAYER_COUNTS",
    "SWEEP_PRESETS",
    "TableFigures",
    "combined_rules",
    "self_play_jobs",
    "table_figures",
]

#: Presets swept by ``first-player`` and ``length`` (``first-to-5`` stands for first-to-N).
SWEEP_PRESETS = ("standard", "classic", "kings-wild", "all-faces-wild", "jokers",
                 "call-trash", "kids", "last-chance", "first-to-5")
PLAYER_COUNTS = (2, 3, 4)


def combined_rules(names: Sequence[str]) -> Rules:
    """The first preset with the fields that each other preset changes from ``standard``
    set on it (RULES.md §9: variants combine by setting fields)."""
    rules = Rules.preset_named(names[0])
    standard = Rules.preset_named("standard")
    for name in names[1:]:
        variant = Rules.preset_named(name)
        changes = {f.name: getattr(variant, f.name) for f in dataclasses.fields(variant)
                   if f.name != "preset" and getattr(variant, f.name) != getattr(standard,
                                                                                  f.name)}
        rules = rules.with_fields(changes)
    return rules


def self_play_jobs(configs: Sequence[tuple[str, Rules]], players: Sequence[int], bot: str,
                   matches: int) -> list[Job]:
    """One job per configuration and player count, ``bot`` at every seat; keys are
    ``<name>/<players>p``."""
    return [Job(f"{name}/{n}p", rules, (bot,) * n, matches, f"{name}, {n} players")
            for name, rules in configs for n in players]


@dataclass(frozen=True, slots=True)
class TableFigures:
    """What one table's totals say, each figure with its 95 % interval."""

    matches: int
    rounds: int
    #: Share of matches won by the seat that took the match's first turn.
    first_player: Estimate
    #: Share of decided rounds won by the seat that took the round's first turn.
    round_starter: Estimate
    seat_wins: tuple[Estimate, ...]
    turns_per_round: Estimate
    rounds_per_match: Estimate
    turns_per_match: Estimate

    def to_json(self) -> dict[str, object]:
        return {
            "matches": self.matches, "rounds": self.rounds,
            "first_player_win_rate": self.first_player,
            "round_starter_win_rate": self.round_starter,
            "seat_win_rates": list(self.seat_wins),
            "turns_per_round": self.turns_per_round,
            "rounds_per_match": self.rounds_per_match,
            "turns_per_match": self.turns_per_match,
        }


def table_figures(total: SimStats, batches: Sequence[SimStats]) -> TableFigures:
    """The figures of one table from its totals and its batches."""
    return TableFigures(
        matches=total.matches,
        rounds=total.rounds,
        first_player=proportion(total.first_player_wins, total.matches),
        round_starter=ratio_over_batches([b.round_starter_wins for b in batches],
                                         [b.decided_rounds for b in batches], "rounds"),
        seat_wins=tuple(proportion(w, total.matches) for w in total.wins),
        turns_per_round=ratio_over_batches([b.turns for b in batches],
                                           [b.rounds for b in batches], "rounds"),
        rounds_per_match=mean_of_hist(total.rounds_hist, "matches"),
        turns_per_match=ratio_over_batches([b.turns for b in batches],
                                           [b.matches for b in batches], "matches"),
    )
