"""What the browser tests do on the pages, as a person would: fill the lobby form, click
the highlighted (legal) things, wait for the table to answer.

The table page exposes its state for tests on ``<body>``: ``data-version`` (the table
version shown), ``data-phase``, ``data-acting`` (the seat this browser may act for now,
empty when none) and ``data-pass`` ("1" while a hot-seat "pass to …" screen is up).
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# tests/web, for servetools (pytest puts it on the path; take_screenshots.py does not)
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import servetools
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

CHROMIUM_ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]
SERVER_START_S = 30.0

#: What to click when several things are legal, most useful first.
CLICK_ORDER = ("button.action-swap", "button.slot.legal", "button.pile.discard.legal",
               "button.pile.stock.legal", "button.action-trash")
OVER = ("round_over", "match_over")


#: The seed of the test servers' shuffles and bots (``serve --test-seed``): every game a
#: browser test plays is the same on every run.
SEED = 1


class ServerProcess:
    """``trashcards serve`` as a subprocess on the database ``db``: bots act at once, the
    next round waits for the players' "next round", and chance is seeded (``seed``; table
    ids t0, t1, … in creation order)."""

    def __init__(self, db: Path, bot_delay: float = 0.0, options: Sequence[str] = (),
                 seed: int = SEED) -> None:
        self.db = db
        self.seed = seed
        self.bot_delay = bot_delay
        self.options = tuple(options)  # more `trashcards serve` options (limits)
        self.port = 0
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> str:
        """Start (on the port of the last start, if any); returns the base URL."""
        self.process, base = servetools.launch(
            self.db, ("--bot-delay", str(self.bot_delay), "--round-pause", "3600",
                      "--test-seed", str(self.seed), *self.options), port=self.port)
        self.port = servetools.port_of(base)
        servetools.wait_healthy(base, self.process, SERVER_START_S)
        servetools.wait_ai_ready(base, self.process)  # seeded bots: the same moves
        return base

    def kill(self) -> None:
        """SIGKILL, as a crash would."""
        if self.process is not None:
            servetools.stop(self.process)
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            servetools.stop(self.process, grace=10, sig=signal.SIGTERM)
            self.process = None


@contextmanager
def serve(db: Path, bot_delay: float = 0.0, options: Sequence[str] = (), seed: int = SEED
          ) -> Iterator[str]:
    """Run ``trashcards serve`` (seeded) on a free port and the database ``db``; yields its
    base URL and stops it afterwards."""
    server = ServerProcess(db, bot_delay, options, seed)
    try:
        yield server.start()
    finally:
        server.stop()


def create_table(page: Any, base: str, name: str = "Ana",
                 seats: list[tuple[str, str | None]] | None = None,
                 preset: str = "standard") -> str:
    """Create a table from the lobby; ``seats`` are (kind, bot level or hot-seat name)
    for every seat (default: me and a medium bot). Returns the table page URL."""
    seats = seats or [("me", None), ("bot", "greedy")]
    page.goto(f"{base}/")
    page.wait_for_selector("#seat-rows li")
    page.fill("#my-name", name)
    page.select_option("#preset", preset)
    rows = page.locator("#seat-rows li")
    while rows.count() < len(seats):
        page.click("#add-seat")
    while rows.count() > len(seats):
        page.click("#remove-seat")
    # Free "me" first: it may be chosen on one seat only.
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
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/t/**")
    return str(page.url)


def on_this_device(page: Any) -> None:
    """Tick "on this device" in the lobby once it has asked whether a server answers
    (with none, the lobby ticks it and locks it itself: ticking before that races it)."""
    page.wait_for_function("document.body.dataset.server !== undefined")
    page.check("#on-device")


def wait_for_turn_or_end(page: Any) -> str:
    """Wait until this browser may act, a pass screen is up, or the round/match is over;
    returns "act", "pass" or the phase."""
    page.wait_for_function(
        # (no data-acting yet: the table has not drawn its first state)
        "() => (document.body.dataset.acting ?? '') !== ''"
        " || document.body.dataset.pass === '1'"
        " || ['round_over', 'match_over'].includes(document.body.dataset.phase)")
    phase = page.evaluate("document.body.dataset.phase")
    if phase in OVER:
        return str(phase)
    return "pass" if page.evaluate("document.body.dataset.pass") == "1" else "act"


def version(page: Any) -> str:
    return str(page.evaluate("document.body.dataset.version"))


#: The page may take a key now: its seat acts (``data-acting`` is set only while the
#: socket is open, nothing animates and no answer is awaited) and no dialog holds the keys.
READY_FOR_KEYS = ("() => (document.body.dataset.acting ?? '') !== ''"
                  " && !document.querySelector('dialog[open]')")


def moved_on(page: Any, before: str, what: str) -> None:
    """Wait for the table to move on from version ``before`` after ``what`` was done; if
    it does not, fail with what the page showed (its dataset, prompt and connection)."""
    try:
        page.wait_for_function("(v) => document.body.dataset.version !== v", arg=before)
    except PlaywrightTimeoutError as exc:
        shown = page.evaluate("({...document.body.dataset,"
                              " prompt: document.querySelector('#prompt')?.textContent,"
                              " online: document.querySelector('#conn')?.dataset.online})")
        raise AssertionError(f"{what} moved nothing: the page shows {shown}") from exc


def press_and_wait(page: Any, key: str) -> None:
    """Press ``key`` once the page may take it, and wait for the table to move on."""
    page.wait_for_function(READY_FOR_KEYS)
    before = version(page)
    page.keyboard.press(key)
    moved_on(page, before, f"the key {key!r}")


def click_and_wait(page: Any, locator: Any) -> None:
    """Click a legal thing and wait for the table to move on (a new version)."""
    before = version(page)
    locator.click()
    moved_on(page, before, f"a click on {locator}")


def take_one_decision(page: Any) -> str:
    """Click the most useful legal thing; returns the selector clicked."""
    for selector in CLICK_ORDER:
        locator = page.locator(selector)
        if locator.count():
            click_and_wait(page, locator.first)
            return selector
    raise AssertionError(f"nothing legal to click; prompt: {page.inner_text('#prompt')!r}")


def next_round(page: Any) -> None:
    """Click "next round" on the round's end screen and wait until the new round is on."""
    page.click("#next-round")
    page.wait_for_function("document.body.dataset.phase !== 'round_over'")


def play_until_round_over(page: Any, limit: int = 400) -> int:
    """Take every decision of this browser's seat(s) by clicking until the round ends;
    returns the number of decisions."""
    for decisions in range(limit):
        state = wait_for_turn_or_end(page)
        if state in OVER:
            return decisions
        if state == "pass":
            page.click("#pass-button")
            continue
        take_one_decision(page)
    raise AssertionError("the round did not end")


def screen(page: Any) -> dict[str, Any]:
    """What a person sees of the decision in front of them: the prompt, the highlighted
    (clickable) things and every board's slots."""
    return page.evaluate("""() => ({
        prompt: document.getElementById('prompt').textContent,
        legal: [...document.querySelectorAll('#game .legal')]
            .map((el) => el.getAttribute('aria-label') || el.textContent.trim()),
        hand: document.querySelector('.hand .card')?.getAttribute('aria-label') || null,
        boards: [...document.querySelectorAll('#game .board')].map((b) => ({
            seat: b.dataset.seat,
            name: b.querySelector('.board-name').textContent,
            slots: [...b.querySelectorAll('.slot:not(.gone)')]
                .map((s) => s.getAttribute('aria-label')),
        })),
        phase: document.body.dataset.phase,
        version: document.body.dataset.version,
    })""")
