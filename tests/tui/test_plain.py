"""``trashcards play --plain``: the game for screen readers, line by line, played end to
end as a subprocess with piped input (and once on a real pseudo-terminal).

What is pinned: every event of the saved record is said, in order, in sentences (and
checked against literal English for the draws, placements, discards and wins); nothing
is ever redrawn (no escape sequence, no carriage return); the commands that read the
table answer; a move that is not allowed gets one line that says why; the end of the
input, q and --resume behave as in the other modes; the language follows the locale;
and two deals that differ only in hidden cards say exactly the same.
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from trashcards.bots import make_bot
from trashcards.cards import Card
from trashcards.events import DealerChosen, Discarded, Drew, MatchWon, Placed, RoundWon, TurnedUp
from trashcards.record import Entry, Record, load
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.state import Phase, new_match
from trashcards.tui.game import Game
from trashcards.tui.plain import Catalog, PlainGame, Speaker
from trashcards.tui.scene import Scene
from trashcards.tui.seats import seats_from_names
from trashcards.views import view

from .helpers import cycle_script

#: Keys that answer any question of a 5-slot board within one cycle (the empty line deals
#: the next round, and at a decision says again what to do).
CYCLE = ("s", "w", "1", "2", "3", "4", "5", "")
ENV = {**os.environ, "PYTHONIOENCODING": "utf-8", "TERM": "xterm-256color", "LANGUAGE": "en",
       "LANG": "C.UTF-8"}
KIDS = ("--preset", "kids", "--no-profile")


def plain(*args: str, script: list[str], cwd: Path, language: str = "en",
          ) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "trashcards", "play", "--plain", *args],
        input="".join(line + "\n" for line in script), capture_output=True, text=True,
        encoding="utf-8", env={**ENV, "LANGUAGE": language}, cwd=cwd, timeout=120,
        check=False)


def said_events(record: Record, you: int | None = 0) -> list[str]:
    """What the record's events are, said every step in English to seat ``you``; but the
    choice of the dealer, whose cut cards a record does not keep."""
    speaker = Speaker(Catalog("en"), record.players, lambda seat: seat == you)
    lines: list[str] = []
    state = new_match(record.rules, record.players)
    for after, events in record.steps():
        told = [event for event in events if not isinstance(event, DealerChosen)]
        lines += speaker.every_step(told, Scene.from_view(view(state, None)))
        state = after
    return lines


def walk(out: str, expected: list[str]) -> list[str]:
    """The output's lines that are not the expected ones, after checking that every
    expected line comes, in order."""
    rest = []
    index = 0
    for line in out.splitlines():
        if index < len(expected) and line == expected[index]:
            index += 1
        else:
            rest.append(line)
    assert index == len(expected), f"never said: {expected[index]!r}"
    return rest


def record_events(record: Record) -> list[object]:
    return [event for _, events in record.steps() for event in events]


def short(card: Card) -> str:
    return "Joker" if card.is_joker else card.pretty()


def test_a_whole_match_is_said_event_by_event_and_nothing_is_redrawn(tmp_path):
    save = tmp_path / "m.trash.json"
    result = plain("--seed", "7", "--name", "Ana", "--level", "good", *KIDS, "--rules",
                   "rounds_to_win=2", "--save", str(save),
                   script=cycle_script(900, CYCLE), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for control in ("\x1b", "\r", "\x07", "\x08"):  # no escape, no redraw, no bell
        assert control not in out
    record = load(save)
    assert record.replay().phase is Phase.MATCH_OVER
    events = record_events(record)
    assert any(isinstance(e, RoundWon) for e in events)
    # every event of the record, said in order; the rest are the questions and answers
    rest = walk(out, said_events(record))
    allowed = re.compile(
        r"^(> .*|Trash — .*|Players: .*|Plain mode: .*|Cut for the deal: .*|New to Trash\? .*"
        r"|Your turn: .*|You hold .*"
        r"|.* — (Your turn|You hold|Press Enter)\b.*|Press Enter to deal round \d+ \(q leaves\)\."
        r"|Final standings: .*|The record is in .*)$")
    assert [line for line in rest if not allowed.match(line)] == []
    # … and, in plain English that owes nothing to the catalogs, what happened
    lines = Counter(out.splitlines())
    names = {0: ("You", "draw", "place", "discard", "win"), 1: ("Computer (good)", "draws",
                                                               "places", "discards", "wins")}
    drawn = Counter()
    for event in events:
        if isinstance(event, Drew):
            who, verb = names[event.seat][0], names[event.seat][1]
            where = "from the stock" if event.source == "stock" else "from the discard pile"
            verb = verb if event.source == "stock" else ("take" if event.seat == 0
                                                         else "takes")
            drawn[f"{who} {verb} {short(event.card)} {where}."] += 1
    assert all(lines[line] == count for line, count in drawn.items()), drawn
    placed = [e for e in events if isinstance(e, Placed) and not e.wild]
    assert placed
    for event in placed:
        who, _, verb, _, _ = names[event.seat]
        assert any(line.startswith(f"{who} {verb} {short(event.card)} in slot {event.slot}")
                   for line in lines), event
    turned = [e for e in events if isinstance(e, TurnedUp)]
    assert all(any(f"turn{'' if e.seat == 0 else 's'} up {short(e.card)}" in line
                   for line in lines) for e in turned)
    trashed = [e for e in events if isinstance(e, Discarded) and e.card.rank in (12, 13)]
    for event in trashed:
        who, _, _, verb, _ = names[event.seat]
        kind = "Queens" if event.card.rank == 12 else "Kings"
        assert lines[f"{who} {verb} {short(event.card)}: {kind} are trash."] >= 1
    won = next(e for e in events if isinstance(e, MatchWon))
    assert ("You win the match!" if won.seat == 0 else "Computer (good) wins the match!") in lines
    assert "Final standings: 1. " in out
    assert f"The record is in {save}." in lines


def test_the_commands_read_the_table_and_a_refused_move_is_one_line(tmp_path):
    script = ["b", "p", "n", "r", "d", "xyz", "7", "?", "s", "b", "p"]
    result = plain("--seed", "7", "--name", "Ana", "--level", "good", *KIDS,
                   script=script, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    turn = "Your turn: draw from the stock (S)."

    def answer(command: str) -> list[str]:
        """The lines between ``> command`` and the next prompt."""
        after = out.split(f"> {command}\n", 1)[1]
        return after.split("\n> ", 1)[0].splitlines()

    assert answer("b") == ["Your board, 5 slots. Nothing face up. Face down, 5 slots: "
                           "A, 2, 3, 4, 5."]
    assert answer("p") == ["Stock: 42 cards. Discard pile: empty. No card in hand."]
    assert answer("n") == ["Computer (good), 0 rounds won, board of 5. Nothing face up. "
                           "Face down, 5 slots: A, 2, 3, 4, 5."]
    assert answer("r") == [turn]
    assert answer("d") == [f"The discard pile is empty — {turn}"]
    assert answer("xyz") == [f"“xyz” is not a command here (? lists them) — {turn}"]
    assert answer("7") == [f"Draw a card first — {turn}"]
    help_lines = answer("?")
    assert help_lines[0] == "Type a command and press Enter:"
    for key in ("s", "d", "1–9, 0", "w", "t", "c", "h", "b", "p", "n", "o", "r", "v", "?",
                "q"):
        assert any(line.startswith(f"{key}: ") for line in help_lines), key
    assert "You draw 10♥ from the stock." in out
    # later reads follow the table: the card the bot turned up is on its board now
    assert out.endswith("The input ended; the match was not saved (give --save FILE to "
                        "keep its record).\n")


def test_one_sentence_a_turn_after_v(tmp_path):
    result = plain("--seed", "7", "--name", "Ana", "--level", "good", *KIDS,
                   script=["v", "s", "s", "s"], cwd=tmp_path)
    out = result.stdout
    assert "> v\nAnnouncements: one sentence a turn.\n" in out
    after = out.split("> v\n", 1)[1]
    assert "You: draw 10♥ from the stock and discard 10♥ (a board of 5 has no slot 10)." \
        in after
    assert re.search(r"^Computer \(good\): draws .+ from the stock", after, re.M)
    assert not re.search(r"^Computer \(good\) (draws|places|discards) ", after, re.M)
    assert "Computer (good)'s turn." not in after


def test_the_plain_mode_speaks_the_locale_s_language(tmp_path):
    result = plain("--seed", "7", "--name", "Ana", "--level", "good", *KIDS,
                   script=["b", "d", "s"], cwd=tmp_path, language="nl")
    out = result.stdout
    assert "Jouw beurt: trek van de stapel (S)." in out
    assert "Jouw bord, 5 vakken." in out
    assert "Je trekt 10♥ van de stapel." in out
    assert "De aflegstapel is leeg — Jouw beurt" in out


def test_the_end_of_the_input_saves_where_asked_and_resume_goes_on(tmp_path):
    save = tmp_path / "r.trash.json"
    args = ("--seed", "5", "--name", "Ana", "--level", "good", *KIDS)
    first = plain(*args, "--save", str(save), script=["s", "1", "s"], cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.endswith(f"Saved to {save}. Continue with: trashcards play --plain "
                                 f"--resume {save}\n")
    moves = len(load(save).moves)
    second = plain("--resume", str(save), "--no-profile", script=cycle_script(400, CYCLE),
                   cwd=tmp_path)
    assert second.returncode == 0, second.stderr
    assert f"Resuming {save} at move {moves}" in second.stdout
    final = load(save)
    assert final.moves[:moves] == load(save).moves[:moves]
    assert final.replay().phase is Phase.MATCH_OVER


def test_q_saves_to_a_new_file_without_save(tmp_path):
    result = plain("--seed", "5", "--name", "Ana", "--level", "good", *KIDS,
                   script=["s", "q"], cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    saved = sorted(tmp_path.glob("trash-*.trash.json"))
    assert len(saved) == 1
    assert f"Saved to {saved[0]}. Continue with: " in result.stdout


def test_hotseat_passes_the_keyboard_and_you_is_who_holds_it(tmp_path):
    result = plain("--seed", "3", "--hotseat", "Ana,Bo", *KIDS,
                   script=["", "s", "", "b"], cwd=tmp_path)
    out = result.stdout
    assert ("Round 1: Ana deals; Bo plays first.\n"
            "Pass the keyboard to Bo, then press Enter.\n> \n"
            "Bo, your turn: draw from the stock (S).\n> s\n"
            "You draw 3♦ from the stock.\n"
            "You place 3♦ in slot 3 and turn up 8♠.\n") in out
    assert ("Ana's turn.\nPass the keyboard to Ana, then press Enter.\n> \n"
            "Ana, your turn: draw from the stock (S).\n> b\n"
            "Your board, 5 slots. Nothing face up.") in out  # Ana's board, not Bo's


def test_help_names_the_plain_mode():
    result = subprocess.run([sys.executable, "-m", "trashcards", "play", "--help"],
                            capture_output=True, text=True, env=ENV, timeout=60, check=False)
    assert result.returncode == 0
    assert "--plain" in result.stdout
    assert "screen readers" in " ".join(result.stdout.split())


# -- hidden cards ---------------------------------------------------------------------------

def bots_record(seed: int) -> Record:
    """A kids match of two greedy bots, seats named as a person (Ana) and a bot."""
    seats = seats_from_names(("Ana", "bot:greedy"))
    match = Match(Rules.preset_named("kids"), ["Ana", "bot:greedy"], random.Random(seed))
    game = Game(match, seats, {0: make_bot("greedy", random.Random(seed)),
                               1: make_bot("greedy", random.Random(seed + 1))})
    game.start()
    for _ in range(400):
        due = game.due()
        if due.__class__.__name__ != "Decision":
            break
        game.play(due.seat, game.bot_choice(due.seat))
    return match.record


def position_and_twin(seed: int) -> tuple[Record, Record]:
    """A record cut at Ana's decision in round 1 with cards face up and a discard on the
    pile, and its twin whose still-hidden cards (face down, the stock) are permuted."""
    record = bots_record(seed)
    cut = None
    for index, (state, _) in enumerate(record.steps(), start=1):
        if state.round != 1:
            break
        if (state.to_act == 0 and state.phase is Phase.DRAW and state.discard
                and all(any(board.up) for board in state.boards)):
            cut = index
    assert cut is not None
    moves = record.moves[:cut]
    state = record.replay(cut)
    hidden = [card for board in state.boards
              for card, up in zip(board.cards, board.up, strict=True) if not up]
    hidden += list(state.stock)
    assert len(set(hidden)) == len(hidden) > 2  # one pack: each card once
    order = sorted(hidden)
    swap = dict(zip(order, order[1:] + order[:1], strict=True))
    deal = max(i for i, entry in enumerate(moves) if type(entry.move).__name__ == "Deck")
    deck = moves[deal].move
    twin_deck = type(deck)(tuple(swap.get(card, card) for card in deck.cards))
    twin_moves = (*moves[:deal], Entry(None, twin_deck), *moves[deal + 1:])
    cut_record = Record(record.rules, record.players, tuple(moves))
    twin = Record(record.rules, record.players, tuple(twin_moves))
    a, b = cut_record.replay(), twin.replay()
    assert a.boards != b.boards or a.stock != b.stock
    assert all(view(a, s) == view(b, s) for s in (None, 0, 1))
    return cut_record, twin


def resumed_output(record: Record, folder: Path, script: list[str]) -> str:
    folder.mkdir()
    record.dump(folder / "game.trash.json")
    result = plain("--resume", "game.trash.json", "--no-profile", "--seed", "1",
                   script=script, cwd=folder)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.parametrize("seed", [2, 6])
def test_two_deals_differing_only_in_hidden_cards_say_the_same(tmp_path, seed):
    record, twin = position_and_twin(seed)
    script = ["b", "p", "n", "n", "r", "?", "w", "t", "3", "v", "b"]
    first = resumed_output(record, tmp_path / "a", script)
    second = resumed_output(twin, tmp_path / "b", script)
    assert "Your board, 5 slots. Face up: " in first
    assert first == second


@pytest.mark.numba_compile
def test_the_hint_and_the_chances_say_the_same_whatever_the_hidden_cards(tmp_path):
    record, twin = position_and_twin(2)
    script = ["h", "o"]
    first = resumed_output(record, tmp_path / "a", script)
    second = resumed_output(twin, tmp_path / "b", script)
    assert re.search(r"^Hint: (Best: |Only one move|Equally good)", first, re.M)
    assert re.search(r"^Chance of winning the match: Ana: \d+ %, Computer \(good\): \d+ %\.$",
                     first, re.M)
    assert first == second


# -- a real terminal -------------------------------------------------------------------------

def test_on_a_real_terminal_it_prints_lines_and_never_an_escape_code(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    save = tmp_path / "pty.trash.json"
    child = pexpect.spawn(
        sys.executable, ["-m", "trashcards", "play", "--plain", "--seed", "7", "--name", "Ana",
                         "--level", "good", *KIDS, "--rules", "rounds_to_win=1",
                         "--bot-delay", "0", "--save", str(save)],
        env=ENV, cwd=str(tmp_path), dimensions=(24, 80), timeout=60)
    raw = b""
    keys = iter(cycle_script(900, ("b", "p", *CYCLE)))
    try:
        while True:
            found = child.expect([b"\n> ", b"Final standings: [^\n]*\n", pexpect.EOF])
            raw += child.before + (child.after if isinstance(child.after, bytes) else b"")
            if found != 0:
                break
            child.sendline(next(keys))
        child.expect(pexpect.EOF)
        raw += child.before
    finally:
        child.close()
    assert child.exitstatus == 0, raw[-2000:]
    text = raw.decode("utf-8")
    assert "\x1b" not in text  # no colour, no cursor movement, no bracketed paste
    assert re.findall(r"\r(?!\n)", text) == []  # every line ends in a line feed
    assert "Your board, 5 slots." in text
    assert "Stock: " in text
    assert re.search(r"^(You|Computer \(good\)) wins? the match!\r$", text, re.M)
    assert load(save).replay().phase is Phase.MATCH_OVER


def test_the_profile_s_lines_come_whole_never_wrapped(tmp_path):
    profile = tmp_path / ("a-folder-with-a-long-name-" * 3) / "profile.json"
    result = plain("--seed", "7", "--name", "Ana", "--level", "good", "--preset", "kids",
                   "--rules", "rounds_to_win=1", "--profile", str(profile),
                   script=cycle_script(400, CYCLE), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert profile.exists()
    assert re.search(rf"^Your kids rating: .* — profile {re.escape(str(profile))}$",
                     result.stdout, re.M)


class _Heard(io.StringIO):
    """Standard output that lets a waiting bot go once it has said that it plays."""

    def __init__(self, heard: threading.Event) -> None:
        super().__init__()
        self.heard = heard

    def write(self, text: str) -> int:
        if "is playing" in text:
            self.heard.set()
        return super().write(text)


class _SlowBot:
    """Greedy, once the player has heard that it is playing (no clock involved)."""

    def __init__(self, heard: threading.Event) -> None:
        self.heard = heard
        self.bot = make_bot("greedy", random.Random(0))

    def choose(self, seen):
        assert self.heard.wait(30), "the player never heard that the bot was playing"
        return self.bot.choose(seen)


def test_a_bot_that_thinks_long_is_said_to_be_playing():
    heard = threading.Event()
    record = position_and_twin(2)[0]
    match = Match.from_record(Record(record.rules, ("bot:greedy", "Ana"), record.moves),
                              random.Random(0))
    out = _Heard(heard)
    game = PlainGame(match=match, seats=seats_from_names(match.record.players),
                     bots={0: _SlowBot(heard)}, stdin=io.StringIO("s\n"), stdout=out,
                     thinking_notice=0.0)
    game.run()
    said = out.getvalue().splitlines()
    playing = said.index("Computer (good) is playing…")
    assert said[playing + 1].startswith("Computer (good) ")  # then its move


def test_ctrl_c_and_ctrl_d_on_a_real_terminal_end_cleanly(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    args = ["-m", "trashcards", "play", "--plain", "--seed", "7", "--name", "Ana", *KIDS,
            "--bot-delay", "0"]
    child = pexpect.spawn(sys.executable, args, env=ENV, cwd=str(tmp_path), timeout=60)
    child.expect(b"\n> ")
    child.sendcontrol("c")  # saved, as the other modes do, and exit status 130
    child.expect(pexpect.EOF)
    child.close()
    said = child.before.decode("utf-8")
    assert child.exitstatus == 130, said
    saved = sorted(tmp_path.glob("trash-*.trash.json"))
    assert len(saved) == 1
    assert f"Saved to {saved[0]}. Continue with: trashcards play --plain --resume" in said
    assert "Traceback" not in said

    child = pexpect.spawn(sys.executable, args, env=ENV, cwd=str(tmp_path), timeout=60)
    child.expect(b"\n> ")
    child.sendeof()  # the end of the input: not saved without --save
    child.expect(pexpect.EOF)
    child.close()
    said = child.before.decode("utf-8")
    assert child.exitstatus == 0, said
    assert "The input ended; the match was not saved" in said
    assert "\x1b" not in said
