"""The files written by ``scripts/write_spec.py`` (the browser's copy of the rules' spec,
the protocol's TypeScript types) are what the Python sources make now."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "write_spec.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("write_spec", SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("relative", ["src/trashcards/web/static/js/spec.js",
                                      "src/trashcards/web/static/js/tutorial.js",
                                      "types/protocol.d.ts"])
def test_each_generated_file_is_up_to_date(relative: str) -> None:
    script = _script()
    made = script.OUTPUTS[relative]()
    assert (ROOT / relative).read_text(encoding="utf-8") == made, \
        "stale: run python3 scripts/write_spec.py"


def test_the_check_fails_on_a_stale_file_and_says_which(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    script = _script()
    monkeypatch.setattr(script, "ROOT", tmp_path)
    assert script.main([]) == 0  # writes them all
    assert script.main(["--check"]) == 0
    spec = tmp_path / "src/trashcards/web/static/js/spec.js"
    spec.write_text(spec.read_text().replace('"last_chance": false', '"last_chance": true'))
    capsys.readouterr()
    assert script.main(["--check"]) == 1
    assert "stale (run python3 scripts/write_spec.py): src/trashcards/web/static/js/spec.js" \
        in capsys.readouterr().out


def test_the_check_runs_as_a_command() -> None:
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True,
                          text=True, check=False, timeout=120,
                          env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout + done.stderr
