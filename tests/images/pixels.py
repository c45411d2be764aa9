"""Reading the rendered PNGs back: decode, sample and count colours."""

from __future__ import annotations

import io

from PIL import Image

from pictures.drawing import Box
from pictures.palette import RGB

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def decode(png: bytes) -> Image.Image:
    """The PNG as an RGB image."""
    return Image.open(io.BytesIO(png)).convert("RGB")


def close(a: tuple[int, ...], b: RGB, tol: int) -> bool:
    """Whether colours ``a`` and ``b`` differ by at most ``tol`` in every channel."""
    return all(abs(x - y) <= tol for x, y in zip(a[:3], b, strict=True))


def count_near(image: Image.Image, color: RGB, tol: int = 4, box: Box | None = None) -> int:
    """How many pixels (of ``box``, or of the whole image) are within ``tol`` of ``color``."""
    region = image.crop(box) if box else image
    colors: list[tuple[int, tuple[int, ...]]] | None = region.getcolors(  # type: ignore[assignment]
        maxcolors=region.width * region.height
    )
    assert colors is not None
    return sum(n for n, c in colors if close(c, color, tol))


def inset(box: Box, by: int) -> Box:
    """``box`` shrunk by ``by`` pixels on every side."""
    x0, y0, x1, y1 = box
    return (x0 + by, y0 + by, x1 - by, y1 - by)


def corners(box: Box, by: int = 3) -> list[tuple[int, int]]:
    """Four points ``by`` pixels inside the corners of ``box`` (clear of centred text)."""
    x0, y0, x1, y1 = box
    return [(x0 + by, y0 + by), (x1 - 1 - by, y0 + by), (x0 + by, y1 - 1 - by),
            (x1 - 1 - by, y1 - 1 - by)]
