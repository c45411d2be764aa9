"""Difficulty levels of the computer players, the same three for every game.

``easy`` is the random player, ``normal`` the heuristic one and ``hard`` the strongest each game
has. Each game kind's registry entry says which of its players each level is (``levels``:
:class:`bot.rules.registry.GameKind`), and its ``make_player`` takes a level name or an engine
player name.
"""

from __future__ import annotations

from typing import Final

EASY: Final = "easy"
NORMAL: Final = "normal"
HARD: Final = "hard"
LEVELS: Final = (EASY, NORMAL, HARD)
"""The level names, easiest first."""
