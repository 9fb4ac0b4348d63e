"""The installable app in a real browser (docs/offline.md): the manifest is valid, the
service worker controls the page, the pages load with the network off after one visit,
a new version replaces the old one whole, and a static build plays under a sub-path as
at a host's root."""

from __future__ import annotations

import json
import re
import shutil
import struct
import urllib.request
from pathlib import Path
from typing import Any

from browserkit import on_this_device, serve, take_one_decision, wait_for_turn_or_end
from statichost import static_host

from trashcards.record import loads
from trashcards.web.offline import build_static
from trashcards.web.settings import Settings

CONTROLLED = "navigator.serviceWorker.controller !== null"
#: A table page showing its board (the worker has answered).
SHOWN = ("() => document.body.dataset.acting !== undefined"
         " && !document.getElementById('game').hidden")


def _wait_controlled(page: Any) -> None:
    page.evaluate("navigator.serviceWorker.ready")
    page.wait_for_function(CONTROLLED)


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_manifest_is_valid_and_its_icons_are_the_sizes_it_says(server: str) -> None:
    with urllib.request.urlopen(f"{server}/manifest.webmanifest") as response:
        assert response.headers["Content-Type"].startswith("application/manifest+json")
        manifest = json.loads(response.read())
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "./"
    assert manifest["name"]
    assert manifest["short_name"]
    assert manifest["theme_color"].startswith("#")
    assert manifest["background_color"].startswith("#")
    sizes = set()
    for icon in manifest["icons"]:
        with urllib.request.urlopen(f"{server}/{icon['src']}") as response:
            width, height = _png_size(response.read())
        assert f"{width}x{height}" == icon["sizes"]
        sizes.add(icon["sizes"])
    assert {"192x192", "512x512"} <= sizes
    assert any(icon["purpose"] == "maskable" for icon in manifest["icons"])


def test_after_one_visit_every_page_loads_with_the_network_off(new_context: Any,
                                                               server: str) -> None:
    context = new_context()
    page = context.new_page()
    page.goto(f"{server}/")
    _wait_controlled(page)
    assert page.evaluate("document.querySelector('link[rel=manifest]').href") \
        == f"{server}/manifest.webmanifest"
    context.set_offline(True)
    page.reload()
    assert page.evaluate(CONTROLLED)
    page.wait_for_selector("text=Play Trash")
    for path, needle in (("/t/some-table", "#download"), ("/rules/es", "body"),
                         ("/review", "#record-file"), ("/p/some-party", "body")):
        page.goto(f"{server}{path}")
        page.wait_for_selector(needle, state="attached")
        assert page.evaluate(CONTROLLED), path
    # The styles and the catalogs come from the cache too.
    page.goto(f"{server}/rules/es")
    assert page.evaluate("getComputedStyle(document.body).backgroundImage") != "none"
    catalog = page.evaluate("fetch('/static/i18n/es.json').then(r => r.json())")
    assert catalog["offline.reload"] == "Recargar para actualizar"


def _mark(static: Path, templates: Path, build: str) -> None:
    """Stamp a build letter into the pages' template, a script and a style."""
    base = templates / "base.html"
    text = re.sub(r'<meta name="build"[^>]*>', "", base.read_text(encoding="utf-8"))
    base.write_text(text.replace("</head>", f'<meta name="build" content="{build}"></head>'),
                    encoding="utf-8")
    for name, line in (("js/config.js", f'\nglobalThis.trashBuild = "{build}";\n'),
                       ("css/app.css", f"\n/* build {build} */\n")):
        path = static / name
        path.write_text(path.read_text(encoding="utf-8").split("\n/* build ")[0]
                        .split('\nglobalThis.trashBuild')[0] + line, encoding="utf-8")


def _builds_seen(page: Any) -> tuple[str, str, str]:
    return (page.evaluate("document.querySelector('meta[name=build]').content"),
            page.evaluate("globalThis.trashBuild"),
            page.evaluate("fetch('/static/css/app.css').then(r => r.text())"
                          ".then(t => t.match(/build (\\w)/)[1])"))


def test_a_new_version_replaces_the_old_whole_after_reload_to_update(
        new_context: Any, tmp_path: Path) -> None:
    static, templates = tmp_path / "source", tmp_path / "templates"
    shutil.copytree(Settings().static_dir, static)
    shutil.copytree(Settings().templates_dir, templates)
    site = tmp_path / "site"
    _mark(static, templates, "A")
    build_static(static, templates, site)
    with static_host(site) as base:
        context = new_context()
        page = context.new_page()
        page.goto(f"{base}/")
        _wait_controlled(page)
        page.reload()
        assert _builds_seen(page) == ("A", "A", "A")
        _mark(static, templates, "B")
        build_static(static, templates, site)  # the host now serves version B
        page.reload()
        page.evaluate("navigator.serviceWorker.getRegistration().then(r => r.update())")
        page.wait_for_selector("#pwa-reload")
        # Version B is installed and waits: this page is still wholly A.
        assert _builds_seen(page) == ("A", "A", "A")
        second = context.new_page()
        second.goto(f"{base}/")
        assert _builds_seen(second) == ("A", "A", "A")
        second.close()
        with page.expect_navigation():
            page.click("#pwa-reload")
        page.wait_for_function(CONTROLLED)
        assert _builds_seen(page) == ("B", "B", "B")
        caches = page.evaluate("caches.keys()")
        assert len([key for key in caches if key.startswith("trash-shell-")]) == 1
        context.set_offline(True)
        page.reload()
        assert _builds_seen(page) == ("B", "B", "B")


def test_the_static_build_plays_a_table_on_this_device_with_no_python_server(
        new_context: Any, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_static(Settings().static_dir, Settings().templates_dir, site)
    with static_host(site) as base:
        context = new_context()
        page = context.new_page()
        page.add_init_script("window.trashBotDelay = 0; window.trashTestSeed = 1;")
        page.goto(f"{base}/")  # a first visit: the table page comes as the host's 404.html
        page.wait_for_selector("#seat-rows li")
        on_this_device(page)
        page.click("#create-form button[type=submit]")
        page.wait_for_url("**/t/local-**")
        page.wait_for_function("document.body.dataset.acting === '0'")
        assert page.locator("button.pile.stock.legal").count() == 1
        page.goto(f"{base}/rules/nl")
        page.wait_for_function("document.getElementById('rules-text').textContent.length > 200")
        assert page.evaluate("document.documentElement.lang") == "nl"


def test_the_static_build_given_a_server_plays_online_tables_there(
        new_context: Any, tmp_path: Path) -> None:
    with serve(tmp_path / "tables.sqlite3", options=["--allow-origin", "*"]) as game_server:
        site = tmp_path / "site"
        build_static(Settings().static_dir, Settings().templates_dir, site, game_server)
        with static_host(site) as base:
            page = new_context().new_page()
            page.goto(f"{base}/")
            page.wait_for_selector("#seat-rows li")
            assert not page.is_checked("#on-device")
            page.fill("#my-name", "Ana")
            page.click("#create-form button[type=submit]")
            page.wait_for_url(f"{base}/t/**")
            table_id = page.url.rsplit("/", 1)[1]
            assert not table_id.startswith("local-")
            page.wait_for_function("document.body.dataset.version > '1'")
            info = json.loads(urllib.request.urlopen(
                f"{game_server}/api/tables/{table_id}").read())
            assert info["seats"][0]["name"] == "Ana"
            assert info["status"] == "playing"
            assert page.evaluate("document.body.dataset.version") == str(info["version"])


def test_the_static_build_under_a_sub_path_plays_offline_after_one_visit(
        new_context: Any, tmp_path: Path) -> None:
    """A GitHub Pages project site: the build at https://user.github.io/REPO/. Every
    address the pages, the worker and the manifest ask for stays under /REPO/."""
    (tmp_path / "host").mkdir()  # the build makes no folder above its own (docs/files.md)
    # The origin's own page (another site), naming its icon: else the browser may ask for
    # /favicon.ico whenever it likes, after the count below has begun.
    (tmp_path / "host" / "index.html").write_text(
        '<!doctype html><link rel="icon" href="data:,"><title>another site</title>',
        encoding="utf-8")
    build_static(Settings().static_dir, Settings().templates_dir, tmp_path / "host" / "trash")
    requested: list[str] = []
    with static_host(tmp_path / "host", requested) as host:
        base = f"{host}/trash"
        context = new_context(accept_downloads=True)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.add_init_script("window.trashBotDelay = 0; window.trashTestSeed = 1;")
        # The origin holds another app's cache (another project site) and one named as
        # before the caches were named after their root.
        page.goto(f"{host}/")
        page.evaluate("Promise.all([caches.open('trash-shell-/other/0123abcd'),"
                      " caches.open('trash-shell-0123abcd')])")
        requested.clear()
        # A first visit straight to a table's address: the host's 404.html of /trash/.
        page.goto(f"{base}/t/local-nothing-here")
        page.wait_for_selector("#gone:not([hidden])")
        assert page.evaluate("getComputedStyle(document.body).backgroundImage") != "none"
        _wait_controlled(page)  # it installs the worker, at the app's root
        caches = sorted(page.evaluate("caches.keys()"))
        assert caches[0] == "trash-shell-/other/0123abcd"
        assert caches[1].startswith("trash-shell-/trash/")
        assert len(caches) == 2
        page.goto(f"{base}/")
        assert page.evaluate(CONTROLLED)
        assert page.evaluate("navigator.serviceWorker.getRegistration()"
                             ".then(r => r.scope)") == f"{base}/"
        assert page.evaluate("document.querySelector('link[rel=manifest]').href") \
            == f"{base}/manifest.webmanifest"
        context.set_offline(True)
        page.reload()
        page.wait_for_selector("#seat-rows li")
        assert page.is_checked("#on-device")
        page.fill("#my-name", "Ana")
        page.select_option("#preset", "kids")
        page.select_option("#rounds", "1")
        page.click("#create-form button[type=submit]")
        page.wait_for_url(f"{base}/t/local-*")
        table = page.url
        page.wait_for_function(SHOWN)
        for turn in range(400):
            state = wait_for_turn_or_end(page)
            if state in ("round_over", "match_over"):
                break
            if state == "pass":
                page.click("#pass-button")
                continue
            if turn == 3:  # a reload mid-turn, offline: the worker answers the page
                page.reload()
                page.wait_for_function(SHOWN)
                assert page.url == table
                continue
            take_one_decision(page)
        assert page.evaluate("document.body.dataset.phase") == "match_over"
        with page.expect_download() as info:
            page.click("#download")
        info.value.save_as(tmp_path / "record.trash.json")
        record = loads((tmp_path / "record.trash.json").read_text(encoding="utf-8"))
        assert record.replay().match_winner is not None
        # The rules and the lobby, offline, under the sub-path; a rematch stays there too.
        page.click("#play-again")
        page.wait_for_url(lambda url: url.startswith(f"{base}/t/local-") and url != table)
        page.goto(f"{base}/rules/nl")
        page.wait_for_function("document.getElementById('rules-text').textContent.length > 200")
        assert page.evaluate("document.documentElement.lang") == "nl"
        assert page.evaluate("document.querySelector('.topbar a.brand').href") == f"{base}/"
        page.click(".topbar a.brand")
        page.wait_for_selector("#mine-list li")
        assert page.url == f"{base}/"
        assert page.locator("#mine-list li").count() == 2
    assert errors == []
    outside = [path for path in requested if not path.startswith("/trash/")]
    assert outside == []
    assert any(path.startswith("/trash/static/") for path in requested)
