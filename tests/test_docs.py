"""The README and the pages of docs/ say true things: their Python examples run as
written, their links lead somewhere, every ``trashcards`` command they show exists with
the options shown, and the README's console examples print what it says they print."""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
import unicodedata
from pathlib import Path

import click
import pytest

import trashcards
from trashcards.cli import COMMANDS, main

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").rglob("*.md"))
#: Every page a reader is sent to: the README and docs/.
DOCS = [README, *PAGES]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)|!\[[^\]]*\]\(([^)\s]+)\)|src=\"([^\"]+)\"")


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_package_docstring_examples() -> None:
    result = doctest.testmod(trashcards, verbose=False)
    assert result.attempted > 0
    assert result.failed == 0


#: Pages whose examples run the numba kernel.
KERNEL_PAGES = ("docs/lab.md", "docs/envs.md")


@pytest.mark.parametrize("page", [
    pytest.param(p, marks=[pytest.mark.numba_compile] * (_name(p) in KERNEL_PAGES), id=_name(p))
    for p in DOCS if ">>> " in p.read_text()])
def test_python_examples_run_as_written(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0
    assert result.failed == 0


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = heading.strip().lower().replace("`", "")
    text = "".join(c for c in text if c in " -_" or unicodedata.category(c)[0] in "LN")
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = FENCE.sub("", page.read_text())
    found: set[str] = set()
    for heading in re.findall(r"^#+ (.+)$", text, re.M):
        base = slug(heading)
        name, n = base, 0
        while name in found:
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def links(page: Path) -> list[str]:
    text = FENCE.sub("", page.read_text())
    text = re.sub(r"`[^`\n]*`", "", text)
    return [next(g for g in groups if g) for groups in LINK.findall(text)]


@pytest.mark.parametrize("page", DOCS, ids=_name)
def test_every_link_leads_to_a_file_and_heading_that_exist(page: Path) -> None:
    broken = []
    for target in links(page):
        if re.match(r"^[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        missing = not file.exists()
        unknown = not missing and anchor and file.suffix == ".md" and anchor not in anchors(file)
        if missing or unknown:
            broken.append(target)
    assert not broken, broken


def _shell_commands(page: Path) -> list[list[str]]:
    """Every ``trashcards …`` command line of the page's shell and console blocks."""
    commands = []
    for kind, body in FENCE.findall(page.read_text()):
        if kind not in ("sh", "console", "bash"):
            continue
        for raw in body.splitlines():
            line = raw.removeprefix("$ ").split(" #")[0].strip()
            for part in re.split(r"&&|;|\|", line):
                words = shlex.split(part, comments=True)
                if words[:3] == ["python3", "-m", "trashcards"]:
                    words = ["trashcards", *words[3:]]
                if words[:1] == ["trashcards"] and len(words) > 1:
                    commands.append(words[1:])
    return commands


def _options(command: click.Command) -> set[str]:
    names = {"--help", "-h"}
    for param in command.params:
        names.update(param.opts)
        names.update(param.secondary_opts)
    return names


@pytest.mark.parametrize("page", DOCS, ids=_name)
def test_every_command_shown_exists_with_the_options_shown(page: Path) -> None:
    wrong = []
    ctx = click.Context(main)
    for words in _shell_commands(page):
        if words[0].startswith("-"):
            continue  # trashcards --help, --version
        if words[0] not in COMMANDS:
            wrong.append(f"trashcards {words[0]}: no such command")
            continue
        command = main.get_command(ctx, words[0])
        assert command is not None
        known = _options(command)
        wrong += [f"trashcards {words[0]} {w}" for w in words[1:]
                  if w.startswith("--") and w.split("=")[0] not in known]
    assert not wrong, wrong


def console_examples() -> list[tuple[str, str]]:
    """The README's ``console`` blocks: (command, what it prints)."""
    examples = []
    for kind, body in FENCE.findall(README.read_text()):
        if kind == "console":
            first, _, output = body.partition("\n")
            examples.append((first.removeprefix("$ "), output))
    return examples


@pytest.mark.slow
@pytest.mark.numba_compile
@pytest.mark.parametrize(("command", "output"), console_examples(),
                         ids=[c.split()[1] for c, _ in console_examples()])
def test_the_readme_console_examples_print_what_the_readme_shows(command: str,
                                                                   output: str) -> None:
    words = shlex.split(command)
    env = {**os.environ, "COLUMNS": "80", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "trashcards", *words[1:]], cwd=ROOT,
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    assert checker.check_output(output, done.stdout, flags), done.stdout


def test_the_readme_stays_short_and_keeps_its_table_of_contents() -> None:
    text = README.read_text()
    assert len(text.split()) <= 2500
    contents = text.split("## Contents", 1)[1].split("\n## ", 1)[0]
    linked = {t.split("#")[0] for t in re.findall(r"\]\(([^)]+)\)", contents)}
    pages = {_name(p) for p in PAGES if "analysis" not in p.parts and "spec" not in p.parts}
    assert pages <= linked | {"docs/analysis/README.md"}, pages - linked
