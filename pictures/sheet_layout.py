"""Where everything sits on the Panda Royale score sheet: pure geometry, no drawing.

The sheet is one column made for a phone (shown at half its :data:`WIDTH`): a title bar, the
standings (one line per player: place, name, the seven column sums and the game total), then
the rounds played so far, one block each, one line per player: round number, name, the seven
coloured columns, the round total and the running total. Tests read the same rectangles to
sample pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pictures.drawing import Box

COLUMNS: Final = ("yellow", "purple", "blue", "red", "green", "clear", "pink")
ROUNDS: Final = 10

WIDTH: Final = 780
"""Twice the width a phone shows the sheet at."""
MARGIN: Final = 10
TITLE_H: Final = 52
HEAD_H: Final = 36
STANDING_H: Final = 40
LINE_H: Final = 34
BLOCK_GAP: Final = 6
SECTION_GAP: Final = 18

ROUND_W: Final = 40
NAME_W: Final = 170
COL_W: Final = 58
ROUND_TOTAL_W: Final = 70
RUNNING_W: Final = 74
FIELDS: Final = (ROUND_W, NAME_W, *([COL_W] * len(COLUMNS)), ROUND_TOTAL_W, RUNNING_W)
"""The widths of a line's fields: 0 round (or place), 1 name, 2-8 colours, 9 round total,
10 running total (the standings' game total takes 9 and 10)."""
TOKEN: Final = 26
_LEFT: Final = tuple(MARGIN + sum(FIELDS[:i]) for i in range(len(FIELDS) + 1))


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """The geometry of a sheet for ``players`` players showing rounds 1 to ``rounds``."""

    players: int
    rounds: int = ROUNDS

    # --- sizes
    @property
    def standings_top(self) -> int:
        """Top of the standings' header row."""
        return MARGIN + TITLE_H

    @property
    def grid_top(self) -> int:
        """Top of the rounds' header row."""
        return self.standings_top + HEAD_H + self.players * STANDING_H + SECTION_GAP

    @property
    def block_h(self) -> int:
        """Height of one round's block (one line per player)."""
        return self.players * LINE_H

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the picture."""
        bottom = self.block(self.rounds)[3] if self.rounds else self.grid_top + HEAD_H
        return WIDTH, bottom + MARGIN

    # --- x positions
    @staticmethod
    def field(index: int) -> tuple[int, int]:
        """Left and right of field ``index`` (see :data:`FIELDS`)."""
        return _LEFT[index], _LEFT[index + 1]

    @staticmethod
    def right() -> int:
        return _LEFT[-1]

    # --- the standings
    def standings_header(self, index: int) -> Box:
        """A header cell of the standings (``index`` as in :meth:`field`; 9 spans 9-10)."""
        x0, x1 = self.field(index)
        if index == 9:
            x1 = self.field(10)[1]
        return (x0, self.standings_top, x1, self.standings_top + HEAD_H)

    def standing_line(self, seat: int) -> Box:
        y = self.standings_top + HEAD_H + seat * STANDING_H
        return (MARGIN, y, self.right(), y + STANDING_H)

    def standing_cell(self, seat: int, index: int) -> Box:
        """A cell of ``seat``'s standings line: 0 place, 1 name, 2-8 sums, 9 game total."""
        _, y0, _, y1 = self.standing_line(seat)
        x0, x1 = self.field(index)
        if index == 9:
            x1 = self.field(10)[1]
        return (x0, y0, x1, y1)

    # --- the rounds
    def header_cell(self, index: int) -> Box:
        """A header cell of the rounds (``index`` as in :meth:`field`)."""
        x0, x1 = self.field(index)
        return (x0, self.grid_top, x1, self.grid_top + HEAD_H)

    def color_header(self, column: int) -> Box:
        """The coloured header of column ``column`` (0 yellow ... 6 pink) above the rounds."""
        return self.header_cell(2 + column)

    def block(self, rnd: int) -> Box:
        """The whole block of round ``rnd`` (1 .. :attr:`rounds`)."""
        y = self.grid_top + HEAD_H + (rnd - 1) * (self.block_h + BLOCK_GAP)
        return (MARGIN, y, self.right(), y + self.block_h)

    def line(self, rnd: int, seat: int) -> Box:
        x0, y0, x1, _ = self.block(rnd)
        y = y0 + seat * LINE_H
        return (x0, y, x1, y + LINE_H)

    def cell(self, rnd: int, seat: int, index: int) -> Box:
        """One cell of a round line (``index`` as in :meth:`field`, from 1)."""
        _, y0, _, y1 = self.line(rnd, seat)
        x0, x1 = self.field(index)
        return (x0, y0, x1, y1)

    def round_label(self, rnd: int) -> Box:
        """The round number's cell, beside the whole block."""
        x0, y0, _, y1 = self.block(rnd)
        return (x0, y0, x0 + ROUND_W, y1)
