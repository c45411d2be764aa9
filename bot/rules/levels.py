"""Difficulty levels of the computer players, the same three for every game.

``easy`` is the random player, ``normal`` the heuristic one and ``hard`` the strongest each game
has: the look-ahead ``expert`` in Panda Royale, the exact ``optimal`` player in Posing Pandas.
Every game's ``make_player`` takes a level name or an engine player name.
"""

from __future__ import annotations

from typing import Final

EASY: Final = "easy"
NORMAL: Final = "normal"
HARD: Final = "hard"
LEVELS: Final = (EASY, NORMAL, HARD)
"""The level names, easiest first."""

PLAYERS_BY_LEVEL: Final[dict[str, dict[str, str]]] = {
    "royale": {EASY: "random", NORMAL: "heuristic", HARD: "expert"},
    "posing": {EASY: "random", NORMAL: "heuristic", HARD: "optimal"},
}
"""Game kind -> level -> the engine's player name."""


def player_for(kind: str, name: str) -> str:
    """The engine player name of ``name`` in game ``kind``: a level is translated, any other
    name is returned as it is (the game's ``make_player`` checks it).
    """
    try:
        by_level = PLAYERS_BY_LEVEL[kind]
    except KeyError:
        raise ValueError(f"unknown game {kind!r}") from None
    return by_level.get(name.strip().lower(), name)


def player_names(kind: str) -> tuple[str, ...]:
    """Every name ``make_player`` of game ``kind`` accepts: the levels, then the engine names."""
    return (*LEVELS, *PLAYERS_BY_LEVEL[kind].values())
