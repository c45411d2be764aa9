"""Every colour the pictures use, in one place (RGB tuples)."""

from __future__ import annotations

from typing import Final

RGB = tuple[int, int, int]

# The seven columns of the Panda Royale score sheet, and the dice of the same colours.
COLUMN_COLORS: Final[dict[str, RGB]] = {
    "yellow": (245, 197, 24),
    "purple": (128, 72, 178),
    "blue": (36, 112, 210),
    "red": (212, 44, 48),
    "green": (40, 152, 72),
    "clear": (214, 224, 232),
    "pink": (238, 110, 168),
}

PAPER: Final[RGB] = (250, 248, 242)
"""The background, like the paper score sheet."""
INK: Final[RGB] = (38, 38, 46)
MUTED: Final[RGB] = (128, 128, 140)
GRID: Final[RGB] = (196, 192, 182)
RULE: Final[RGB] = (92, 90, 100)
"""Heavy lines: around blocks and sections."""
HEADER: Final[RGB] = (62, 62, 76)
"""Background of the plain (not coloured) header cells."""
HEADER_INK: Final[RGB] = (250, 250, 250)
STRIPE: Final[RGB] = (240, 237, 228)
"""Every other player line."""
NEGATIVE: Final[RGB] = (196, 24, 32)
"""Numbers below zero."""
CURRENT: Final[RGB] = (40, 120, 240)
"""The frame around the round being played."""
CURRENT_TINT: Final[RGB] = (226, 238, 255)
WINNER: Final[RGB] = (255, 214, 88)
"""The winner highlight; used for nothing else."""
WINNER_EDGE: Final[RGB] = (196, 140, 0)
WHITE: Final[RGB] = (255, 255, 255)
BLACK: Final[RGB] = (20, 20, 24)

SPARKLE: Final[RGB] = (255, 246, 168)
"""The sparkles and gold rim of glitter dice (blue glitter, Cannon, Mercenary)."""
GLITTER_RIM: Final[RGB] = (226, 178, 32)
HORNS: Final[RGB] = (196, 30, 84)
"""The horns of a Mischief die."""
BURST: Final[RGB] = (250, 132, 24)
"""The flash behind a Cannon die."""
HEART: Final[RGB] = (255, 255, 255)
"""The heart on a pity die."""
SWORD: Final[RGB] = (60, 60, 72)
"""The outline of the sword behind a Mercenary die."""
BLADE: Final[RGB] = (214, 220, 230)
HILT: Final[RGB] = (150, 96, 40)


def number_ink(value: int) -> RGB:
    """The ink of a score: :data:`NEGATIVE` below zero, else :data:`INK`."""
    return NEGATIVE if value < 0 else INK


def tint(color: RGB, amount: float) -> RGB:
    """``color`` mixed with white: ``amount`` 0 keeps it, 1 gives white."""
    r, g, b = color
    return (
        round(r + (255 - r) * amount),
        round(g + (255 - g) * amount),
        round(b + (255 - b) * amount),
    )


def shade(color: RGB, amount: float) -> RGB:
    """``color`` mixed with black: ``amount`` 0 keeps it, 1 gives black."""
    r, g, b = color
    return (round(r * (1 - amount)), round(g * (1 - amount)), round(b * (1 - amount)))


def ink_on(color: RGB) -> RGB:
    """Readable text colour on a background of ``color`` (dark on light, white on dark)."""
    r, g, b = color
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else WHITE


COLUMN_TINTS: Final[dict[str, RGB]] = {
    name: tint(color, 0.84) for name, color in COLUMN_COLORS.items()
}
"""The light background of each column's score cells."""
COLUMN_TINTS["clear"] = (236, 241, 245)

POSE_ROW: Final[RGB] = (236, 245, 230)
"""Posing Pandas: the background of the pose rows (bamboo green)."""
COMBO_ROW: Final[RGB] = (240, 238, 250)
"""Posing Pandas: the background of the combination rows."""
WINNER_TINT: Final[RGB] = (255, 243, 200)
"""The column of a Posing Pandas winner, below the gold header."""

EXACT: Final[tuple[RGB, ...]] = (
    *COLUMN_COLORS.values(), *COLUMN_TINTS.values(), PAPER, INK, MUTED, GRID, RULE, HEADER,
    HEADER_INK, STRIPE, NEGATIVE, CURRENT, CURRENT_TINT, WINNER, WHITE, BLACK, SPARKLE,
    GLITTER_RIM, POSE_ROW, COMBO_ROW, WINNER_TINT,
)
"""Colours the PNG palette always keeps exact (the rest of it serves anti-aliased edges)."""
