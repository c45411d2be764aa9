"""Where everything sits on the Posing Pandas score card: pure geometry, no drawing.

Made for a phone (:data:`WIDTH` pixels, shown at half size): a title bar, on a turn the five
dice of the player to move (numbered 1 to 5), a header row with one column per player, the
eleven boxes as rows numbered 1 to 11 in card order (the six poses, a small gap, then the five
combinations) and the total row. Tests read the same rectangles.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from pictures.drawing import Box

BOXES: Final = 11
POSES: Final = 6
DICE: Final = 5

WIDTH: Final = 780
"""Twice the width a phone shows the card at."""
MARGIN: Final = 10
TITLE_H: Final = 44
DICE_H: Final = 76
"""The strip of the five dice, on a turn."""
HEAD_H: Final = 44
ROW_H: Final = 34
GROUP_GAP: Final = 6
"""Between the pose rows and the combination rows."""
TOTAL_H: Final = 44
LABEL_W: Final = 262
NUMBER_W: Final = 34
"""The box's number, at the left of its label."""
ICON: Final = 28
DIE: Final = 58
"""The side of a die image in the dice strip."""
DIE_STEP: Final = 88
"""From one die of the strip to the next (its number sits at its left)."""


@dataclass(frozen=True, slots=True)
class CardLayout:
    """The geometry of a card for ``players`` players, with the dice strip or not."""

    players: int
    dice: bool = False

    @property
    def column_w(self) -> int:
        return (WIDTH - 2 * MARGIN - LABEL_W) // self.players

    @property
    def dice_top(self) -> int:
        """Top of the dice strip (its height is 0 without dice)."""
        return MARGIN + TITLE_H

    @property
    def top(self) -> int:
        """Top of the header row."""
        return self.dice_top + (DICE_H if self.dice else 0)

    @property
    def size(self) -> tuple[int, int]:
        """Width and height of the picture."""
        return WIDTH, self.total_row()[3] + MARGIN

    def die_box(self, index: int) -> Box:
        """Where die ``index`` (0..4) of the strip is drawn (its image, a square)."""
        x = WIDTH - MARGIN - (DICE - index) * DIE_STEP + (DIE_STEP - DIE)
        y = self.dice_top + (DICE_H - DIE) // 2
        return (x, y, x + DIE, y + DIE)

    def column(self, seat: int) -> tuple[int, int]:
        """Left and right of ``seat``'s column."""
        x = MARGIN + LABEL_W + seat * self.column_w
        return x, x + self.column_w

    @property
    def right(self) -> int:
        return self.column(self.players - 1)[1]

    def row(self, index: int) -> tuple[int, int]:
        """Top and bottom of box row ``index`` (0..10, score-card order)."""
        y = self.top + HEAD_H + index * ROW_H + (GROUP_GAP if index >= POSES else 0)
        return y, y + ROW_H

    def label_cell(self, index: int) -> Box:
        """The number and name cell of box row ``index``."""
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
        y = self.row(BOXES - 1)[1]
        return (MARGIN, y, self.right, y + TOTAL_H)

    def total_cell(self, seat: int) -> Box:
        _, y0, _, y1 = self.total_row()
        x0, x1 = self.column(seat)
        return (x0, y0, x1, y1)
