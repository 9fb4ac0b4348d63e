"""What the arena accepts as an agent, through the real command line (subprocesses):
the shipped ``learned`` bot by name, ``module:function`` from the current folder, policy
files (``.npz``, ``.onnx``) with their SHA-256, and one-line refusals of everything else
(issues 27 and 33)."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from trashcards.arena import AgentError, rate, resolve_agent

pytestmark = pytest.mark.numba_compile

ROOT = Path(__file__).resolve().parents[2]


def arena(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``trashcards arena`` as a user runs it: the package importable, and neither the
    tests' folder nor the current one on the path (``-P``: as the console script)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    return subprocess.run([sys.executable, "-P", "-c",
                           "import sys; from trashcards.cli import main; "
                           "sys.argv[0] = 'trashcards'; main()", "arena", *args],
                          env=env, capture_output=True, text=True, timeout=600, check=False,
                          cwd=cwd)


def one_line_error(out: subprocess.CompletedProcess[str], text: str) -> None:
    assert out.returncode == 2, (out.stdout, out.stderr)
    assert "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1, out.stderr
    assert text in out.stderr, out.stderr


def test_the_learned_bot_is_an_agent_by_name_on_the_command_line_and_in_rate():
    out = arena("learned", "--matches", "20", "--expert-matches", "0", "--json")
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["agent"] == "learned"
    rating = rate("learned", matches=10, expert_matches=0, opponents=["random"])
    assert rating.vs["random"].matches == 10


def test_module_function_loads_from_the_folder_the_command_runs_in(tmp_path: Path):
    (tmp_path / "mymod.py").write_text(
        "def act(obs, mask):\n    return mask.argmax(axis=1)\n", encoding="utf-8")
    out = arena("mymod:act", "--matches", "20", "--expert-matches", "0", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("mymod:act: Elo ")


def test_the_current_folder_does_not_shadow_an_installed_module(tmp_path: Path):
    (tmp_path / "colorsys.py").write_text("raise SystemExit('shadowed')\n", encoding="utf-8")
    (tmp_path / "mine.py").write_text(
        "import colorsys\ndef act(obs, mask):\n    return mask.argmax(axis=1)\n",
        encoding="utf-8")
    out = arena("mine:act", "--matches", "4", "--expert-matches", "0",
                "--opponent", "random", cwd=tmp_path)
    assert out.returncode == 0, out.stderr


def test_an_sb3_zip_or_any_other_file_is_refused_naming_the_accepted_files(tmp_path: Path):
    (tmp_path / "ppo.zip").write_bytes(b"PK\x03\x04" + bytes(60))
    (tmp_path / "weights.pt").write_bytes(bytes(10))
    for name in ("ppo.zip", "weights.pt"):
        out = arena(name, "--matches", "4", cwd=tmp_path)
        one_line_error(out, "not a policy file the arena takes: give an .npz")
        assert ".onnx" in out.stderr
    one_line_error(arena("policy.zip", "--matches", "4", cwd=tmp_path),
                   "no such policy file: policy.zip")


@pytest.mark.parametrize("spec", ["..x:y", ":f", "m:", "a:b:c", "os:path/../x", "x y:z",
                                  "mod:1f"])
def test_a_spec_that_is_not_module_function_is_refused(spec: str):
    with pytest.raises(AgentError, match="not module:function"):
        resolve_agent(spec)


def test_bad_specs_on_the_command_line_end_in_one_line(tmp_path: Path):
    (tmp_path / "broken.py").write_text("def act(:\n", encoding="utf-8")
    one_line_error(arena("..x:y", "--matches", "4"), "not module:function")
    one_line_error(arena("broken:act", "--matches", "4", cwd=tmp_path),
                   "cannot load broken:act: SyntaxError")


def test_help_names_the_extra_the_arena_needs():
    out = arena("--help")
    assert out.returncode == 0
    assert "trashcards[envs]" in " ".join(out.stdout.split())


def test_a_policy_file_s_entry_carries_its_hash_and_the_command_that_replays_it(
        tmp_path: Path):
    from .onnxmodels import mlp, onnx_of

    path = tmp_path / "mine.onnx"
    path.write_bytes(onnx_of(mlp(3)))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    first = arena(str(path), "--matches", "8", "--expert-matches", "0", "--seed", "3",
                  "--json")
    assert first.returncode == 0, first.stderr
    data = json.loads(first.stdout)
    assert data["sha256"] == digest
    assert data["seed"] == 3
    assert data["settings"]["mode"] == "duplicate"
    assert f"--sha256 {digest}" in data["command"]
    again = arena(*data["command"].split()[2:], "--json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["vs"] == data["vs"]
    one_line_error(arena(str(path), "--sha256", "0" * 64), "its SHA-256 is " + digest)
