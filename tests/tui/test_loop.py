"""The game loop in-process: scripted keys, a recording console, saving and resuming."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from trashcards.bots import make_bot
from trashcards.record import load
from trashcards.rules import Rules
from trashcards.session import Match
from trashcards.state import Phase
from trashcards.tui.loop import Outcome, TerminalGame
from trashcards.tui.seats import make_seats, seats_from_names
from trashcards.views import View

from .helpers import ScriptReader, cycle_script, output, recording_console
from .scenarios import kids, stacked_match


def _no_default_save() -> Path:
    pytest.fail("the game tried to save into the current directory")


def game(match: Match, answers, tmp_path: Path | None = None, **options) -> TerminalGame:
    seats = seats_from_names(match.record.players)
    bots = {seat: make_bot(s.bot, random.Random(seat)) for seat, s in enumerate(seats)
            if s.bot is not None}
    options.setdefault("save_to", tmp_path / "game.trash.json" if tmp_path else None)
    options.setdefault("default_save", _no_default_save)
    return TerminalGame(match=match, seats=seats, bots=bots, reader=ScriptReader(answers),
                        console=recording_console(), **options)


def text_of(g: TerminalGame) -> str:
    return output(g.console)


def seeded_kids_match(names=("Ana", "bot:greedy"), seed: int = 7, rounds: int = 1) -> Match:
    return Match(kids(rounds), names, random.Random(seed))


def test_one_key_plays_a_whole_stacked_round_and_the_match(tmp_path):
    g = game(stacked_match(), ["s"], tmp_path)
    assert g.run() is Outcome.FINISHED
    text = text_of(g)
    for line in ["You drew A♥ from the stock",
                 "You placed A♥ on slot 1, turned up 2♥",
                 "You placed 5♥ on slot 5, turned up A♠",
                 "You discarded A♠: the board is complete",
                 "Your board is complete!",
                 "You win round 1 (1 round won)",
                 "You win the match!",
                 "Final standings"]:
        assert line in text
    assert text.index("You drew A♥") < text.index("You win the match!")
    assert "Ana wins" not in text
    assert "You wins" not in text
    saved = load(tmp_path / "game.trash.json")
    assert saved.replay().phase is Phase.MATCH_OVER
    assert [str(m) for m in saved.moves[2:]] == ["0: stock"]


def test_bad_input_gets_a_short_message_and_the_same_prompt_again(tmp_path):
    g = game(stacked_match(), ["x", "7", "d", "", "s"], tmp_path)
    assert g.run() is Outcome.FINISHED
    assert g.reader.prompts == ["Ana> "] * 5  # type: ignore[attr-defined]
    text = text_of(g)
    assert "'x' is not a key here: s, q (? for help)" in text
    assert "draw a card first: s, q" in text
    assert "the discard pile is empty: s, q" in text
    assert "type a key: s, q" in text
    assert len(load(tmp_path / "game.trash.json").moves) == 3  # nothing extra was played


def test_help_shows_the_keys_then_asks_again():
    g = game(stacked_match(), ["?", "s"])
    assert g.run() is Outcome.FINISHED
    text = text_of(g)
    assert "Keys" in text
    assert "put the wild in hand on that face-down slot (0 = slot 10)" in text
    assert g.reader.prompts == ["Ana> ", "Ana> "]  # type: ignore[attr-defined]


def test_quit_saves_and_the_saved_match_continues_where_it_stopped(tmp_path):
    match = seeded_kids_match()
    g = game(match, [*cycle_script(9), "q"], tmp_path)
    assert g.run() is Outcome.QUIT
    path = tmp_path / "game.trash.json"
    saved = load(path)
    assert saved.dumps() == match.record.dumps()
    assert saved.replay() == match.state
    assert saved.replay().phase is not Phase.MATCH_OVER
    assert f"Saved to {path} — continue with: trashcards play --resume {path}" in text_of(g)

    resumed = Match.from_record(saved, random.Random(99))
    g2 = game(resumed, cycle_script(400), tmp_path)
    assert g2.run() is Outcome.FINISHED
    final = load(path)
    assert final.moves[:len(saved.moves)] == saved.moves
    assert len(final.moves) > len(saved.moves)
    assert final.replay().phase is Phase.MATCH_OVER


def test_the_end_of_the_input_leaves_no_record_unless_asked(tmp_path):
    g = game(seeded_kids_match(), ["s"])  # no --save; the default save must not be used
    assert g.run() is Outcome.ENDED
    assert "The input ended; the match was not saved (give --save FILE" in text_of(g)
    assert g.saved_path is None


def test_the_end_of_the_input_saves_where_asked(tmp_path):
    g = game(seeded_kids_match(), ["s"], tmp_path)
    assert g.run() is Outcome.ENDED
    path = tmp_path / "game.trash.json"
    assert load(path).dumps() == g.match.record.dumps()
    assert f"Saved to {path}" in text_of(g)


def test_q_saves_to_the_default_file_without_save(tmp_path):
    target = tmp_path / "default.trash.json"
    g = game(seeded_kids_match(), ["q"], default_save=lambda: target)
    assert g.run() is Outcome.QUIT
    assert load(target).dumps() == g.match.record.dumps()
    assert f"Saved to {target}" in text_of(g)


def test_ctrl_c_saves_before_leaving(tmp_path):
    match = seeded_kids_match()
    g = game(match, [], tmp_path)
    g.reader = ScriptReader(["s"], interrupt_at_end=True)
    assert g.run() is Outcome.INTERRUPTED
    assert load(tmp_path / "game.trash.json").dumps() == match.record.dumps()


def test_a_scoreboard_between_rounds_then_enter_deals_the_next(tmp_path):
    g = game(stacked_match(rounds_to_win=2), ["s", "", "q"], tmp_path)
    assert g.run() is Outcome.QUIT
    text = text_of(g)
    assert "After round 1" in text
    assert "next board" in text
    assert "Your completed board:" in text  # the winner's board, all face up
    winner_board = text[text.index("Your completed board:"):text.index("After round 1")]
    assert "░░░" not in winner_board
    assert "5♥" in winner_board
    assert "Press Enter to deal round 2 (q quits) " in g.reader.prompts  # type: ignore[attr-defined]
    assert "Round 2: " in text
    assert load(tmp_path / "game.trash.json").replay().round == 2


def test_quitting_at_the_scoreboard_resumes_at_the_scoreboard(tmp_path):
    g = game(stacked_match(rounds_to_win=2), ["s", "q"], tmp_path)
    assert g.run() is Outcome.QUIT
    saved = load(tmp_path / "game.trash.json")
    assert saved.replay().phase is Phase.ROUND_OVER
    g2 = game(Match.from_record(saved, random.Random(1)), ["q"], tmp_path)
    assert g2.run() is Outcome.QUIT
    assert "After round 1" in text_of(g2)
    assert load(tmp_path / "game.trash.json") == saved


def test_hotseat_hides_the_screen_until_the_next_player_presses_enter():
    match = seeded_kids_match(names=("Ana", "Bo"), seed=3)
    g = game(match, cycle_script(300), hotseat=True)
    assert g.run() is Outcome.FINISHED
    prompts = g.reader.prompts  # type: ignore[attr-defined]
    deciders = [p for p in prompts if p in ("Ana> ", "Bo> ")]
    assert {"Ana> ", "Bo> "} <= set(deciders)
    # every change of decider comes right after a pass screen (an empty prompt)
    for before, after in itertools.pairwise(prompts):
        if before in ("Ana> ", "Bo> ") and after in ("Ana> ", "Bo> ") and before != after:
            raise AssertionError(f"no pass screen between {before!r} and {after!r}")
    text = text_of(g)
    assert "Pass to Ana — press Enter" in text
    assert "Pass to Bo — press Enter" in text
    assert "Bo, since your last turn:" in text or "Ana, since your last turn:" in text
    # each is spoken to in the second person on their own turn, by name on the other's
    assert "You drew " in text
    assert ("Ana drew " in text or "Bo drew " in text)


def test_one_person_against_bots_gets_no_pass_screen():
    g = game(seeded_kids_match(), cycle_script(300))
    assert g.run() is Outcome.FINISHED
    assert "Pass to" not in text_of(g)


class SpyBot:
    """Greedy, but keeps everything it is given."""

    def __init__(self) -> None:
        self.inner = make_bot("greedy", random.Random(0))
        self.seen: list[object] = []

    def choose(self, view):
        self.seen.append(view)
        return self.inner.choose(view)


def test_bots_are_given_their_own_view_and_act_through_the_match():
    match = seeded_kids_match()
    spy = SpyBot()
    seats = make_seats(["Ana"], ["greedy"])
    g = TerminalGame(match=match, seats=seats, bots={1: spy},
                     reader=ScriptReader(cycle_script(300)), console=recording_console())
    assert g.run() is Outcome.FINISHED
    assert spy.seen
    assert all(isinstance(v, View) and v.seat == 1 and v.to_act == 1 for v in spy.seen)


def test_the_bot_delay_goes_through_the_injected_sleep():
    pauses: list[float] = []
    g = game(seeded_kids_match(), cycle_script(300), bot_delay=0.5, sleep=pauses.append)
    assert g.run() is Outcome.FINISHED
    assert 0.5 in pauses
    assert set(pauses) <= {0.5, 0.25}


def test_rules_reach_the_screen(tmp_path):
    match = Match(Rules.preset_named("kids").with_fields({"call_trash": True,
                                                           "rounds_to_win": 1}),
                  ["Ana", "bot:kid"], random.Random(2))
    g = game(match, ["q"], tmp_path)
    assert g.run() is Outcome.QUIT
    assert 'call "Trash!"' in text_of(g)


def test_the_pass_screen_on_a_terminal_also_clears_the_scrollback():
    import io

    from rich.console import Console

    match = seeded_kids_match(names=("Ana", "Bo"), seed=3)
    console = Console(file=io.StringIO(), width=100, force_terminal=True, color_system=None)
    g = game(match, cycle_script(12), hotseat=True)
    g.console = console
    g.run()
    text = console.file.getvalue()
    assert "\x1b[3J" in text  # the terminal's scrollback, not only the screen
    assert text.index("\x1b[3J") < text.index("Pass to ")


def test_the_table_header_shows_the_last_chance_lap():
    from trashcards.tui.render import table_header

    match = Match(Rules.preset_named("last-chance"), ["Ana", "Bo", "Cy"], random.Random(1))
    match.advance()
    view = match.view(0)._replace(final_from=2, to_act=0)
    header = table_header(view).plain
    assert "Last chance: Cy completed the board; still to play one more turn: you, Bo" in header
