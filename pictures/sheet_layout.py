"""Where everything sits on the Panda Royale score sheet: pure geometry, no drawing.

The sheet has a title bar, then the ten rounds as blocks in two columns (rounds 1-5 left,
6-10 right), each block one line per player: round number, name, the seven coloured columns,
the round total and the running total. Below: one line per player with the column sums and the
game total on the left and the player's dice of the current round on the right, then a legend.
Tests read the same rectangles to sample pixels.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pictures.drawing import Box

COLUMNS: Final = ("yellow", "purple", "blue", "red", "green", "clear", "pink")
ROUNDS: Final = 10
BLOCKS_PER_COLUMN: Final = 5

MARGIN: Final = 14
TITLE_H: Final = 44
HEAD_H: Final = 24
LINE_H: Final = 18
BLOCK_GAP: Final = 4
SECTION_GAP: Final = 16
COLUMN_GAP: Final = 18

ROUND_W: Final = 30
NAME_W: Final = 110
COL_W: Final = 40
ROUND_TOTAL_W: Final = 50
RUNNING_W: Final = 54
BLOCK_W: Final = ROUND_W + NAME_W + len(COLUMNS) * COL_W + ROUND_TOTAL_W + RUNNING_W

DIE: Final = 26
DIE_STEP: Final = 36
DICE_LINE_H: Final = 40
LEGEND_H: Final = 34
TOKEN: Final = 20

WIDTH: Final = 2 * MARGIN + 2 * BLOCK_W + COLUMN_GAP


@dataclass(frozen=True, slots=True)
class SheetLayout:
    """The geometry of a sheet for ``players`` players."""

    players: int

    # --- sizes
    @property
    def block_h(self) -> int:
        """Height of one round's block (one line per player)."""
        return self.players * LINE_H

    @property
    def grid_top(self) -> int:
        return MARGIN + TITLE_H

    @property
    def grid_bottom(self) -> int:
        return (self.grid_top + HEAD_H + BLOCKS_PER_COLUMN * self.block_h
                + (BLOCKS_PER_COLUMN - 1) * BLOCK_GAP)

    @property
    def totals_top(self) -> int:
        """Top of the totals section's header row."""
        return self.grid_bottom + SECTION_GAP

    @property
    def legend_top(self) -> int:
        return self.totals_top + HEAD_H + self.players * DICE_LINE_H

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the picture."""
        return WIDTH, self.legend_top + LEGEND_H + MARGIN

    # --- x positions inside a block column
    @staticmethod
    def column_left(block_column: int) -> int:
        """Left edge of block column 0 (rounds 1-5) or 1 (rounds 6-10)."""
        return MARGIN + block_column * (BLOCK_W + COLUMN_GAP)

    @staticmethod
    def field(block_column: int, index: int) -> tuple[int, int]:
        """Left and right of field ``index``: 0 round, 1 name, 2-8 colours, 9 round, 10 total."""
        widths = (ROUND_W, NAME_W, *([COL_W] * len(COLUMNS)), ROUND_TOTAL_W, RUNNING_W)
        x = SheetLayout.column_left(block_column) + sum(widths[:index])
        return x, x + widths[index]

    # --- the round grid
    def header_row(self, block_column: int) -> tuple[int, int]:
        """Top and bottom of the header row above a block column."""
        return self.grid_top, self.grid_top + HEAD_H

    def header_cell(self, block_column: int, index: int) -> Box:
        """A header cell of the round grid (``index`` as in :meth:`field`)."""
        x0, x1 = self.field(block_column, index)
        return (x0, self.grid_top, x1, self.grid_top + HEAD_H)

    def color_header(self, block_column: int, column: int) -> Box:
        """The coloured header of column ``column`` (0 yellow ... 6 pink)."""
        return self.header_cell(block_column, 2 + column)

    def block(self, rnd: int) -> Box:
        """The whole block of round ``rnd`` (1..10)."""
        c, k = divmod(rnd - 1, BLOCKS_PER_COLUMN)
        y = self.grid_top + HEAD_H + k * (self.block_h + BLOCK_GAP)
        x = self.column_left(c)
        return (x, y, x + BLOCK_W, y + self.block_h)

    def line(self, rnd: int, seat: int) -> Box:
        """The line of ``seat`` in round ``rnd``'s block."""
        x0, y0, x1, _ = self.block(rnd)
        y = y0 + seat * LINE_H
        return (x0, y, x1, y + LINE_H)

    def cell(self, rnd: int, seat: int, index: int) -> Box:
        """One cell of a round line (``index`` as in :meth:`field`, from 1)."""
        _, y0, _, y1 = self.line(rnd, seat)
        x0, x1 = self.field((rnd - 1) // BLOCKS_PER_COLUMN, index)
        return (x0, y0, x1, y1)

    # --- totals and dice
    def totals_header(self, index: int) -> Box:
        """A header cell of the totals section (left half, fields as in :meth:`field`)."""
        x0, x1 = self.field(0, index)
        return (x0, self.totals_top, x1, self.totals_top + HEAD_H)

    def totals_line(self, seat: int) -> Box:
        """The full-width line of ``seat`` in the totals section (totals and dice)."""
        y = self.totals_top + HEAD_H + seat * DICE_LINE_H
        return (MARGIN, y, WIDTH - MARGIN, y + DICE_LINE_H)

    def total_cell(self, seat: int, index: int) -> Box:
        """A cell of the totals line: 0 place, 1 name, 2-8 column sums, 9 the game total."""
        _, y0, _, y1 = self.totals_line(seat)
        x0, x1 = self.field(0, index)
        if index == 9:
            x1 = self.field(0, 10)[1]
        return (x0, y0, x1, y1)

    def dice_header(self) -> Box:
        """The header above the dice (right half)."""
        x0 = self.column_left(1)
        return (x0, self.totals_top, x0 + BLOCK_W, self.totals_top + HEAD_H)

    def token_box(self, seat: int) -> Box:
        """Where the panda token sits on ``seat``'s dice line."""
        _, y0, _, _ = self.totals_line(seat)
        x = self.column_left(1) + 8
        y = y0 + (DICE_LINE_H - TOKEN) // 2
        return (x, y, x + TOKEN, y + TOKEN)

    def die_box(self, seat: int, index: int, count: int = 0) -> Box:
        """The body of ``seat``'s ``index``-th die of ``count`` (a square of DIE pixels).

        Dice sit DIE_STEP apart, closer when more than :attr:`max_dice` must fit.
        """
        _, y0, _, _ = self.totals_line(seat)
        step = DIE_STEP
        if count > self.max_dice:
            step = (BLOCK_W - (8 + TOKEN + 14) - DIE) // (count - 1)
        x = self.column_left(1) + 8 + TOKEN + 14 + index * step
        y = y0 + (DICE_LINE_H - DIE) // 2
        return (x, y, x + DIE, y + DIE)

    @property
    def max_dice(self) -> int:
        """How many dice fit on one line."""
        room = BLOCK_W - (8 + TOKEN + 14) - (DIE_STEP - DIE)
        return room // DIE_STEP

    def legend(self) -> Box:
        """The legend line at the bottom."""
        return (MARGIN, self.legend_top, WIDTH - MARGIN, self.legend_top + LEGEND_H)
