"""How a message reads on a phone: the widths of its code-block lines and how much of one
screen it takes.

Discord on a phone shows about 36 monospace columns in a code block before it wraps a line, and
about 40 lines of text on one screen. :func:`measure` reads a message payload (content, embeds
and the Text Displays of a Components V2 layout) as the phone would; the tests hold every
message of the bot to :data:`PHONE_COLUMNS`. :func:`screen_lines` adds what else a card shows:
its rows of buttons and its picture, in lines of text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any, Final

import discord

from ui.names import PHONE_COLUMNS, columns

PHONE_LINES: Final = 40
"""The most lines a round message may take (text, rows of buttons, picture): one screen."""
LINE_PX: Final = 18
"""A line of text on a phone, in the phone's pixels (40 lines: about 720 px, one screen)."""
ROW_LINES: Final = 2
"""A row of buttons or a select menu, in lines of text (some 40 px)."""
TEXT_DISPLAY: Final = 10
ACTION_ROW: Final = 1
_BLOCK: Final = re.compile(r"```[^\n`]*\n(.*?)```", re.S)

__all__ = ["PHONE_COLUMNS", "PHONE_LINES", "Measure", "code_lines", "displays", "measure",
           "picture_lines", "rows", "screen_lines", "texts"]


@dataclass(frozen=True, slots=True)
class Measure:
    """The code-block lines of a message and how much room the whole message takes."""

    code: tuple[str, ...]
    """Every line inside a code block (content, Text Displays, description, field values)."""
    lines: int
    """Lines of text: content, Text Displays, title, description, field names and values,
    footer."""

    @property
    def widest(self) -> int:
        """The widest code-block line, in monospace columns (0 without code blocks)."""
        return max((columns(line) for line in self.code), default=0)

    def too_wide(self, limit: int = PHONE_COLUMNS) -> list[str]:
        """The code-block lines wider than ``limit`` columns."""
        return [line for line in self.code if columns(line) > limit]


def code_lines(text: str) -> list[str]:
    """The lines inside the code blocks (```) of ``text``."""
    return [line for block in _BLOCK.findall(text or "")
            for line in block.rstrip("\n").split("\n")]


def texts(content: str | None, embed: discord.Embed | None) -> list[str]:
    """The pieces of text of a message as Discord shows them, in order."""
    out = [content or ""]
    if embed is not None:
        out += [embed.title or "", embed.description or ""]
        for f in embed.fields:
            out += [f.name or "", f.value or ""]
        out.append(embed.footer.text or "")
    return [t for t in out if t]


def _walk(components: Iterable[dict[str, Any]] | None) -> Iterator[dict[str, Any]]:
    for c in components or []:
        yield c
        yield from _walk(c.get("components"))
        if c.get("accessory"):
            yield c["accessory"]


def displays(payload: dict[str, Any]) -> list[str]:
    """The Text Displays of a message payload (a Components V2 layout), in order."""
    return [c.get("content") or "" for c in _walk(payload.get("components"))
            if c.get("type") == TEXT_DISPLAY]


def rows(payload: dict[str, Any]) -> int:
    """The rows of buttons and select menus of a message payload."""
    return sum(1 for c in _walk(payload.get("components")) if c.get("type") == ACTION_ROW)


def picture_lines(height_px: int) -> int:
    """A picture ``height_px`` tall, shown at half size on a phone, in lines of text."""
    return -(-height_px // 2 // LINE_PX)


def screen_lines(payload: dict[str, Any], picture_px: int = 0) -> int:
    """The lines of one screen a message takes: its text, its rows (:data:`ROW_LINES` each)
    and its picture (``picture_px`` tall, drawn at twice the phone's size)."""
    shown = measure(payload.get("content"),
                    [discord.Embed.from_dict(e) for e in payload.get("embeds") or []],
                    displays(payload))
    return shown.lines + ROW_LINES * rows(payload) + picture_lines(picture_px)


def measure(content: str | None, embeds: Iterable[discord.Embed | None] = (),
            shown: Iterable[str] = ()) -> Measure:
    """The code-block lines and the line count of a message (its content, embeds and Text
    Displays ``shown``)."""
    pieces = [t for e in (list(embeds) or [None]) for t in texts(None, e)]
    pieces += [t for t in shown if t]
    if content:
        pieces.insert(0, content)
    code = [line for t in pieces for line in code_lines(t)]
    lines = sum(len(t.strip("\n").split("\n")) for t in pieces)
    return Measure(tuple(code), lines)
