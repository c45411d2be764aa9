"""The game engines by kind (``royale``, ``posing``)."""

from __future__ import annotations

from typing import Any

GAME_KINDS = ("royale", "posing")


def engine_for(kind: str) -> Any:
    """The engine object of a game kind (see :class:`bot.rules.api.Engine`)."""
    if kind == "royale":
        from bot.rules.royale.engine import ENGINE as ROYALE

        return ROYALE
    if kind == "posing":
        from bot.rules.posing.engine import ENGINE as POSING

        return POSING
    raise ValueError(f"unknown game {kind!r}: choose from {', '.join(GAME_KINDS)}")
