"""The lock files install from the public package index alone, on every platform the
README names, and no locked path pulls a CUDA build.

Each target is resolved by pip's own resolver (``pip install --dry-run --report``) with
this machine's pip configuration and local wheel folders switched off
(``PIP_CONFIG_FILE=/dev/null``, ``PIP_FIND_LINKS`` unset), hashes required, and binary
wheels only for the platforms this machine cannot run (``--platform``,
``--python-version``). The lock of the previous stop pinned ``torch==2.13.0+cpu``, which
only a local folder held, and fails here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INDEX = "https://pypi.org/simple/"

LINUX = ["manylinux_2_28_x86_64", "manylinux_2_27_x86_64", "manylinux_2_17_x86_64",
         "manylinux2014_x86_64", "manylinux_2_5_x86_64", "manylinux1_x86_64"]
MACOS = [f"macosx_{major}_0_arm64" for major in (14, 13, 12, 11)]
#: (name, python version, platform tags): CPython 3.11-3.13 on Linux x86_64, macOS arm64.
TARGETS = [("linux-3.11", "3.11", LINUX), ("linux-3.12", "3.12", LINUX),
           ("linux-3.13", "3.13", LINUX), ("macos-3.12", "3.12", MACOS)]

#: Packages that only a CUDA build of PyTorch brings.
CUDA = re.compile(r"^(torch|triton|nvidia-[a-z0-9-]+)==", re.MULTILINE)


def index_reachable() -> bool:
    try:
        with urllib.request.urlopen(INDEX + "pip/", timeout=10):
            return True
    except OSError:
        return False


def public_index_only() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "UV_")) or k == "PIP_DEFAULT_TIMEOUT"}
    env["PIP_CONFIG_FILE"] = os.devnull
    # pip's cache of what it downloaded (wheels' metadata): kept in the clone, so a second
    # run takes seconds instead of minutes
    env["PIP_CACHE_DIR"] = str(ROOT / ".cache" / "pip")
    return env


def resolve(lock: Path, python: str, platforms: list[str], target: Path,
            *extra: str) -> tuple[int, str, list[str]]:
    """Resolve ``lock`` for one platform against PyPI only: (status, stderr, names)."""
    report = target / "report.json"
    command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed",
               "--quiet", "--disable-pip-version-check", "--index-url", INDEX,
               "--require-hashes", "--only-binary=:all:", "--implementation", "cp",
               "--python-version", python, "--target", str(target / "site"),
               "--report", str(report), *extra, "-r", str(lock)]
    for platform in platforms:
        command += ["--platform", platform]
    done = subprocess.run(command, capture_output=True, text=True, env=public_index_only(),
                          timeout=900)
    names: list[str] = []
    if done.returncode == 0:
        names = [re.sub(r"[-_.]+", "-", item["metadata"]["name"]).lower()
                 for item in json.loads(report.read_text())["install"]]
    return done.returncode, done.stderr, names


@pytest.fixture(scope="module")
def online() -> None:
    if not index_reachable():
        pytest.skip(f"the package index ({INDEX}) cannot be reached from this machine")


@pytest.mark.slow
def test_the_test_lock_installs_from_the_public_index_alone_on_every_platform(
        online: None, tmp_path: Path) -> None:
    lock = ROOT / "requirements-test.txt"

    def one(target: tuple[str, str, list[str]]) -> tuple[str, int, str, list[str]]:
        name, python, platforms = target
        folder = tmp_path / name
        folder.mkdir()
        return (name, *resolve(lock, python, platforms, folder))

    with ThreadPoolExecutor(len(TARGETS)) as pool:
        results = list(pool.map(one, TARGETS))
    failures = {name: err.strip().splitlines()[-2:] for name, status, err, _ in results
                if status != 0}
    assert not failures, failures
    for name, _, _, names in results:
        assert {"numba", "starlette", "textual", "pytest"} <= set(names), name


@pytest.mark.slow
def test_the_train_lock_installs_from_the_public_index_beside_pytorchs_cpu_build(
        online: None, tmp_path: Path) -> None:
    # torch itself comes from PyTorch's CPU index (requirements-torch.txt); everything
    # else it and sb3-contrib need is in requirements-train.txt, with hashes.
    status, err, names = resolve(ROOT / "requirements-train.txt", "3.11", LINUX, tmp_path,
                                 "--no-deps")
    assert status == 0, err
    assert {"sb3-contrib", "stable-baselines3", "sympy"} <= set(names)


def test_no_lock_pins_a_cuda_build() -> None:
    for name in ("requirements-test.txt", "requirements-train.txt"):
        text = (ROOT / name).read_text()
        assert not CUDA.findall(text), name
    torch = (ROOT / "requirements-torch.txt").read_text()
    assert "--index-url https://download.pytorch.org/whl/cpu" in torch
    assert re.search(r"^torch==[0-9.]+\+cpu$", torch, re.MULTILINE)


def test_the_all_extra_leaves_torch_out() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert "train" not in extras["all"][0]
    assert not any(req.startswith("torch") for name in ("web", "sim", "envs", "test")
                   for req in extras[name])
