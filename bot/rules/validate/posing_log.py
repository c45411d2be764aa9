"""How the validator checks a Posing Pandas log: :data:`POSING_LOG`, the ``log_checks`` of the
registry's Posing entry.

The shape of each event and the decisions read back for the replay (``roll`` 2 and 3, and
``fill``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from bot.rules.posing.actions import Fill, PosingAction, Roll
from bot.rules.validate.checks import LogChecks, Obj
from bot.rules.validate.shape import GAME_END, INT, PLAYER, PLAYERS, STR, Schema, list_of

SCHEMA: Final[Schema] = {
    "setup": (("seed", INT, True), ("players", PLAYERS, True)),
    "roll": (("player", PLAYER, True), ("turn", INT, True), ("roll", INT, True),
             ("held", list_of(INT), True), ("faces", list_of(INT), True)),
    "fill": (("player", PLAYER, True), ("turn", INT, True), ("box", STR, True),
             ("faces", list_of(INT), True), ("points", INT, True)),
    "game_end": GAME_END,
}


def decision(obj: Obj, players: Sequence[str]) -> PosingAction | None:
    """The decision a logged event records (the first roll of a turn is not one), or None."""
    name = obj.get("event")
    who: Any = obj.get("player")
    seat = players.index(who) if who in players else -1
    if name == "roll":
        n = obj.get("roll")
        if type(n) is int and n == 1:
            return None
        held = obj.get("held")
        return Roll(seat, tuple(held) if isinstance(held, list) else ())
    if name == "fill":
        return Fill(seat, str(obj.get("box")))
    return None


POSING_LOG: Final = LogChecks(schema=SCHEMA, decision=decision)
