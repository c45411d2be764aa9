"""Posing Pandas, the side game of five pose dice and an eleven-box score card, as a pure engine."""

from bot.rules.posing.actions import Fill, PosingAction, Roll, action_from_json
from bot.rules.posing.engine import (
    ENGINE,
    PosingEngine,
    apply,
    apply_in_place,
    box_points,
    current_seat,
    legal_actions,
    new_game,
)
from bot.rules.posing.state import FORMAT_VERSION, PosingState, state_from_json

__all__ = [
    "ENGINE",
    "FORMAT_VERSION",
    "Fill",
    "PosingAction",
    "PosingEngine",
    "PosingState",
    "Roll",
    "action_from_json",
    "apply",
    "apply_in_place",
    "box_points",
    "current_seat",
    "legal_actions",
    "new_game",
    "state_from_json",
]
