"""Cards that fly true and a win bar that follows the board (issue 18): a flying card has
the shape of a card at rest (5:7) from its source to its target, the win-chance bar never
shows a version the board does not show yet, its percentages add up to 100, and the last
person to join keeps no bar from the moments they were a spectator.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
import scenes
from browserkit import click_and_wait, take_one_decision, wait_for_turn_or_end

pytestmark = pytest.mark.browser

#: Samples, at every animation frame, the shape of every flying card (its layout box,
#: before the flight's transform, which scales both sides alike) and the versions of the
#: bar and the board.
SAMPLER = """() => {
  window.samples = [];
  const tick = () => {
    for (const el of document.querySelectorAll('.card.flying')) {
      window.samples.push({kind: 'flight', w: el.offsetWidth, h: el.offsetHeight});
    }
    const bar = document.querySelector('#winbar').dataset.version;
    if (bar !== undefined) {
      window.samples.push({kind: 'bar', bar: Number(bar),
                           board: Number(document.body.dataset.version)});
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}"""


def test_flying_cards_keep_their_shape_and_the_bar_never_runs_ahead_of_the_board(
        new_context: Any, server: str) -> None:
    answer = scenes.create(server, [{"kind": "me", "name": "Ana"},
                                    {"kind": "bot", "bot": "greedy"},
                                    {"kind": "bot", "bot": "greedy"}])
    tokens = {s["seat"]: s["token"] for s in answer["seats"]}
    context = new_context(viewport={"width": 1366, "height": 768},
                          reduced_motion="no-preference")
    page = scenes.open_page(context, server, answer["table_id"], tokens)
    page.wait_for_selector("#winbar .winbar-part", timeout=30_000)
    page.evaluate(SAMPLER)
    # A few of Ana's decisions, each turn followed by both computers' turns, animated.
    for _ in range(8):
        if wait_for_turn_or_end(page) != "act":
            break
        take_one_decision(page)
    page.wait_for_timeout(1500)  # the computers' last flights and chances
    samples = page.evaluate("window.samples")
    flights = [s for s in samples if s["kind"] == "flight" and s["w"] > 0]
    bars = [s for s in samples if s["kind"] == "bar"]
    assert flights, "no card flew"
    assert bars, "the bar was never drawn"
    shapes = sorted({round(s["h"] / s["w"], 2) for s in flights})
    assert all(1.3 <= r <= 1.5 for r in shapes), f"flying cards are stretched: {shapes}"
    ahead = [s for s in bars if s["bar"] > s["board"]]
    assert not ahead, f"the bar ran ahead of the board in {len(ahead)} of {len(bars)} frames"


def test_the_bars_percentages_add_up_to_100(page: Any, server: str) -> None:
    page.goto(server + "/")
    rng = random.Random(18)
    cases = []
    for _ in range(300):
        count = rng.randint(2, 4)
        weights = [rng.random() ** 3 for _ in range(count)]
        total = sum(weights)
        cases.append([w / total for w in weights])
    cases += [[1 / 3, 1 / 3, 1 / 3], [0.555, 0.445], [0.0, 1.0], [0.001, 0.004, 0.995]]
    got = page.evaluate("""async (cases) => {
      const { shares } = await import('/static/js/winbar.js');
      return cases.map((c) => shares(c));
    }""", cases)
    for chances, whole in zip(cases, got, strict=True):
        assert sum(whole) == 100, (chances, whole)
        assert all(1 <= w <= 99 for w in whole), (chances, whole)
        for chance, share in zip(chances, whole, strict=True):
            assert abs(share - chance * 100) < 1 + len(chances), json.dumps([chances, whole])


def test_the_last_joiner_keeps_no_win_bar_from_the_moments_it_was_a_spectator(
        new_context: Any, server: str) -> None:
    # A table with no hints: its spectators see live chances, its players none. The last
    # person to join watches it first; their seat's answer is held back until their
    # page, still a spectator, has drawn the bar of the match just started (the race a
    # real join loses now and then, made to happen every time).
    answer = scenes.create(server, [{"kind": "bot", "bot": "greedy"}, {"kind": "open"}])
    table_id = answer["table_id"]
    assert answer.get("hints") in (None, False)
    page = new_context().new_page()
    held: list[Any] = []
    page.route("**/api/tables/*/join", lambda route: held.append(route))
    page.goto(f"{server}/t/{table_id}")
    page.fill("#join-name", "Bo")
    page.click("#join-form button[type=submit]")
    while not held:
        page.wait_for_timeout(20)
    joined = held[0].fetch()  # the seat is taken: the match starts
    assert joined.status == 200, joined.text()
    bar = page.locator("#winbar")
    page.wait_for_function("document.querySelector('#winbar').dataset.version",
                           timeout=30_000)
    assert bar.locator(".winbar-part").count() == 2  # a spectator's bar, drawn
    held[0].fulfill(response=joined)

    page.wait_for_function("document.body.dataset.seats === '1'")
    versions = set()
    for _ in range(8):  # the match goes on: the last joiner sees no bar at any version
        got = wait_for_turn_or_end(page)
        versions.add(page.evaluate("document.body.dataset.version"))
        assert bar.locator(".winbar-part").count() == 0, "a stale spectator's bar"
        assert page.locator("#aids").is_hidden()
        if got == "match_over":
            break
        if got == "round_over":  # a lucky chain can end a round in a few turns
            click_and_wait(page, page.locator("#next-round"))
            continue
        take_one_decision(page)
    assert len(versions) >= 3
