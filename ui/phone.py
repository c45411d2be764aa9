"""How a message reads on a phone: the widths of its code-block lines and its line count.

Discord on a phone shows about 36 monospace columns in a code block before it wraps a line, and
about 40 lines of text on one screen. :func:`measure` reads a message payload (content and
embed) as the phone would; the tests hold every message of the bot to :data:`PHONE_COLUMNS`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

import discord

from ui.names import PHONE_COLUMNS, columns

PHONE_LINES: Final = 40
"""The most lines of text (content and embed) a round message may take."""
_BLOCK: Final = re.compile(r"```[^\n`]*\n(.*?)```", re.S)

__all__ = ["PHONE_COLUMNS", "PHONE_LINES", "Measure", "code_lines", "measure", "texts"]


@dataclass(frozen=True, slots=True)
class Measure:
    """The code-block lines of a message and how much room the whole message takes."""

    code: tuple[str, ...]
    """Every line inside a code block (content, description, field values)."""
    lines: int
    """Lines of text: content, title, description, field names and values, footer."""

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


def measure(content: str | None, embeds: Iterable[discord.Embed | None] = ()) -> Measure:
    """The code-block lines and the line count of a message (its content and embeds)."""
    pieces = [t for e in (list(embeds) or [None]) for t in texts(None, e)]
    if content:
        pieces.insert(0, content)
    code = [line for t in pieces for line in code_lines(t)]
    lines = sum(len(t.strip("\n").split("\n")) for t in pieces)
    return Measure(tuple(code), lines)
