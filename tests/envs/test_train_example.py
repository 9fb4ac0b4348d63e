"""The training example (examples/train.py) runs end to end on a tiny budget and writes
its learning curve and figures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.torch, pytest.mark.numba_compile, pytest.mark.slow]
pytest.importorskip("torch")
pytest.importorskip("matplotlib")
pytest.importorskip("numba")

SCRIPT = Path(__file__).resolve().parents[2] / "examples" / "train.py"


def test_the_training_example_runs_and_writes_its_curve_and_figures(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--steps", "1024", "--num-envs", "16", "--rollout",
         "32", "--eval-matches", "24", "--eval-every", "1", "--preset", "kids",
         "--out-dir", str(tmp_path)],
        capture_output=True, text=True, timeout=300, env={**os.environ, "COLUMNS": "100"},
        check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "before training: vs random" in out.stdout
    assert "after training: vs random" in out.stdout
    png = (tmp_path / "envs-learning-curve.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    assert len(png) > 5000
    result = json.loads((tmp_path / "envs-training.json").read_text())
    assert result["steps"] == 1024
    assert result["updates"] == 2
    assert [point["steps"] for point in result["curve"]] == [0, 512, 1024]
    for when in ("before", "after"):
        for bot in ("random", "greedy"):
            est = result[when][bot]
            assert est["n"] == 24
            assert 0 <= est["low"] <= est["value"] <= est["high"] <= 1


def test_bad_budgets_are_refused_clearly() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--steps", "0"], capture_output=True,
                         text=True, timeout=60, check=False)
    assert out.returncode == 2
    assert "must be at least 1" in out.stderr
    assert "Traceback" not in out.stderr


def test_steps_are_exact_and_the_default_output_is_no_tracked_file(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--steps", "768", "--num-envs", "16", "--rollout",
         "32", "--eval-matches", "8", "--eval-every", "1", "--preset", "kids"],
        capture_output=True, text=True, timeout=300, cwd=tmp_path,
        env={**os.environ, "COLUMNS": "100"}, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    result = json.loads((tmp_path / "train-output" / "envs-training.json").read_text())
    assert result["steps"] == 768  # 32 steps of 16 tables, then the 16 left
    assert [point["steps"] for point in result["curve"]] == [0, 512, 768]
    assert (tmp_path / "train-output" / "envs-learning-curve.png").is_file()


def test_steps_that_are_not_whole_steps_of_every_table_are_refused() -> None:
    out = subprocess.run([sys.executable, str(SCRIPT), "--steps", "1000", "--num-envs", "16"],
                         capture_output=True, text=True, timeout=60, check=False)
    assert out.returncode == 2
    assert "--steps must be a multiple of --num-envs (16)" in out.stderr
    assert "Traceback" not in out.stderr


EXAMPLES = SCRIPT.parent


def test_the_self_play_example_trains_and_saves_a_numpy_policy(tmp_path: Path) -> None:
    from trashcards.envs.policy import MLPPolicy

    out_file = tmp_path / "p.npz"
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "selfplay.py"), "--steps", "2048", "--num-envs", "16",
         "--rollout", "32", "--snapshot-every", "1", "--hidden", "16", "--preset", "kids",
         "--out", str(out_file)],
        capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    policy = MLPPolicy.load(out_file)
    assert policy.meta["agent_steps"] == 2048
    assert policy.meta["settings"]["seed"] == 0
    assert "selfplay.py --steps 2048" in policy.meta["command"]
    assert [w.shape for w, _b in policy.layers] == [(233, 16), (16, 16), (16, 15)]


def test_the_maskable_ppo_example_trains_through_the_sb3_adapter() -> None:
    pytest.importorskip("sb3_contrib")
    out = subprocess.run(
        [sys.executable, str(EXAMPLES / "maskable_ppo.py"), "--steps", "4096", "--num-envs",
         "32", "--eval-matches", "20"],
        capture_output=True, text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "agent steps in" in out.stdout
    assert "vs greedy:" in out.stdout
    assert "of 20 matches" in out.stdout
