"""axe-core (axe-playwright-python) on a page with every rule on: its default rules (WCAG
2.x A and AA, and best practices) and its experimental ones (a control's name holding
its visible text, a table's headers, …), at every impact. The AAA rules (7:1 contrast)
are left out. Used by the accessibility tests (issue 31)."""

from __future__ import annotations

from typing import Any

#: axe-core's experimental rules (off by default in axe 4.x), all turned on.
EXPERIMENTAL = ("css-orientation-lock", "focus-order-semantics", "hidden-content",
                "label-content-name-mismatch", "p-as-heading", "table-fake-caption",
                "td-has-header")


def violations(page: Any) -> list[str]:
    """Every violation axe finds on the page as it is now, one line each (its rule, its
    impact, what it says and where), or [] when there is none."""
    from axe_playwright_python.sync_playwright import Axe

    options = {"resultTypes": ["violations"],
               "rules": {rule: {"enabled": True} for rule in EXPERIMENTAL}}
    results = Axe().run(page, options=options)
    return [f"{v['id']} ({v['impact']}): {v['help']} — "
            f"{[node['target'] for node in v['nodes']][:4]}"
            for v in results.response["violations"]]
