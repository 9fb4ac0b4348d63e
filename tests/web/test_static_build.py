"""The offline app's server side (trashcards.web.offline): the worker's version follows
every shell file, the worker lists them all, and the static build writes the whole app,
with relative addresses only (so it may be served under any path)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from trashcards.web.offline import (
    ROOT_MARK,
    manifest,
    render_pages,
    service_worker,
    shell_urls,
    shell_version,
)
from trashcards.web.settings import Settings

STATIC = Settings().static_dir
TEMPLATES = Settings().templates_dir


def test_the_worker_lists_every_static_file_and_the_pages() -> None:
    worker = service_worker(STATIC, TEMPLATES)
    urls = shell_urls(STATIC)
    for url in ("pages/table.html", "static/js/table.js", "static/i18n/vi.json",
                "static/icons/icon-512.png", "static/css/app.css", "manifest.webmanifest"):
        assert url in urls
    assert "static/sw.js" not in urls
    assert not any(url.startswith("/") for url in urls)  # relative to the worker's folder
    assert json.dumps(urls) in worker
    assert "__VERSION__" not in worker
    assert "__SHELL__" not in worker
    assert json.dumps(shell_version(STATIC, TEMPLATES)) in worker


def test_the_version_changes_with_any_shell_file(tmp_path: Path) -> None:
    static, templates = tmp_path / "static", tmp_path / "templates"
    shutil.copytree(STATIC, static)
    shutil.copytree(TEMPLATES, templates)
    before = shell_version(static, templates)
    assert shell_version(static, templates) == before
    (static / "i18n" / "nl.json").write_text("{}", encoding="utf-8")
    after = shell_version(static, templates)
    assert after != before
    (static / "sw.js").write_text((static / "sw.js").read_text() + "\n// changed\n")
    changed = shell_version(static, templates)
    assert changed != after
    base = templates / "base.html"
    base.write_text(base.read_text().replace("</head>", "<!-- changed --></head>"))
    assert shell_version(static, templates) != changed


def test_the_served_worker_is_made_again_only_when_a_file_changed(tmp_path: Path) -> None:
    # /sw.js is asked for on every page load: its text is kept until a file changes.
    static, templates = tmp_path / "static", tmp_path / "templates"
    shutil.copytree(STATIC, static)
    shutil.copytree(TEMPLATES, templates)
    first = service_worker(static, templates)
    assert service_worker(static, templates) is first  # kept, not made again
    for changed in (static / "js" / "winbar.js", templates / "base.html"):
        text = changed.read_text(encoding="utf-8")
        changed.write_text(text + "\n<!-- or // changed -->\n", encoding="utf-8")
        again = service_worker(static, templates)
        assert again != first, f"a change of {changed.name} kept the old worker"
        assert json.dumps(shell_version(static, templates)) in again
        first = again


def test_the_manifest_is_standalone_with_icons() -> None:
    data = manifest()
    assert data["display"] == "standalone"
    # relative to the manifest, which is at the app's root, wherever that is
    assert data["start_url"] == data["scope"] == data["id"] == "./"
    for icon in data["icons"]:
        assert (STATIC / icon["src"].removeprefix("static/")).is_file()


@pytest.mark.numba_compile
def test_build_static_writes_the_pages_worker_and_manifest(tmp_path: Path) -> None:
    out = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "trashcards", "build-static", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "wrote" in done.stdout
    for name in ("index.html", "t/index.html", "rules/index.html", "review/index.html",
                 "sw.js", "manifest.webmanifest", "static/js/table.js",
                 "static/i18n/en.json", "static/icons/icon-192.png"):
        assert (out / name).is_file(), name
    assert not (out / "static" / "sw.js").exists()
    assert (out / "sw.js").read_text() == service_worker(STATIC, TEMPLATES)
    assert json.loads((out / "manifest.webmanifest").read_text()) == manifest()


@pytest.mark.numba_compile
def test_build_static_with_a_server_tells_every_page_and_refuses_a_bad_address(
        tmp_path: Path) -> None:
    out = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "trashcards", "build-static", str(out),
                           "--server", "https://trash.example.org:8000/"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    meta = '<meta name="trash-server" content="https://trash.example.org:8000">'
    for page in ("index.html", "t/index.html", "404.html", "rules/es/index.html",
                 "pages/table.html", "pages/index.html", "pages/review.html"):
        assert meta in (out / page).read_text(encoding="utf-8"), page
    assert meta not in (out / "static" / "rules" / "en.html").read_text(encoding="utf-8")
    assert (out / "sw.js").read_text() != service_worker(STATIC, TEMPLATES)
    bad = subprocess.run([sys.executable, "-m", "trashcards", "build-static",
                          str(tmp_path / "other"), "--server", "trash.example.org"],
                         capture_output=True, text=True, check=False)
    assert bad.returncode == 1
    assert "--server must be an http(s) address" in bad.stderr
    assert len(bad.stderr.strip().splitlines()) == 1


#: An address from a host's root in a page: ``href="/…"`` or ``src="/…"``.
_ABSOLUTE = re.compile(r'(?:href|src)="/')


def test_the_servers_pages_start_every_address_at_its_root() -> None:
    for name, text in render_pages(TEMPLATES).items():
        assert '<meta name="trash-root" content="/">' in text, name
        assert 'href="/static/css/app.css"' in text, name


@pytest.mark.numba_compile
def test_build_static_writes_relative_addresses_only(tmp_path: Path) -> None:
    out = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "trashcards", "build-static", str(out)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    roots = {"index.html": "./", "t/index.html": "../", "404.html": "../",
             "review/index.html": "../", "rules/index.html": "../",
             "rules/es/index.html": "../../", "pages/table.html": ROOT_MARK}
    for name, root in roots.items():
        text = (out / name).read_text(encoding="utf-8")
        assert f'<meta name="trash-root" content="{root}">' in text, name
        assert f'href="{root}static/css/app.css"' in text, name
    pages = [p for p in out.rglob("*.html") if "static" not in p.relative_to(out).parts]
    assert len(pages) >= 12
    for page in pages:
        assert not _ABSOLUTE.search(page.read_text(encoding="utf-8")), page
    assert ROOT_MARK in (out / "sw.js").read_text(encoding="utf-8")
