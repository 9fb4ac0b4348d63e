"""Playing without sight (issue 31, item 4): axe-core with every rule on (its experimental
ones too) finds nothing on any page in any state — the lobby, the rules, the table at
every phase (a draw, a wild in hand, a swap on offer, someone else's turn, the hint open,
the help, the discard pile, the hot seat's pass screen, a round over, the match over, a
table waiting for players, one that is gone), the party page, the Review, the guided
first game (offered, at a step, after a wrong move, done), and the app with no server
(the lobby, a table on this device) — and a whole round is played with the keyboard
alone, reading only the accessibility tree and the page's live region: no screenshot, no
CSS selector.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import scenes
from axekit import violations
from browserkit import create_table, serve, wait_for_turn_or_end
from statichost import static_host

from trashcards.web.offline import build_static
from trashcards.web.settings import Settings

from support import cached_odds

pytestmark = pytest.mark.browser

CATALOGS = Path(__file__).resolve().parents[3] / "src" / "trashcards" / "web" / "static" / "i18n"

State = dict[str, Any]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    options = ["--join-rate", "100000", "--max-connections", "256"]
    with serve(tmp_path_factory.mktemp("access") / "tables.sqlite3", options=options) as base:
        yield base


def clean(page: Any, what: str) -> None:
    found = violations(page)
    assert found == [], f"axe, {what}: {found}"


def _seats(count: int) -> list[dict[str, Any]]:
    return [{"kind": "me", "name": "Ana"}] + [
        {"kind": "bot", "bot": bot} for bot in ("greedy", "kid", "sometimes")[:count - 1]]


def _at(context: Any, base: str, player: scenes.Player, tokens: dict[int, str],
        done: Callable[[State], bool], ready: str) -> Any:
    """The player's page, once the table reached ``done`` (played there by a bot)."""
    player.play_until(done, limit=20_000)
    page = scenes.open_page(context, base, player.table_id, tokens)
    page.wait_for_function(ready)
    return page


MINE = "document.body.dataset.acting === '0'"


@pytest.mark.slow
def test_axe_finds_nothing_at_any_phase_of_a_table(new_context: Any, server: str) -> None:
    context = new_context(viewport={"width": 1280, "height": 800})
    answer = scenes.create(server, _seats(4))
    tokens = {s["seat"]: s["token"] for s in answer["seats"]}
    player = scenes.Player(server, answer["table_id"], tokens, seed=4)

    page = _at(context, server, player, tokens,
               lambda s: s["to_act"] == 0 and s["phase"] == "draw" and bool(s["discard"]), MINE)
    clean(page, "a draw")
    page.keyboard.press("h")
    page.wait_for_selector("#hint-panel .hint-best", timeout=120_000)
    clean(page, "the hint open")
    page.keyboard.press("?")
    page.locator("#help-dialog").wait_for(state="visible")
    clean(page, "the help")
    page.keyboard.press("Escape")
    page.get_by_role("button", name=re.compile("Show the pile")).click()
    page.locator("#pile-dialog").wait_for(state="visible")
    clean(page, "the discard pile")
    page.close()

    page = _at(context, server, player, tokens,
               lambda s: s["to_act"] == 0 and s["phase"] == "wild", MINE)
    clean(page, "a wild in hand")
    page.close()
    page = _at(context, server, player, tokens,
               lambda s: s["to_act"] == 0 and s["phase"] == "swap", MINE)
    clean(page, "a swap on offer")
    page.close()
    watcher = scenes.open_page(context, server, answer["table_id"], None, watch=True)
    watcher.wait_for_selector("#center .pile.stock")
    clean(watcher, "a spectator, someone else's turn")
    watcher.close()
    page = _at(context, server, player, tokens, lambda s: s["phase"] == "round_over",
               "!document.getElementById('result').hidden")
    clean(page, "a round over")
    page.close()
    player.close()

    short = scenes.create(server, _seats(2), rules={"preset": "kids", "start_size": 1})
    short_tokens = {s["seat"]: s["token"] for s in short["seats"]}
    other = scenes.Player(server, short["table_id"], short_tokens, seed=2)
    page = _at(context, server, other, short_tokens, lambda s: s["phase"] == "match_over",
               "!document.getElementById('standings').hidden")
    clean(page, "the match over")
    other.close()

    page = context.new_page()
    create_table(page, server, seats=[("me", None), ("hotseat", "Bo")], preset="classic")
    assert wait_for_turn_or_end(page) == "pass"
    clean(page, "the hot seat's pass screen")


@pytest.mark.slow
def test_axe_finds_nothing_on_the_other_pages(new_context: Any, server: str) -> None:
    context = new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(f"{server}/")
    page.wait_for_selector("#seat-rows li")
    clean(page, "the lobby")
    page.goto(f"{server}/rules/en")
    page.wait_for_selector("#rules-text h1")
    clean(page, "the rules")
    waiting = scenes.create(server, [{"kind": "me", "name": "Ana"}, {"kind": "open"}])
    page = scenes.open_page(context, server, waiting["table_id"],
                            {s["seat"]: s["token"] for s in waiting["seats"]})
    page.wait_for_selector("#waiting:not([hidden])")
    clean(page, "a table waiting for players")
    page.goto(f"{server}/t/no-such-table")
    page.wait_for_selector("#gone:not([hidden])")
    clean(page, "a table that is gone")
    party = scenes.party(server, [{"kind": "me", "name": "Ana"}, {"kind": "hotseat", "name": "Bo"}]
                         + [{"kind": "bot", "bot": b} for b in ("greedy", "kid", "sometimes")])
    page.goto(f"{server}/p/{party['party_id']}")
    page.wait_for_selector(".party-seat-name")
    clean(page, "the party page")
    short = scenes.create(server, _seats(2), rules={"preset": "kids", "start_size": 1})
    player = scenes.Player(server, short["table_id"],
                           {s["seat"]: s["token"] for s in short["seats"]}, seed=3)
    player.play_until(lambda s: s["phase"] == "match_over")
    player.close()
    cached_odds("kids", start_size=1)  # the review needs the rules' table
    page.goto(f"{server}/review?table={short['table_id']}")
    page.wait_for_selector("#review:not([hidden])", timeout=60_000)
    clean(page, "the Review of a match")


@pytest.mark.slow
def test_axe_finds_nothing_with_no_server(new_context: Any, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    with static_host(site) as base:
        page = new_context().new_page()
        page.add_init_script("window.trashBotDelay = 0; window.trashTestSeed = 5;")
        page.goto(f"{base}/")
        page.wait_for_selector("#seat-rows li")
        page.wait_for_timeout(500)  # the lobby has asked for a server and had no answer
        clean(page, "the lobby with no server")
        page.fill("#my-name", "Ana")
        page.click("#create-form button[type=submit]")
        page.wait_for_url("**/t/local-**")
        page.wait_for_function(MINE)
        clean(page, "a table on this device")
        page.keyboard.press("h")
        page.wait_for_selector("#hint-panel .hint-best", timeout=60_000)
        clean(page, "a hint on this device")


def _text_is(page: Any, selector: str, text: str) -> None:
    page.wait_for_function("([s, t]) => document.querySelector(s)?.textContent === t",
                           arg=[selector, text])


@pytest.mark.slow
def test_axe_finds_nothing_on_the_guided_game(new_context: Any, server: str) -> None:
    words = json.loads((CATALOGS / "en.json").read_text(encoding="utf-8"))
    page = new_context().new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script("window.trashBotDelay = 0;")
    page.goto(f"{server}/")
    page.wait_for_selector("#learn-offer:not([hidden])")
    clean(page, "the lobby offering the guided game")
    page.click("#learn-offer-start")
    page.wait_for_url("**/t/local-**")
    _text_is(page, "#learn-text", words["learn.step.draw"])
    clean(page, "the guided game's first step")
    page.keyboard.press("s")
    _text_is(page, "#learn-text", words["learn.step.place"])
    clean(page, "a step that tells what happened")
    for _ in range(3):
        page.click("#learn-next")
    _text_is(page, "#learn-text", words["learn.step.discard"])
    page.keyboard.press("s")
    _text_is(page, "#learn-try", words["learn.try.discard"])
    clean(page, "a wrong move answered")
    page.keyboard.press("d")
    _text_is(page, "#learn-text", words["learn.step.wild"])
    page.keyboard.press("2")
    _text_is(page, "#learn-text", words["learn.step.won"])
    page.click("#learn-next")
    _text_is(page, "#learn-text", words["learn.done"])
    clean(page, "the guided game done")
    assert errors == []


# -- the keyboard alone ------------------------------------------------------------------

def _pattern(template: str) -> re.Pattern[str]:
    """A catalog message as a pattern: its placeholders match anything."""
    parts = re.split(r"\{\w+\}", template)
    return re.compile(".*?".join(re.escape(part) for part in parts))


def _messages(lang: str, key: str) -> list[str]:
    value = json.loads((CATALOGS / f"{lang}.json").read_text("utf-8"))[key]
    return list(value.values()) if isinstance(value, dict) else [value]


#: Keeps each line added to the live region named ``name`` in window.heard.
LISTEN = """(name) => {
  const region = [...document.querySelectorAll('[role=log]')]
    .find((e) => e.getAttribute('aria-label') === name);
  window.heard = [];
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) window.heard.push(node.textContent);
    }
  }).observe(region, {childList: true});
}"""


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "nl"])
def test_a_round_is_played_with_the_keyboard_alone_from_the_accessibility_tree(
        new_context: Any, server: str, lang: str) -> None:
    answer = scenes.create(server, _seats(2), rules={"preset": "kids"})
    tokens = {s["seat"]: s["token"] for s in answer["seats"]}
    context = new_context(locale=lang)
    page = scenes.open_page(context, server, answer["table_id"], tokens)
    name = _messages(lang, "announce.label")[0]
    page.get_by_role("log", name=name).wait_for(state="attached")
    # What a screen reader hears: each line added to the live region, as it is added.
    page.evaluate(LISTEN, name)
    page.keyboard.press("r")  # what to do now, said again (it may have been said already)
    heard: list[str] = []

    def listen(timeout_s: float = 30.0) -> list[str]:
        """The lines said since the last call (waits for at least one)."""
        before = len(heard)
        page.wait_for_function("(count) => window.heard.length > count", arg=before,
                               timeout=timeout_s * 1000)
        heard[:] = page.evaluate("window.heard")
        return heard[before:]

    won = [_pattern(m) for key in ("event.round_won", "event.round_won_you")
           for m in _messages(lang, key)]
    board_you = _pattern(_messages(lang, "read.board_you")[0])
    stock = [_pattern(m) for m in _messages(lang, "pile.stock")]
    opponent = [_pattern(m) for m in _messages(lang, "read.board")]
    brief = [_pattern(m) for m in _messages(lang, "brief.turn")]
    hint_title = _messages(lang, "hint.title")[0]
    decisions = 0
    reads_checked = False
    brief_turns = 0
    for _ in range(400):
        new = listen()
        if any(p.search(line) for p in won for line in new):
            break
        prompts = [line for line in new if scenes.key_for_prompt(line)]
        if not prompts:
            continue
        if not reads_checked:
            # B reads the board, P the piles, N the opponent's board: in words.
            for key, said in (("b", [board_you]), ("p", stock), ("n", opponent)):
                page.keyboard.press(key)
                lines = listen()
                assert any(p.search(line) for p in said for line in lines), (key, lines)
            # H asks for the hint, said when it comes: "Hint: …" and the best move.
            page.keyboard.press("h")
            lines = listen(timeout_s=120.0)
            assert any(line.startswith(f"{hint_title}: ") for line in lines), lines
            reads_checked = True
        if decisions == 1:
            page.keyboard.press("v")  # one sentence a turn from now on
            listen()
        if decisions > 1:
            brief_turns += sum(1 for line in new if any(p.search(line) for p in brief))
        key = scenes.key_for_prompt(prompts[-1])
        assert key is not None
        page.keyboard.press(key)
        decisions += 1
    else:
        raise AssertionError(f"the round did not end: {heard[-10:]}")
    assert decisions >= 3, heard
    assert brief_turns >= 1, f"no turn was summed up in a sentence: {heard}"
    # Everything said was said in the page's language: no message key leaked through.
    assert not [line for line in heard if re.search(r"\b[a-z]+\.[a-z_]+\b", line)], heard
