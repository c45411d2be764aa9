"""What both charts share: matplotlib set up for the pictures, the series styles, and the step
from a drawn figure to an image.

Matplotlib draws the plot on its Agg canvas, never through pyplot (no GUI backend, no global
figure), with the Noto fonts of :mod:`pictures.fonts` registered in their fallback order. It
cannot load the bitmap emoji font, so names and titles are drawn by
:func:`pictures.fonts.draw_line` onto the finished canvas, as on the other pictures.

Rendering holds :data:`LOCK`: matplotlib's settings are process-wide, and each chart is drawn
inside its own fixed style (``default`` plus :func:`style`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Final, cast

import matplotlib
import matplotlib.style
from matplotlib import font_manager
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from pictures import fonts
from pictures.fonts import draw_line
from pictures.palette import GRID, INK, MUTED, PAPER, RGB, RULE, WHITE

WIDTH: Final = 800
"""Every chart is 800 px wide: a phone shows it at about 400 px (half size)."""
DPI: Final = 200
"""Pixels per inch of the canvas: a point is 200/72 px."""
MARGIN: Final = 20

TICK_PX: Final = 28
"""The size of the tick numbers and axis labels, in pixels at 800 px wide (the round picture's
smallest digits are 25 at 780 px wide): at 400 px the digits are about 10 px tall."""
NAME_PX: Final = 30
"""The players' names."""
TITLE_PX: Final = 32
VALUE_PX: Final = 30
"""Totals and averages written beside the names or bars."""
DIGIT_SIZES: Final = (TICK_PX, NAME_PX, TITLE_PX, VALUE_PX)
"""Every font size a chart draws digits or letters with (see :mod:`pictures`)."""

LOCK: Final = threading.Lock()

OKABE_ITO: Final[tuple[RGB, ...]] = (
    (0, 114, 178),    # blue
    (213, 94, 0),     # vermillion
    (0, 158, 115),    # bluish green
    (204, 121, 167),  # reddish purple
    (230, 159, 0),    # orange
    (86, 180, 233),   # sky blue
    (20, 20, 24),     # black
)
"""Okabe and Ito's colour-blind-safe colours (Color Universal Design), less their yellow,
which is too pale on the paper background."""
MARKERS: Final = ("o", "s", "^", "D", "v", "P", "X", "h", "<", "*")
"""One marker per seat: with up to 10 players each line is told apart by its marker alone."""
SOLID: Final = "solid"
DASHED: Final = (0, (3.0, 1.6))


@dataclass(frozen=True, slots=True)
class Series:
    """How one player's line is drawn: colour, marker and line style."""

    color: RGB
    marker: str
    dash: Any


def series(seat: int) -> Series:
    """The style of ``seat``'s line: seven colours, then the same colours dashed, and a marker
    of its own for each of the ten seats.
    """
    colors = len(OKABE_ITO)
    return Series(OKABE_ITO[seat % colors], MARKERS[seat % len(MARKERS)],
                  SOLID if seat < colors else DASHED)


def rgb(color: RGB) -> tuple[float, float, float]:
    """A palette colour as matplotlib's 0..1 floats."""
    return (color[0] / 255, color[1] / 255, color[2] / 255)


def pt(px: float) -> float:
    """``px`` canvas pixels in points (matplotlib's unit for font sizes and line widths)."""
    return px * 72 / DPI


@lru_cache(maxsize=1)
def families() -> tuple[str, ...]:
    """The font families matplotlib tries, in the order of :func:`pictures.fonts.chain`.

    The chain's font files are registered with matplotlib's font manager on first use (the
    regular and bold of each); the bitmap emoji font is skipped (matplotlib cannot scale it).
    DejaVu Sans, which matplotlib ships, closes the list.
    """
    out: list[str] = []
    for f in fonts.chain():
        if not f.path or f.bitmap:
            continue
        for path in dict.fromkeys((f.path, f.bold_path)):
            font_manager.fontManager.addfont(path)
        name = font_manager.FontProperties(fname=f.path).get_name()
        if name not in out:
            out.append(name)
    if "DejaVu Sans" not in out:
        out.append("DejaVu Sans")
    return tuple(out)


def style() -> dict[str, Any]:
    """The settings every chart is drawn with (on top of matplotlib's defaults)."""
    return {
        "font.family": list(families()),
        "font.size": pt(TICK_PX),
        "text.color": rgb(INK),
        "text.parse_math": False,  # a label with "$" is text, not TeX
        "axes.facecolor": rgb(WHITE),
        "axes.edgecolor": rgb(RULE),
        "axes.labelcolor": rgb(MUTED),
        "axes.labelsize": pt(TICK_PX),
        "axes.linewidth": pt(2),
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.grid": True,
        "axes.axisbelow": True,
        "axes.unicode_minus": True,
        "grid.color": rgb(GRID),
        "grid.linewidth": pt(1.5),
        "xtick.color": rgb(RULE),
        "ytick.color": rgb(RULE),
        "xtick.labelcolor": rgb(INK),
        "ytick.labelcolor": rgb(INK),
        "xtick.labelsize": pt(TICK_PX),
        "ytick.labelsize": pt(TICK_PX),
        "xtick.major.size": pt(8),
        "ytick.major.size": pt(8),
        "xtick.major.width": pt(2),
        "ytick.major.width": pt(2),
        "figure.facecolor": rgb(PAPER),
        "svg.hashsalt": "panda-royale",  # fixed, should a chart ever be saved as SVG
        "path.simplify": False,  # every point of a line is where it belongs
    }


@contextmanager
def chart_style() -> Iterator[None]:
    """Hold :data:`LOCK` and matplotlib's settings fixed to :func:`style` while drawing."""
    rc = style()  # registers the fonts on first use, before the lock is held
    with LOCK, matplotlib.style.context("default"), matplotlib.rc_context(cast(Any, rc)):
        yield


def figure(height: int) -> Figure:
    """An empty figure :data:`WIDTH` by ``height`` pixels on its own Agg canvas."""
    fig = Figure(figsize=(WIDTH / DPI, height / DPI), dpi=DPI, facecolor=rgb(PAPER))
    FigureCanvasAgg(fig)
    return fig


def axes(fig: Figure, left: float, top: float, right: float, bottom: float) -> Axes:
    """Axes whose plot area covers the pixel box (left, top, right, bottom), top-down."""
    width, height = fig.canvas.get_width_height()
    return fig.add_axes((left / width, 1 - bottom / height, (right - left) / width,
                         (bottom - top) / height))


Overlay = Callable[[Image.Image], None]
"""Drawing done with Pillow on the finished canvas (names, titles, values)."""


def heading(left: str, right: str, top: int, bottom: int, size: int,
            one_off: bool = False) -> Overlay:
    """A line across the chart between ``top`` and ``bottom``: ``left`` in bold, cut to the
    room ``right`` (muted, at the right, at most half the width; none when empty) leaves.
    ``one_off``: a heading of one game or member (:mod:`pictures.tilecache`).
    """
    def draw(image: Image.Image) -> None:
        y = (top + bottom) / 2
        room = WIDTH - 2 * MARGIN
        if right:
            room -= 16 + draw_line(image, (WIDTH - MARGIN, y), right, VALUE_PX - 4, MUTED,
                                   anchor="rm", max_width=(WIDTH - 2 * MARGIN) // 2,
                                   one_off=one_off)
        draw_line(image, (MARGIN, y), left, size, INK, bold=True, max_width=room,
                  one_off=one_off)
    return draw


def rendered(fig: Figure, overlays: Sequence[Overlay] = ()) -> Image.Image:
    """``fig`` drawn by Agg, then ``overlays`` drawn on it, as an RGB image."""
    canvas = fig.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    canvas.draw()  # type: ignore[no-untyped-call]
    pixels = bytes(canvas.buffer_rgba())  # type: ignore[no-untyped-call]
    size = canvas.get_width_height()
    image = Image.frombuffer("RGBA", size, pixels, "raw", "RGBA", 0, 1).convert("RGB")
    for draw in overlays:
        draw(image)
    return image

