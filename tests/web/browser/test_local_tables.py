"""Tables "On this device" in a real browser (docs/offline.md): after one visit, with the
network off, a match against the computer and a hot-seat round play in a Web Worker over
the same frames as the server; a reload mid-turn comes back at the same position; the
downloaded record is a trash/1 record the Python engine replays; and every frame the page
receives is exactly the Python core's view of that version and the events of its moves
(nothing hidden reaches the page)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from browserkit import OVER, on_this_device, take_one_decision, version, wait_for_turn_or_end
from statichost import static_host

from trashcards import view, view_json
from trashcards.ai.reasons import CODES, Reason
from trashcards.record import loads
from trashcards.state import new_match
from trashcards.web.eventjson import events_text
from trashcards.web.offline import build_static
from trashcards.web.settings import Settings

COLLECT = """
window.addEventListener("trash-local-frame", (event) => {
  window.keepFrame(JSON.stringify(event.detail));
});
window.trashBotDelay = 0;
window.trashTestSeed = 1;  // seeded shuffles and bots: the same matches on every run
"""


def _open_offline(new_context: Any, server: str) -> tuple[Any, Any, list[dict[str, Any]]]:
    context = new_context(accept_downloads=True)
    frames: list[dict[str, Any]] = []
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.expose_function("keepFrame", lambda text: frames.append(json.loads(text)))
    page.add_init_script(COLLECT)
    page.goto(f"{server}/")
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    context.set_offline(True)
    page.reload()
    page.wait_for_selector("#seat-rows li")
    page.errors = errors
    return context, page, frames


def _create_on_device(page: Any, seats: list[tuple[str, str | None]],
                      rounds: int = 1) -> str:
    page.fill("#my-name", "Ana")
    page.select_option("#preset", "kids")
    page.select_option("#rounds", str(rounds))
    rows = page.locator("#seat-rows li")
    for index, (kind, _extra) in enumerate(seats):
        if kind != "me":
            rows.nth(index).locator(".seat-kind").select_option(kind)
    for index, (kind, extra) in enumerate(seats):
        row = rows.nth(index)
        row.locator(".seat-kind").select_option(kind)
        if kind == "bot" and extra:
            row.locator(".seat-bot").select_option(extra)
        if kind == "hotseat" and extra:
            row.locator(".seat-name").fill(extra)
    page.wait_for_function("document.body.dataset.server === '0'")  # asked, none answers
    assert page.is_checked("#on-device")  # so: on this device by default
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/local-**")
    return str(page.url)


def _snapshot(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => ({
        version: document.body.dataset.version, phase: document.body.dataset.phase,
        boards: [...document.querySelectorAll('#game .board')].map((b) =>
            [...b.querySelectorAll('.slot:not(.gone)')].map((s) => s.getAttribute('aria-label'))),
        pile: (() => { const pile = document.querySelector('.pile.discard');
          return pile ? pile.getAttribute('aria-label') || pile.textContent : null; })()})""")


def _play_round(page: Any, reload_after: int | None = None,
                tmp_path: Path | None = None) -> list[Path]:
    """Click through this device's decisions until the round ends; after ``reload_after``
    decisions reload mid-turn, check the same position comes back and download the
    record there. Returns the records downloaded mid-round."""
    decisions = 0
    downloads: list[Path] = []
    for _ in range(600):
        state = wait_for_turn_or_end(page)
        if state in OVER:
            return downloads
        if state == "pass":
            page.click("#pass-button")
            continue
        if decisions == reload_after:
            before = _snapshot(page)
            page.reload()
            page.wait_for_function("(v) => document.body.dataset.version === v"
                                   " && document.body.dataset.acting !== undefined"
                                   " && !document.getElementById('game').hidden",
                                   arg=before["version"])
            wait_for_turn_or_end(page)
            assert _snapshot(page) == before
            if tmp_path is not None:
                downloads.append(_download(page, tmp_path, "mid-round.trash.json"))
        take_one_decision(page)
        decisions += 1
    raise AssertionError("the round did not end")


def _download(page: Any, tmp_path: Path, name: str) -> Path:
    with page.expect_download() as info:
        page.click("#download")
    path = tmp_path / name
    info.value.save_as(path)
    return path


def _check_frames(frames: list[dict[str, Any]], record_path: Path) -> int:
    """Every state and events frame is the Python view of its version (and its events
    are the Python events of its moves); returns how many frames were checked."""
    record = loads(record_path.read_text(encoding="utf-8"))
    states = [new_match(record.rules, record.players)]
    texts = []
    for state, events in record.steps():
        states.append(state)
        texts.append("[" + events_text(events, state) + "]")
    checked = 0
    for frame in frames:
        if frame["type"] == "chances":
            _check_chances(frame, len(record.players), len(states))
            continue
        if frame["type"] not in ("state", "events"):
            assert frame["type"] in ("joined", "history", "table", "error", "pong"), frame
            assert "stock" not in json.dumps(frame.get("table", {}))
            continue
        at = frame["version"]
        assert at < len(states), "a frame after the record's end"
        assert frame["state"] == view_json(view(states[at], frame["seat"])), at
        if frame["type"] == "events":
            want = [e for t in texts[frame["from_version"]:at] for e in json.loads(t)]
            assert frame["events"] == want
        checked += 1
    return checked


#: A win-chance frame computed on this device: the server's fields (docs/protocol.md), the
#: mark that it is coarser, and how many deals: numbers only, nothing about any card.
CHANCES_KEYS = {"type", "version", "match_win", "round_win", "source", "coarse", "engine",
                "samples"}


def _check_chances(frame: dict[str, Any], players: int, versions: int) -> None:
    """A ``chances`` frame carries every seat's chances and nothing else (no card)."""
    assert set(frame) <= CHANCES_KEYS, frame
    assert 0 <= frame["version"] < versions
    assert frame["source"] in ("search", "final")
    assert len(frame["match_win"]) == players
    assert abs(sum(frame["match_win"]) - 1) < 1e-3
    assert frame["round_win"] is None or len(frame["round_win"]) == players
    assert all(isinstance(v, (int, float)) for v in
               [*frame["match_win"], *(frame["round_win"] or []), frame.get("samples", 0)])
    if frame["source"] != "final":
        assert frame["engine"] == "local"
        assert frame["coarse"]


def test_offline_a_match_against_the_computer_and_a_hot_seat_round(
        new_context: Any, server: str, tmp_path: Path) -> None:
    _context, page, frames = _open_offline(new_context, server)

    _create_on_device(page, [("me", None), ("bot", "greedy")])
    [mid_round] = _play_round(page, reload_after=2, tmp_path=tmp_path)
    # While the match goes on the record stops before the current round's deck, as the
    # server's download does (the deck would show the face-down cards).
    partial = loads(mid_round.read_text(encoding="utf-8"))
    assert [str(entry) for entry in partial.moves] == [str(partial.moves[0])]
    assert str(partial.moves[0]).startswith("dealer ")
    assert page.evaluate("document.body.dataset.phase") == "match_over"
    vs_computer = _download(page, tmp_path, "computer.trash.json")
    record = loads(vs_computer.read_text(encoding="utf-8"))
    assert record.players == ("Ana", "bot:greedy")
    assert record.replay().match_winner is not None
    assert len(record.moves) == int(version(page))
    assert _check_frames(frames, vs_computer) >= 3
    done = subprocess.run([sys.executable, "-m", "trashcards", "replay", str(vs_computer)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr

    # A rematch is a new table on this device, the same seats, this browser's tokens.
    first_table = page.url
    page.click("#play-again")
    page.wait_for_url(lambda url: "/t/local-" in url and url != first_table)
    page.wait_for_function("Number(document.body.dataset.version) >= 2")
    assert page.evaluate("document.body.dataset.seats") == "0"

    frames.clear()
    page.goto(page.url.split("/t/")[0] + "/")
    page.wait_for_selector("#seat-rows li")
    _create_on_device(page, [("me", None), ("hotseat", "Bo")])
    _play_round(page, reload_after=3)
    assert page.evaluate("document.body.dataset.phase") == "match_over"
    hot_seat = _download(page, tmp_path, "hotseat.trash.json")
    record = loads(hot_seat.read_text(encoding="utf-8"))
    assert record.players == ("Ana", "Bo")
    assert record.replay().match_winner is not None
    assert _check_frames(frames, hot_seat) >= 3
    assert any(frame["type"] == "joined" and frame["seats"] == [0, 1] for frame in frames)

    # "Your tables" lists both, with where they stand.
    page.goto(page.url.split("/t/")[0] + "/")
    page.wait_for_selector("#mine-list li")
    texts = page.locator("#mine-list li").all_inner_texts()
    assert len(texts) == 3  # the match, its rematch and the hot-seat match
    assert all("Ana" in text or "you" in text.lower() for text in texts), texts
    assert page.errors == []


def test_a_table_open_in_two_tabs_plays_in_the_first_only(new_context: Any,
                                                          tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    with static_host(site) as base:
        context = new_context()
        page = context.new_page()
        page.goto(f"{base}/")
        page.wait_for_selector("#seat-rows li")
        on_this_device(page)
        url = _create_on_device(page, [("me", None), ("hotseat", "Bo")])
        if wait_for_turn_or_end(page) == "pass":
            page.click("#pass-button")
        second = context.new_page()
        second.goto(url)
        second.wait_for_selector("#error:not([hidden])")
        assert "another tab" in second.inner_text("#error")
        before = version(page)
        take_one_decision(page)
        assert int(version(page)) > int(before)
        assert second.evaluate("document.body.dataset.version") in (None, "")


def _to_a_real_choice(page: Any, lobby: str) -> int:
    """Make a one-round table on this device against the "good" computer and play on to
    a decision with more than one legal move (a forced move gets a one-line hint with no
    table); a match that ends first (the shuffles are random) is made again. Returns how
    many things are legal."""
    for _table in range(8):
        _create_on_device(page, [("me", None), ("bot", "greedy")])
        for _turn in range(40):
            state = wait_for_turn_or_end(page)
            if state != "act":
                break
            legal = int(page.evaluate("document.querySelectorAll('#game .legal').length"))
            if legal > 1:
                return legal
            take_one_decision(page)
        page.goto(lobby)
        page.wait_for_selector("#seat-rows li")
        on_this_device(page)  # ticked by itself only when offline
    raise AssertionError("no real choice in eight matches")


def test_a_hint_on_this_device_is_labelled_coarser(new_context: Any, tmp_path: Path) -> None:
    """On a static copy (no server), in Dutch: the hint on this device answers with every
    legal move, says it is coarser, and gives each move's reason in the catalog's words."""
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    dutch = json.loads((Settings().static_dir / "i18n" / "nl.json").read_text(encoding="utf-8"))
    with static_host(site) as base:
        page = new_context(locale="nl-NL").new_page()
        frames: list[dict[str, Any]] = []
        page.expose_function("keepFrame", lambda text: frames.append(json.loads(text)))
        page.add_init_script(COLLECT)
        page.goto(f"{base}/")
        page.wait_for_selector("#seat-rows li")
        on_this_device(page)
        legal = _to_a_real_choice(page, f"{base}/")
        page.click("#hint-button")
        page.wait_for_selector("#hint-panel:not([hidden]) .hint-table")
        rows = page.locator("#hint-panel .hint-table tbody tr")
        assert rows.count() >= 1
        assert rows.count() <= max(legal, 1) + 1  # the call is a button too
        assert dutch["hint.local"] in page.inner_text("#hint-panel caption")
        [frame] = [f for f in frames if f["type"] == "hint"]
        for index, line in enumerate(frame["actions"]):
            code, params = line["reason"]["code"], line["reason"]["params"]
            message = dutch[f"reason.{code}"]
            if isinstance(message, dict):  # a count: its plural form, written the Dutch way
                message = message["one" if params["count"] == 1 else "other"]
                params = {**params, "count": f"{params['count']:g}".replace(".", ",")}
            words = re.sub(r"\{(\w+)\}", lambda m, p=params: str(p[m.group(1)]), message)
            assert rows.nth(index).locator("td").nth(2).inner_text() == words



def _bar(page: Any) -> dict[str, Any]:
    return page.evaluate("""() => { const bar = document.getElementById('winbar');
        return {hidden: bar.hidden, version: bar.dataset.version || null,
                board: document.body.dataset.version, engine: bar.dataset.engine || null,
                note: bar.querySelector('.winbar-note')?.textContent || '',
                percents: [...bar.querySelectorAll('.winbar-legend li')].map((li) =>
                    Number(/(\\d+) %/.exec(li.textContent)[1]))}; }""")


def test_offline_the_win_bar_is_computed_on_this_device_and_follows_the_board(
        new_context: Any, server: str) -> None:
    _context, page, frames = _open_offline(new_context, server)
    _create_on_device(page, [("me", None), ("bot", "greedy")], rounds=2)
    seen = []
    for _turn in range(8):
        if wait_for_turn_or_end(page) in OVER:
            break
        # The bar comes for the version the board shows, never ahead of it.
        page.wait_for_function("() => document.getElementById('winbar').dataset.version"
                               " === document.body.dataset.version")
        bar = _bar(page)
        assert not bar["hidden"]
        assert bar["engine"] == "local"
        assert "On this device" in bar["note"]
        assert sum(bar["percents"]) == 100
        assert len(bar["percents"]) == 2
        seen.append(bar["version"])
        take_one_decision(page)
        bar = _bar(page)
        assert int(bar["version"]) <= int(bar["board"])
    assert len(seen) >= 3
    assert len(set(seen)) == len(seen)
    chances = [f for f in frames if f["type"] == "chances"]
    assert {str(f["version"]) for f in chances} >= set(seen)
    for frame in chances:
        _check_chances(frame, 2, 10_000)
    assert page.errors == []


def test_offline_a_table_without_hints_shows_its_players_no_win_bar(
        new_context: Any, server: str) -> None:
    _context, page, frames = _open_offline(new_context, server)
    page.uncheck("#table-hints")
    _create_on_device(page, [("me", None), ("bot", "greedy")], rounds=2)
    for _turn in range(3):
        assert wait_for_turn_or_end(page) == "act"
        take_one_decision(page)
    assert wait_for_turn_or_end(page) == "act"
    page.wait_for_timeout(1500)  # time enough for chances to come, were they sent
    assert [f for f in frames if f["type"] == "chances"] == []
    assert page.evaluate("document.getElementById('winbar').hidden")
    assert page.evaluate("document.body.dataset.hint") == "0"


def test_offline_a_local_match_has_hints_with_reasons_and_a_review_on_this_device(
        new_context: Any, server: str, tmp_path: Path) -> None:
    """Offline: a hint on this device gives the coach's best, ties and translated reasons
    (codes of trashcards.ai.reasons, from the seat's view only); the finished match's
    Review (from the match-over panel and from "Your tables") is computed on this device
    and shown in plain language, labelled so; so is a record file opened on the Review
    page while the server cannot be reached."""
    _context, page, frames = _open_offline(new_context, server)
    page.add_init_script("window.trashReviewBudget = 4000;")
    _to_a_real_choice(page, f"{server}/")
    page.click("#hint-button")
    page.wait_for_selector("#hint-panel:not([hidden]) .hint-table")
    assert "Computed on this device" in page.inner_text("#hint-panel caption")
    [frame] = [f for f in frames if f["type"] == "hint"]
    assert frame["engine"] == "local"
    assert frame["best"] == frame["actions"][0]["action"]
    assert frame["tied"] == [line["action"] for line in frame["actions"] if line["equal_to_best"]]
    rows = page.locator("#hint-panel .hint-table tbody tr")
    assert rows.count() == len(frame["actions"])
    for index, line in enumerate(frame["actions"]):
        reason = Reason(line["reason"]["code"], line["reason"]["params"])
        assert reason.code in CODES
        cell = rows.nth(index).locator("td").nth(2).inner_text()
        assert cell == reason.text, (cell, reason)
    assert _play_round(page) == []
    assert page.evaluate("document.body.dataset.phase") == "match_over"
    table_url = page.url
    record = _download(page, tmp_path, "local.trash.json")

    page.click("#review-link")
    page.wait_for_url("**/review?table=local-**")
    page.wait_for_selector("#review:not([hidden])", timeout=60_000)
    notes = page.inner_text("#review-notes")
    assert "Computed on this device" in notes
    assert page.locator("#chart svg path.curve").count() == 2
    rows = page.locator("#summary-body tr")
    assert rows.count() == 2
    assert "%" in rows.nth(0).inner_text()
    page.click("#first-move")
    said = []
    for _ in range(int(page.locator("#move-slider").get_attribute("max"))):
        page.click("#next-move")
        said.append(page.inner_text("#decision-text"))
        assert "Before move" in page.inner_text("#move-text") or \
            "After the last move" in page.inner_text("#move-text")
    judged = [text for text in said if text]
    assert judged
    # each decision told in sentences: what was done, then the best move or the cost
    assert all(re.search(r"\.( The best move\.| As good as the best move within the noise\.|"
                         r" .+ was better\. .*(cost|loss).*)$", text) for text in judged), judged
    assert any("Ana" in text for text in judged)
    assert page.locator("#review-error").is_hidden()

    # A record file, with no server to send it to: reviewed here, the same way.
    page.goto(table_url.split("/t/")[0] + "/review")
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#review:not([hidden])", timeout=60_000)
    assert "Computed on this device" in page.inner_text("#review-notes")
    assert page.locator("#summary-body tr").count() == 2
    assert int(page.locator("#move-slider").get_attribute("max")) == \
        len(loads(record.read_text(encoding="utf-8")).moves)

    # "Your tables" links the finished local match to its review too.
    page.goto(table_url.split("/t/")[0] + "/")
    page.wait_for_selector("#mine-list li a.review-link")
    href = page.locator("#mine-list li a.review-link").first.get_attribute("href")
    assert href is not None
    assert "/review?table=local-" in href
    assert page.errors == []
