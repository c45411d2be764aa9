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

from pictures.fonts import digit_height, draw_line, text_tile
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

DieFace = tuple[str, str, int, int | None]
"""A die to draw: (colour, kind, sides, value shown or None when not rolled)."""
Box = tuple[int, int, int, int]
"""A rectangle: left, top, right, bottom (right and bottom excluded)."""

GLITTER_KINDS: Final = frozenset({"glitter", "cannon", "mercenary"})
SCALE: Final = 4
BODY: Final = 0.78
"""The share of a die image's side its body takes; the margin around it holds the kind's
marks (horns, flash, sword), so that every mark stays inside the image."""
POSE_BODY: Final = 0.9
"""The share of a Posing Pandas die image its body takes (no marks around it)."""
VALUE_FILL: Final = 0.72
"""The font size of a die's value as a share of its body (smaller when the text is wide)."""

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


def _sword(draw: ImageDraw.ImageDraw, x0: float, y0: float, d: float, margin: float) -> None:
    """A sword behind the die, hilt out at the bottom left, blade out at the top right."""
    out = margin * 0.45
    tip, pommel = (x0 + d + out, y0 - out), (x0 - out, y0 + d + out)
    draw.line([pommel, tip], fill=SWORD, width=max(1, round(d * 0.13)))
    draw.line([pommel, tip], fill=BLADE, width=max(1, round(d * 0.07)))
    gx, gy = x0 + d * 0.02, y0 + d * 0.98  # the crossguard, just outside the corner
    g = d * 0.2
    draw.line([(gx - g, gy - g), (gx + g, gy + g)], fill=HILT, width=max(1, round(d * 0.07)))
    draw.line([pommel, (gx - d * 0.04, gy + d * 0.04)], fill=HILT,
              width=max(1, round(d * 0.07)))


def die_edge(color: str, kind: str) -> RGB:
    """The outline of a die's body: a gold rim on glitter dice, else a darker shade."""
    if kind in GLITTER_KINDS:
        return GLITTER_RIM
    if color == "clear":
        return (118, 136, 152)
    return shade(COLUMN_COLORS.get(color, (160, 160, 160)), 0.35)


KEPT_SIZE: Final = 64
"""Dice images up to this size are kept (the pictures' dice); larger ones (the emojis, drawn
once) are drawn afresh (each cached function's ``__wrapped__``), and so are their values."""


@lru_cache(maxsize=256)
def die_body(color: str, kind: str, sides: int, size: int, dark_face: bool = False
             ) -> Image.Image:
    """A die without its value on a transparent square of ``size`` pixels: the body (its
    shape tells the sides), centred, :data:`BODY` of the side, and its kind's marks around it.

    ``dark_face`` adds the black face of a red die's negative values.
    """
    fill = COLUMN_COLORS.get(color, (160, 160, 160))
    glitter = kind in GLITTER_KINDS
    edge = die_edge(color, kind)

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        full = size * s
        d = full * BODY
        margin = (full - d) / 2
        x0 = y0 = margin
        line = max(1, round(d * (0.075 if glitter else 0.045)))
        c = x0 + d / 2
        if kind == "cannon":
            draw.polygon(_star(c, c, full / 2, d * 0.4, 10), fill=BURST)
        if kind == "mercenary":
            _sword(draw, x0, y0, d, margin)
        if kind == "mischief":
            for side in (-1, 1):
                bx = c + side * d * 0.28
                draw.polygon([(bx - side * d * 0.17, y0 + d * 0.14),
                              (bx + side * d * 0.17, y0 + d * 0.34),
                              (bx + side * d * 0.22, y0 - margin * 0.9)], fill=HORNS)
        shape = _body(sides, x0, y0, d)
        if shape is None:
            draw.rounded_rectangle((x0, y0, x0 + d, y0 + d), radius=d * 0.22, fill=fill,
                                   outline=edge, width=line)
        else:
            draw.polygon(shape, fill=fill, outline=edge, width=line)
        if dark_face:
            cy = c + (d * 0.04 if sides == 12 else 0)
            rx, ry = d * 0.4, d * 0.27
            draw.rounded_rectangle((c - rx, cy - ry, c + rx, cy + ry), radius=ry * 0.6,
                                   fill=BLACK)
        if glitter:
            for fx, fy in _sparkle_spots(sides):
                draw.polygon(_star(x0 + fx * d, y0 + fy * d, d * 0.13, d * 0.04, 4),
                             fill=SPARKLE)
        if kind == "pity":
            _heart(draw, c, y0 + d * 0.1, d * 0.065, HEART)

    return _tile((size, size), paint)


def die_label(sides: int, value: int | None) -> str:
    """What a die shows: its value, or its size (``d12``) when not rolled."""
    return f"d{sides}" if value is None else str(value)


def value_ink(color: str, value: int | None) -> RGB:
    """The colour of the number on a die (white on a negative red face's black)."""
    if value is not None and value < 0:
        return WHITE
    return ink_on(COLUMN_COLORS.get(color, (160, 160, 160)))


_ROOM: Final[dict[int, float]] = {6: 0.86, 8: 0.7, 12: 0.84, 20: 0.84}
"""How wide a value may be on each body, as a share of the body (a diamond is narrow)."""


@lru_cache(maxsize=1024)
def value_size(text: str, sides: int, body: int) -> int:
    """The font size of ``text`` on a body of ``body`` pixels: :data:`VALUE_FILL` of the body
    for a value (half the body for a size label, ``d12``), smaller until it fits the body's
    shape.
    """
    label = text.startswith("d")
    size = max(6, round(body * (0.5 if label or len(text) > 2 else VALUE_FILL)))
    room = body * _ROOM.get(sides, 0.8)
    while size > 6 and _ink_width(text, size, body <= KEPT_SIZE) > room:
        size -= 1
    return size


def _ink_width(text: str, size: int, keep: bool) -> int:
    box = text_tile(text, size, BLACK, True, keep=keep).image.getbbox()
    return 0 if box is None else box[2] - box[0]


@lru_cache(maxsize=64)
def digit_middle(size: int) -> float:
    """How far above the baseline the middle of the digits is, at ``size`` (bold)."""
    return digit_height(size, True) / 2


@lru_cache(maxsize=512)
def die_image(face: DieFace, size: int) -> Image.Image:
    """The die ``face`` on a transparent square of ``size`` pixels: body, marks and its value
    (or ``d12`` when not rolled). The pictures and the die emojis draw dice with it.
    """
    color, kind, sides, value = face
    keep = size <= KEPT_SIZE
    dark = value is not None and value < 0
    body_image = die_body if keep else die_body.__wrapped__
    image = body_image(color, kind, sides, size, dark).copy()
    text = die_label(sides, value)
    body = size * BODY
    px = value_size(text, sides, round(body))
    cx = size / 2
    cy = size / 2 + (body * 0.04 if sides == 12 else 0)
    draw_line(image, (cx, cy + digit_middle(px)), text, px, value_ink(color, value),
              anchor="ms", bold=True, keep=keep)
    return image


def die_tile_size(body: int) -> int:
    """The side of a die image whose body is ``body`` pixels."""
    return round(body / BODY)


def draw_die(image: Image.Image, box: Box, face: DieFace) -> None:
    """Draw ``face`` with its body filling ``box`` (a square); its marks may spill around."""
    x0, y0, x1, y1 = box
    tile = die_image(face, die_tile_size(x1 - x0))
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    image.paste(tile, (round(cx - tile.width / 2), round(cy - tile.height / 2)), tile)


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
POSE_FILL: Final[RGB] = WHITE
POSE_EDGE: Final[RGB] = (110, 110, 120)
HELD_FILL: Final[RGB] = (38, 38, 46)
"""A held Posing Pandas die is drawn inverted: dark, white pips, a gold rim."""


@lru_cache(maxsize=64)
def pose_die_image(pips: int, size: int, held: bool = False) -> Image.Image:
    """A Posing Pandas die showing ``pips`` (1..6, the pose) on a transparent square of
    ``size`` pixels: white with black pips, or inverted when ``held``. The score card's pose
    rows, its dice and the pose emojis draw it.
    """

    def paint(draw: ImageDraw.ImageDraw, s: float) -> None:
        full = size * s
        d = full * POSE_BODY
        o = (full - d) / 2
        fill, edge, dot = (HELD_FILL, WINNER, WHITE) if held else (POSE_FILL, POSE_EDGE, BLACK)
        draw.rounded_rectangle((o, o, o + d, o + d), radius=d * 0.22, fill=fill, outline=edge,
                               width=max(1, round(d * (0.08 if held else 0.045))))
        r = d * 0.095
        for fx, fy in _PIPS.get(pips, ()):
            x, y = o + fx * d, o + fy * d
            draw.ellipse((x - r, y - r, x + r, y + r), fill=dot)

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



def clear_caches() -> None:
    """Forget every die and icon drawn so far (tests: a picture drawn cold)."""
    for cached in (die_body, value_size, digit_middle, die_image, panda_tile, pose_die_image,
                   crown_tile):
        cached.cache_clear()
