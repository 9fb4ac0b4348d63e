"""Draw the app's icons (src/trashcards/web/static/icons/*.png) with Pillow.

Run once when the design changes; the PNGs are committed so that neither the server nor
the package build needs Pillow: ``python3 scripts/icons.py``.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parents[1] / "src" / "trashcards" / "web" / "static" / "icons"
FELT = (15, 74, 54)
CARD = (255, 253, 246)
INK = (20, 24, 22)


def draw(size: int, maskable: bool) -> Image.Image:
    """A white card with a spade on green felt; a maskable icon keeps the card inside the
    safe circle (80 % of the side)."""
    image = Image.new("RGB", (size, size), FELT)
    pen = ImageDraw.Draw(image)
    inset = 0.22 if maskable else 0.12
    w = size * (1 - 2 * inset) * 0.72
    h = size * (1 - 2 * inset)
    x0, y0 = (size - w) / 2, (size - h) / 2
    pen.rounded_rectangle((x0, y0, x0 + w, y0 + h), radius=size * 0.06, fill=CARD)
    cx, cy, r = size / 2, size / 2 - h * 0.04, w * 0.26
    pen.ellipse((cx - r - r * 0.55, cy - r * 0.2, cx - r * 0.55 + r, cy + r * 0.8), fill=INK)
    pen.ellipse((cx + r * 0.55 - r, cy - r * 0.2, cx + r * 0.55 + r, cy + r * 0.8), fill=INK)
    pen.polygon([(cx, cy - r * 1.5), (cx - r * 1.52, cy + r * 0.35),
                 (cx + r * 1.52, cy + r * 0.35)], fill=INK)
    pen.polygon([(cx, cy + r * 0.3), (cx - r * 0.6, cy + r * 1.5),
                 (cx + r * 0.6, cy + r * 1.5)], fill=INK)
    return image


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        draw(size, False).save(OUT / f"icon-{size}.png", optimize=True)
    draw(512, True).save(OUT / "maskable-512.png", optimize=True)
    draw(180, False).save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()
