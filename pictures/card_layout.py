"""Where everything sits on the Posing Pandas score card: pure geometry, no drawing.

A title bar, a header row with one column per player, the eleven boxes as rows (the six poses,
a small gap, then the five combinations) and the total row. Tests read the same rectangles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pictures.drawing import Box

BOXES: Final = 11
POSES: Final = 6

MARGIN: Final = 14
TITLE_H: Final = 44
HEAD_H: Final = 34
ROW_H: Final = 28
GROUP_GAP: Final = 6
"""Between the pose rows and the combination rows."""
TOTAL_H: Final = 36
LABEL_W: Final = 220
PLAYER_W: Final = 92
MIN_WIDTH: Final = 460
ICON: Final = 18


@dataclass(frozen=True, slots=True)
class CardLayout:
    """The geometry of a card for ``players`` players."""

    players: int

    @property
    def column_w(self) -> int:
        """Width of one player's column (wider when few players)."""
        return max(PLAYER_W, (MIN_WIDTH - 2 * MARGIN - LABEL_W) // self.players)

    @property
    def top(self) -> int:
        """Top of the header row."""
        return MARGIN + TITLE_H

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the picture."""
        width = 2 * MARGIN + LABEL_W + self.players * self.column_w
        return width, self.total_row()[3] + MARGIN

    def column(self, seat: int) -> tuple[int, int]:
        """Left and right of ``seat``'s column."""
        x = MARGIN + LABEL_W + seat * self.column_w
        return x, x + self.column_w

    def row(self, index: int) -> tuple[int, int]:
        """Top and bottom of box row ``index`` (0..10, score-card order)."""
        y = self.top + HEAD_H + index * ROW_H + (GROUP_GAP if index >= POSES else 0)
        return y, y + ROW_H

    def label_cell(self, index: int) -> Box:
        """The name cell of box row ``index``."""
        y0, y1 = self.row(index)
        return (MARGIN, y0, MARGIN + LABEL_W, y1)

    def cell(self, index: int, seat: int) -> Box:
        """The points of ``seat`` in box row ``index``."""
        y0, y1 = self.row(index)
        x0, x1 = self.column(seat)
        return (x0, y0, x1, y1)

    def header_cell(self, seat: int) -> Box:
        """The name of ``seat`` above their column."""
        x0, x1 = self.column(seat)
        return (x0, self.top, x1, self.top + HEAD_H)

    def corner(self) -> Box:
        """The header cell above the box names."""
        return (MARGIN, self.top, MARGIN + LABEL_W, self.top + HEAD_H)

    def total_row(self) -> Box:
        """The whole total row."""
        y = self.row(BOXES - 1)[1]
        return (MARGIN, y, MARGIN + LABEL_W + self.players * self.column_w, y + TOTAL_H)

    def total_cell(self, seat: int) -> Box:
        """``seat``'s total."""
        _, y0, _, y1 = self.total_row()
        x0, x1 = self.column(seat)
        return (x0, y0, x1, y1)
