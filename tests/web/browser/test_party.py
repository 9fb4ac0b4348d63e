"""A party of six people, each in their own browser, played to its final (issue 18): seats
taken by the invite link, both tables played out by clicking, the end screens leading
the two winners to the final, which starts the moment they arrive, and the party page
following all of it by websocket, not by polling.

The matches are kept short by the rules (kids, boards of one slot: the first round wins
the match), so however the cards fall the party is over in a few dozen decisions.
"""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
import scenes
from browserkit import OVER, take_one_decision
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PEOPLE = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay")


def create_party_of_six(page: Any, server: str) -> str:
    """Ana makes a party from the lobby: herself and five invite-link seats, a final."""
    page.goto(server + "/")
    page.wait_for_selector("#seat-rows li")
    page.fill("#my-name", PEOPLE[0])
    page.select_option("#preset", "kids")
    page.select_option("#start-size", "1")
    rows = page.locator("#seat-rows li")
    while rows.count() < len(PEOPLE):
        page.click("#add-seat")
    for index in range(1, len(PEOPLE)):
        rows.nth(index).locator(".seat-kind").select_option("open")
    expect(page.locator("#party-final")).to_be_checked()
    page.click("#create-submit")
    page.wait_for_url("**/p/**")
    return str(page.url).rsplit("/", 1)[1]


def take_a_seat_by_invite(page: Any, server: str, party_id: str, name: str) -> None:
    """A friend opens the party's invite link, picks a table with an open seat and sits."""
    page.goto(f"{server}/p/{party_id}")
    # The page draws its tables again whenever one changes (the friend before has just
    # sat down): a click whose press and release fall on either side of that redraw is
    # lost, for a person too, who clicks again.
    for attempt in range(3):
        page.locator(".party-table a.button.primary").first.click()
        try:
            page.wait_for_url("**/t/**", timeout=5_000)
            break
        except PlaywrightTimeoutError:
            if attempt == 2:
                raise
    page.fill("#join-name", name)
    page.click("#join-form button[type=submit]")
    page.wait_for_function("document.body.dataset.seats !== undefined"
                           " && document.body.dataset.seats !== ''")


def play_out(pages: list[Any], limit_s: float = 240.0) -> None:
    """Click for every page whose turn it is until every page's match is over."""
    deadline = time.monotonic() + limit_s
    while time.monotonic() < deadline:
        done = 0
        for page in pages:
            state = page.evaluate("[document.body.dataset.phase, document.body.dataset.acting]")
            if state[0] == "match_over":
                done += 1
            elif state[0] in OVER:
                button = page.locator("#next-round")
                if button.is_visible() and button.is_enabled():
                    button.click()
            elif state[1]:
                take_one_decision(page)
        if done == len(pages):
            return
        time.sleep(0.05)
    raise AssertionError("the matches did not end")


def test_a_party_of_six_by_invite_link_plays_both_tables_and_the_final_to_the_end(
        new_context: Any, server: str) -> None:
    host = new_context()
    lobby = host.new_page()
    party_id = create_party_of_six(lobby, server)
    watched = lobby  # Ana keeps the party page open all along
    asked: list[float] = []
    watched.on("request", lambda r: asked.append(time.monotonic())
               if "/api/parties/" in r.url else None)
    expect(watched.locator(".party-table[data-table]")).to_have_count(2)
    watched.wait_for_function("document.body.dataset.following === '2'")
    # The page follows the tables' websockets: nothing happens, nothing is asked for.
    # (The waits are the page's, so that its requests are reported as they happen.)
    watched.wait_for_timeout(1000)  # the first frames of the sockets may ask once more
    before = len(asked)
    watched.wait_for_timeout(4000)
    assert len(asked) == before, "the party page polls"

    ana = host.new_page()
    ana.goto(f"{server}/p/{party_id}")
    ana.locator(".party-table:has(a.button.primary)").first.locator("a.button.primary").click()
    ana.wait_for_url("**/t/**")
    pages = [ana]
    for name in PEOPLE[1:]:
        friend = new_context().new_page()
        take_a_seat_by_invite(friend, server, party_id, name)
        pages.append(friend)
        # Ana's party page shows each seat taken as it is taken.
        expect(watched.locator(".party-seat-name", has_text=name)).to_have_count(1)
    expect(watched.locator("#party-status")).to_have_text(
        "Both tables are playing; their winners meet at the final table.")

    play_out(pages)

    # Each end screen leads on to the final: its two winners to play it, the others to
    # watch it.
    finalists = []
    for page in pages:
        link = page.locator("#to-party")
        page.wait_for_function("document.getElementById('to-party').dataset.final")
        text = link.inner_text()
        assert text in ("Play the final", "Watch the final"), text
        if text == "Play the final":
            finalists.append(page)
    assert len(finalists) == 2
    final_id = finalists[0].locator("#to-party").get_attribute("data-final")
    for page in pages:
        assert page.locator("#to-party").get_attribute("data-final") == final_id
    expect(watched.locator(".party-table[data-table]")).to_have_count(3)
    expect(watched.locator("#party-status")).to_have_text("The final table is playing.")

    for page in finalists:
        page.locator("#to-party").click()
        page.wait_for_url(f"**/t/{final_id}")
        page.wait_for_function("document.body.dataset.seats !== undefined"
                               " && document.body.dataset.seats !== ''")
    # The final starts the moment its two seats are held: nobody waits for players.
    for page in finalists:
        page.wait_for_function("!['', 'waiting'].includes(document.body.dataset.phase)")
        expect(page.locator("#waiting")).to_be_hidden()
    play_out(finalists)
    winner = finalists[0].evaluate(
        "document.getElementById('result-title').textContent")
    expect(watched.locator("#party-status")).to_contain_text("wins the party!")
    assert any(name in winner for name in PEOPLE)
    for page in finalists:
        expect(page.locator("#to-party")).to_have_text("Back to the party")


@pytest.mark.parametrize("hints", [True, False, None])
def test_a_party_keeps_its_creators_hints_choice_at_both_tables(server: str,
                                                                 hints: bool | None) -> None:
    seats = [{"kind": "me", "name": "Ana"}] + [{"kind": "open"} for _ in range(4)]
    body: dict[str, Any] = {"seats": seats, "final": True}
    if hints is not None:
        body["hints"] = hints
    answer = httpx.post(f"{server}/api/parties", json=body, timeout=20)
    assert answer.status_code == 201, answer.text
    info = httpx.get(f"{server}/api/parties/{answer.json()['party_id']}", timeout=20).json()
    # by default as for any table with seats open to friends: no hints
    assert [table["hints"] for table in info["tables"]] == [bool(hints)] * 2


def test_a_finished_tables_end_screen_follows_the_other_table_by_websocket_not_polling(
        new_context: Any, server: str) -> None:
    # Ana (with two computers) and Bo (with one) at the two tables of a party of five;
    # kids' rules with boards of one slot: the first round ends each match. The deal
    # depends on the table's id (so on the tests before): where Bo's computer moves
    # first and completes its board at once, Bo's table is over before the test begins,
    # and a new party is made.
    for _attempt in range(10):
        answer = scenes.party(server, [{"kind": "me", "name": "Ana"},
                                       {"kind": "hotseat", "name": "Bo"},
                                       {"kind": "bot", "bot": "greedy"},
                                       {"kind": "bot", "bot": "greedy"},
                                       {"kind": "bot", "bot": "greedy"}],
                              rules={"preset": "kids", "start_size": 1})
        held: dict[str, dict[int, str]] = {}
        for seat in answer["seats"]:
            held.setdefault(seat["table_id"], {})[seat["seat"]] = seat["token"]
        ana_table, bo_table = answer["tables"]
        assert len(held[ana_table]) == 1, answer["seats"]
        assert len(held[bo_table]) == 1, answer["seats"]
        bo = scenes.Player(server, bo_table, held[bo_table])
        if bo.settle()["phase"] not in ("round_over", "match_over"):
            break  # Bo's table waits for Bo until he plays
        bo.close()
    else:
        raise AssertionError("every party's second table ended without Bo")
    try:
        page = scenes.open_page(new_context(), server, ana_table, held[ana_table])
        asked: list[float] = []
        page.on("request", lambda r: asked.append(time.monotonic())
                if "/api/parties/" in r.url else None)
        play_out([page])
        link = page.locator("#to-party")
        expect(link).to_have_text("Back to the party")
        page.wait_for_function("document.body.dataset.partyFollowing === '1'")
        # Bo's table does not move: the end screen asks for nothing meanwhile. (The waits
        # are the page's, so that its requests are reported as they happen.)
        page.wait_for_timeout(1000)  # the followed socket's first frames may ask once more
        before = len(asked)
        page.wait_for_timeout(5000)
        assert len(asked) == before, "the end screen polls its party"
        bo.play_until(lambda s: s["phase"] == "match_over")
    finally:
        bo.close()
    # Bo's table is over: the end screen learns it from the websocket and leads on.
    page.wait_for_function("document.getElementById('to-party').dataset.final",
                           timeout=10_000)
    assert link.inner_text() in ("Play the final", "Watch the final")
    page.wait_for_function("document.body.dataset.partyFollowing === '0'")

