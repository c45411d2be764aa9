"""Fonts for names in every script: a fallback chain chosen per character.

Names are drawn as the players wrote them: Latin with diacritics, Greek and Cyrillic (Noto
Sans), Arabic and Hebrew (Noto Sans Arabic / Hebrew, shaped and ordered right to left by
Pillow's libraqm layout when it is available), Chinese, Japanese and Korean (Noto Sans CJK) and
emoji (Noto Color Emoji). The fonts come from Debian packages (fonts-noto-core,
fonts-noto-cjk, fonts-noto-color-emoji) that ``./dev``, ``.ci/run`` and the Dockerfile install;
nothing is downloaded at run time. Missing fonts are skipped; Pillow's own font closes the
chain. A character no font can draw is shown as a box (□, else "?") and logged once.
"""

from __future__ import annotations

import logging
import math
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Final

import wcwidth
from PIL import Image, ImageDraw, ImageFont, features

from pictures.palette import RGB
from pictures.tilecache import MiB, TileCache, image_bytes

log = logging.getLogger(__name__)

FONT_DIRS: Final = (
    Path("/usr/share/fonts/truetype/noto"),
    Path("/usr/share/fonts/opentype/noto"),
    Path("/usr/share/fonts/truetype/dejavu"),
    Path("/usr/share/fonts/noto"),  # other distributions
    Path("/usr/share/fonts/google-noto"),
)
REGULAR: Final = (
    "NotoSans-Regular.ttf",
    "NotoSansArabic-Regular.ttf",
    "NotoSansHebrew-Regular.ttf",
    "NotoSansCJK-Regular.ttc",
    "NotoColorEmoji.ttf",
    "DejaVuSans.ttf",
)
BOLD: Final = {
    "NotoSans-Regular.ttf": "NotoSans-Bold.ttf",
    "NotoSansArabic-Regular.ttf": "NotoSansArabic-Bold.ttf",
    "NotoSansHebrew-Regular.ttf": "NotoSansHebrew-Bold.ttf",
    "NotoSansCJK-Regular.ttc": "NotoSansCJK-Bold.ttc",
    "DejaVuSans.ttf": "DejaVuSans-Bold.ttf",
}
BITMAP_SIZE: Final = 109
"""Noto Color Emoji holds bitmaps of this size only: drawn at it, then scaled."""
MISSING: Final = "□"
ELLIPSIS: Final = "…"
NOTDEF: Final = "\U0010fffd"
"""A private-use character no font maps: it draws the font's missing-glyph box (.notdef)."""
RAQM: Final = features.check("raqm") is True
"""Whether Pillow shapes text with libraqm (Arabic joining, right-to-left order)."""

_local = threading.local()
_warned: set[str] = set()
_lock = threading.Lock()


@dataclass(frozen=True, slots=True)
class FontFile:
    """One font of the chain: its file, and whether it is a colour bitmap font."""

    path: str
    bold_path: str
    bitmap: bool

    @property
    def name(self) -> str:
        """The file name, e.g. ``NotoSans-Regular.ttf`` (``default`` for Pillow's own)."""
        return Path(self.path).name if self.path else "default"


DEFAULT: Final = FontFile("", "", False)
"""Pillow's built-in font: always there, covers ASCII."""


def _find(name: str) -> str | None:
    for d in FONT_DIRS:
        p = d / name
        if p.is_file():
            return str(p)
    return None


@lru_cache(maxsize=1)
def chain() -> tuple[FontFile, ...]:
    """The fonts found on this machine, in the order they are tried; Pillow's font last."""
    out = []
    for name in REGULAR:
        path = _find(name)
        if path:
            bold = _find(BOLD.get(name, "")) if name in BOLD else None
            out.append(FontFile(path, bold or path, name == "NotoColorEmoji.ttf"))
    return (*out, DEFAULT)


def primary() -> FontFile:
    """The first font of the chain (Noto Sans when installed): digits and Latin text."""
    return chain()[0]


def load(f: FontFile, size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    """``f`` at ``size`` pixels (the bitmap emoji font at its one size), cached per thread."""
    cache: dict[tuple[str, int, bool], ImageFont.FreeTypeFont] | None = getattr(
        _local, "fonts", None)
    if cache is None:
        cache = _local.fonts = {}
    size = BITMAP_SIZE if f.bitmap else size
    key = (f.path, size, bold)
    cached = cache.get(key)
    if cached is not None:
        return cached
    font: ImageFont.FreeTypeFont
    if not f.path:
        font = ImageFont.load_default(size=size)  # type: ignore[assignment]
    else:
        font = ImageFont.truetype(f.bold_path if bold else f.path, size)
    cache[key] = font
    return font


def _ink(f: FontFile, text: str) -> bytes:
    font = load(f, 32)
    image = Image.new("RGBA", (8 + 2 * BITMAP_SIZE * max(1, len(text)), 2 * BITMAP_SIZE))
    ImageDraw.Draw(image).text((4, 4), text, font=font, fill=(0, 0, 0, 255),
                               embedded_color=f.bitmap)
    box = image.getbbox()
    return b"" if box is None else repr(box).encode() + image.crop(box).tobytes()


@lru_cache(maxsize=8192)
def has_glyph(f: FontFile, char: str) -> bool:
    """Whether ``f`` draws ``char`` with a glyph of its own (not its missing-glyph box)."""
    if not f.path:
        return " " <= char <= "~" or char == ELLIPSIS
    ink = _ink(f, char)
    return bool(ink) and ink != _ink(f, NOTDEF)


def _invisible(char: str) -> bool:
    return unicodedata.category(char) in ("Zs", "Cf", "Mn", "Me", "Cc")


def covering(char: str) -> FontFile | None:
    """The first font of the chain that has a glyph for ``char``, or None."""
    return next((f for f in chain() if has_glyph(f, char)), None)


def _warn_once(char: str) -> None:
    with _lock:
        if char in _warned:
            return
        _warned.add(char)
    log.warning("No installed font can draw %r (U+%04X): drawn as %s", char, ord(char), MISSING)


def _base(grapheme: str) -> str:
    """The character that decides a grapheme's font (its first visible one)."""
    return next((c for c in grapheme if not _invisible(c)), grapheme[0])


def runs(text: str) -> list[tuple[FontFile, str]]:
    """``text`` split into runs of graphemes that one font draws, in logical order.

    Spaces and combining marks stay with the run before them; a grapheme no font covers
    becomes :data:`MISSING` (logged once per character).
    """
    out: list[tuple[FontFile, str]] = []
    for g in wcwidth.iter_graphemes(text):
        base = _base(g)
        if unicodedata.category(base) == "Cf" and not out:
            continue  # a leading format mark (bidi isolate, joiner): nothing to draw
        if _invisible(base) and out and not (out[-1][0].bitmap and base.isspace()):
            f, t = out[-1]
            out[-1] = (f, t + g)
            continue
        if base.isspace():  # a space after an emoji: the text font's width
            text_font = primary()
            if out and out[-1][0] == text_font:
                out[-1] = (text_font, out[-1][1] + g)
            else:
                out.append((text_font, g))
            continue
        emoji = "\ufe0f" in g or "\u200d" in g
        found: FontFile | None = None
        if emoji:
            found = next((f for f in chain() if f.bitmap and has_glyph(f, base)), None)
        found = found or covering(base)
        if found is None:
            _warn_once(base)
            found = covering(MISSING) or DEFAULT
            g = MISSING if found is not DEFAULT else "?"
        if out and out[-1][0] == found:
            out[-1] = (found, out[-1][1] + g)
        else:
            out.append((found, g))
    return out


def _rtl(text: str) -> bool:
    for c in text:
        kind = unicodedata.bidirectional(c)
        if kind in ("R", "AL"):
            return True
        if kind == "L":
            return False
    return False


@dataclass(frozen=True, slots=True)
class Tile:
    """A line of text drawn on a transparent tile: where its baseline is and how wide it is."""

    image: Image.Image
    baseline: int
    """Pixels from the tile's top to the baseline."""
    ascent: int
    descent: int


def _run_tile(f: FontFile, text: str, size: int, fill: RGB, bold: bool) -> Tile:
    font = load(f, size, bold)
    scale = size / BITMAP_SIZE * 1.1 if f.bitmap else 1.0
    ascent, descent = font.getmetrics()
    width = math.ceil(font.getlength(text)) + 2
    pad = 4
    image = Image.new("RGBA", (width + 2 * pad, ascent + descent + 2 * pad), (0, 0, 0, 0))
    ImageDraw.Draw(image).text((pad, pad + ascent), text, font=font, fill=(*fill, 255),
                               anchor="ls", embedded_color=f.bitmap)
    box = image.getbbox()
    if box is not None:  # keep the advance, crop nothing vertically
        image = image.crop((min(box[0], pad), 0, max(box[2], width + pad), image.height))
    if scale != 1.0:
        image = image.resize((max(1, round(image.width * scale)),
                              max(1, round(image.height * scale))), Image.Resampling.LANCZOS)
    return Tile(image, round((pad + ascent) * scale), round(ascent * scale),
                round(descent * scale))


def _compose(tiles: Sequence[Tile]) -> Tile:
    above = max(t.baseline for t in tiles)
    below = max(t.image.height - t.baseline for t in tiles)
    width = sum(t.image.width for t in tiles)
    image = Image.new("RGBA", (max(1, width), above + below), (0, 0, 0, 0))
    x = 0
    for t in tiles:
        image.alpha_composite(t.image, (x, above - t.baseline))
        x += t.image.width
    return Tile(image, above, max(t.ascent for t in tiles), max(t.descent for t in tiles))


def _layout(text: str, size: int, fill: RGB, bold: bool) -> Tile:
    parts = runs(text) or [(primary(), " ")]
    tiles = [_run_tile(f, t, size, fill, bold) for f, t in parts]
    if _rtl(text):  # right-to-left name: its runs read from the right
        tiles.reverse()
    return _compose(tiles)


REUSED_BUDGET: Final = 5 * MiB
"""Bytes of the text tiles every picture reuses (digits, headings, labels): about 2 MiB a
language once its pictures have shown every round and score (9 MiB for all five)."""
ONE_OFF_BUDGET: Final = 5 * MiB // 2
"""Bytes of the text tiles of one game each (titles, names): those of the last 20 or so games
drawn (about 110 KiB a game); an older game's are drawn again (a few ms)."""
TileKey = tuple[str, int, RGB, bool, int | None]
_REUSED: Final[TileCache[TileKey, Tile]] = TileCache(
    "text tiles, reused", REUSED_BUDGET, lambda tile: image_bytes(tile.image))
_ONE_OFF: Final[TileCache[TileKey, Tile]] = TileCache(
    "text tiles, one game's (titles, names)", ONE_OFF_BUDGET,
    lambda tile: image_bytes(tile.image))


def text_tile(text: str, size: int, fill: RGB, bold: bool = False,
              max_width: int | None = None, *, one_off: bool = False,
              keep: bool = True) -> Tile:
    """``text`` drawn in the fallback chain at ``size`` pixels, cut with an ellipsis to
    ``max_width`` pixels when given. ``one_off``: a text of one game (:mod:`pictures.tilecache`);
    ``keep=False``: drawn once and kept nowhere (the large digits of the emojis).
    """
    if not keep:
        return _cut_tile(text, size, fill, bold, max_width)
    cache = _ONE_OFF if one_off else _REUSED
    return cache.get((text, size, fill, bold, max_width),
                     lambda: _cut_tile(text, size, fill, bold, max_width))


def _cut_tile(text: str, size: int, fill: RGB, bold: bool, max_width: int | None) -> Tile:
    tile = _layout(text, size, fill, bold)
    if max_width is None or tile.image.width <= max_width:
        return tile
    graphemes = list(wcwidth.iter_graphemes(text))
    lo, hi = 0, len(graphemes)
    best = _layout(ELLIPSIS, size, fill, bold)
    while lo < hi:  # the longest prefix that fits with the ellipsis
        mid = (lo + hi + 1) // 2
        cand = _layout("".join(graphemes[:mid]).rstrip() + ELLIPSIS, size, fill, bold)
        if cand.image.width <= max_width:
            lo, best = mid, cand
        else:
            hi = mid - 1
    return best


def draw_line(image: Image.Image, xy: tuple[float, float], text: str, size: int, fill: RGB, *,
              anchor: str = "lm", bold: bool = False, max_width: int | None = None,
              one_off: bool = False, keep: bool = True) -> int:
    """Draw ``text`` with the fallback chain; ``anchor`` is l/m/r then m (middle of the
    ascent and descent) or s (baseline). Returns the drawn width in pixels. ``one_off`` and
    ``keep``: see :func:`text_tile`.
    """
    tile = text_tile(text, size, fill, bold, max_width, one_off=one_off, keep=keep)
    w = tile.image.width
    x = xy[0] - {"l": 0, "m": w / 2, "r": w}[anchor[0]]
    if anchor[1] == "s":
        y = xy[1] - tile.baseline
    else:
        y = xy[1] - tile.baseline + (tile.ascent - tile.descent) / 2
    if image.mode == "RGBA":
        image.alpha_composite(tile.image, (round(x), round(y)))
    else:
        image.paste(tile.image, (round(x), round(y)), tile.image)
    return w


def digit_height(size: int, bold: bool = True) -> int:
    """How tall the digits 0-9 are, in pixels, in the primary font at ``size``."""
    box = load(primary(), size, bold).getbbox("0123456789", anchor="ls")
    return round(box[3] - box[1])
