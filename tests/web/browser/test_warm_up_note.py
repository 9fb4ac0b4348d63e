"""While the server's AI warms up after a start (``/healthz`` says ``"ai": "warming_up"``)
the table page says so in a note, and the note goes once the AI is ready. The server's
answer is replaced here (a real first start compiles for half a minute or more:
tests/web/test_first_start.py measures that one)."""

from __future__ import annotations

import json
from typing import Any

import pytest
import scenes
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_table_page_says_the_ai_warms_up_until_it_is_ready(new_context: Any,
                                                              server: str) -> None:
    answer = scenes.create(server, [{"kind": "me", "name": "Ana"},
                                    {"kind": "bot", "bot": "greedy"}])
    tokens = {s["seat"]: s["token"] for s in answer["seats"]}
    context = new_context()
    state = {"ai": "warming_up", "asked": 0}

    def health(route: Any) -> None:
        state["asked"] += 1
        route.fulfill(status=200, content_type="application/json",
                      body=json.dumps({"ok": True, "process": "local", "ai": state["ai"],
                                       "tables_owned": 1, "tables_followed": 0}))

    context.route("**/healthz", health)
    page = scenes.open_page(context, server, answer["table_id"], tokens)
    note = page.locator("#notes .note-warmup")
    expect(note).to_have_text("The server is warming up its AI after a start: for a "
                              "moment, hints and win chances are coarser and the expert "
                              "computer thinks less.")
    state["ai"] = "ready"
    expect(note).to_have_count(0, timeout=10_000)
    asked = state["asked"]
    page.wait_for_timeout(4_500)
    assert state["asked"] == asked  # it stops asking once ready
