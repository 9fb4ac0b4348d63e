"""The hint's move on the table (issue 31, item 3): marked unmistakably, in a colour that
stands out from the legal moves' yellow and from the keyboard's focus ring (measured:
WCAG contrast of at least 3:1 between the colours), with a tag in words, and covering no
caption or slot number, on every screen size; the keyboard's focus ring is not the
legal moves' yellow either; and the docked hint shows its rows without a scroll of its
own at 1366×768 and 1280×800 (it folds to the best move and "Show all moves" when they
would not fit).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import scenes
from browserkit import serve
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

#: WCAG's relative luminance and contrast, and every colour a computed style names.
COLOURS = """
const channel = (v) => { const c = v / 255;
  return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const lum = ([r, g, b]) => 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)];
  return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
const colours = (text) => [...String(text).matchAll(/rgba?\\(([^)]*)\\)/g)]
  .map((m) => m[1].split(',').map(Number))
  .filter((c) => c.length < 4 || c[3] > 0.5).map((c) => c.slice(0, 3));
"""

#: What marks the hint's move, a legal move and the focused control.
MARKS = """() => {""" + COLOURS + """
  const picked = document.querySelector('#game .hint-pick');
  const card = picked.querySelector('.card') || picked;
  const focused = document.activeElement;
  const others = [...document.querySelectorAll('#game .legal')]
    .filter((el) => !el.classList.contains('hint-pick'));
  const other = others.find((el) => el !== focused) || others[0];
  const otherCard = other ? (other.querySelector('.card') || other) : null;
  const pickedStyle = getComputedStyle(card);
  const hint = [pickedStyle.outlineColor];
  const legal = otherCard ? colours(getComputedStyle(otherCard).boxShadow) : [];
  const focusStyle = getComputedStyle(focused);
  const focus = [...colours(focusStyle.outlineColor), ...colours(focusStyle.boxShadow)];
  const felt = colours(getComputedStyle(document.documentElement)
    .getPropertyValue('--felt').trim().replace(/^#(..)(..)(..)$/,
      (_, r, g, b) => `rgb(${parseInt(r, 16)}, ${parseInt(g, 16)}, ${parseInt(b, 16)})`))[0];
  const best = (as, bs) => Math.max(0, ...as.flatMap((a) => bs.map((b) => contrast(a, b))));
  const tag = picked.querySelector('.hint-tag');
  const tagStyle = getComputedStyle(tag);
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const ring = box(card);
  const reach = 3;  // the frame's outer rim
  const markBox = {left: ring.left - reach, top: ring.top - reach, right: ring.right + reach,
                   bottom: ring.bottom + reach};
  const meets = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const texts = [...document.querySelectorAll(
      '#game .slot-number, #game .pile-caption, #game .hand-title, #game .show-pile, '
      + '#game .board-head')]
    .filter((el) => !picked.contains(el) && el.offsetParent !== null);
  return {
    hintColours: colours(hint.join(' ')), legalColours: legal, focusColours: focus,
    hintVsLegal: best(colours(hint.join(' ')), legal),
    hintVsFocus: best(colours(hint.join(' ')), focus),
    focusVsLegal: best(focus, legal), focusVsFelt: best(focus, [felt]),
    hintStyle: pickedStyle.outlineStyle, focusStyle: focusStyle.outlineStyle,
    legalOutline: otherCard && other !== focused ? getComputedStyle(otherCard).outlineStyle
      : null,
    focusedIsLegal: focused.classList.contains('legal'),
    tag: {text: tag.textContent, contrast: contrast(colours(tagStyle.color)[0],
          colours(tagStyle.backgroundColor)[0]), box: box(tag)},
    covers: texts.filter((el) => meets(markBox, box(el)) || meets(box(tag), box(el)))
      .map((el) => el.className + ': ' + el.textContent),
    size: [innerWidth, innerHeight],
  };
}"""

CASES = [("1366x768", 4), ("1280x800", 4), ("390x844", 4), ("1366x768", 2)]


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory
           ) -> Iterator[tuple[str, dict[int, tuple[str, dict[int, str]]]]]:
    """A server and a table per player count, waiting for seat 0 to place a wild (or
    swap) in its second round."""
    options = ["--join-rate", "100000", "--max-connections", "256"]
    with serve(tmp_path_factory.mktemp("hint_mark") / "tables.sqlite3", options=options) as base:
        made: dict[int, tuple[str, dict[int, str]]] = {}
        players = []
        for count in (2, 4):
            seats = [{"kind": "me", "name": "Annemarie"}] + [
                {"kind": "bot", "bot": bot} for bot in ("greedy", "kid", "sometimes")[:count - 1]]
            answer = scenes.create(base, seats)
            tokens = {s["seat"]: s["token"] for s in answer["seats"]}
            player = scenes.Player(base, answer["table_id"], tokens, seed=count)
            player.play_until(lambda s: s["round"] >= 2 and scenes.wild_or_swap(0)(s))
            players.append(player)
            made[count] = (answer["table_id"], tokens)
        yield base, made
        for player in players:
            player.close()


@pytest.mark.parametrize(("size", "count"), CASES)
def test_the_hints_move_is_marked_apart_from_the_legal_moves_and_the_focus(
        new_context: Any, tables: tuple[str, dict[int, tuple[str, dict[int, str]]]],
        size: str, count: int) -> None:
    base, made = tables
    width, height = scenes.SIZES[size]
    phone = width < 500
    context = new_context(viewport={"width": width, "height": height}, is_mobile=phone,
                          has_touch=phone)
    table_id, tokens = made[count]
    page = scenes.open_page(context, base, table_id, tokens)
    page.wait_for_function("document.body.dataset.acting === '0'")
    page.keyboard.press("h")
    page.wait_for_selector("#hint-panel .hint-best", timeout=120_000)
    expect(page.locator("#game .hint-pick")).to_have_count(1)
    expect(page.locator("#game .hint-tag")).to_have_count(1)
    # The keyboard's focus on a legal move that the hint does not suggest, if any.
    page.keyboard.press("Tab")
    others = page.locator("#game .legal:not(.hint-pick)")
    (others.first if others.count() else page.locator("#game .hint-pick")).focus()
    page.evaluate("document.fonts.ready")
    seen = page.evaluate(MARKS)

    assert seen["legalColours"] or others.count() == 0, seen
    if others.count():
        assert seen["hintVsLegal"] >= 3, f"the hint is too close to the legal yellow: {seen}"
        assert seen["focusVsLegal"] >= 3, f"the focus ring is too close to the legal yellow: {seen}"
        assert seen["focusedIsLegal"], seen
    assert seen["hintVsFocus"] >= 3, f"the hint's colour is too close to the focus ring: {seen}"
    assert seen["focusVsFelt"] >= 3, f"the focus ring is lost on the felt: {seen}"
    assert seen["hintStyle"] == "dashed", seen
    assert seen["focusStyle"] == "solid", seen
    assert seen["legalOutline"] != "dashed", seen
    # Its tag says it in words (readable without colour), inside the window, covering
    # no caption, slot number or board heading; nor does the frame.
    assert "Hint" in seen["tag"]["text"], seen
    assert seen["tag"]["contrast"] >= 4.5, seen
    tag = seen["tag"]["box"]
    assert tag["left"] >= 0 and tag["top"] >= 0, seen  # noqa: PT018
    assert tag["right"] <= width and tag["bottom"] <= height, seen  # noqa: PT018
    assert seen["covers"] == [], f"the hint's mark covers: {seen['covers']}"
    # The move is named so for a screen reader.
    name = page.locator("#game .hint-pick").get_attribute("aria-label")
    if name is not None:
        assert "the suggested move" in name, name

    # Docked on a laptop, the hint needs no scroll of its own: its rows fit, or it folds
    # to the best move with a way to see them all.
    if not phone:
        panel = page.evaluate("(() => { const p = document.getElementById('hint-panel');"
                              " return [p.scrollHeight, p.clientHeight, p.dataset.collapsed];"
                              " })()")
        assert panel[0] <= panel[1] + 1, f"the hint scrolls inside: {panel}"
        if panel[2] == "1":
            fold = page.locator("#hint-panel .hint-fold")
            expect(fold).to_have_attribute("aria-expanded", "false")
            expect(fold).to_have_text("Show all moves")
