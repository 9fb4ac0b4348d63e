"""The installable, offline app (docs/offline.md): the web app manifest, the service
worker and the static build.

The service worker is ``static/sw.js`` with its blanks filled here: the list of files of
the app shell (every static file, and the pages rendered from ``templates/`` at
``pages/NAME.html``) and a version, the SHA-256 of all of them. Any change to any shell file
changes the worker's text, so the browser installs the new version beside the old one
into a cache of its own, and the page offers "reload to update"; until then every page
is served from the old cache only, so no page mixes the two versions.

The app may be served under any path (``https://user.github.io/REPO/``), not only at a
host's root: every address a page, the worker or the manifest uses is relative to the
app's root. A page is rendered with ``root``, the root as that page reaches it (``/``
from ``trashcards serve``; ``./``, ``../`` or ``../../`` in a static build, by the page's
depth); the worker's own copies of the pages (``pages/``) carry :data:`ROOT_MARK`, which
the worker replaces with its scope when it answers a page; the worker's addresses and
the manifest's are relative to where they are.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from pathlib import Path
from typing import Any, Final

import jinja2
from starlette.exceptions import HTTPException
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

from ..files import OutputFolder

__all__ = ["MANIFEST_PATH", "PAGE_NAMES", "ROOT_MARK", "SW_PATH", "ShellFiles", "build_static",
           "manifest", "render_pages", "service_worker", "shell_urls", "shell_version"]

SW_PATH: Final = "/sw.js"
MANIFEST_PATH: Final = "/manifest.webmanifest"
#: The pages, each rendered from ``templates/NAME`` (which extends ``base.html``) and
#: served, for the worker, at ``/pages/NAME``.
PAGE_NAMES: Final = ("index.html", "table.html", "party.html", "rules.html", "review.html",
                     "profile.html", "play.html", "leaderboard.html")
#: The pages of the shell: the address below the app's root (or, ending in ``/``, the
#: addresses under it) and the rendered page that answers it. The worker answers every
#: table, party and rules language address with the one page.
PAGES: Final = {"": "pages/index.html", "index.html": "pages/index.html",
                "t/": "pages/table.html", "p/": "pages/party.html",
                "rules": "pages/rules.html", "rules/": "pages/rules.html",
                "review": "pages/review.html", "review/": "pages/review.html",
                "profile": "pages/profile.html", "profile/": "pages/profile.html",
                "play": "pages/play.html", "play/": "pages/play.html",
                "leaderboard": "pages/leaderboard.html",
                "leaderboard/": "pages/leaderboard.html"}
#: The root of the worker's copies of the pages in a static build: the worker puts the
#: app's root (its scope's path) in its place when it answers a page.
ROOT_MARK: Final = "__TRASH_ROOT__/"
#: The depth of each page a static build writes: its ``root``, relative.
_STATIC_PAGES: Final = {"index.html": ("index.html", "./"), "t/index.html": ("table.html", "../"),
                        "p/index.html": ("party.html", "../"),
                        "rules/index.html": ("rules.html", "../"),
                        "review/index.html": ("review.html", "../"),
                        "profile/index.html": ("profile.html", "../"),
                        "play/index.html": ("play.html", "../"),
                        "leaderboard/index.html": ("leaderboard.html", "../"),
                        # a host answers an unknown address (/t/local-…) with it
                        "404.html": ("table.html", "../")}
_TEMPLATE: Final = "sw.js"  # in static/, not itself a shell file
_SKIP: Final = frozenset({_TEMPLATE})


def _static_files(static_dir: Path) -> list[Path]:
    return sorted(p for p in static_dir.rglob("*")
                  if p.is_file() and p.relative_to(static_dir).as_posix() not in _SKIP
                  and not p.name.startswith("."))


class ShellFiles(StaticFiles):
    """``/static/``: the static files, but not the worker's template (``static/sw.js``,
    whose blanks are filled at ``/sw.js`` only: served as it is, it would install a
    worker that caches nothing)."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        if path in _SKIP:
            raise HTTPException(status_code=404)
        return await super().get_response(path, scope)


def render_pages(templates_dir: Path, root: str = "/") -> dict[str, str]:
    """Every page's HTML, by name (``index.html``…), rendered from its template as the
    server renders it, its addresses starting with ``root``."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(templates_dir), autoescape=True)
    return {name: env.get_template(name).render(root=root) for name in PAGE_NAMES}


def shell_urls(static_dir: Path) -> list[str]:
    """Every address the worker caches, relative to the app's root: the manifest, the
    pages and every static file."""
    files = [f"static/{p.relative_to(static_dir).as_posix()}"
             for p in _static_files(static_dir)]
    return [MANIFEST_PATH.lstrip("/"), *(f"pages/{name}" for name in PAGE_NAMES), *files]


def shell_version(static_dir: Path, templates_dir: Path) -> str:
    """The SHA-256 (first 16 hex digits) of every shell file's path and content (the
    rendered pages among them), and of the worker's own template."""
    digest = hashlib.sha256()
    for path in [*_static_files(static_dir), static_dir / _TEMPLATE]:
        digest.update(path.relative_to(static_dir).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
    for name, text in render_pages(templates_dir).items():
        digest.update(f"pages/{name}".encode())
        digest.update(b"\0")
        digest.update(text.encode())
    digest.update(json.dumps(manifest(), sort_keys=True).encode())
    return digest.hexdigest()[:16]


#: The last worker text made, under the signature of the files it was made from: a
#: server answers ``/sw.js`` on every page load, and hashing the shell takes milliseconds.
_made: dict[tuple[object, ...], str] = {}


def _signature(static_dir: Path, templates_dir: Path, server: str) -> tuple[object, ...]:
    """What the worker's text depends on, cheaply: every shell file's and template's
    path, size and modification time."""
    files = [*static_dir.rglob("*"), *templates_dir.rglob("*")]
    return (str(static_dir), str(templates_dir), server,
            tuple((str(f), st.st_size, st.st_mtime_ns) for f in sorted(files)
                  if f.is_file() and (st := f.stat())))


def service_worker(static_dir: Path, templates_dir: Path, server: str = "") -> str:
    """The worker's text: the template with the version and the shell's addresses
    (``server``: the game server a static build was given, part of the version). Made
    again only when a file it depends on changed."""
    key = _signature(static_dir, templates_dir, server)
    text = _made.get(key)
    if text is None:
        text = _make_service_worker(static_dir, templates_dir, server)
        _made.clear()
        _made[key] = text
    return text


def _make_service_worker(static_dir: Path, templates_dir: Path, server: str) -> str:
    template = (static_dir / _TEMPLATE).read_text(encoding="utf-8")
    version = shell_version(static_dir, templates_dir)
    if server:
        version = hashlib.sha256(f"{version} {server}".encode()).hexdigest()[:16]
    return (template.replace('"__VERSION__"', json.dumps(version))
            .replace('"__SHELL__"', json.dumps(shell_urls(static_dir)))
            .replace('"__PAGES__"', json.dumps(PAGES))
            .replace('"__ROOT_MARK__"', json.dumps(ROOT_MARK)))


def manifest() -> dict[str, Any]:
    """The web app manifest; its addresses are relative to it (the app's root)."""
    icons = [{"src": f"static/icons/icon-{n}.png", "sizes": f"{n}x{n}", "type": "image/png",
              "purpose": "any"} for n in (192, 512)]
    icons.append({"src": "static/icons/maskable-512.png", "sizes": "512x512",
                  "type": "image/png", "purpose": "maskable"})
    return {
        "name": "Trash — the card game",
        "short_name": "Trash",
        "description": "Trash (Garbage, Ten): play against the computer or at one device, "
                       "online or offline.",
        "id": "./",
        "start_url": "./",
        "scope": "./",
        "display": "standalone",
        "background_color": "#0f4a36",
        "theme_color": "#0f4a36",
        "icons": icons,
    }


def server_meta(server: str) -> str:
    """The tag that gives a page its game server (``static/js/config.js`` reads it)."""
    return f'<meta name="trash-server" content="{html.escape(server, quote=True)}">'


def build_static(static_dir: Path, templates_dir: Path, out: Path,
                 server: str = "", force: bool = False) -> list[Path]:
    """Write the whole app as static files into ``out``: the pages at the addresses a
    static host serves (``index.html``, ``t/index.html``, ``rules/es/…``; ``404.html``
    is the table page, so a host that answers an unknown address with it opens ``t/ID``
    on a first visit) and at ``pages/`` (the worker's copies), ``static/``, the worker
    and the manifest. Every address in them is relative, so ``out`` may be served at a
    host's root or under any path. Returns the files written. ``server`` is the address
    of a ``trashcards serve`` for online tables (it must allow this host's origin:
    ``--allow-origin``); without it the pages use their own origin.

    ``out`` must be new (in a folder that exists), empty, or an earlier build
    (:class:`trashcards.files.OutputFolder`): a build replaces only the files an
    earlier one wrote, unchanged since (``force``: changed or not), removes those it
    no longer writes, follows no link inside ``out`` and leaves every other file alone;
    anything else raises :class:`~trashcards.files.OutputError` before a file is
    written."""
    if server and not re.fullmatch(r"https?://[^\s/\"<>]+/?", server):
        raise ValueError(f"--server must be an http(s) address like https://example.org:8000, "
                         f"got {server!r}")
    server = server.rstrip("/")
    files = {f"static/{p.relative_to(static_dir).as_posix()}": p.read_bytes()
             for p in _static_files(static_dir)}
    pages = {**_STATIC_PAGES, **{f"pages/{name}": (name, ROOT_MARK) for name in PAGE_NAMES}}
    for lang in sorted(p.stem for p in (static_dir / "rules").glob("*.html")):
        pages[f"rules/{lang}/index.html"] = ("rules.html", "../../")
    rendered = {root: render_pages(templates_dir, root)
                for root in {root for _source, root in pages.values()}}
    for name, (source, root) in pages.items():
        text = rendered[root][source]
        if server:  # every page (not the rules fragments under static/rules/)
            text = text.replace("<head>", "<head>\n  " + server_meta(server), 1)
        files[name] = text.encode("utf-8")
    files["sw.js"] = service_worker(static_dir, templates_dir, server).encode("utf-8")
    files["manifest.webmanifest"] = json.dumps(manifest(), indent=1).encode("utf-8")
    with OutputFolder(out, "build-static", force) as folder:
        folder.check(files)
        folder.remove_others(files)  # an earlier build's files this one does not have
        return [folder.write(name, data) for name, data in files.items()]
