"""The environments sit below the terminal game: drawing a position (render_mode="ansi")
uses the shared pictures (trashcards.pictures), never trashcards.tui."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys
import trashcards.pictures
assert not [m for m in sys.modules if m.startswith(("trashcards.tui", "trashcards.envs",
            "trashcards.sim", "trashcards.cli"))], "pictures imports above the core"
import trashcards.envs.gymnasium, trashcards.envs.pettingzoo, trashcards.envs.openspiel
from trashcards.envs.gymnasium import TrashEnv
from trashcards.envs.pettingzoo import raw_env
env = TrashEnv(["greedy"], render_mode="ansi")
env.reset(seed=1)
text = env.render()
table = raw_env(render_mode="ansi")
table.reset(seed=1)
assert "Round 1" in text and "Round 1" in table.render(), text
loaded = sorted(m for m in sys.modules if m.startswith("trashcards.tui"))
assert not loaded, loaded
print("ok")
"""


def test_the_environments_draw_positions_without_the_terminal_game() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True,
                         timeout=120, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok"
