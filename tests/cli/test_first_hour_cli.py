"""What a newcomer meets in the first hour, end to end as subprocesses: every refusal,
missing optional dependency and Ctrl-C ends a command with one line, never a traceback;
Ctrl-C exits 130 in every command; a bot the fast kernel lacks makes ``simulate`` use the
reference engine and say so; ``trashcards bots`` tells engines, levels and Elo."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from trashcards.ai.levels import LEVELS
from trashcards.bots import BOTS
from trashcards.cli import EXTRAS, missing_dependency
from trashcards.cli.info import FAST_BOTS

from support import cached_odds

DATA = Path(__file__).resolve().parents[1] / "data"
RECORD = DATA / "classic-2p.trash.json"

#: A sitecustomize that makes the modules named in $TRASHCARDS_TEST_MISSING fail to
#: import, as on a machine without them (an extra not installed).
SHIM = '''
import os, sys

class _Missing:
    names = set(os.environ.get("TRASHCARDS_TEST_MISSING", "").split(","))

    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in self.names:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, _Missing())
'''


def trashcards(*args: str, env: dict[str, str] | None = None
               ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "trashcards", *args], capture_output=True,
                          text=True, timeout=300, check=False, env=env)


def one_line(text: str) -> str:
    lines = text.strip().splitlines()
    assert len(lines) == 1, text
    assert "Traceback" not in text
    return lines[0]


@pytest.mark.parametrize("bot", ["lowwild", "endblind", "expert"])
@pytest.mark.numba_compile
def test_a_bot_the_kernel_lacks_makes_simulate_use_the_reference_engine_in_one_line(
        bot: str) -> None:
    # the expert values positions with the rules' match-odds table: on a fresh machine
    # its computation would print a second line (issue 27), so the test brings it
    cached_odds(start_size=3, rounds_to_win=2)
    result = trashcards("simulate", "--bots", f"{bot},greedy", "--matches", "1", "--json",
                        "--rules", "start_size=3", "--rules", "rounds_to_win=2")
    assert result.returncode == 0, result.stderr
    assert one_line(result.stderr) == (f"note: {bot} plays on the reference engine only: "
                                       "using it (slower than the fast engine)")
    assert '"engine": "reference"' in result.stdout


def test_simulate_refuses_the_fast_engine_for_a_bot_it_lacks_in_one_line() -> None:
    result = trashcards("simulate", "--bots", "greedy,expert,lowwild", "--engine", "fast",
                        "--matches", "1")
    assert result.returncode == 2
    assert one_line(result.stderr) == ("Error: --engine fast has no bot expert, lowwild: use "
                                       "--engine reference (or leave --engine out)")
    assert result.stdout == ""


def test_the_kernels_bots_are_the_ones_bots_calls_fast() -> None:
    tables = pytest.importorskip("trashcards.sim.tables")
    assert set(tables.BOT_CODES) == FAST_BOTS


def test_bots_tells_each_bots_engines_level_and_elo() -> None:
    result = trashcards("bots")
    assert result.returncode == 0, result.stderr
    rows = {line.split()[0]: line for line in result.stdout.splitlines()[1:]
            if line.split() and line.split()[0] in BOTS}
    assert set(rows) == set(BOTS)
    for name, row in rows.items():
        assert ("fast, reference" in row) == (name in FAST_BOTS)
        assert ("reference only" in row) == (name not in FAST_BOTS)
    for level in LEVELS:
        assert f" {level.name} " in rows[level.bot]
        assert f"{level.elo:.0f} ± {(level.high - level.low) / 2:.0f}" in rows[level.bot]


@pytest.fixture
def missing(tmp_path: Path) -> object:
    """``missing("ray", "matplotlib")``: an environment where those cannot be imported."""
    (tmp_path / "sitecustomize.py").write_text(SHIM)

    def make(*names: str) -> dict[str, str]:
        path = os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])
        return {**os.environ, "PYTHONPATH": path, "TRASHCARDS_TEST_MISSING": ",".join(names)}
    return make


@pytest.mark.parametrize(("modules", "args"), [
    (("ray",), ["simulate", "--bots", "greedy,kid", "--matches", "10", "--backend", "ray"]),
    (("matplotlib",), ["analyze", "ladder", "--matches", "10", "--out", "OUT"]),
    (("matplotlib",), ["review", str(RECORD), "--plot", "OUT"]),
    (("uvicorn",), ["serve", "--port", "0"]),
    (("gymnasium",), ["arena", "greedy", "--matches", "10"]),
    (("starlette",), ["export", "OUT"]),
], ids=["simulate-ray", "analyze", "review-plot", "serve", "arena", "export"])
def test_a_missing_optional_dependency_is_named_in_one_line_with_its_extra(
        missing: object, tmp_path: Path, modules: tuple[str, ...], args: list[str]) -> None:
    """One form and one exit status for every command (before: exit 1 or 2 and each
    command its own words)."""
    env = missing(*modules)  # type: ignore[operator]
    args = [str(tmp_path / "out.png") if a == "OUT" else a for a in args]
    result = trashcards(*args, env=env)
    assert result.returncode == 1, result.stderr
    module = modules[0]
    extra = EXTRAS[module]
    assert one_line(result.stderr) == (f"trashcards {args[0]}: {module} is not installed: "
                                       f"pip install 'trashcards[{extra}]'")
    assert not (tmp_path / "out.png").exists()


@pytest.mark.parametrize(("module", "extra"), [
    ("gymnasium", "envs"), ("ray", "sim"), ("numba", "sim"), ("starlette", "web"),
    ("torch", "train")])
def test_an_import_error_escaping_a_command_names_the_extra(module: str, extra: str) -> None:
    error = ModuleNotFoundError(f"No module named '{module}.x'", name=f"{module}.x")
    assert missing_dependency(error) == (f"{module} is not installed: "
                                         f"pip install 'trashcards[{extra}]'")


def test_the_shim_does_make_the_import_fail(missing: object) -> None:
    env = missing("ray")  # type: ignore[operator]
    result = subprocess.run([sys.executable, "-c", "import ray"], capture_output=True,
                            text=True, env=env, check=False)
    assert result.returncode == 1
    assert "ModuleNotFoundError: No module named 'ray'" in result.stderr


#: Commands that run long enough to be interrupted, and a line each prints once it runs
#: (``None``: give it a few seconds).
LONG = {
    "simulate": (["simulate", "--bots", "expert,greedy", "--matches", "100000",
                  "--workers", "2"], "note: expert plays"),
    "simulate-pool": (["simulate", "--bots", "greedy,kid", "--engine", "reference",
                       "--matches", "10000000", "--workers", "2"], None),
    "review": (["review", str(DATA / "classic-reshuffle-2p.trash.json"), "--samples",
                "100000"], None),
    "hint": (["hint", str(RECORD), "--upto", "3", "--samples", "5000000"], None),
    "analyze": (["analyze", "ladder", "--engine", "reference", "--out", "OUT"], None),
    "serve": (["serve", "--port", "0", "--db", "DB"], "Open that address"),
}


def _default_ctrl_c() -> None:
    """In the child: Ctrl-C does what it does in a terminal, even when this test runs in a
    shell's background job (which starts its commands with Ctrl-C ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize("name", list(LONG))
@pytest.mark.numba_compile
def test_ctrl_c_exits_130_with_one_line_in_every_command(name: str, tmp_path: Path) -> None:
    args, ready = LONG[name]
    args = [str(tmp_path / "out") if a == "OUT" else str(tmp_path / "t.sqlite3")
            if a == "DB" else a for a in args]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # A session of its own: the signal goes to every process of it, as a terminal's
    # Ctrl-C goes to the whole foreground process group (pool workers included).
    proc = subprocess.Popen([sys.executable, "-m", "trashcards", *args], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            start_new_session=True, preexec_fn=_default_ctrl_c)
    try:
        if ready is None:
            time.sleep(4)
        else:
            stream = proc.stderr if name == "simulate" else proc.stdout
            assert stream is not None
            seen = ""
            while ready not in seen:
                line = stream.readline()
                assert line, f"{name} ended early"
                seen += line
            if name == "serve":  # serving: a Ctrl-C in its first milliseconds is not this
                url = seen.split()[seen.split().index("at") + 1].rstrip("/")
                while httpx.get(f"{url}/healthz", timeout=5).status_code != 200:
                    time.sleep(0.05)
        assert proc.poll() is None, f"{name} ended before Ctrl-C"
        os.killpg(proc.pid, signal.SIGINT)
        _out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, err
    command = "simulate" if name.startswith("simulate") else name
    lines = err.strip().splitlines()
    assert lines[-1] == f"trashcards {command}: interrupted", err
    if name == "serve":  # its log lines come before: warming up, ready
        assert all(line.startswith("trashcards serve: ") for line in lines), err
    else:
        assert len(lines) == 1, err
    assert "Traceback" not in err
    assert "Aborted!" not in err
