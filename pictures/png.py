"""PNG encoding of the finished pictures: a 256-colour palette keeps the files small.

The palette keeps the flat colours exact (the named colours of :mod:`palette` and the colours
that cover most of the picture) and gives the remaining entries to the anti-aliased edges, chosen
by Pillow's fast octree quantizer from a sample of the pixels.
"""

from __future__ import annotations

import heapq
import io
from typing import Final

from PIL import Image

from pictures.palette import EXACT, RGB

MAX_BYTES: Final = 10 * 1024 * 1024
"""Discord's attachment limit; the pictures stay far below it."""
EXACT_ENTRIES: Final = 64
"""Palette entries kept for exact flat colours; the rest go to the edges."""
SAMPLE_STEP: Final = 3
"""The palette is chosen from every third pixel in each direction."""
COMPRESS_LEVEL: Final = 3
"""zlib's level for the PNG: a fast one, for files a little larger than at zlib's default (6).
A picture is drawn for every round scored in every game, so at hundreds of games the CPU
matters more than the few kilobytes."""


def _palette(image: Image.Image) -> Image.Image:
    sample = image.resize(
        (max(1, image.width // SAMPLE_STEP), max(1, image.height // SAMPLE_STEP)),
        Image.Resampling.NEAREST,
    )
    exact: list[RGB] = list(dict.fromkeys(EXACT))
    counted = sample.getcolors(maxcolors=sample.width * sample.height) or []
    seen = set(exact)
    for _, color in heapq.nlargest(EXACT_ENTRIES + len(exact), counted):
        if len(exact) >= EXACT_ENTRIES:
            break
        rgb = (int(color[0]), int(color[1]), int(color[2]))  # type: ignore[index]
        if rgb not in seen:
            seen.add(rgb)
            exact.append(rgb)
    rest = sample.quantize(256 - len(exact), method=Image.Quantize.FASTOCTREE,
                           dither=Image.Dither.NONE)
    edges = (rest.getpalette() or [])[: 3 * (256 - len(exact))]
    entries = [v for rgb in exact for v in rgb] + edges
    holder = Image.new("P", (1, 1))
    holder.putpalette(entries + [0] * (768 - len(entries)))
    return holder


def to_png(image: Image.Image) -> bytes:
    """``image`` (RGB) as palette PNG bytes, compressed at :data:`COMPRESS_LEVEL`."""
    small = image.quantize(palette=_palette(image), dither=Image.Dither.NONE)
    buf = io.BytesIO()
    small.save(buf, "PNG", compress_level=COMPRESS_LEVEL)
    return buf.getvalue()
