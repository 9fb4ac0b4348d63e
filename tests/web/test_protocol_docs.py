"""Every error code and close code the server can send is in docs/protocol.md, and the
web client can say the ones that reach a table page in every language (issue 23)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "trashcards" / "web"
DOC = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
LANGUAGES = ("en", "es", "nl", "it", "vi")


def _server_source() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(WEB.glob("*.py")))


@pytest.mark.numba_compile
def test_every_error_code_the_server_sends_is_documented() -> None:
    source = _server_source()
    codes = set(re.findall(r'ProtocolError\(\s*"(\w+)"', source))
    codes |= set(re.findall(r'\.error\(\s*"(\w+)"', source))
    assert {"unavailable", "storage_error", "bad_json"} <= codes
    assert sorted(code for code in codes if f"`{code}`" not in DOC) == []
    http = DOC.split("## HTTP API")[1].split("\n## ")[0]
    assert "| 503 | `unavailable` |" in http


@pytest.mark.numba_compile
def test_every_close_code_the_server_uses_is_documented() -> None:
    source = _server_source()
    codes = set(re.findall(r"Close\((\d{4})", source)) | set(re.findall(r"code=(\d{4})", source))
    codes |= set(re.findall(r"^[A-Z_]+ = (\d{4})$", source, re.MULTILINE))
    assert {"1011", "4404", "4429"} <= codes
    # 4403 is sent before the handshake is accepted: the client sees HTTP 403 instead
    assert "handshake is refused (HTTP 403)" in DOC
    assert sorted(code for code in codes - {"4403"} if f"| {code} |" not in DOC) == []
    assert "| 1009 |" in DOC  # the ASGI server's own, for a frame over --max-frame


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.numba_compile
def test_the_client_can_say_unavailable_in_every_language(lang: str) -> None:
    catalog = json.loads((WEB / "static" / "i18n" / f"{lang}.json").read_text("utf-8"))
    for code in ("unavailable", "storage_error", "rate_limited"):
        assert catalog.get(f"error.{code}"), (lang, code)
