"""Panda Royale, base game and the Mayhem expansion's options, as a pure engine."""

from bot.rules.royale.actions import Cannon, Mischief, Pass, Pick, RoyaleAction, Trade
from bot.rules.royale.engine import (
    ENGINE,
    RoyaleEngine,
    apply,
    apply_in_place,
    current_seat,
    legal_actions,
    new_game,
)
from bot.rules.royale.state import Phase, RoyaleState

__all__ = [
    "ENGINE",
    "Cannon",
    "Mischief",
    "Pass",
    "Phase",
    "Pick",
    "RoyaleAction",
    "RoyaleEngine",
    "RoyaleState",
    "Trade",
    "apply",
    "apply_in_place",
    "current_seat",
    "legal_actions",
    "new_game",
]
