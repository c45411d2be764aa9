"""Posing Pandas' achievements (its registry entry's ``achievements``; docs/achievements.md),
each read from a finished game's ``fill`` events.
"""

from __future__ import annotations

from typing import Final

from bot.rules.api import N_, Achievement, FinishedGame
from bot.rules.posing.state import KIND

PERFECT_POSE: Final = "posing_perfect_pose"
FULL_CARD: Final = "posing_full_card"


def _perfect_pose(g: FinishedGame, p: str) -> bool:
    return any(e.get("box") == "set_of_5" and int(e["points"]) > 0 for e in g.lines(p, "fill"))


def _full_card(g: FinishedGame, p: str) -> bool:
    fills = g.lines(p, "fill")
    return bool(fills) and all(int(e["points"]) > 0 for e in fills)


ACHIEVEMENTS: Final[tuple[Achievement, ...]] = (
    Achievement(PERFECT_POSE, N_("Perfect pose"),
                N_("Fill Set of 5 in Posing Pandas: all five dice alike."), KIND, _perfect_pose),
    Achievement(FULL_CARD, N_("No blanks"),
                N_("Finish a game of Posing Pandas without a 0 on your card."), KIND,
                _full_card),
)
"""Posing Pandas' achievements, in the order they are listed to players."""
