"""The decisions a Posing Pandas player makes: roll again (holding some dice) or fill a box."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.rules.errors import StateFormatError


@dataclass(frozen=True, slots=True)
class Roll:
    """Keep the dice at indexes ``hold`` (0 .. 4) and re-roll the others."""

    seat: int
    hold: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"type": "roll", "seat": self.seat, "hold": list(self.hold)}


@dataclass(frozen=True, slots=True)
class Fill:
    """Score the dice in the empty box ``box`` (a box id such as ``"set_of_3"``)."""

    seat: int
    box: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "fill", "seat": self.seat, "box": self.box}


PosingAction = Roll | Fill


def _bad(what: str) -> StateFormatError:
    return StateFormatError(f"This Posing Pandas action cannot be read: {what}.")


def action_from_json(data: Mapping[str, Any]) -> PosingAction:
    """Read an action written by ``to_json``: its shape only (legality is the engine's)."""
    if not isinstance(data, Mapping):
        raise _bad("not an object")
    seat = data.get("seat")
    if type(seat) is not int:
        raise _bad("seat must be an integer")
    kind = data.get("type")
    if kind == "roll":
        hold = data.get("hold")
        if not isinstance(hold, list) or not all(type(i) is int for i in hold):
            raise _bad("hold must be a list of die indexes")
        return Roll(seat=seat, hold=tuple(hold))
    if kind == "fill":
        box = data.get("box")
        if not isinstance(box, str):
            raise _bad("box must be a string")
        return Fill(seat=seat, box=box)
    raise _bad(f"unknown type {kind!r}")
