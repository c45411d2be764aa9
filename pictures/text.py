"""Fonts and text helpers: Pillow's built-in scalable font, nothing to install."""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Sequence
from typing import Final

from PIL import Image, ImageDraw, ImageFont

from pictures.palette import RGB
from pictures.tilecache import MiB, TileCache, image_bytes

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont

_local = threading.local()
ELLIPSIS = "…"
# The built-in font (Aileron) covers printable ASCII and a few signs; other characters would
# show as empty boxes, so other text is drawn with pictures.fonts.
_EXTRA = frozenset(ELLIPSIS)


def font(size: int) -> Font:
    """Pillow's default font at ``size`` pixels (one instance per thread and size)."""
    cache: dict[int, Font] | None = getattr(_local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    f = cache.get(size)
    if f is None:
        f = cache[size] = ImageFont.load_default(size=size)
    return f


def printable(text: str) -> str:
    """``text`` with accents removed and characters the font cannot draw left out."""
    folded = unicodedata.normalize("NFKD", text)
    kept = "".join(c for c in folded if (" " <= c <= "~") or c in _EXTRA)
    return " ".join(kept.split())


def player_name(name: str, seat: int) -> str:
    """A name as the player wrote it (on one line, spaces collapsed), drawn with the fallback
    chain of :mod:`pictures.fonts`; a seat number only for a name that is empty.
    """
    name = "".join(c for c in name if c not in BIDI_CONTROLS)
    return " ".join(name.split()) or f"#{seat + 1}"


def shown_names(names: Sequence[str]) -> list[str]:
    """Each name as :func:`player_name` shows it; two players of one name get their seat
    numbers (``Bo #2``, ``Bo #5``) to tell them apart.
    """
    shown = [player_name(name, seat) for seat, name in enumerate(names)]
    return [f"{name} #{seat + 1}" if shown.count(name) > 1 else name
            for seat, name in enumerate(shown)]


def highest(totals: Sequence[int]) -> list[int]:
    """The seats sharing the highest of ``totals`` (seat order): the winners."""
    return [seat for seat, total in enumerate(totals) if total == max(totals)]


def fit(text: str, f: Font, room: float) -> str:
    """``text``, cut short with an ellipsis when it is wider than ``room`` pixels."""
    if f.getlength(text) <= room:
        return text
    lo, hi = 0, len(text)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        if f.getlength(text[:mid].rstrip() + ELLIPSIS) <= room:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + ELLIPSIS


BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Invisible marks that order text in a message; a picture lays names out itself."""
BOLD_STROKE = 0.45


Mask = tuple[Image.Image, int, int]
MASK_BUDGET: Final = MiB // 4
"""Bytes of the reused masks (numbers, die labels, plain labels; one byte a pixel): under
0.2 MiB for all five languages."""
ONE_OFF_MASK_BUDGET: Final = MiB // 4
"""Bytes of the masks of one game each (a plain-ASCII title: about 6 KiB)."""
_MASKS: Final[TileCache[tuple[str, int, str, bool], Mask]] = TileCache(
    "text masks, reused", MASK_BUDGET, lambda m: image_bytes(m[0]))
_ONE_OFF_MASKS: Final[TileCache[tuple[str, int, str, bool], Mask]] = TileCache(
    "text masks, one game's (titles)", ONE_OFF_MASK_BUDGET, lambda m: image_bytes(m[0]))


def _mask(text: str, size: int, anchor: str, bold: bool, one_off: bool = False) -> Mask:
    """``text`` rendered once as a coverage mask, with its offset from the anchor point: pasting
    it is several times faster than drawing it every time (:mod:`pictures.tilecache`).
    """
    cache = _ONE_OFF_MASKS if one_off else _MASKS
    return cache.get((text, size, anchor, bold), lambda: _render_mask(text, size, anchor, bold))


def _render_mask(text: str, size: int, anchor: str, bold: bool) -> Mask:
    f = font(size)
    stroke = BOLD_STROKE if bold else 0
    x0, y0, x1, y1 = (int(v) for v in f.getbbox(text, anchor=anchor, stroke_width=stroke))
    x0, y0 = x0 - 1, y0 - 1
    mask = Image.new("L", (max(1, x1 - x0 + 2), max(1, y1 - y0 + 2)), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=f, fill=255, anchor=anchor,
                              stroke_width=stroke, stroke_fill=255)
    return mask, x0, y0


def draw_text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    *,
    anchor: str = "mm",
    bold: bool = False,
    one_off: bool = False,
) -> None:
    """Draw ``text`` in the default font of ``size`` at ``xy`` (``anchor`` as in Pillow);
    ``bold`` thickens the strokes. ``one_off``: a text of one game (see :func:`_mask`).
    """
    if not text:
        return
    mask, dx, dy = _mask(text, size, anchor, bold, one_off)
    x, y = round(xy[0]) + dx, round(xy[1]) + dy
    image.paste(fill, (x, y, x + mask.width, y + mask.height), mask)
