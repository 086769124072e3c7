"""Draw the app icons of the web app manifest (static/icons/*.png) with Pillow.

Our own drawing, the same figure as static/favicon.svg: a green hexagon with a yellow paw.
Run after changing the figure and commit the PNGs (the server does not draw them):

    .venv/bin/python scripts/make_icons.py

- icon-192.png, icon-512.png: the hexagon on a transparent background ("purpose": "any");
- icon-maskable-512.png: the paw on a full-bleed green square, kept inside the central 80 %
  circle that a launcher's mask may leave ("purpose": "maskable").
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN, DARK, YELLOW = (47, 107, 79, 255), (28, 67, 49, 255), (244, 211, 94, 255)
SCALE = 4  # drawn larger, then reduced: smooth edges


def paw(draw: ImageDraw.ImageDraw, unit: float, ox: float = 0.0, oy: float = 0.0) -> None:
    """The paw of favicon.svg (a 64-unit square), ``unit`` pixels per unit."""
    def circle(cx, cy, rx, ry):
        draw.ellipse([(ox + (cx - rx) * unit, oy + (cy - ry) * unit),
                      (ox + (cx + rx) * unit, oy + (cy + ry) * unit)], fill=YELLOW)
    circle(32, 40, 10, 8)
    for cx, cy in ((19.5, 29), (27, 21.5), (37, 21.5), (44.5, 29)):
        circle(cx, cy, 4.5, 4.5)


def plain(size: int) -> Image.Image:
    big = size * SCALE
    img = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    u = big / 64
    hexagon = [(18, 4), (46, 4), (62, 32), (46, 60), (18, 60), (2, 32)]
    draw.polygon([(x * u, y * u) for x, y in hexagon], fill=GREEN, outline=DARK,
                 width=max(1, round(3 * u)))
    paw(draw, u)
    return img.resize((size, size), Image.LANCZOS)


def maskable(size: int) -> Image.Image:
    big = size * SCALE
    img = Image.new("RGBA", (big, big), GREEN)
    draw = ImageDraw.Draw(img)
    # the paw spans about 36 x 35 units: at 0.6 of the square it stays inside the safe circle
    u = big * 0.6 / 40
    paw(draw, u, ox=big / 2 - 32 * u, oy=big / 2 - 31 * u)
    return img.resize((size, size), Image.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        plain(size).save(OUT / f"icon-{size}.png", optimize=True)
    maskable(512).save(OUT / "icon-maskable-512.png", optimize=True)
    print("wrote", ", ".join(sorted(p.name for p in OUT.glob("*.png"))))


if __name__ == "__main__":
    main()
