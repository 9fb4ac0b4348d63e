"""The Review page in a real browser: a downloaded record goes in, the server reviews it
off the loop, the page draws each player's match-win chance as an SVG chart, sums up the
players, and steps through the positions."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import scenes
from playwright.sync_api import expect

from support import cached_odds


def _finished_record(server: str) -> str:
    cached_odds(start_size=5, rounds_to_win=1)  # the review needs the rules' table
    made = httpx.post(f"{server}/api/tables", json={
        "rules": {"preset": "standard", "start_size": 5, "rounds_to_win": 1},
        "seats": [{"kind": "bot", "bot": "expert"}, {"kind": "bot", "bot": "greedy"}]}).json()
    table_id = made["table_id"]
    for _ in range(600):
        if httpx.get(f"{server}/api/tables/{table_id}").json()["status"] == "over":
            break
        time.sleep(0.05)
    return httpx.get(f"{server}/api/tables/{table_id}/record").text


def test_the_review_page_charts_and_steps_through_a_record(page: Any, server: str,
                                                           tmp_path: Path) -> None:
    record = tmp_path / "match.trash.json"
    record.write_text(_finished_record(server), encoding="utf-8")
    page.goto(f"{server}/review")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#review:not([hidden]), #review-error:not([hidden])",
                           timeout=150_000)
    assert page.locator("#review-error").is_hidden(), page.inner_text("#review-error")
    assert page.locator("#chart svg path.curve").count() == 2
    assert page.locator("#summary-body tr").count() == 2
    slider = page.locator("#move-slider")
    last = int(slider.get_attribute("max"))
    assert last > 5
    assert "After the last move" in page.locator("#move-text").inner_text()
    page.click("#first-move")
    assert slider.input_value() == "0"
    page.click("#next-move")
    assert slider.input_value() == "1"
    assert "Before move 2" in page.locator("#move-text").inner_text()
    page.keyboard.press("ArrowRight")
    assert slider.input_value() == "2"
    assert page.locator("#position .review-board").count() == 2


def test_a_bad_record_gets_a_clear_message(page: Any, server: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.trash.json"
    bad.write_text('{"format": "trash/1"}', encoding="utf-8")
    page.goto(f"{server}/review")
    page.set_input_files("#record-file", str(bad))
    error = page.locator("#review-error")
    error.wait_for(state="visible", timeout=20_000)
    assert "cannot be reviewed" in error.inner_text()
    assert page.locator("#review").is_hidden()


def test_the_lobby_offers_the_levels_with_their_elo(page: Any, server: str) -> None:
    from trashcards.ai.levels import LEVELS

    page.goto(server)
    select = page.locator(".seat-bot").first
    page.wait_for_function("document.querySelector('.seat-bot option')?.textContent"
                           ".includes('Elo')")
    options = select.locator("option")
    assert [options.nth(i).get_attribute("value") for i in range(options.count())] == \
        [level.bot for level in LEVELS]
    texts = [options.nth(i).inner_text() for i in range(options.count())]
    for level, text in zip(LEVELS, texts, strict=True):
        assert f"Elo {round(level.elo)}" in text


def test_the_review_reads_like_a_replay_and_fits_a_phone(new_context: Any, server: str
                                                         ) -> None:
    """Issue 18: plain-language moves (the log's sentences), real names and levels, cards
    at their real shape, contrast that passes axe, nothing sideways on a phone, and the
    way there from the finished table and from "Your tables"."""
    from test_languages_and_access import serious_violations

    cached_odds(start_size=5, rounds_to_win=1)  # the review needs the rules' table
    made = httpx.post(f"{server}/api/tables", json={
        "rules": {"preset": "standard", "start_size": 5, "rounds_to_win": 1},
        "seats": [{"kind": "me", "name": "Ana"}, {"kind": "bot", "bot": "expert"}]},
        timeout=20).json()
    table_id = made["table_id"]
    tokens = {s["seat"]: s["token"] for s in made["seats"]}
    player = scenes.Player(server, table_id, tokens)
    try:
        player.play_until(lambda s: s["phase"] == "match_over")
    finally:
        player.close()
    phone = new_context(viewport={"width": 390, "height": 844}, is_mobile=True,
                        has_touch=True)
    page = scenes.open_page(phone, server, table_id, tokens)
    page.wait_for_function("document.body.dataset.phase === 'match_over'")
    # "Your tables" in the lobby lead to the review of a finished table too.
    page.goto(server + "/")
    item = page.locator(f"#mine-list li[data-table='{table_id}']")
    expect(item.locator("a.review-link")).to_have_attribute(
        "href", f"/review?table={table_id}")
    page.goto(f"{server}/t/{table_id}")
    page.locator("#review-link").click()
    page.wait_for_selector("#review:not([hidden]), #review-error:not([hidden])",
                           timeout=150_000)
    assert page.locator("#review-error").is_hidden(), page.inner_text("#review-error")

    legend = page.locator("#chart-legend").inner_text()
    assert "Computer (expert)" in legend, legend
    assert "bot:" not in page.locator("#review").inner_text()
    page.click("#first-move")
    sentences = []
    for _ in range(6):
        page.click("#next-move")
        sentences.append(page.locator("#move-text").inner_text())
    told = " ".join(sentences)
    assert "deck " not in told, told
    assert ": stock" not in told, told
    assert re.search(r"(Ana|Computer \(expert\)) (draws from the stock|takes \S+ from the "
                     r"discard pile)\.", told), told
    shapes = page.evaluate("""() => [...document.querySelectorAll('#position .card')]
        .map((c) => c.getBoundingClientRect()).map((r) => r.height / r.width)""")
    assert shapes, "no card is drawn"
    assert all(1.3 <= r <= 1.5 for r in shapes), shapes
    wide = page.evaluate("""() => [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > 390.5)
        .map((el) => el.tagName + '.' + el.className + '#' + el.id)""")
    assert wide == [], f"sticks out sideways: {wide}"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert serious_violations(page) == []


# -- a review that reads like a coach (issue 28) -----------------------------------------

GOLDEN = Path(__file__).parents[2] / "data" / "kids-2p-review.trash.json"
#: The golden record's first two rounds (Lee, at random, leaves fitting discards and
#: throws a wild away in them): a review a loaded machine does quickly.
MOVES = 33
#: The least font size of the chart's labels, in CSS px, on a phone.
READABLE_PX = 12


@pytest.fixture(scope="module")
def review_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose reviews may take as long as a loaded machine needs."""
    from browserkit import serve

    with serve(tmp_path_factory.mktemp("review") / "tables.sqlite3",
               options=("--review-deadline", "600")) as base:
        yield base


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from trashcards.record import Record, load

    whole = load(GOLDEN)
    path = tmp_path_factory.mktemp("record") / "two-rounds.trash.json"
    Record(whole.rules, whole.players, whole.moves[:MOVES]).dump(path)
    return path


def _open_review(new_context: Any, server: str, record: Path, locale: str = "en-US",
                 width: int = 1280) -> tuple[Any, dict[str, Any]]:
    """The Review page of ``record``, and the server's review of it (the same JSON the
    page got: reviews are seeded)."""
    context = new_context(locale=locale, viewport={"width": width, "height": 900},
                          is_mobile=width < 500)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{server}/review")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#review:not([hidden]), #review-error:not([hidden])",
                           timeout=600_000)
    assert page.locator("#review-error").is_hidden(), page.inner_text("#review-error")
    page.wait_for_selector("#lessons li")
    found = httpx.post(f"{server}/api/review", content=record.read_bytes(),
                       headers={"Content-Type": "application/json"}, timeout=600).json()
    assert errors == [], errors
    return page, found


def _figures(page: Any) -> list[dict[str, str]]:
    return page.evaluate("""() => [...document.querySelectorAll('#summary-body tr')].map(
        (row) => Object.fromEntries([...row.querySelectorAll('td')].map(
            (td) => [td.dataset.figure, td.innerText.trim()])))""")


def _python_lesson(found: dict[str, Any], move: int) -> str:
    """What `trashcards review` says of the decision at ``move`` (English), with slot 1
    labelled A as on the page's boards."""
    from trashcards.actions import parse_action
    from trashcards.ai.review import Decision
    from trashcards.ai.reviewtext import Message, english, lesson
    from trashcards.record import load
    from trashcards.views import view

    d = next(d for d in found["decisions"] if d["move"] == move)
    decision = Decision(d["move"], d["seat"], d["round"], parse_action(d["taken"]),
                        parse_action(d["best"]), d["options"], d["cost"],
                        tuple(d["cost_ci"]), d["round_cost"], d["match_win_before"],
                        d["match_win_after"], tuple(parse_action(a) for a in d["tied"]),
                        d["measured"], d["exact"], d["kind"])
    record = load(GOLDEN)  # its first moves are the reviewed record
    seen = view(record.replay(move), d["seat"])
    told = [Message(m.key, {**m.params, "slot": "A"} if m.params.get("slot") == 1 else m.params)
            for m in lesson(decision, seen, found["players"][d["seat"]])]
    return " ".join(english(m) for m in told)


def test_the_review_gives_each_player_s_figures_and_tells_each_mistake(
        new_context: Any, review_server: str, record_file: Path) -> None:
    """Issue 28: mistakes, small losses, decisions that matched the best and the largest
    single loss — never a sum of points —; each mistake a sentence with the better move
    and the cost's interval, beside the player's board with its slot labels; the same
    sentence `trashcards review` prints."""
    page, found = _open_review(new_context, review_server, record_file)
    figures = _figures(page)
    for shown, s in zip(figures, found["summary"], strict=True):
        assert shown["mistakes"] == str(s["mistakes"])
        assert shown["small"] == str(s["small_losses"])
        percent = round(100 * s["matched"] / s["decisions"])
        assert shown["matched"] == f"{s['matched']} of {s['decisions']} decisions ({percent} %)"
        largest = s["largest_loss"]
        if largest:
            assert re.fullmatch(r"[\d.]+ points of match-win chance \(move (\d+)\)",
                                shown["largest"]), shown
            assert shown["largest"].endswith(f"(move {largest['move'] + 1})")
    text = page.locator("#review").inner_text()
    assert "given away" not in text
    assert not re.search(r"\d{3,}\.\d points", text)  # no sum of points
    assert "chose throw" not in text
    losses = [d for d in found["decisions"] if d["kind"] != "ok"]
    items = page.locator("#lessons li")
    assert items.count() == len(losses) > 0
    wild = next(d for d in losses if d["taken"] == "trash" and d["best"].startswith("wild"))
    item = page.locator(f"#lesson-{wild['move']}")
    said = item.locator(".lesson-text").inner_text()
    assert "chose to throw it away" in said
    cost = (r"It cost exactly [\d.]+ points of match-win chance\." if wild.get("exact") else
            r"It cost [\d.]+ points of match-win chance \(95 %: [\d.]+ to [\d.]+\)\.")
    assert re.search(cost, said), said
    assert said == _python_lesson(found, wild["move"])
    assert item.locator(".lesson-kind").inner_text() == "Mistake"
    labels = item.locator(".lesson-board .slot-label").all_inner_texts()
    size = found["positions"][wild["move"]]["players"][wild["seat"]]["board_size"]
    assert labels == ["A", *(str(k) for k in range(2, size + 1))]
    assert item.locator(".lesson-board .card").count() == size
    # a click on the mistake steps the position there
    item.locator(".lesson-where").click()
    assert page.locator("#move-slider").input_value() == str(wild["move"])
    assert page.locator("#decision-text").inner_text() == said


def test_the_review_is_told_in_dutch(new_context: Any, review_server: str,
                                     record_file: Path) -> None:
    page, found = _open_review(new_context, review_server, record_file, locale="nl-NL")
    headers = page.locator(".summary-table thead th").all_inner_texts()
    assert headers == ["Speler", "Fouten", "Kleine verliezen", "Gelijk aan de beste zet",
                       "Grootste verlies"]
    figures = _figures(page)
    assert all(re.fullmatch(r"\d+ van \d+ beslissingen \(\d+ %\)", f["matched"])
               for f in figures), figures
    losses = [d for d in found["decisions"] if d["kind"] != "ok"]
    stock = next(d for d in losses if d["taken"] == "stock")
    said = page.locator(f"#lesson-{stock['move']} .lesson-text").inner_text()
    assert re.match(r"Lee liet \S+ op de aflegstapel liggen en trok van de stapel\. "
                    r"\S+ van de aflegstapel pakken was beter\. Dat kostte \d+,\d+ "
                    r"procentpunt kans om de partij te winnen \(95 %: \d+,\d+ tot \d+,\d+\)\.",
                    said), said
    assert page.locator(f"#lesson-{stock['move']} .lesson-kind").inner_text() == "Fout"


def test_the_chart_is_readable_on_a_phone(new_context: Any, review_server: str,
                                         record_file: Path) -> None:
    """At 390 px the chart's labels are at least READABLE_PX CSS pixels high and none
    overlaps another; nothing sticks out sideways; axe finds nothing serious."""
    page, _found = _open_review(new_context, review_server, record_file, width=390)
    sizes = page.evaluate("""() => {
        const svg = document.querySelector('#chart svg');
        const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
        return [...svg.querySelectorAll('text')].map(
            (t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    }""")
    assert len(sizes) == 6  # five levels and the moves
    assert min(sizes) >= READABLE_PX, sizes
    boxes = page.evaluate("""() => [...document.querySelectorAll('#chart svg text')].map(
        (t) => { const r = t.getBoundingClientRect();
                 return [r.left, r.top, r.right, r.bottom]; })""")
    for i, a in enumerate(boxes):
        assert a[3] - a[1] >= READABLE_PX - 1, a
        for b in boxes[i + 1:]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # the mistakes' list and boards pass axe too (contrast, names, structure)
    from test_languages_and_access import serious_violations

    assert serious_violations(page) == []
