"""Difficulty levels of the computer players, the same three for every game.

``easy`` is the random player, ``normal`` the heuristic one and ``hard`` the strongest each game
has (each kind's ``levels``: :class:`bot.rules.registry.GameKind`).
"""

from __future__ import annotations

from typing import Final

EASY: Final = "easy"
NORMAL: Final = "normal"
HARD: Final = "hard"
LEVELS: Final = (EASY, NORMAL, HARD)
"""The level names, easiest first."""
