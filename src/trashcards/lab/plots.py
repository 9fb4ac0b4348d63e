"""PNG plots for the reports (matplotlib's Agg canvas: no display, no pyplot state)."""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from ..estimates import Estimate
from ..files import write_whole

__all__ = ["bar_chart", "distribution_chart", "heatmap", "interval_chart", "line_chart"]

_DPI = 110


def _figure(width: float = 8.0, height: float = 4.5) -> tuple[Figure, Any]:
    figure = Figure(figsize=(width, height), dpi=_DPI, layout="constrained")
    FigureCanvasAgg(figure)
    return figure, figure.add_subplot()


def _save(figure: Figure, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    write_whole(path, buffer.getvalue())  # never through a link (docs/files.md)
    return path


def _errors(values: Sequence[Estimate], scale: float) -> tuple[list[float], list[list[float]]]:
    centres = [e.value * scale for e in values]
    below = [(e.value - e.low) * scale if e.low is not None else 0.0 for e in values]
    above = [(e.high - e.value) * scale if e.high is not None else 0.0 for e in values]
    return centres, [below, above]


def bar_chart(path: Path, groups: Sequence[str], series: Mapping[str, Sequence[Estimate]],
              title: str, ylabel: str, scale: float = 1.0,
              reference: Mapping[str, float] | float | None = None) -> Path:
    """Grouped bars (one group per label of ``groups``, one bar per series) with 95 %
    error bars. ``reference``: a dashed line (one value, or one per series)."""
    figure, ax = _figure(min(13.0, max(6.0, 0.45 * len(groups) * max(1, len(series)) + 3)))
    count = max(1, len(series))
    width = 0.8 / count
    for i, (name, values) in enumerate(series.items()):
        xs = [g + (i - (count - 1) / 2) * width for g in range(len(groups))]
        centres, errors = _errors(values, scale)
        bars = ax.bar(xs, centres, width, yerr=errors, capsize=3, label=name)
        if isinstance(reference, Mapping) and name in reference:
            ax.axhline(reference[name] * scale, linestyle="--", linewidth=1,
                       color=bars.patches[0].get_facecolor())
    if isinstance(reference, int | float):
        ax.axhline(reference * scale, linestyle="--", linewidth=1, color="grey")
    ax.set_xticks(range(len(groups)), list(groups), rotation=30, ha="right")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend()
    ax.grid(axis="y", alpha=0.3)
    return _save(figure, path)


def distribution_chart(path: Path, series: Mapping[str, Mapping[int, int]], title: str,
                       xlabel: str, quantile_cut: float = 0.995) -> Path:
    """Share of each value, one line per histogram; the x axis stops where
    ``quantile_cut`` of every series is shown."""
    figure, ax = _figure()
    last = 1
    for name, hist in series.items():
        total = sum(hist.values())
        if not total:
            continue
        xs = sorted(hist)
        ax.plot(xs, [hist[x] / total for x in xs], marker="." if len(xs) < 40 else None,
                linewidth=1.2, label=name)
        seen = 0
        for x in xs:
            seen += hist[x]
            if seen >= quantile_cut * total:
                last = max(last, x)
                break
    ax.set_xlim(0, last + 1)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("share")
    ax.set_title(title)
    ax.legend(fontsize="small", ncols=2)
    ax.grid(alpha=0.3)
    return _save(figure, path)


def heatmap(path: Path, labels: Sequence[str], values: Sequence[Sequence[float]],
            title: str) -> Path:
    """A square table of shares (row against column), coloured and written in each cell;
    NaN cells (a player against itself) stay blank."""
    size = len(labels)
    figure, ax = _figure(1.1 * size + 2.5, 1.0 * size + 1.5)
    masked = [[v if not math.isnan(v) else math.nan for v in row] for row in values]
    image = ax.imshow(masked, cmap="RdBu", vmin=0.0, vmax=1.0)
    for i in range(size):
        for j in range(size):
            value = values[i][j]
            if not math.isnan(value):
                ax.text(j, i, f"{value:.0%}", ha="center", va="center", fontsize="small",
                        color="white" if abs(value - 0.5) > 0.3 else "black")
    ax.set_xticks(range(size), list(labels), rotation=30, ha="right")
    ax.set_yticks(range(size), list(labels))
    ax.set_xlabel("opponent")
    ax.set_ylabel("bot")
    ax.set_title(title)
    figure.colorbar(image, ax=ax, label="match win rate of the row bot")
    return _save(figure, path)


def interval_chart(path: Path, names: Sequence[str], values: Sequence[float],
                   lows: Sequence[float], highs: Sequence[float], title: str,
                   xlabel: str) -> Path:
    """One point with its 95 % interval per name, best at the top."""
    figure, ax = _figure(7.0, 0.5 * len(names) + 1.5)
    order = sorted(range(len(names)), key=lambda i: values[i])
    ys = range(len(order))
    ax.errorbar([values[i] for i in order], list(ys),
                xerr=[[values[i] - lows[i] for i in order], [highs[i] - values[i] for i in order]],
                fmt="o", capsize=4)
    ax.set_yticks(list(ys), [names[i] for i in order])
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    return _save(figure, path)


def line_chart(path: Path, xs: Sequence[float], series: Mapping[str, Sequence[float]],
               title: str, xlabel: str, ylabel: str, scale: float = 1.0,
               marks: Sequence[float] = (), reference: float | None = None) -> Path:
    """One line per series over ``xs`` (drawn as steps: each value holds until the next);
    ``marks``: thin vertical lines (e.g. where rounds start); ``reference``: a dashed
    horizontal line."""
    figure, ax = _figure(9.0, 4.5)
    for x in marks:
        ax.axvline(x, color="grey", linewidth=0.5, alpha=0.5)
    for name, values in series.items():
        ax.step(list(xs), [v * scale for v in values], where="post", linewidth=1.4,
                label=name)
    if reference is not None:
        ax.axhline(reference * scale, linestyle="--", linewidth=1, color="grey")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    return _save(figure, path)
