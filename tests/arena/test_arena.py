"""The arena: Elo on the levels' scale (greedy lands inside the ladder's interval), the
JSON promised by the issue, agents of every kind, and clear refusals."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from trashcards.ai.levels import level_named
from trashcards.arena import LADDER, RANDOM_ELO, elo_against, rate, resolve_agent
from trashcards.envs.observation import OBSERVATION_SIZE
from trashcards.envs.policy import MLPPolicy

pytestmark = pytest.mark.numba_compile

ROOT = Path(__file__).resolve().parents[2]
FIGURES = ROOT / "docs" / "analysis" / "skill" / "figures.json"


def arena(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT)])}
    return subprocess.run([sys.executable, "-m", "trashcards", "arena", *args], env=env,
                          capture_output=True, text=True, timeout=600, check=False)


def test_random_s_elo_is_the_skill_report_s():
    figures = json.loads(FIGURES.read_text(encoding="utf-8"))["elo"]["ratings"]["random"]
    assert pytest.approx((figures["elo"], figures["low"], figures["high"]),
                                       abs=0.05) == RANDOM_ELO
    assert [name for name, _bot, _elo in LADDER] == ["random", "beginner", "casual", "good",
                                                     "expert"]


def test_the_rating_against_fixed_opponents_is_their_rating_at_even_results():
    elo, lo, hi = elo_against([(1600.0, 500, 1000)])
    assert elo == pytest.approx(1600.0)
    assert lo < 1600 < hi
    stronger, _, _ = elo_against([(1600.0, 760, 1000)])
    assert stronger == pytest.approx(1600 + 400 * np.log10(760.5 / 240.5), abs=0.01)
    narrow = elo_against([(1600.0, 5000, 10000)])
    assert narrow[2] - narrow[1] < hi - lo  # more matches, a narrower interval


def test_greedy_s_arena_elo_falls_inside_the_ladder_s_interval_for_greedy():
    good = level_named("good")
    rating = rate("greedy", matches=20_000, expert_matches=0, seed=0)
    assert rating.elo is not None
    assert good.low <= rating.elo <= good.high
    assert rating.vs["good"].estimate.low < 0.5 < rating.vs["good"].estimate.high
    assert rating.matches == 80_000


def test_a_policy_plays_through_the_vector_env_and_a_bot_through_its_views():
    matches = 60
    policy = rate("tests.arena.policies:first_legal", matches=matches, expert_matches=0)
    assert policy.agent == "tests.arena.policies:first_legal"
    assert set(policy.vs) == {"random", "beginner", "casual", "good"}
    assert all(r.matches == matches for r in policy.vs.values())
    # a view bot plays the same kind of matches as its kernel twin: greedy, both ways
    as_bot = rate("lowwild", matches=matches, expert_matches=0)
    assert as_bot.vs["random"].estimate.value > 0.8
    three = rate("tests.arena.policies:first_legal", matches=30, expert_matches=0, players=3)
    assert three.elo is None
    assert three.to_json()["elo_ci"] is None


def test_a_policy_agent_is_never_asked_a_decision_with_one_legal_action():
    seen: list[int] = []

    def policy(obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        seen.extend(np.count_nonzero(mask, axis=1).tolist())
        return mask.argmax(axis=1)

    rating = rate(policy, matches=20, expert_matches=0, opponents=["random"])
    assert rating.vs["random"].matches == 20
    assert len(seen) > 100
    assert min(seen) >= 2  # its forced moves were taken for it


def test_arena_json_has_exactly_the_promised_shape(tmp_path: Path):
    rng = np.random.default_rng(0)
    policy = MLPPolicy([(rng.normal(size=(OBSERVATION_SIZE, 4)), np.zeros(4)),
                        (rng.normal(size=(4, 15)), np.zeros(15))])
    path = tmp_path / "tiny.npz"
    policy.save(path)
    for agent in ("tests.arena.policies:last_legal", str(path), "good"):
        out = arena(agent, "--matches", "40", "--expert-matches", "2", "--json")
        assert out.returncode == 0, out.stderr
        data = json.loads(out.stdout)
        assert set(data) == {"agent", "elo", "elo_ci", "matches", "vs", "mode", "seed",
                             "settings", "sha256", "command"}
        assert data["mode"] == "duplicate"
        assert data["command"].startswith(f"trashcards arena {agent} --matches 40 ")
        assert set(data["vs"]) == {"random", "beginner", "casual", "good", "expert"}
        assert data["matches"] == 4 * 40 + 2
        lo, hi = data["elo_ci"]
        assert lo < data["elo"] < hi
        for figures in data["vs"].values():
            assert set(figures) == {"win", "win_ci", "matches", "deals"}
            assert figures["win_ci"][0] <= figures["win"] <= figures["win_ci"][1]
    text = arena("random", "--matches", "20", "--expert-matches", "0")
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("random: Elo ")
    assert "vs good" in text.stdout


def test_bad_agents_and_options_are_refused_in_one_line():
    for args, message in ((["nobody"], "unknown agent 'nobody'"),
                          (["no.such.module:f"], "cannot load no.such.module:f"),
                          (["missing.npz"], "no such policy file"),
                          (["greedy", "--preset", "nonsense"], "preset")):
        out = arena(*args, "--matches", "4")
        assert out.returncode == 2, out.stderr
        assert message in out.stderr
        assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    with pytest.raises(ValueError, match="unknown agent"):
        resolve_agent("nobody")
    assert "arena" in arena("--help").stdout


def test_plain_mode_and_chosen_opponents_on_the_command_line():
    out = arena("kid", "--mode", "plain", "--opponent", "random", "--opponent", "good",
                "--matches", "30", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["mode"] == "plain"
    assert set(data["vs"]) == {"random", "good"}
    assert all(v["matches"] == 30 and v["deals"] == 30 for v in data["vs"].values())
    assert "--mode plain --opponent random --opponent good" in data["command"]
    text = arena("kid", "--matches", "30", "--opponent", "good")
    assert text.returncode == 0, text.stderr
    assert "(15 deals)" in text.stdout
    assert text.stdout.rstrip().splitlines()[-1].startswith(
        "  again: trashcards arena kid --matches 30 --expert-matches 1 --opponent good")
