"""``trashcards serve``'s options for the players' settings (docs/players.md, "Serving
players"): each is in the help with its default (today's), a bad value is refused in one
line, and a good one reaches the server's :class:`PlayerSettings`, in one process and in
the workers of ``--workers N``."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from trashcards.cli import main
from trashcards.cli.playeroptions import OPTIONS
from trashcards.web import guard, workers
from trashcards.web.sessions import PlayerSettings

#: flag -> (a value other than the default, the field's value it gives, a bad value)
GIVEN: dict[str, tuple[str, Any, str]] = {
    "--session-days": ("7", 7.0, "0"),
    "--login-rate": ("3", 3.0, "0"),
    "--signup-rate": ("2.5", 2.5, "-1"),
    "--account-failures": ("3", 3, "0"),
    "--lockout": ("2", 120.0, "0"),
    "--passkey-timeout": ("60", 60.0, "never"),
    "--passkey-name": ("Trash club", "Trash club", " "),
    "--passkey-domain": ("Cards.Example.org", "cards.example.org", "http://x/"),
    "--rate-interval": ("1.5", 1.5, "0"),
    "--active-days": ("14", 14.0, "0"),
    "--pair-interval": ("0.5", 0.5, "0"),
    "--pair-window": ("150", 150.0, "-5"),
    "--pair-widen": ("0", 0.0, "-1"),
    "--bot-wait": ("45", 45.0, "601"),
    "--pair-stale": ("60", 60.0, "0"),
    "--habit-interval": ("30", 30.0, "0"),
    "--habit-samples": ("120", 120, "7"),
    "--peer-band": ("200", 200.0, "5"),
    "--peer-min-players": ("10", 10, "1"),
    "--peer-min-games": ("50", 50, "0"),
    "--peer-refresh": ("0", 0.0, "-1"),
    "--max-profile": ("500000", 500000, "100"),
    # a file in the folder serve runs in (the tests run there)
    "--block-list": ("blocked.txt", ("grumpy", "bad apple"), "missing.txt"),
}
#: The block list the tests give: a comment, a blank line, a phrase, a repeat.
BLOCKED = "# our list\ngrumpy\n\n  bad   apple  # a phrase\ngrumpy\n"
FLAGS = [option.flag for option in OPTIONS]


def test_every_player_setting_has_its_option_and_a_case_here() -> None:
    fields = {f.name for f in dataclasses.fields(PlayerSettings)}
    assert {option.field for option in OPTIONS} == fields
    assert sorted(GIVEN) == sorted(FLAGS)


@pytest.fixture(scope="module")
def help_text() -> str:
    result = CliRunner().invoke(main, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize("flag", FLAGS)
def test_the_help_names_each_option_with_its_metavar_help_and_todays_default(
        flag: str, help_text: str) -> None:
    option = next(o for o in OPTIONS if o.flag == flag)
    assert f"{flag} {option.metavar}" in help_text
    assert " ".join(option.help.split()) in help_text
    default = getattr(PlayerSettings(), option.field)
    if default not in (None, ()):  # today's default, in the option's unit
        after = help_text.split(f"{flag} {option.metavar}", 1)[1]
        shown = default / option.scale if option.scale != 1.0 else default
        assert f"[default: {shown}" in after.split(" --", 1)[0], after[:300]


@pytest.mark.parametrize("flag", FLAGS)
def test_a_bad_value_is_refused_in_one_line(flag: str, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["serve", "--db", str(tmp_path / "db.sqlite3"),
                                       flag, GIVEN[flag][2]])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, result.output
    assert f"Invalid value for '{flag}'" in errors[0]
    assert "Traceback" not in result.output
    assert not (tmp_path / "db.sqlite3").exists()  # refused before anything is opened


def test_a_bad_value_ends_the_real_command_in_one_error_line(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "trashcards", "serve", "--port", "0",
                           "--db", str(tmp_path / "db.sqlite3"), "--login-rate", "0"],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert [line for line in done.stderr.splitlines() if line.startswith("Error:")] == [
        "Error: Invalid value for '--login-rate': 0.0 is not in the range x>0."]


def _keep_this_process_logging(monkeypatch: pytest.MonkeyPatch) -> None:
    """``serve`` run in this process (the test's) must leave its logging alone: uvicorn's
    Config sets logging up again (``dictConfig``, which closes every handler there is,
    pytest's own among them), and ``basicConfig`` would give the root logger a handler
    on the test runner's stream, which is closed once the command ends."""
    import logging

    import uvicorn

    monkeypatch.setattr(uvicorn.Config, "configure_logging", lambda self: None)
    monkeypatch.setattr(logging, "basicConfig", lambda **_kw: None)


def _served(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str]) -> Any:
    """The app ``serve ARGS`` would run (uvicorn's run replaced by a note of it)."""
    import uvicorn

    seen: list[Any] = []

    def run(self: Any, sockets: list[Any] | None = None) -> None:
        seen.append(self.config.app)
        for sock in sockets or []:
            sock.close()

    monkeypatch.setattr(uvicorn.Server, "run", run)
    _keep_this_process_logging(monkeypatch)
    monkeypatch.setenv(guard.ENVIRONMENT, "")  # serve sets it: put back afterwards
    monkeypatch.chdir(tmp_path)
    (tmp_path / "blocked.txt").write_text(BLOCKED, encoding="utf-8")
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--db",
                                       str(tmp_path / "db.sqlite3"), *args])
    assert result.exit_code == 0, result.output
    return seen[0]


@pytest.mark.parametrize("flag", FLAGS)
def test_the_value_reaches_the_servers_player_settings(
        flag: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    option = next(o for o in OPTIONS if o.flag == flag)
    given, expected, _bad = GIVEN[flag]
    assert getattr(PlayerSettings(), option.field) != expected  # not today's default
    app = _served(monkeypatch, tmp_path, [flag, given])
    options = app.state.players.options
    assert getattr(options, option.field) == expected
    # the other fields keep today's defaults
    assert dataclasses.replace(options, **{option.field: getattr(PlayerSettings(),
                                                                 option.field)}) \
        == PlayerSettings()


def test_without_options_the_server_runs_on_todays_defaults(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    app = _served(monkeypatch, tmp_path, [])
    assert app.state.players.options == PlayerSettings()


def test_the_workers_of_serve_get_the_same_player_settings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from uvicorn.supervisors import Multiprocess

    import trashcards.cli.serve as serve_module

    async def no_probe(_db: Any) -> None:
        return None

    monkeypatch.setattr(serve_module, "_probe", no_probe)  # no PostgreSQL needed

    def run(self: Any) -> None:
        for sock in self.sockets:
            sock.close()

    monkeypatch.setattr(Multiprocess, "run", run)
    _keep_this_process_logging(monkeypatch)
    for name in (guard.ENVIRONMENT, workers.ENVIRONMENT, workers.PLAYERS_ENVIRONMENT):
        monkeypatch.setenv(name, "")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "blocked.txt").write_text(BLOCKED, encoding="utf-8")
    result = CliRunner().invoke(main, ["serve", "--port", "0", "--workers", "2", "--db",
                                       "postgresql://nobody@localhost/none",
                                       "--lockout", "2", "--passkey-domain", "example.org",
                                       "--peer-min-players", "8", "--block-list",
                                       "blocked.txt"])
    assert result.exit_code == 0, result.output
    # what a worker process builds from the environment serve left it
    monkeypatch.setenv(workers.ENVIRONMENT, workers.settings_text(
        {"db_path": str(tmp_path / "db.sqlite3")}))
    options = workers.app().state.players.options
    assert (options.lockout, options.rp_id, options.peer_min_players) == (
        120.0, "example.org", 8)
    assert options.blocked_names == ("grumpy", "bad apple")
    assert dataclasses.replace(options, lockout=900.0, rp_id=None, peer_min_players=5,
                               blocked_names=()) == PlayerSettings()


def test_a_block_list_file_refuses_its_words_in_names(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from starlette.testclient import TestClient

    app = _served(monkeypatch, tmp_path, ["--block-list", "blocked.txt"])
    with TestClient(app, base_url="http://testserver") as client:
        token = client.get("/api/account").json()["csrf"]

        def sign_up(name: str) -> Any:
            return client.post("/api/account/signup", headers={"X-Trash-CSRF": token},
                               json={"name": name, "password": "correct horse battery"})

        assert sign_up("Grumpy Cat").json()["error"] == "bad_name"
        assert sign_up("a Bad Apple").json()["error"] == "bad_name"
        assert sign_up("Grumpycat").status_code == 201  # a word, not a part of one


def test_a_block_list_that_is_no_text_is_refused_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "list.bin").write_bytes(b"\xff\xfe\x00bad")
    result = CliRunner().invoke(main, ["serve", "--block-list", "list.bin"])
    assert result.exit_code == 2
    errors = [line for line in result.output.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1
    assert errors[0].startswith("Error: Invalid value for '--block-list': cannot read list.bin")
