"""What makes the table feel finished (issue 8): the log survives a reload and a server
restart (the cut for the deal included), cards fly unless reduced motion is asked for,
sounds come with a mute switch the page remembers, the prompt names only the keys that
are legal now, the computer's seats are named in each viewer's language, and the
variants' state (the last-chance lap, the round's winners) is shown."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
import scenes
from browserkit import (
    ServerProcess,
    create_table,
    next_round,
    take_one_decision,
    wait_for_turn_or_end,
)
from playwright.sync_api import expect

from trashcards.actions import CALL

pytestmark = pytest.mark.browser

LOG_LINES = "[...document.querySelectorAll('#log-list li')].map((li) => li.textContent)"


def test_the_log_survives_a_reload_and_a_restart_with_the_cut_and_the_deal(
        new_context: Any, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path / "tables.sqlite3")
    base = server.start()
    try:
        page = new_context().new_page()
        create_table(page, base, name="Ana")
        assert wait_for_turn_or_end(page) == "act"
        take_one_decision(page)
        wait_for_turn_or_end(page)
        lines = page.evaluate(LOG_LINES)
        assert lines[0].startswith("Cut for the deal: ")
        assert any(line.startswith("Round 1: ") for line in lines)

        page.reload()
        wait_for_turn_or_end(page)
        page.wait_for_function(f"{LOG_LINES}.length >= {len(lines)}")
        assert page.evaluate(LOG_LINES)[:len(lines)] == lines

        server.kill()
        page.wait_for_function("document.getElementById('conn').dataset.online === '0'")
        server.start()
        fresh = new_context().new_page()  # a new page after the restart: all from the server
        fresh.goto(base + "/healthz")
        fresh.evaluate("([k, v]) => localStorage.setItem(k, v)", [
            f"trash.table.{page.url.rsplit('/', 1)[1]}",
            page.evaluate(f"localStorage.getItem('trash.table.{page.url.rsplit('/', 1)[1]}')")])
        fresh.goto(page.url)
        wait_for_turn_or_end(fresh)
        fresh.wait_for_function(f"{LOG_LINES}.length >= {len(lines)}")
        assert fresh.evaluate(LOG_LINES)[:len(lines)] == lines
    finally:
        server.stop()


def test_cards_fly_with_motion_and_stay_put_with_reduced_motion(
        new_context: Any, server: str) -> None:
    moving = new_context(reduced_motion="no-preference").new_page()
    create_table(moving, server, name="Ana")
    assert wait_for_turn_or_end(moving) == "act"
    take_one_decision(moving)
    moving.wait_for_function("Number(document.body.dataset.flights || 0) > 0")

    still = new_context().new_page()  # reduced motion
    create_table(still, server, name="Bo")
    assert wait_for_turn_or_end(still) == "act"
    take_one_decision(still)
    wait_for_turn_or_end(still)
    assert still.evaluate("document.body.dataset.flights || '0'") == "0"
    assert still.locator(".card.flying").count() == 0


def test_sounds_are_off_until_switched_on_and_the_switch_is_remembered(
        new_context: Any, server: str) -> None:
    page = new_context().new_page()
    create_table(page, server, name="Ana")
    assert wait_for_turn_or_end(page) == "act"
    button = page.locator("#sound-button")
    expect(button).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("document.body.dataset.sounds || '0'") == "0"
    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("#sound-button")).to_have_attribute("aria-pressed", "true")
    assert wait_for_turn_or_end(page) == "act"
    before = int(page.evaluate("document.body.dataset.sounds || '0'"))
    take_one_decision(page)
    page.wait_for_function(f"Number(document.body.dataset.sounds || 0) > {before}")
    page.locator("#sound-button").click()
    expect(page.locator("#sound-button")).to_have_attribute("aria-pressed", "false")


#: The clickable thing each key of the prompt stands for.
KEY_TARGETS = {"S": "button.pile.stock.legal", "D": "button.pile.discard.legal",
               "T": "button.action-trash", "W": "button.action-swap",
               "C": "button.action-call"}


def keys_in_prompt(prompt: str) -> tuple[set[str], set[int]]:
    """The letter keys and slot numbers a prompt names ("(S)", "(2, 5, 7–9, 0)")."""
    letters = set(re.findall(r"\(([A-Z])\)", prompt))
    slots: set[int] = set()
    for group in re.findall(r"\(([\d ,–]+)\)", prompt):
        for part in group.split(","):
            bounds = [int(x) for x in part.strip().split("–")]
            slots |= set(range(bounds[0], bounds[-1] + 1))
    return letters, {10 if s == 0 else s for s in slots}


def test_the_prompt_names_exactly_the_keys_that_are_legal_now(page: Any, server: str) -> None:
    # Kids: a board of five, so a slot key past 5 would be a lie.
    create_table(page, server, name="Ana", preset="kids")
    checked = 0
    for _ in range(200):
        state = wait_for_turn_or_end(page)
        if state == "round_over":  # a board of five may be done in one turn: deal again
            next_round(page)
            continue
        if state != "act" or checked == 12:
            break
        prompt = page.inner_text("#prompt")
        letters, slots = keys_in_prompt(prompt)
        for key, selector in KEY_TARGETS.items():
            assert (key in letters) == (page.locator(selector).count() > 0), (key, prompt)
        legal_slots = {int(x) for x in page.locator(".board.big button.slot.legal")
                       .evaluate_all("(els) => els.map((e) => e.dataset.slot)")}
        assert slots == legal_slots, prompt
        assert max(slots, default=0) <= 5
        checked += 1
        take_one_decision(page)
    assert checked >= 3


def test_the_computer_is_named_in_each_viewers_language_and_recorded_by_kind(
        new_context: Any, server: str) -> None:
    english = new_context().new_page()
    url = create_table(english, server, name="Ana")
    wait_for_turn_or_end(english)
    spanish = new_context(locale="es").new_page()
    spanish.goto(url + "?watch=1")
    expect(english.locator(".board:not(.big) .board-name")).to_have_text("Computer (good)")
    expect(spanish.locator(".board:not(.big) .board-name")).to_have_text("Ordenador (bueno)")
    table_id = url.rsplit("/", 1)[1]
    seats = httpx.get(f"{server}/api/tables/{table_id}", timeout=20).json()["seats"]
    assert [seat["name"] for seat in seats] == ["Ana", "bot:greedy"]


def test_the_last_chance_lap_and_the_rounds_winners_are_shown(
        new_context: Any, server: str) -> None:
    answer = scenes.create(server, [{"kind": "me", "name": "Ana"},
                                    {"kind": "bot", "bot": "greedy"},
                                    {"kind": "bot", "bot": "greedy"}],
                           rules={"preset": "last-chance", "start_size": 3})
    tokens = {s["seat"]: s["token"] for s in answer["seats"]}
    player = scenes.Player(server, answer["table_id"], tokens)
    try:
        state = player.play_until(lambda s: s["final_from"] not in (None, 0)
                                  and s["to_act"] == 0)
        page = scenes.open_page(new_context(), server, answer["table_id"], tokens)
        page.wait_for_function("document.body.dataset.acting === '0'")
        lap = page.locator("#notes .note-lap")
        expect(lap).to_contain_text("Last chance: ")
        expect(lap).to_contain_text("one more turn for you")
        expect(page.locator(".board.big .fact.lap")).to_have_text("one more turn")
        if state["round_winners"]:
            expect(page.locator("#notes .note-won")).to_contain_text("Won this round so far")
            expect(page.locator(".board .fact.winner")).to_have_count(
                len(state["round_winners"]))
    finally:
        player.close()


class _NeverCalls:
    """Greedy that never calls "Trash!": its completions wait to be claimed."""

    def __init__(self, bot: Any) -> None:
        self._bot = bot

    def choose(self, view: Any) -> Any:
        legal = tuple(action for action in view.legal if action != CALL)
        return self._bot.choose(view._replace(legal=legal))


def _call_trash_table(server: str) -> tuple[str, dict[int, str]]:
    answer = scenes.create(server, [{"kind": "me", "name": "Ana"},
                                    {"kind": "bot", "bot": "greedy"}],
                           rules={"preset": "call-trash", "start_size": 3})
    return answer["table_id"], {s["seat"]: s["token"] for s in answer["seats"]}


def test_a_called_trash_badge_shows_on_the_callers_board(new_context: Any, server: str
                                                         ) -> None:
    # The server shuffles as it likes: in a match that ends before the computer (greedy
    # calls at one face-down card) has called with Ana to act, a new table is made.
    for _table in range(8):
        table_id, tokens = _call_trash_table(server)
        player = scenes.Player(server, table_id, tokens)
        try:
            player.play_until(lambda s: s["called"] and s["to_act"] == 0)
            break
        except AssertionError:
            player.close()
    else:
        raise AssertionError("no call with Ana to act in eight matches")
    try:
        for watch in (False, True):
            page = scenes.open_page(new_context(), server, table_id,
                                    None if watch else tokens, watch=watch)
            expect(page.locator(".board .fact.called")).to_have_count(1)
            expect(page.locator(".board .fact.called")).to_have_text("called “Trash!”")
    finally:
        player.close()


def test_a_completion_without_a_call_shows_the_pending_claim(new_context: Any, server: str
                                                             ) -> None:
    answer = scenes.create(server, [{"kind": "me", "name": "Ana"},
                                    {"kind": "hotseat", "name": "Bo"}],
                           rules={"preset": "call-trash", "start_size": 3})
    table_id = answer["table_id"]
    player = scenes.Player(server, table_id, {s["seat"]: s["token"] for s in answer["seats"]})
    player.bot = _NeverCalls(player.bot)
    try:
        state = player.play_until(lambda s: bool(s["unclaimed"]), limit=5000)
        name = ["Ana", "Bo"][state["unclaimed"][0]]
        spectator = scenes.open_page(new_context(), server, table_id, None, watch=True)
        expect(spectator.locator("#notes .note-claim")).to_have_text(
            f"{name} completed without calling “Trash!”: {name} claims the round at their "
            "next turn.")
        expect(spectator.locator(".board .fact.claim")).to_have_count(1)
        expect(spectator.locator(".board .fact.claim")).to_have_text("claims next turn")
    finally:
        player.close()
