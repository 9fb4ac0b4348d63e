"""Whole names in the standings (issue 31, item 7): at the end of a match the final
standings show every name whole at 1366×768 and on a 390×844 phone, breaking a long name
between its words and never inside one ("Compu / ter / (expert / )" before), and the
party page's standings show them whole too (they ended in an ellipsis)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import scenes
from browserkit import serve
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

#: Each word of each name cell, and whether the browser drew it on more than one line;
#: and whether the cell or the table is cut.
WORDS = """(cells) => [...document.querySelectorAll(cells)].map((cell) => {
  const range = document.createRange();
  const broken = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const match of node.data.matchAll(/\\S+/g)) {
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  const box = cell.getBoundingClientRect();
  return {text: cell.textContent.trim(), broken,
          cut: cell.scrollWidth > cell.clientWidth + 1,
          inside: box.left >= -0.5 && box.right <= innerWidth + 0.5};
})"""

#: A person's name of three words (23 characters) and the computers at three levels.
SEATS = [{"kind": "me", "name": "Maria Fernanda Delacroix"}, {"kind": "bot", "bot": "greedy"},
         {"kind": "bot", "bot": "kid"}, {"kind": "bot", "bot": "sometimes"}]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str, dict[int, str]]]:
    """A server and a four-player match played to its end (boards of one slot: one
    round)."""
    with serve(tmp_path_factory.mktemp("standings") / "tables.sqlite3") as base:
        answer = scenes.create(base, SEATS, rules={"preset": "kids", "start_size": 1})
        tokens = {s["seat"]: s["token"] for s in answer["seats"]}
        player = scenes.Player(base, answer["table_id"], tokens, seed=4)
        player.play_until(lambda s: s["phase"] == "match_over")
        player.close()
        yield base, answer["table_id"], tokens


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("size", ["1366x768", "390x844"])
def test_the_final_standings_show_every_name_whole(
        new_context: Any, finished: tuple[str, str, dict[int, str]], size: str,
        lang: str) -> None:
    base, table_id, tokens = finished
    width, height = scenes.SIZES[size]
    phone = width < 500
    context = new_context(viewport={"width": width, "height": height}, locale=lang,
                          is_mobile=phone, has_touch=phone)
    page = scenes.open_page(context, base, table_id, tokens)
    expect(page.locator("#standings")).to_be_visible()
    page.evaluate("document.fonts.ready")
    cells = page.evaluate(WORDS, "#standings tbody th")
    assert len(cells) == 4
    assert "Maria Fernanda Delacroix" in [c["text"] for c in cells]
    for cell in cells:
        assert cell["broken"] == [], f"a word of a name is broken across lines: {cell}"
        assert not cell["cut"], f"a name is cut: {cell}"
        assert cell["inside"], f"a name sticks out of the screen: {cell}"
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_party_page_shows_every_name_whole(new_context: Any, tmp_path: Any) -> None:
    with serve(tmp_path / "tables.sqlite3") as base:
        seats = [{"kind": "me", "name": "Maria Fernanda Delacroix"},
                 {"kind": "hotseat", "name": "Bartholomew Ignatius"}] + [
            {"kind": "bot", "bot": bot} for bot in ("greedy", "kid", "sometimes")]
        answer = scenes.party(base, seats)
        page = new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                           has_touch=True).new_page()
        page.goto(f"{base}/p/{answer['party_id']}")
        page.wait_for_selector(".party-seat-name")
        page.evaluate("document.fonts.ready")
        cells = page.evaluate(WORDS, ".party-seat-name")
        names = [c["text"] for c in cells]
        assert "Maria Fernanda Delacroix" in names, names
        assert "Bartholomew Ignatius" in names, names
        for cell in cells:
            assert cell["broken"] == [], f"a word of a name is broken across lines: {cell}"
            assert not cell["cut"], f"a name is cut: {cell}"
