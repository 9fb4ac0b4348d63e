"""The browser's modules that run under Node, with the page faked:
tests/web/js/table.test.mjs (the table page's state and controller, js/table/),
tests/web/js/speech.test.mjs (what it says to a screen reader, js/table/speech.js),
tests/web/js/spec.test.mjs (the rules engine holds to the generated spec, js/spec.js),
tests/web/js/habits.test.mjs (a player's habits against rated players', five languages) and
tests/web/js/learn.test.mjs (the guided first game's script, js/learn.js)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent / "js"

pytestmark = pytest.mark.node


@pytest.mark.parametrize("name", ["table.test.mjs", "speech.test.mjs", "spec.test.mjs",
                                  "habits.test.mjs", "learn.test.mjs"])
def test_the_module_tests_pass_under_node(name: str) -> None:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    done = subprocess.run([node, "--test", str(TESTS / name)], capture_output=True,
                          text=True, check=False, timeout=120)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"^# pass ([1-9]\d*)$", done.stdout, re.M)
    assert re.search(r"^# fail 0$", done.stdout, re.M)


def test_every_browser_module_is_type_checked() -> None:
    """``// @ts-check`` opens every module under static/js, so that an editor checks it as
    ``scripts/check_js`` does (tsc --checkJs)."""
    js = Path(__file__).resolve().parents[2] / "src" / "trashcards" / "web" / "static" / "js"
    modules = sorted(js.rglob("*.js"))
    assert len(modules) > 30
    unchecked = [p.relative_to(js).as_posix() for p in modules
                 if not p.read_text(encoding="utf-8").startswith("// @ts-check\n")]
    assert unchecked == []
