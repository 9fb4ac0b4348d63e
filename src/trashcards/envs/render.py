"""``render_mode="ansi"``: the position as plain text, drawn by the terminal game's renderer.

The picture is :func:`trashcards.tui.render.table_view` of a view, printed by rich into a
string without colours. It is imported when a picture is asked for, so the environments
do not load the terminal game otherwise (the renderer itself is pure: a view in, a rich
renderable out).
"""

from __future__ import annotations

import io

from rich.console import Console

from ..views import View

__all__ = ["ansi"]

_WIDTH = 80


def ansi(view: View) -> str:
    """The table as ``view`` sees it, as text."""
    from ..tui.render import table_view

    buffer = io.StringIO()
    console = Console(file=buffer, width=_WIDTH, color_system=None, force_terminal=False,
                      legacy_windows=False, highlight=False)
    console.print(table_view(view))
    return buffer.getvalue()
