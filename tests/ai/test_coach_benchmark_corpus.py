"""benchmarks/coach.py reads the exact solver's corpora (2- and 3-slot boards, five
presets) and counts the sampled hint's false strict bests and named leads per group."""

from __future__ import annotations

import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

BENCHMARK = Path(__file__).resolve().parents[2] / "benchmarks" / "coach.py"


@pytest.fixture(scope="module")
def coach() -> ModuleType:
    spec = importlib.util.spec_from_file_location("coach_benchmark", BENCHMARK)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["coach_benchmark"] = module
    spec.loader.exec_module(module)
    return module


def test_the_benchmark_reads_the_exact_corpus_with_its_3_slot_positions(
        coach: ModuleType) -> None:
    """By default the tie and leads corpora are tests/data/exact-corpus.json.gz: 240
    tied positions (196 with a 3-slot board, 48 per preset) and 240 leads, each lead
    with its best action among the legal ones."""
    corpus = coach.corpus_file(coach.EXACT_CORPUS)
    ties = [p for p in corpus if p.kind == "tie"]
    leads = [p for p in corpus if p.kind == "lead"]
    assert len(ties) == len(leads) == 240
    assert Counter(p.group[1] for p in ties) == {"3 slots": 196, "2 slots": 44}
    assert set(Counter(p.group[0] for p in ties).values()) == {48}
    assert all(max(pl.board_size for pl in p.view.players) == int(p.group[1][0])
               for p in corpus)
    assert all(p.best is None for p in ties)
    assert all(p.best in p.view.legal for p in leads)


@pytest.mark.numba_compile
def test_sampled_on_exact_counts_every_hint_in_all_and_by_group(coach: ModuleType) -> None:
    corpus = coach.corpus_file(coach.EXACT_CORPUS)
    ties = [p for p in corpus if p.kind == "tie"]
    chosen = [next(p for p in ties if p.group[1] == "3 slots"),
              next(p for p in ties if p.group[1] == "2 slots"),
              next(p for p in corpus if p.kind == "lead")]
    found = coach.sampled_on_exact(chosen, 2, variants=("shipped",))["shipped"]
    assert found["false_strict_best"]["total"] == 4
    assert found["leads_named"]["total"] == 2
    groups = found["groups"]
    assert groups["3 slots"]["false_strict_best"]["total"] == 2
    assert groups["2 slots"]["false_strict_best"]["total"] == 2
    assert sum(g["false_strict_best"]["hits"] for name, g in groups.items()
               if name.endswith("slots")) == found["false_strict_best"]["hits"]
    presets = [name for name in groups if not name.endswith("slots")]
    assert sum(groups[name]["leads_named"]["total"] for name in presets) == 2


def test_positions_read_from_json_lines_are_grouped_by_their_rules(
        coach: ModuleType) -> None:
    """A JSON-lines position names no preset: the group is the preset its rules equal."""
    from trashcards import Rules

    assert coach._group(Rules.preset_named("kids"), "", [2, 3]) == ("kids", "3 slots")
    assert coach._group(Rules.preset_named("standard"), "", [1, 2]) == ("standard", "2 slots")
    assert coach._group(Rules.preset_named("kids"), "jokers", [1, 1]) == ("jokers", "1 slots")
