"""The playthroughs (tests/data/playthroughs, written by scripts/write_playthroughs.py):
every engine reproduces them line by line. The Python engine tells every line again from
the moves; the fast kernel plays the very moves again from its bots and seed; the
browser's engine (Node) tells every line again too (tests/web/js/playthrough.test.mjs).
Together they cover every preset and each variant, alone and combined."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import time
from pathlib import Path
from types import ModuleType

import pytest

from trashcards.rules import FLAGS, PRESETS, Rules

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "tests" / "data" / "playthroughs"
FILES = sorted(FOLDER.glob("*.txt"))


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "write_playthroughs", ROOT / "scripts" / "write_playthroughs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SCRIPT = _script()


def _moves(text: str) -> list[str]:
    return [line.split(" ", 2)[2] for line in text.splitlines() if line.startswith("move ")]


def test_the_playthroughs_are_the_scripts_and_cover_every_preset_and_variant() -> None:
    assert [path.stem for path in FILES] == sorted(SCRIPT.PLAYTHROUGHS)
    rules = [Rules.from_dict(fields) for fields, *_ in SCRIPT.PLAYTHROUGHS.values()]
    presets = {r.preset for r in rules}
    assert {p for p in PRESETS if p != "first-to-N"} <= presets
    assert any(p.startswith("first-to-") for p in presets)
    for flag in FLAGS:  # each variant alone, and all of them together
        assert any(getattr(r, flag) and sum(getattr(r, f) for f in FLAGS) == 1 for r in rules)
    assert any(all(getattr(r, f) for f in FLAGS) for r in rules)
    assert {players for _f, players, *_ in SCRIPT.PLAYTHROUGHS.values()} == {2, 3, 4}


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_the_python_engine_tells_each_playthrough_line_by_line(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    told = SCRIPT.render(path.stem, _moves(text))
    for number, (want, got) in enumerate(zip(text.splitlines(), told.splitlines(),
                                             strict=True), 1):
        assert got == want, f"{path.name}:{number}"


@pytest.mark.numba_compile
def test_the_kernel_plays_each_playthrough_again(record_property: pytest.RecordProperty
                                                 ) -> None:
    pytest.importorskip("numba")
    start = time.perf_counter()
    for path in FILES:
        assert SCRIPT.moves_of(path.stem) == _moves(path.read_text(encoding="utf-8")), \
            path.name
    record_property("seconds", round(time.perf_counter() - start, 2))


@pytest.mark.node
def test_the_browsers_engine_tells_each_playthrough_line_by_line() -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, "--test", str(ROOT / "tests/web/js/playthrough.test.mjs")],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    told = re.findall(r"told (\S+) (\d+) moves", done.stdout)
    assert sorted(name for name, _ in told) == [path.stem for path in FILES]


def test_a_changed_line_is_found(tmp_path: Path) -> None:
    """The comparison can fail: one event of one playthrough changed."""
    path = FILES[0]
    text = path.read_text(encoding="utf-8").replace('"type":"dealt"', '"type":"delt"', 1)
    assert text != path.read_text(encoding="utf-8")
    told = SCRIPT.render(path.stem, _moves(text))
    assert told != text
