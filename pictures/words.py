"""The words on the pictures, in the game's language.

Pictures stay plain (values in, PNG out): the Discord layer passes a ``words`` callable (its
translator: ``words("Round {n} of {rounds}", n=3, rounds=10)``) with the data; :func:`english`
is the default. :func:`draw_label` draws a label in Pillow's own font when it is plain ASCII
and with the fallback chain of :mod:`pictures.fonts` otherwise, so that accents and
Japanese glyphs are drawn.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from pictures.fonts import draw_line
from pictures.palette import INK, MUTED, RGB
from pictures.text import draw_text, fit, font, printable

Words = Callable[..., str]
"""``words(msgid, **params)``: an English label in the picture's language, filled."""
Plural = Callable[..., str]
"""``ngettext(singular, plural, n, **params)``: the label's form for ``n`` in the picture's
language (its plural rule), ``{n}`` and the ``{placeholders}`` filled."""


def N_(msgid: str) -> str:  # noqa: N802 - gettext's marker name
    """Mark a label for the catalogue (it is translated where it is drawn)."""
    return msgid


def english(msgid: str, **params: Any) -> str:
    """The label as written (English), its ``{placeholders}`` filled."""
    return msgid.format(**params) if params else msgid


def english_plural(singular: str, plural: str, n: int, **params: Any) -> str:
    """The English form for ``n`` (singular for 1), filled."""
    return (singular if n == 1 else plural).format(n=n, **params)


def draw_label(image: Image.Image, xy: tuple[float, float], text: str, size: int, fill: RGB,
               *, anchor: str = "mm", bold: bool = False, room: float | None = None,
               one_off: bool = False) -> None:
    """Draw a label at ``xy`` (``anchor`` l/m/r then m), cut to ``room`` pixels if given
    (``one_off``: :func:`pictures.fonts.text_tile`).
    """
    if printable(text) == text:
        shown = fit(text, font(size), room) if room is not None else text
        draw_text(image, xy, shown, size, fill, anchor=anchor, bold=bold, one_off=one_off)
    else:
        draw_line(image, xy, text, size, fill, anchor=anchor, bold=bold,
                  max_width=None if room is None else round(room), one_off=one_off)


def draw_title_bar(image: Image.Image, y: float, left: int, right: int, title: str,
                   title_size: int, status: str, status_size: int) -> None:
    """A picture's title bar at height ``y``: ``status`` muted, right-aligned at ``right``,
    and ``title`` in bold from ``left``, cut to the room the status leaves.
    """
    draw_label(image, (right, y), status, status_size, MUTED, anchor="rm")
    room = right - left - round(label_width(status, status_size)) - 16
    draw_label(image, (left, y), title, title_size, INK, anchor="lm", bold=True, room=room,
               one_off=True)


def label_width(text: str, size: int) -> float:
    """How wide :func:`draw_label` draws ``text``, in pixels."""
    if printable(text) == text:
        return font(size).getlength(text)
    from pictures.fonts import text_tile

    return float(text_tile(text, size, (0, 0, 0)).image.width)
