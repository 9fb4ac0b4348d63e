"""A Markdown report with its tables, plots and raw figures (``report.md`` and
``figures.json`` in the output directory; the plots are PNG files beside them)."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..estimates import Estimate

__all__ = ["Report", "fmt_count", "fmt_estimate", "fmt_pct", "fmt_pp", "fmt_share", "fmt_shares",
           "rounded_shares"]

REPORT_FILE = "report.md"
FIGURES_FILE = "figures.json"


def fmt_count(n: int) -> str:
    """``1234567`` → ``1,234,567``."""
    return f"{n:,}"


def fmt_share(value: float, digits: int = 1, signed: bool = False) -> str:
    """A share as a percentage: ``0.523`` → ``52.3 %``."""
    return f"{value * 100:{'+' if signed else ''}.{digits}f} %"


def rounded_shares(values: Sequence[float], digits: int = 1) -> list[float]:
    """Shares of one whole (they add up to 1, or to their own sum) as percentages rounded
    to ``digits`` decimals so that the rounded figures add up too: largest remainder,
    never 48.2 % + 51.7 %."""
    unit = 10 ** digits
    scaled = [value * 100 * unit for value in values]
    total = round(sum(scaled))
    floors = [math.floor(x) for x in scaled]
    order = sorted(range(len(scaled)), key=lambda i: (floors[i] - scaled[i], i))
    for i in order[:max(0, total - sum(floors))]:
        floors[i] += 1
    return [f / unit for f in floors]


def fmt_shares(values: Sequence[float], digits: int = 1) -> list[str]:
    """:func:`rounded_shares` written like :func:`fmt_share`: ``["48.3 %", "51.7 %"]``."""
    return [f"{share:.{digits}f} %" for share in rounded_shares(values, digits)]


def _ci(low: float | None, high: float | None, scale: float, digits: int, suffix: str,
        signed: bool = False) -> str:
    if low is None or high is None:
        return "(no CI: sample too small)"
    sign = "+" if signed else ""
    return f"({low * scale:{sign}.{digits}f} to {high * scale:{sign}.{digits}f}{suffix})" \
        if signed or low < 0 else f"({low * scale:.{digits}f}–{high * scale:.{digits}f}{suffix})"


def _digits(est: Estimate, digits: int) -> int:
    """One more decimal when the interval would otherwise not show (millions of rounds)."""
    half = est.half_width
    return digits + 1 if half is not None and half * 100 < 10.0 ** -digits else digits


def fmt_pct(est: Estimate, digits: int = 1) -> str:
    """A share with its interval: ``52.3 % (51.9–52.7 %)``."""
    if math.isnan(est.value):
        return "–"
    digits = _digits(est, digits)
    return f"{est.value * 100:.{digits}f} % {_ci(est.low, est.high, 100, digits, ' %')}"


def fmt_pp(est: Estimate, digits: int = 1) -> str:
    """A difference of shares in percentage points: ``+2.3 pp (+1.9 to +2.7 pp)``."""
    if math.isnan(est.value):
        return "–"
    digits = _digits(est, digits)
    return f"{est.value * 100:+.{digits}f} pp {_ci(est.low, est.high, 100, digits, ' pp', True)}"


def fmt_estimate(est: Estimate, digits: int = 2) -> str:
    """A mean with its interval: ``12.41 (12.38–12.44)``."""
    if math.isnan(est.value):
        return "–"
    return f"{est.value:.{digits}f} {_ci(est.low, est.high, 1, digits, '')}"


class Report:
    """Collects the parts of a report in order, then writes them."""

    def __init__(self, out: Path, title: str) -> None:
        self.out = out
        self.out.mkdir(parents=True, exist_ok=True)
        self._parts: list[str] = [f"# {title}"]
        #: The raw figures, written as ``figures.json``.
        self.figures: dict[str, Any] = {}
        #: The plot files written so far (names inside ``out``).
        self.plots: list[str] = []

    def heading(self, text: str, level: int = 2) -> None:
        self._parts.append(f"{'#' * level} {text}")

    def para(self, text: str) -> None:
        self._parts.append(text.strip())

    def bullets(self, items: Sequence[str]) -> None:
        self._parts.append("\n".join(f"- {item}" for item in items))

    def table(self, headers: Sequence[str], rows: Sequence[Sequence[str]],
              right: Sequence[int] = ()) -> None:
        """A Markdown table; columns whose index is in ``right`` are right-aligned."""
        def cell(text: str) -> str:
            return text.replace("|", "\\|").replace("\n", " ")

        rule = ["---:" if i in right else "---" for i in range(len(headers))]
        lines = ["| " + " | ".join(cell(h) for h in headers) + " |",
                 "| " + " | ".join(rule) + " |"]
        lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
        self._parts.append("\n".join(lines))

    def image(self, filename: str, alt: str) -> None:
        """Show a plot that has been saved as ``out / filename``."""
        if not (self.out / filename).is_file():
            raise FileNotFoundError(self.out / filename)
        self.plots.append(filename)
        self._parts.append(f"![{alt}]({filename})")

    def markdown(self) -> str:
        return "\n\n".join(self._parts) + "\n"

    def write(self) -> Path:
        """Write ``report.md`` and ``figures.json``; return the report's path."""
        path = self.out / REPORT_FILE
        path.write_text(self.markdown(), encoding="utf-8")
        (self.out / FIGURES_FILE).write_text(
            json.dumps(_clean(self.figures), indent=1, ensure_ascii=False, allow_nan=False)
            + "\n", encoding="utf-8")
        return path


def _clean(value: object) -> Any:
    """Plain JSON: objects with ``to_json`` converted, NaN and infinities as ``null``."""
    to_json = getattr(value, "to_json", None)
    if callable(to_json):
        return _clean(to_json())
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if value is None or isinstance(value, str | int | float | bool):
        return value
    raise TypeError(f"cannot write {type(value).__name__} as JSON")
