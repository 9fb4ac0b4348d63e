"""A static host for the browser tests of the offline app: the output of
``trashcards build-static`` served as GitHub Pages serves a site (an unknown address
answers 404 with the ``404.html`` of the nearest folder that has one, so a build in
``DIR/REPO/`` is served as a project site is, under ``/REPO/``)."""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def static_host(root: Path, requested: list[str] | None = None) -> Iterator[str]:
    """Serve ``root`` on a free port of 127.0.0.1; yields the base URL. Every path asked
    for is added to ``requested``, if given."""
    handler = functools.partial(_QuietHandler, directory=str(root),
                                requested=requested if requested is not None else [])
    httpd = _Host(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _Host(http.server.ThreadingHTTPServer):
    """A browser that goes offline, or on to another page, drops its connections: a
    reset or a broken pipe is not the host's error, and prints nothing."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """A static host as GitHub Pages is: an unknown address answers 404 with 404.html."""

    def __init__(self, *args: Any, requested: list[str], **kwargs: Any) -> None:
        self.requested = requested
        super().__init__(*args, **kwargs)

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def parse_request(self) -> bool:
        parsed = super().parse_request()
        if parsed:
            self.requested.append(self.path)
        return parsed

    def _not_found_page(self) -> Path:
        """The 404.html of the nearest folder of the address that has one."""
        site = Path(self.directory)
        parts = [p for p in self.path.split("?")[0].split("/") if p and p not in (".", "..")]
        for depth in range(len(parts), -1, -1):
            page = site.joinpath(*parts[:depth], "404.html")
            if page.is_file():
                return page
        return site / "404.html"

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        page = self._not_found_page()
        if code != 404 or not page.is_file():
            super().send_error(code, message, explain)
            return
        body = page.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()
