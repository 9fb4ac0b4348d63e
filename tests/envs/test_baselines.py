"""The baselines (examples/baselines.py) are reproducible: two runs of one seed give the
same numbers, every figure but the wall time; and a trained agent exported to ONNX plays
in the arena exactly as its numpy weights do."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytestmark = [pytest.mark.torch, pytest.mark.numba_compile, pytest.mark.slow]
torch = pytest.importorskip("torch", reason="the baselines train with PyTorch (the train "
                                            "extra)")

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def run(out: Path) -> dict:
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "baselines.py"), "--steps", "2048", "--num-envs",
         "16", "--rollout", "32", "--seeds", "1", "--eval-every", "2", "--curve-matches",
         "20", "--final-matches", "20", "--out", str(out)],
        capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    data = json.loads(out.with_suffix(".json").read_text(encoding="utf-8"))
    assert out.read_text(encoding="utf-8").startswith("# Baselines")
    for run_ in data["runs"]:
        assert run_.pop("training_seconds") >= 0
    return data


def test_two_runs_of_one_seed_give_the_same_numbers(tmp_path: Path):
    first, second = run(tmp_path / "a.md"), run(tmp_path / "b.md")
    assert first["runs"] == second["runs"]
    assert [r["method"] for r in first["runs"]] == ["ppo-greedy", "self-play", "fsp-league"]
    for r in first["runs"]:
        assert [p["steps"] for p in r["curve"]] == [0, 1024, 2048]
        lo, hi = r["final"]["elo_ci"]
        assert lo < r["final"]["elo"] < hi


def test_an_agent_exported_to_onnx_plays_as_its_numpy_weights(tmp_path: Path):
    sys.path.insert(0, str(EXAMPLES))
    try:
        from ppo import Agent
    finally:
        sys.path.remove(str(EXAMPLES))
    from trashcards.envs.policyfiles import load_policy_file

    torch.manual_seed(0)
    agent = Agent(32)
    agent.export_onnx(str(tmp_path / "agent.onnx"))
    onnx_policy, _digest = load_policy_file(tmp_path / "agent.onnx")
    rng = np.random.default_rng(1)
    obs = rng.random((500, 233), dtype=np.float32)
    mask = (rng.random((500, 15)) < 0.5).astype(np.int8)
    mask[:, 0] = 1
    assert np.array_equal(onnx_policy(obs, mask), agent.numpy_policy()(obs, mask))
