"""The expert joins the bots registry from above it: ``trashcards.bots`` never imports
``trashcards.ai``, yet every place that chooses a bot by name (make_bot, records'
``bot:expert`` seats, ``trashcards bots``, the runner's worker processes) finds it once
``trashcards.ai`` is imported."""

from __future__ import annotations

import dataclasses
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import trashcards.ai  # noqa: F401  (registers the expert)
from trashcards.ai.expert import ExpertBot
from trashcards.bots import BOTS, bot_kind, bot_modules, make_bot, register_bot
from trashcards.rules import Rules
from trashcards.sim.runner import Runner
from trashcards.simulation import play_chunk

SRC = Path(__file__).resolve().parents[2] / "src"


def _python(code: str) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])])}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=True, timeout=120)
    return done.stdout.strip()


def test_the_bots_package_alone_knows_no_expert_and_imports_no_ai() -> None:
    out = _python("import sys, trashcards.bots as b; "
                  "print('expert' in b.BOTS, any(m.startswith('trashcards.ai') "
                  "for m in sys.modules))")
    assert out == "False False"


def test_importing_any_ai_module_registers_the_expert() -> None:
    out = _python("import trashcards.ai.odds, trashcards.bots as b, random; "
                  "print(type(b.make_bot('Expert', random.Random(1))).__name__, "
                  "b.bot_kind('bot:expert:2'), list(b.BOTS)[-1])")
    assert out == "ExpertBot expert expert"


def test_make_bot_and_record_names_know_the_expert() -> None:
    assert isinstance(make_bot("expert", random.Random(3)), ExpertBot)
    assert bot_kind("bot:expert") == "expert"
    assert bot_modules(["greedy", "expert", " Expert "]) == ("trashcards.ai.expert",)
    assert bot_modules(["greedy", "kid"]) == ()


def test_trashcards_bots_lists_the_expert_after_the_others() -> None:
    out = _python("from trashcards.cli import main; main(['bots'])")
    lines = out.splitlines()
    assert lines[0].split()[0] == "bot"  # the header, then one row a bot
    names = [line.split()[0] for line in lines[1:1 + len(BOTS)]]
    assert names == list(BOTS)
    # the bots registered from above the package (expert, learned) come after its own
    assert set(names[names.index("expert"):]) <= {"expert", "learned"}


def test_register_bot_refuses_a_name_a_record_cannot_hold() -> None:
    with pytest.raises(ValueError, match="without ':'"):
        register_bot("bad:name", ExpertBot, "never")
    assert "bad:name" not in BOTS


def _totals(stats: Any) -> dict[str, Any]:
    data: dict[str, Any] = stats.to_json()
    data.pop("elapsed_s")
    return data


@pytest.mark.numba_compile
def test_worker_processes_play_the_expert_as_this_process_does() -> None:
    """The process pool spawns fresh interpreters that do not share this registry: they
    import the module that registered the expert before playing it."""
    rules = dataclasses.replace(Rules.preset_named("kids"), rounds_to_win=1)
    expected = _totals(play_chunk(rules, ("expert", "greedy"), 5, 0, 2))
    with Runner("reference", "local", workers=2, chunk_size=1) as runner:
        assert _totals(runner.run(rules, ("expert", "greedy"), 2, 5)) == expected
