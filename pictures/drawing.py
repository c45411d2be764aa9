"""Dice and small icons, drawn at four times the size and scaled down for smooth edges.

A die is drawn from plain values (:data:`DieFace`): its colour, kind, sides and the value it
shows (None when it has not been rolled this round, printed as ``d12``). The body's shape tells
the sides (d6 rounded square, d8 diamond, d12 pentagon, d20 hexagon); the kind adds a mark:
sparkles and a gold rim on glitter dice (blue glitter, Cannon, Mercenary), a heart on pity dice,
horns on Mischief dice, a flash behind Cannon dice and a sword on Mercenary dice.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from typing import Final

from PIL import Image, ImageDraw

from pictures.palette import (
    BLACK,
    BLADE,
    BURST,
    COLUMN_COLORS,
    GLITTER_RIM,
    HEART,
    HILT,
    HORNS,
    RGB,
    SPARKLE,
    SWORD,
    WHITE,
    WINNER,
    WINNER_EDGE,
    ink_on,
    shade,
)
from pictures.text import draw_text

DieFace = tuple[str, str, int, int | None]
"""A die to draw: (colour, kind, sides, value shown or None when not rolled)."""
Box = tuple[int, int, int, int]
"""A rectangle: left, top, right, bottom (right and bottom excluded)."""

GLITTER_KINDS: Final = frozenset({"glitter", "cannon", "mercenary"})
SCALE: Final = 4
PAD: Final = 5
"""Room around a die body, in pixels, for horns, flash and sword."""

Point = tuple[float, float]
Painter = Callable[[ImageDraw.ImageDraw, float], None]


def _tile(size: tuple[int, int], paint: Painter) -> Image.Image:
    """An RGBA tile painted at SCALE times ``size`` and scaled down (anti-aliased edges)."""
    big = Image.new("RGBA", (size[0] * SCALE, size[1] * SCALE), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), SCALE)
    return big.resize(size, Image.Resampling.LANCZOS)


def _regular(cx: float, cy: float, r: float, corners: int, turn: float) -> list[Point]:
    return [
        (cx + r * math.cos(turn + 2 * math.pi * i / corners),
         cy + r * math.sin(turn + 2 * math.pi * i / corners))
        for i in range(corners)
    ]


def _star(cx: float, cy: float, outer: float, inner: float, points: int) -> list[Point]:
    out: list[Point] = []
    for i in range(points * 2):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + math.pi * i / points
        out.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return out


def _body(sides: int, x0: float, y0: float, d: float) -> list[Point] | None:
    """The outline of a die body of size ``d`` at (x0, y0); None for the rounded square."""
    cx, cy = x0 + d / 2, y0 + d / 2
    if sides == 6:
        return None
    if sides == 8:
        r = d / 2 + d * 0.1
        return [(cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)]
    if sides == 12:
        return _regular(cx, cy + d * 0.04, d * 0.58, 5, -math.pi / 2)
    if sides == 20:
        return _regular(cx, cy, d * 0.56, 6, -math.pi / 2)
    return _regular(cx, cy, d * 0.52, 24, 0.0)


def _sparkle_spots(sides: int) -> tuple[Point, ...]:
    if sides == 8:
        return ((0.17, 0.5), (0.83, 0.5), (0.5, 0.14))
    if sides in (12, 20):
        return ((0.2, 0.3), (0.8, 0.3), (0.5, 0.9))
    return ((0.2, 0.2), (0.8, 0.8), (0.82, 0.2))


def _heart(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: RGB) -> None:
    draw.ellipse((cx - 2 * r, cy - r, cx, cy + r), fill=fill)
    draw.ellipse((cx, cy - r, cx + 2 * r, cy + r), fill=fill)
    draw.polygon([(cx - 1.9 * r, cy + 0.4 * r), (cx + 1.9 * r, cy + 0.4 * r), (cx, cy + 2.4 * r)],
                 fill=fill)


def _sword(draw: ImageDraw.ImageDraw, x0: float, y0: float, d: float, s: float) -> None:
    """A sword behind the die, hilt out at the bottom left, blade out at the top right."""
    out = PAD * s * 0.95
    tip, pommel = (x0 + d + out, y0 - out), (x0 - out, y0 + d + out)
    draw.line([pommel, tip], fill=SWORD, width=round(s * 3.4))
    draw.line([pommel, tip], fill=BLADE, width=round(s * 1.6))
    gx, gy = x0 + d * 0.02, y0 + d * 0.98  # the crossguard, just outside the corner
    g = d * 0.2
    draw.line([(gx - g, gy - g), (gx + g, gy + g)], fill=HILT, width=round(s * 2.4))
    draw.line([pommel, (gx - d * 0.04, gy + d * 0.04)], fill=HILT, width=round(s * 2.4))


@lru_cache(maxsize=256)
def die_tile(color: str, kind: str, sides: int, size: int, dark_face: bool = False) -> Image.Image:
    """The body of a die (no value) as an RGBA tile of ``size + 2 * PAD`` pixels a side.

    ``dark_face`` adds the black face of a red die's negative values.
    """
    fill = COLUMN_COLORS.get(color, (160, 160, 160))
    glitter = kind in GLITTER_KINDS
    edge = GLITTER_RIM if glitter else shade(fill, 0.35)
    if color == "clear":
        edge = (130, 148, 162)

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        d = size * s
        x0 = y0 = PAD * s
        line = round(s * (2.2 if glitter else 1.3))
        if kind == "cannon":
            c = x0 + d / 2
            draw.polygon(_star(c, c, d / 2 + PAD * s, d * 0.4, 10), fill=BURST)
        if kind == "mercenary":
            _sword(draw, x0, y0, d, s)
        if kind == "mischief":
            for side in (-1, 1):
                bx = x0 + d / 2 + side * d * 0.3
                draw.polygon([(bx - side * d * 0.14, y0 + d * 0.12),
                              (bx + side * d * 0.14, y0 + d * 0.3),
                              (bx + side * d * 0.24, y0 - PAD * s * 0.9)], fill=HORNS)
        shape = _body(sides, x0, y0, d)
        if shape is None:
            draw.rounded_rectangle((x0, y0, x0 + d, y0 + d), radius=d * 0.22, fill=fill,
                                   outline=edge, width=line)
        else:
            draw.polygon(shape, fill=fill, outline=edge, width=line)
        if dark_face:
            c, rx, ry = x0 + d / 2, d * 0.36, d * 0.25
            draw.rounded_rectangle((c - rx, c - ry, c + rx, c + ry), radius=ry * 0.6, fill=BLACK)
        if glitter:
            for fx, fy in _sparkle_spots(sides):
                draw.polygon(_star(x0 + fx * d, y0 + fy * d, d * 0.13, d * 0.04, 4),
                             fill=SPARKLE)
        if kind == "pity":
            _heart(draw, x0 + d / 2, y0 + d * 0.12, d * 0.065, HEART)

    return _tile((size + 2 * PAD, size + 2 * PAD), paint)


def value_ink(color: str, value: int | None) -> RGB:
    """The colour of the number on a die (white on a negative red face's black)."""
    if value is not None and value < 0:
        return WHITE
    return ink_on(COLUMN_COLORS.get(color, (160, 160, 160)))


def draw_die(image: Image.Image, box: Box, face: DieFace) -> None:
    """Draw ``face`` with its body filling ``box`` (a square); marks may overflow by PAD."""
    color, kind, sides, value = face
    x0, y0, x1, _ = box
    size = x1 - x0
    tile = die_tile(color, kind, sides, size, value is not None and value < 0)
    image.paste(tile, (x0 - PAD, y0 - PAD), tile)
    cx, cy = x0 + size / 2, y0 + size / 2 + (size * 0.05 if sides == 12 else 0)
    if value is None:
        draw_text(image, (cx, cy), f"d{sides}", max(9, size * 10 // 28), value_ink(color, None))
    else:
        text = str(value)
        px = max(10, size * (13 if len(text) < 3 else 11) // 28)
        draw_text(image, (cx, cy), text, px, value_ink(color, value), bold=value >= 0)


@lru_cache(maxsize=16)
def panda_tile(size: int) -> Image.Image:
    """The panda token: a panda's face, ``size`` pixels wide."""

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        d = size * s
        ear = d * 0.17
        for ex in (d * 0.2, d * 0.8):
            draw.ellipse((ex - ear, d * 0.18 - ear, ex + ear, d * 0.18 + ear), fill=BLACK)
        draw.ellipse((d * 0.06, d * 0.12, d * 0.94, d * 0.96), fill=WHITE, outline=BLACK,
                     width=round(s * 1.2))
        for ex in (d * 0.33, d * 0.67):
            draw.ellipse((ex - d * 0.11, d * 0.4, ex + d * 0.11, d * 0.62), fill=BLACK)
            draw.ellipse((ex - d * 0.035, d * 0.46, ex + d * 0.035, d * 0.53), fill=WHITE)
        draw.ellipse((d * 0.44, d * 0.66, d * 0.56, d * 0.74), fill=BLACK)

    return _tile((size, size), paint)


_PIPS: Final[dict[int, tuple[Point, ...]]] = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.27, 0.27), (0.5, 0.5), (0.73, 0.73)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)),
    6: ((0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)),
}


@lru_cache(maxsize=16)
def pips_tile(pips: int, size: int) -> Image.Image:
    """A white d6 showing ``pips`` (1..6), ``size`` pixels wide: a pose number on the card."""

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        d = size * s
        draw.rounded_rectangle((s, s, d - s, d - s), radius=d * 0.22, fill=WHITE,
                               outline=(110, 110, 120), width=round(s * 1.2))
        r = d * 0.085
        for fx, fy in _PIPS.get(pips, ()):
            draw.ellipse((fx * d - r, fy * d - r, fx * d + r, fy * d + r), fill=BLACK)

    return _tile((size, size), paint)


@lru_cache(maxsize=16)
def crown_tile(size: int) -> Image.Image:
    """A small gold crown, ``size`` pixels wide, for winners."""

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        d = size * s
        pts = [(d * 0.06, d * 0.82), (d * 0.06, d * 0.3), (d * 0.3, d * 0.55), (d * 0.5, d * 0.16),
               (d * 0.7, d * 0.55), (d * 0.94, d * 0.3), (d * 0.94, d * 0.82)]
        draw.polygon(pts, fill=WINNER, outline=WINNER_EDGE, width=round(s * 1.4))
        for cx in (0.06, 0.5, 0.94):
            r = d * 0.07
            y = 0.3 if cx != 0.5 else 0.16
            draw.ellipse((d * cx - r, d * y - r, d * cx + r, d * y + r), fill=WINNER_EDGE)

    return _tile((size, size), paint)


def paste_icon(image: Image.Image, tile: Image.Image, xy: tuple[int, int]) -> None:
    """Paste an RGBA icon tile with its transparency."""
    image.paste(tile, xy, tile)


def cell(draw: ImageDraw.ImageDraw, box: Box, fill: RGB | None, outline: RGB | None = None,
         width: int = 1) -> None:
    """Fill a rectangle (``box`` right and bottom excluded), optionally outlined."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=outline, width=width)


def centre(box: Box) -> tuple[float, float]:
    """The middle of ``box``."""
    x0, y0, x1, y1 = box
    return ((x0 + x1) / 2, (y0 + y1) / 2)

