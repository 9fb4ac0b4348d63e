"""The lock files install from the public package index alone, on every platform the
README names, and no hashed lock pulls a CUDA build (PyTorch itself is pinned by version
to its PyPI release, whose CPU build pip takes where PyTorch's index is reached).

Each target is resolved by pip's own resolver (``pip install --dry-run --report``) with
this machine's pip configuration and local wheel folders switched off
(``PIP_CONFIG_FILE=/dev/null``, ``PIP_FIND_LINKS`` unset), hashes required, and binary
wheels only for the platforms this machine cannot run (``--platform``,
``--python-version``). The lock of the previous stop pinned ``torch==2.13.0+cpu``, which
only a local folder held, and fails here.

pip checks a hash by downloading the file, so resolving every target that way took
minutes of the suite. pip resolves the platform this suite runs on. For the others, the
index's JSON form (PEP 691) is asked whether, for every pin whose markers hold there, it
serves a wheel with one of the lock's hashes whose tags that platform accepts
(``packaging``'s tags, as pip uses them).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from packaging.markers import Marker
from packaging.tags import Tag, compatible_tags, cpython_tags, mac_platforms
from packaging.utils import canonicalize_name, parse_wheel_filename

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


@dataclass(frozen=True)
class Pin:
    name: str
    version: str
    marker: Marker | None
    hashes: frozenset[str]


def pins(lock: Path) -> list[Pin]:
    """The pins of a hashed lock: name, version, environment marker and sha256 hashes."""
    found: list[Pin] = []
    for block in re.split(r"\n(?=[A-Za-z0-9])", lock.read_text()):
        head = block.split("\\", 1)[0].strip()
        match = re.match(r"^([A-Za-z0-9._-]+)==([^ ;]+)\s*(?:;\s*(.+))?$", head)
        if match is None:
            continue
        name, version, marker = match.groups()
        found.append(Pin(canonicalize_name(name), version,
                         Marker(marker) if marker else None,
                         frozenset(re.findall(r"--hash=sha256:([0-9a-f]{64})", block))))
    return found


def accepted_tags(python: str, platforms: list[str]) -> set[Tag]:
    """The wheel tags pip accepts for CPython ``python`` given ``--platform``s: on macOS,
    as pip does, each platform with every older macOS and the universal2 builds."""
    version = tuple(int(part) for part in python.split("."))
    if platforms[0].startswith("macosx"):
        platforms = [expanded for platform in platforms
                     for expanded in mac_platforms(_mac_version(platform),
                                                   platform.split("_", 3)[3])]
    return (set(cpython_tags(version, platforms=platforms))
            | set(compatible_tags(version, platforms=platforms)))


def _mac_version(platform: str) -> tuple[int, int]:
    _, major, minor, _arch = platform.split("_", 3)
    return int(major), int(minor)


def environment(python: str, platforms: list[str]) -> dict[str, str]:
    """The marker environment of CPython ``python`` on the platforms' operating system."""
    mac = platforms[0].startswith("macosx")
    return {"implementation_name": "cpython", "platform_python_implementation": "CPython",
            "python_version": python, "python_full_version": f"{python}.0",
            "sys_platform": "darwin" if mac else "linux",
            "platform_system": "Darwin" if mac else "Linux", "os_name": "posix",
            "platform_machine": "arm64" if mac else "x86_64", "platform_release": "",
            "platform_version": "", "implementation_version": f"{python}.0",
            "extra": ""}


def served_files(pin: Pin) -> list[dict[str, Any]]:
    """The files PyPI serves for ``pin``'s project, from the index pip reads (its JSON
    form, PEP 691), each with its name and hashes."""
    request = urllib.request.Request(f"{INDEX}{pin.name}/", headers={
        "Accept": "application/vnd.pypi.simple.v1+json"})
    with urllib.request.urlopen(request, timeout=60) as answer:
        files: list[dict[str, Any]] = json.load(answer)["files"]
    return files


def unservable(python: str, platforms: list[str],
               served: dict[Pin, list[dict[str, Any]]]) -> list[str]:
    """The pins (of ``served``: each pin with PyPI's files of its version) that PyPI
    serves no wheel for on this target with one of the lock's hashes."""
    tags, env = accepted_tags(python, platforms), environment(python, platforms)
    missing = []
    for pin, files in served.items():
        if pin.marker is not None and not pin.marker.evaluate(env):
            continue
        wheels = [str(f["filename"]) for f in files
                  if str(f["filename"]).endswith(".whl")
                  and f["hashes"].get("sha256") in pin.hashes]
        if not any(parse_wheel_filename(wheel)[3] & tags for wheel in wheels):
            missing.append(f"{pin.name}=={pin.version}")
    return missing


@pytest.mark.slow
def test_the_test_lock_installs_from_the_public_index_alone_on_every_platform(
        online: None, tmp_path: Path) -> None:
    lock = ROOT / "requirements-test.txt"
    # this platform: pip's own resolver, which downloads and hashes every file
    here = TARGETS[0]
    status, err, names = resolve(lock, here[1], here[2], tmp_path)
    assert status == 0, err.strip().splitlines()[-2:]
    assert {"numba", "starlette", "textual", "pytest"} <= set(names)
    # the others: the index's JSON form, one request a pin
    locked = pins(lock)
    with ThreadPoolExecutor(16) as pool:
        served = dict(zip(locked, pool.map(served_files, locked), strict=True))
    failures = {name: missing for name, python, platforms in TARGETS
                if (missing := unservable(python, platforms, served))}
    assert not failures, failures


def test_the_json_check_refuses_a_pin_pypi_does_not_serve() -> None:
    """The check above can fail: a local build (``+cpu``), or a hash PyPI never served."""
    local = Pin("torch", "2.13.0+cpu", None, frozenset({"0" * 64}))
    wheel = {"filename": "torch-2.13.0-cp311-cp311-manylinux_2_28_x86_64.whl",
             "hashes": {"sha256": "1" * 64}}
    assert unservable("3.11", LINUX,
                      {local: [wheel]}) == ["torch==2.13.0+cpu"]
    right = Pin("torch", "2.13.0", None, frozenset({"1" * 64}))
    assert unservable("3.11", LINUX, {right: [wheel]}) == []
    assert unservable("3.12", LINUX,
                      {right: [wheel]}) == ["torch==2.13.0"]  # a cp311 wheel only
    windows = Pin("colorama", "0.4.6", Marker("sys_platform == 'win32'"), frozenset())
    assert unservable("3.12", MACOS, {windows: []}) == []


def test_every_pin_of_the_test_lock_is_read() -> None:
    text = (ROOT / "requirements-test.txt").read_text()
    locked = pins(ROOT / "requirements-test.txt")
    assert len(locked) == len(re.findall(r"^[A-Za-z0-9._-]+==", text, re.MULTILINE))
    assert all(pin.hashes for pin in locked)


@pytest.mark.slow
def test_the_train_lock_installs_from_the_public_index_beside_pytorchs_cpu_build(
        online: None) -> None:
    # torch itself is pinned by version (requirements-torch.txt); everything
    # else it and sb3-contrib need is in requirements-train.txt, with hashes, installed
    # with --no-deps: so each pin need only be served
    locked = pins(ROOT / "requirements-train.txt")
    assert {"sb3-contrib", "stable-baselines3", "sympy"} <= {pin.name for pin in locked}
    with ThreadPoolExecutor(16) as pool:
        served = dict(zip(locked, pool.map(served_files, locked), strict=True))
    assert unservable("3.11", LINUX, served) == []


def test_no_lock_pins_a_cuda_build() -> None:
    for name in ("requirements-test.txt", "requirements-train.txt"):
        text = (ROOT / name).read_text()
        assert not CUDA.findall(text), name
    torch = (ROOT / "requirements-torch.txt").read_text()
    # PyPI's own release (no local label, which only another index serves), PyTorch's
    # CPU index searched beside PyPI, not instead of it
    assert re.search(r"^torch==[0-9.]+$", torch, re.MULTILINE)
    assert "+" not in torch.split("torch==", 1)[1]
    assert "--extra-index-url https://download.pytorch.org/whl/cpu" in torch
    assert "--index-url" not in torch.replace("--extra-index-url", "")


def test_the_all_extra_leaves_torch_out() -> None:
    import tomllib

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"]
    assert "train" not in extras["all"][0]
    assert not any(req.startswith("torch") for name in ("web", "sim", "envs", "test")
                   for req in extras[name])
