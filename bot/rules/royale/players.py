"""The computer players of Panda Royale by name or level: :func:`make_player`.

It sits apart from :mod:`bot.rules.royale.ai` because it names the expert too, and the expert
builds on the ai module's players.
"""

from __future__ import annotations

from typing import Final

from bot.rules.levels import EASY, HARD, LEVELS, NORMAL
from bot.rules.royale.ai import HeuristicPlayer, RandomPlayer
from bot.rules.royale.expert import ExpertPlayer

BY_LEVEL: Final = {EASY: "random", NORMAL: "heuristic", HARD: "expert"}
"""Each level's player (the registry entry's ``levels``)."""
PLAYER_NAMES: Final = tuple(BY_LEVEL.values())
"""The engine player names :func:`make_player` accepts (besides the levels of
:mod:`bot.rules.levels`: easy, normal, hard)."""


def make_player(name: str, seed: int) -> RandomPlayer | HeuristicPlayer | ExpertPlayer:
    """A computer player by name: ``random``, ``heuristic`` or ``expert``, or by level:
    ``easy``, ``normal`` or ``hard``.
    """
    engine_name = BY_LEVEL.get(name.strip().lower(), name)
    if engine_name == "random":
        return RandomPlayer(seed)
    if engine_name == "heuristic":
        return HeuristicPlayer(seed)
    if engine_name == "expert":
        return ExpertPlayer(seed)
    raise ValueError(f"unknown computer player {name!r}: use {', '.join(LEVELS)} or "
                     f"{', '.join(PLAYER_NAMES)}")


__all__ = ["BY_LEVEL", "PLAYER_NAMES", "make_player"]
